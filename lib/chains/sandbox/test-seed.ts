import 'server-only';
/**
 * THE TEST SEED IS PUBLIC. It is the BIP39 seed of the well-known test mnemonic
 * "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
 * with an empty passphrase, printed in countless wallet test suites. Anyone can spend from every
 * address it derives, so it exists for TEST MODE ONLY: it gives sandbox orders real-format,
 * deterministic deposit addresses. Never derive a live-mode address from it.
 *
 * The seed is hard-coded (PBKDF2-HMAC-SHA512 of the mnemonic, salt "mnemonic", 2048 rounds) rather
 * than computed with @scure/bip39: that package is only a transitive dependency of viem here, and the
 * 2048 PBKDF2 rounds would be paid at start-up for a constant. derivation.test.ts re-computes it
 * with node:crypto to prove the hex below is right.
 */
import { hexToBytes } from '@noble/hashes/utils.js';

const TEST_SEED_HEX =
  '5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc1' +
  '9a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4';

/** A fresh copy each call, so no caller can alter the seed the others see. */
export function testSeed(): Uint8Array {
  return hexToBytes(TEST_SEED_HEX);
}
