import 'server-only';
/**
 * BIP32 public child derivation (CKDpub) on libsecp256k1, Bitcoin Core's audited C library, through
 * the `secp256k1` package's prebuilt Node binding. BIP32's CKDpub is
 *   I = HMAC-SHA512(key = chain code, data = parent public key || ser32(index))
 *   child = point(I[0..32]) + parent, invalid when I[0..32] >= n or the sum is the point at infinity
 * and libsecp256k1's `ec_pubkey_tweak_add` is that point step, with those two checks, exactly (it
 * was written for BIP32). No curve arithmetic happens here.
 *
 * Why not @scure/bip32 alone: its point arithmetic is BigInt JavaScript, ~1-1.5 ms an address on
 * this project's 2-core benchmark machine, which bounded a busy gateway's rate of new orders on
 * derived networks; the native step takes ~60 µs. Where the binding cannot load (no prebuilt
 * binary for the platform: the package ships linux-x64, darwin-arm64 and win32-x64), derivation
 * falls back to @scure/bip32's `deriveChild`, which gives the same keys (tests compare the two).
 */
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import type { HDKey } from '@scure/bip32';

interface Secp256k1Binding {
  publicKeyTweakAdd(publicKey: Uint8Array, tweak: Uint8Array, compressed?: boolean): Uint8Array;
}

/** `secp256k1/bindings` is the native part alone; the package's main entry would fall back to elliptic (JS) silently. */
function loadBinding(): Secp256k1Binding | undefined {
  try {
    return createRequire(import.meta.url)('secp256k1/bindings') as Secp256k1Binding;
  } catch {
    return undefined;
  }
}

const binding = loadBinding();

/** Which implementation derives child keys in this process (tests, and the start-up log). */
export const childKeyBackend: 'libsecp256k1' | '@scure/bip32' = binding ? 'libsecp256k1' : '@scure/bip32';

/**
 * The 33-byte compressed public key of non-hardened child `index` of `parent`. Throws for the
 * (2^-127-likely) invalid child, as @scure/bip32 does; BIP32 says to skip that index.
 */
export function childPublicKey(parent: HDKey, index: number): Uint8Array {
  if (!binding) return parent.deriveChild(index).publicKey as Uint8Array;
  const parentKey = parent.publicKey as Uint8Array;
  const data = Buffer.allocUnsafe(37);
  data.set(parentKey, 0);
  data.writeUInt32BE(index, 33);
  const tweak = createHmac('sha512', parent.chainCode as Uint8Array)
    .update(data)
    .digest()
    .subarray(0, 32);
  try {
    return binding.publicKeyTweakAdd(parentKey, tweak, true);
  } catch {
    throw new Error(`BIP32 child ${index} is invalid (tweak out of range or point at infinity); skip this index`);
  }
}
