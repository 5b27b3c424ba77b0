import 'server-only';
/**
 * Tron addresses as the node writes them. The address of a key and its checks are client-safe,
 * shared with the signer (./transactions/address.ts).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';

export { isValidTronAddress, tronAddress } from './transactions/address';

const base58check = createBase58check(sha256);

/**
 * The node's hex form of an address ("41" + 20-byte hash, as `/wallet/*` answers without
 * `visible`) as base58 `T...`. A log's emitter and a Transfer topic carry the 20 bytes alone: the
 * version byte is put back.
 */
export function tronAddressFromHex(hex: string): string {
  const raw = hex.length === 40 ? `41${hex}` : hex;
  return base58check.encode(hexToBytes(raw));
}

/** `T...` -> the 20-byte hash in lower-case hex, as a log's `address` names its contract. */
export function tronAddressHash(address: string): string {
  return bytesToHex(base58check.decode(address).subarray(1));
}
