/**
 * Tron addresses, client-safe: base58check(0x41 || last 20 bytes of keccak256(uncompressed key
 * without 0x04)), i.e. the Ethereum account hash under Tron's version byte, which is why they
 * start with "T". The gateway (../address.ts) and the signer (scripts/signer) share this code.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';

const TRON_VERSION = 0x41;
const base58check = createBase58check(sha256);

/** The 21 bytes (0x41 and the hash) of a public key's account. */
export function tronAccountBytes(publicKey: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return concatBytes(Uint8Array.of(TRON_VERSION), keccak_256(uncompressed.subarray(1)).subarray(-20));
}

export function tronAddress(publicKey: Uint8Array): string {
  return base58check.encode(tronAccountBytes(publicKey));
}

/** `T...` -> its 21 bytes; throws for a string that is not a Tron address. */
export function tronAddressBytes(address: string): Uint8Array {
  const raw = base58check.decode(address);
  if (raw.length !== 21 || raw[0] !== TRON_VERSION) throw new Error(`${address} is not a Tron address`);
  return raw;
}

/** Checksum verified by the base58check decoder; then one version byte and a 20-byte hash. */
export function isValidTronAddress(address: string): boolean {
  try {
    tronAddressBytes(address);
    return true;
  } catch {
    return false;
  }
}

/** 21 bytes -> `T...`. */
export function tronAddressOfBytes(raw: Uint8Array): string {
  return base58check.encode(raw);
}
