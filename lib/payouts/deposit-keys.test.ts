/**
 * A merchant's own deposit key as the dashboard and the command line take it (docs/decisions/083):
 * a descriptor with its key origin, checked for the network; refused naming the field, and never
 * with the value in the answer.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, randomBytes } from '@noble/hashes/utils.js';
import { base58, base58xrp } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { WIF } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import { networkFor, testTagAccountAddress } from '../chains';
import { descriptorChecksum } from '../chains/utxo/transactions';
import type { Database } from '../db';
import { isDomainErrorOf } from '../errors';
import { checkDepositKey, setDepositKey } from './deposit-keys';

const WORDS = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const root = HDKey.fromMasterSeed(mnemonicToSeedSync(WORDS));
const fingerprint = root.fingerprint.toString(16).padStart(8, '0');
const account = root.derive("m/84'/2'/0'");
const DESCRIPTOR = `wpkh([${fingerprint}/84h/2h/0h]${account.publicExtendedKey}/0/*)`;
const testChainRoot = HDKey.fromMasterSeed(mnemonicToSeedSync(WORDS), { private: 0x04358394, public: 0x043587cf });
// Test mode's litecoin is a mainnet network of the sandbox ledger: it takes mainnet keys only.
const litecoin = (key: string) => checkDepositKey({ network: 'litecoin', mode: 'test', key });

/** The refusal of `key`: its kind, the field it names, and that nothing of the value is in it. */
function refusal(key: string, network = 'litecoin'): { kind: string; message: string } {
  try {
    checkDepositKey({ network, mode: 'test', key });
  } catch (error) {
    const refused = error as Error & { kind: string; details: { path: string }[] };
    expect(refused.details.map((d) => d.path)).toEqual(['key']);
    const secretish = key.match(/[1-9A-HJ-NP-Za-km-z]{50,}/)?.[0] ?? key;
    expect(JSON.stringify({ message: refused.message, details: refused.details })).not.toContain(
      secretish.slice(4, 24),
    );
    return { kind: refused.kind, message: refused.message };
  }
  throw new Error('not refused');
}

describe('checkDepositKey', () => {
  it('takes a descriptor with its origin, with or without its checksum, in canonical form', () => {
    const checked = litecoin(`  ${DESCRIPTOR.replace('/84h/2h/0h', "/84'/2'/0'")} `);
    const canonical = `${DESCRIPTOR}#${descriptorChecksum(DESCRIPTOR)}`;
    expect(checked).toEqual({
      network: 'litecoin',
      key: canonical,
      source: account.deriveChild(0).publicExtendedKey,
    });
    expect(litecoin(canonical).key).toBe(canonical);
  });

  it('refuses a wrong checksum', () => {
    const wrong = `${DESCRIPTOR}#${descriptorChecksum(DESCRIPTOR).replace(/^./, (c) => (c === 'q' ? 'p' : 'q'))}`;
    expect(refusal(wrong)).toEqual({ kind: 'DepositKeyInvalid', message: expect.stringContaining('checksum') });
  });

  it("refuses a key in the extended key's own checksum broken", () => {
    const xpub = account.publicExtendedKey;
    const broken = DESCRIPTOR.replace(xpub, `${xpub.slice(0, -1)}${xpub.endsWith('1') ? '2' : '1'}`);
    expect(refusal(broken).message).toContain('base58check');
  });

  it('refuses another network: a test-chain key on mainnet, a pkh descriptor where addresses are wpkh', () => {
    const tpub = testChainRoot.derive("m/84'/1'/0'").publicExtendedKey;
    expect(refusal(`wpkh([${fingerprint}/84h/1h/0h]${tpub}/0/*)`).message).toContain('test-chain');
    expect(refusal(DESCRIPTOR.replace('wpkh', 'pkh')).message).toContain('litecoin deposit addresses are wpkh');
  });

  it('refuses a descriptor without its key origin, or whose origin does not match the key', () => {
    expect(refusal(`wpkh(${account.publicExtendedKey}/0/*)`).message).toContain('key origin is missing');
    expect(refusal(`wpkh([${fingerprint}/84h/2h]${account.publicExtendedKey}/0/*)`).message).toContain('depth 3');
  });

  it('refuses a private key in any form, naming the field and never repeating it', () => {
    const xprv = account.privateExtendedKey;
    expect(refusal(DESCRIPTOR.replace(account.publicExtendedKey, xprv))).toEqual({
      kind: 'DepositKeyInvalid',
      message: expect.stringContaining('PRIVATE'),
    });
    expect(refusal(xprv).kind).toBe('KeyMaterialRefused');
    expect(refusal(WIF().encode(account.deriveChild(0).deriveChild(0).privateKey!)).kind).toBe('KeyMaterialRefused');
    expect(refusal(WORDS)).toEqual({ kind: 'KeyMaterialRefused', message: expect.stringMatching(/^key holds/) });
  });

  it('refuses a network that takes no own key yet, and one not of the mode', () => {
    expect(() => checkDepositKey({ network: 'tron', mode: 'test', key: DESCRIPTOR })).toThrow(/tron takes no key/);
    const unknown = (() => {
      try {
        checkDepositKey({ network: 'nowhere', mode: 'test', key: DESCRIPTOR });
      } catch (error) {
        return error;
      }
    })();
    expect(isDomainErrorOf(unknown, 'DepositKeyInvalid')).toBe(true);
  });

  describe('a Solana receiving wallet (docs/decisions/096)', () => {
    const secret = ed25519.utils.randomSecretKey();
    const wallet = base58.encode(ed25519.getPublicKey(secret));
    const solana = (key: string) => checkDepositKey({ network: 'solana', mode: 'test', key });

    it('takes a 32-byte public key in base58 as the wallet and the pool source, trimmed', () => {
      expect(solana(` ${wallet} `)).toEqual({ network: 'solana', key: wallet, source: wallet });
    });

    it('refuses what is no 32-byte address, and a descriptor', () => {
      for (const wrong of [wallet.slice(0, -3), `${wallet}0`, base58.encode(new Uint8Array(33).fill(7)), DESCRIPTOR])
        expect(refusal(wrong, 'solana')).toEqual({
          kind: 'DepositKeyInvalid',
          message: expect.stringContaining('32 bytes in base58'),
        });
    });

    it('refuses a secret key and a keypair file as key material, never repeating them', () => {
      const keypair = new Uint8Array([...secret, ...ed25519.getPublicKey(secret)]);
      expect(refusal(base58.encode(keypair), 'solana')).toEqual({
        kind: 'KeyMaterialRefused',
        message: expect.stringContaining('a Solana secret key'),
      });
      expect(refusal(JSON.stringify([...keypair]), 'solana')).toEqual({
        kind: 'KeyMaterialRefused',
        message: expect.stringContaining('a Solana keypair'),
      });
      expect(refusal(WORDS, 'solana').kind).toBe('KeyMaterialRefused');
    });
  });

  describe('an XRP Ledger receiving account (docs/decisions/114)', () => {
    const ACCOUNT = 'rDsbeomae4FXwgQTJp9Rs64Qg9vDiTCdBv';
    const ripple = (key: string) => checkDepositKey({ network: 'ripple', mode: 'test', key });
    /** `payload` in the XRP alphabet with its checksum, as the ledger writes addresses and seeds. */
    const base58check = (...parts: Uint8Array[]) => {
      const payload = concatBytes(...parts);
      return base58xrp.encode(concatBytes(payload, sha256(sha256(payload)).subarray(0, 4)));
    };
    const entropy = randomBytes(16);

    it('takes a classic address with its checksum as the account and the pool source, trimmed', () => {
      expect(ripple(`  ${ACCOUNT}\n`)).toEqual({ network: 'ripple', key: ACCOUNT, source: ACCOUNT });
    });

    it('refuses a broken checksum, a descriptor, and an X-address, saying to give the classic one', () => {
      for (const wrong of [`${ACCOUNT.slice(0, -1)}w`, ACCOUNT.slice(1), DESCRIPTOR])
        expect(refusal(wrong, 'ripple')).toEqual({
          kind: 'DepositKeyInvalid',
          message: expect.stringContaining('classic address: r..., 25 to 35 characters, its checksum holding'),
        });
      // The account above under tag 12345 (a main network X-address), and without a tag on a test network.
      const accountId = base58xrp.decode(ACCOUNT).subarray(1, 21);
      const tag = Uint8Array.of(0x39, 0x30, 0, 0, 0, 0, 0, 0);
      for (const [prefix, flag] of [
        [Uint8Array.of(0x05, 0x44), 1],
        [Uint8Array.of(0x04, 0x93), 0],
      ] as const)
        expect(refusal(base58check(prefix, accountId, Uint8Array.of(flag), tag), 'ripple')).toEqual({
          kind: 'DepositKeyInvalid',
          message: expect.stringContaining('an X-address carries a destination tag of its own'),
        });
    });

    it('refuses a seed of either key type, a private key in hex and secret numbers as key material, unechoed', () => {
      const seeds = [base58check(Uint8Array.of(0x21), entropy), base58check(Uint8Array.of(0x01, 0xe1, 0x4b), entropy)];
      expect(seeds.map((seed) => seed.slice(0, 3))).toEqual([expect.stringMatching(/^s/), 'sEd']);
      const privateKey = bytesToHex(randomBytes(32));
      const secretNumbers = Array.from({ length: 8 }, (_, i) => {
        const value = 10_000 + i * 7_919;
        return `${value}${(value * (i * 2 + 1)) % 9}`;
      }).join(' ');
      const refused = (key: string) => {
        expect(refusal(key, 'ripple').kind).toBe('KeyMaterialRefused');
        expect(JSON.stringify(refusal(key, 'ripple'))).not.toContain(key.trim().slice(3, 15));
        return refusal(key, 'ripple').message;
      };
      for (const seed of seeds) expect(refused(seed)).toContain('an XRP Ledger seed');
      for (const hex of [privateKey, `00${privateKey.toUpperCase()}`, `ED${privateKey}`])
        expect(refused(hex)).toContain('an XRP Ledger private key');
      expect(refused(secretNumbers)).toContain("an XRP Ledger seed's secret numbers");
      expect(refused(WORDS)).toContain('BIP 39');
      // A seed whose checksum fails is no seed; nor are secret numbers whose check digit is wrong.
      expect(refusal(`${seeds[0]!.slice(0, -1)}${seeds[0]!.endsWith('r') ? 'p' : 'r'}`, 'ripple').kind).toBe(
        'DepositKeyInvalid',
      );
      expect(
        refusal(
          secretNumbers.replace(/\d$/, (d) => String((Number(d) + 1) % 10)),
          'ripple',
        ).kind,
      ).toBe('DepositKeyInvalid');
    });

    it("refuses the gateway's own account before the database is asked", async () => {
      const untouched = new Proxy({} as Database, {
        get: () => {
          throw new Error('the database was asked');
        },
      });
      const gateway = testTagAccountAddress(networkFor('test', 'ripple')!);
      await expect(
        setDepositKey(untouched, { merchantId: crypto.randomUUID(), network: 'ripple', mode: 'test', key: gateway }),
      ).rejects.toMatchObject({ kind: 'DepositKeyInvalid', message: expect.stringContaining("the gateway's own key") });
    });
  });
});
