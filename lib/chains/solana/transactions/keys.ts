/**
 * Solana keys of a BIP 39 seed, as Phantom and Solflare derive them: SLIP-0010 ed25519 at
 * m/44'/501'/`account`'/0' (every index hardened: ed25519 has no public derivation). Client-safe:
 * the gateway derives test mode's public wallets from the public test seed (./address), and
 * `npm run signer` derives the merchant's key on the merchant's machine (docs/decisions/106).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { base58 } from '@scure/base';

const HARDENED = 0x80000000;

/** SLIP-0010 ed25519: the private key at a path of hardened indexes below `seed`. */
function slip10Ed25519(seed: Uint8Array, path: readonly number[]): Uint8Array {
  let node = hmac(sha512, new TextEncoder().encode('ed25519 seed'), seed);
  for (const index of path) {
    const data = new Uint8Array(37);
    data.set(node.subarray(0, 32), 1);
    new DataView(data.buffer).setUint32(33, index, false);
    node = hmac(sha512, node.subarray(32), data);
  }
  return node.subarray(0, 32);
}

/** The 32-byte private key of `seed`'s wallet at m/44'/501'/`account`'/0'. */
export function solanaPrivateKeyOfSeed(seed: Uint8Array, account = 0): Uint8Array {
  return slip10Ed25519(
    seed,
    [44, 501, account, 0].map((i) => i + HARDENED),
  );
}

/** The wallet (base58 public key) of a 32-byte private key. */
export function solanaWalletOfPrivateKey(privateKey: Uint8Array): string {
  return base58.encode(ed25519.getPublicKey(privateKey));
}
