import 'server-only';
import { ECDH } from 'node:crypto';

/**
 * The 65-byte uncompressed form (0x04 || x || y) of a compressed secp256k1 public key, which
 * Ethereum and Tron addresses hash. Decompressing is a modular square root: OpenSSL (through
 * node:crypto) does it in about 60 µs, BigInt arithmetic in about 250 µs, and every derived EVM or
 * Tron address needs one. OpenSSL also refuses a point that is not on the curve.
 */
export function uncompressedPublicKey(publicKey: Uint8Array): Uint8Array {
  if (publicKey.length === 65 && publicKey[0] === 0x04) return publicKey;
  return new Uint8Array(ECDH.convertKey(publicKey, 'secp256k1', undefined, undefined, 'uncompressed') as Buffer);
}
