import 'server-only';
/**
 * Tron addresses: base58check(0x41 || last 20 bytes of keccak256(uncompressed key without 0x04)),
 * i.e. the Ethereum account hash under Tron's version byte, which is why they start with "T".
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';
import { uncompressedPublicKey } from '../public-key';

const TRON_VERSION = 0x41;
const base58check = createBase58check(sha256);

export function tronAddress(publicKey: Uint8Array): string {
  const hash = keccak_256(uncompressedPublicKey(publicKey).subarray(1));
  return base58check.encode(concatBytes(Uint8Array.of(TRON_VERSION), hash.subarray(-20)));
}

/** Checksum verified by the base58check decoder; then one version byte and a 20-byte hash. */
export function isValidTronAddress(address: string): boolean {
  try {
    const raw = base58check.decode(address);
    return raw.length === 21 && raw[0] === TRON_VERSION;
  } catch {
    return false;
  }
}

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
