/**
 * The native CKDpub must give @scure/bip32's child keys, index for index, and must be the one in
 * use where the package ships a binary (a silently failed load would only show as slowness).
 */
import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { childKeyBackend, childPublicKey } from './child-key';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const PREBUILT = new Set(['linux-x64', 'darwin-arm64', 'win32-x64']);

describe('childPublicKey', () => {
  it('uses libsecp256k1 where the secp256k1 package ships a prebuilt binary', () => {
    expect(childKeyBackend).toBe(PREBUILT.has(`${process.platform}-${process.arch}`) ? 'libsecp256k1' : '@scure/bip32');
  });

  it("gives @scure/bip32's child public keys for random parents and indexes across the range", () => {
    for (let k = 0; k < 8; k++) {
      const parent = HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/0'/0'/0");
      const publicParent = HDKey.fromExtendedKey(parent.publicExtendedKey);
      const indexes = [
        0,
        1,
        2,
        0x7fffffff,
        ...Array.from({ length: 40 }, () => randomBytes(4).readUInt32BE() & 0x7fffffff),
      ];
      for (const index of indexes) {
        expect(hex(childPublicKey(publicParent, index)), `parent ${k}, index ${index}`).toBe(
          hex(parent.deriveChild(index).publicKey!),
        );
      }
    }
  });

  it('gives the BIP32 test vector 2 child m/0 (public derivation from the master)', () => {
    const master = HDKey.fromMasterSeed(
      Buffer.from(
        'fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542',
        'hex',
      ),
    );
    const child = childPublicKey(HDKey.fromExtendedKey(master.publicExtendedKey), 0);
    // xpub of m/0 in BIP32's test vector 2: its key data is this compressed point.
    const published = HDKey.fromExtendedKey(
      'xpub69H7F5d8KSRgmmdJg2KhpAK8SR3DjMwAdkxj3ZuxV27CprR9LgpeyGmXUbC6wb7ERfvrnKZjXoUmmDznezpbZb7ap6r1D3tgFxHmwMkQTPH',
    );
    expect(hex(child)).toBe(hex(published.publicKey!));
  });
});
