import 'server-only';
/**
 * Solana addresses: an ed25519 public key (or a program-derived address, which is 32 bytes off the
 * curve) written in base58, 32 to 44 characters. There is no checksum: a valid address is one that
 * decodes to exactly 32 bytes (@solana/kit `isAddress`).
 *
 * Solana keys are ed25519, whose child keys can only be derived from a private key (SLIP-0010
 * allows hardened derivation alone): the gateway cannot derive deposit addresses from a public key,
 * which is why Solana orders share one receiving wallet and are told apart by a reference
 * (docs/decisions/057). The test mode's wallet is derived here from the public test seed, at
 * m/44'/501'/0'/0' as Phantom and Solflare derive their first account.
 */
import { isAddress } from '@solana/kit';
import { ed25519 } from '@noble/curves/ed25519.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { base58 } from '@scure/base';

export function isValidSolanaAddress(address: string): boolean {
  return typeof address === 'string' && isAddress(address);
}

/** `text` as base58 of exactly `length` bytes (a signature is 64), else null. */
export function base58Bytes(text: string, length: number): Uint8Array | null {
  if (typeof text !== 'string' || text.length > 88) return null;
  try {
    const bytes = base58.decode(text);
    return bytes.length === length ? bytes : null;
  } catch {
    return null;
  }
}

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

/**
 * The wallet of `seed` at m/44'/501'/`account`'/0' (account 0: test mode's receiving wallet, from
 * the public test seed; the sandbox's faucet takes another account).
 */
export function solanaWalletOfSeed(seed: Uint8Array, account = 0): string {
  const path = [44, 501, account, 0].map((i) => i + HARDENED);
  return base58.encode(ed25519.getPublicKey(slip10Ed25519(seed, path)));
}
