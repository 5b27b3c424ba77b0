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
import { base58 } from '@scure/base';
import { solanaPrivateKeyOfSeed, solanaWalletOfPrivateKey } from './transactions';

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

/**
 * The wallet of `seed` at m/44'/501'/`account`'/0' (account 0: test mode's receiving wallet, from
 * the public test seed; the sandbox's faucet takes another account).
 */
export function solanaWalletOfSeed(seed: Uint8Array, account = 0): string {
  return solanaWalletOfPrivateKey(solanaPrivateKeyOfSeed(seed, account));
}
