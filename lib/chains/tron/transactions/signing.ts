/**
 * A Tron transaction's id and signature (developers.tron.network/docs/tron-protocol-transaction):
 * txID = sha256(raw_data bytes); the signature is secp256k1 over the txID itself (no further
 * hashing), 65 bytes r || s || v with v = recovery id + 27, as TronWeb writes it and java-tron
 * reads it; the node recovers the public key and compares its account with the contract's owner.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, hexToBytes } from '@noble/hashes/utils.js';
import { tronAccountBytes } from './address';

export function transactionId(rawData: Uint8Array): string {
  return bytesToHex(sha256(rawData));
}

/** Signs a transaction id (hex) with a 32-byte private key: r || s || v. */
export function signTransactionId(txID: string, privateKey: Uint8Array): Uint8Array {
  const recovered = secp256k1.sign(hexToBytes(txID), privateKey, {
    prehash: false,
    format: 'recovered',
  });
  // noble writes the recovery id first; Tron puts it last, plus 27.
  return concatBytes(recovered.subarray(1), Uint8Array.of(recovered[0]! + 27));
}

/** The 21-byte account that signed `txID`, or null for a signature that recovers no key. */
export function signerOf(txID: string, signature: Uint8Array): Uint8Array | null {
  if (signature.length !== 65) return null;
  const v = signature[64]! >= 27 ? signature[64]! - 27 : signature[64]!;
  if (v > 3) return null;
  try {
    const publicKey = secp256k1.recoverPublicKey(
      concatBytes(Uint8Array.of(v), signature.subarray(0, 64)),
      hexToBytes(txID),
      { prehash: false },
    );
    return tronAccountBytes(publicKey);
  } catch {
    return null;
  }
}
