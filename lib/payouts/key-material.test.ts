import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { WIF } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import { keyMaterialIn, refuseKeyMaterial } from './key-material';

const WORDS = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const root = HDKey.fromMasterSeed(mnemonicToSeedSync(WORDS));

describe('key material in a money-out body', () => {
  it('finds extended private keys, WIF keys and BIP 39 phrases', () => {
    expect(keyMaterialIn(root.privateExtendedKey)).toBe('an extended private key');
    const tprv = HDKey.fromMasterSeed(mnemonicToSeedSync(WORDS), { private: 0x04358394, public: 0x043587cf });
    expect(keyMaterialIn(tprv.derive("m/84'/1'/0'").privateExtendedKey)).toBe('an extended private key');
    expect(keyMaterialIn(WIF().encode(root.derive('m/0/1').privateKey!))).toBe('a WIF private key');
    expect(keyMaterialIn(`  ${WORDS.toUpperCase()} `)).toBe('a BIP 39 recovery phrase');
  });
  it('leaves addresses, public keys and ordinary words alone', () => {
    expect(keyMaterialIn(root.publicExtendedKey)).toBeNull();
    expect(keyMaterialIn('ltc1qg9stkxrszkdqsuj92lm4c7akvk36zvhqw7p6ck')).toBeNull();
    expect(keyMaterialIn('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBeNull();
    // twelve words of the list whose checksum does not hold
    expect(keyMaterialIn(WORDS.replace(/yellow$/, 'year'))).toBeNull();
  });
  it('names the field and never the value', () => {
    let message = '';
    try {
      refuseKeyMaterial({ address: 'x', options: { note: WORDS } });
    } catch (error) {
      message = `${(error as Error).message} ${JSON.stringify((error as { details: unknown }).details)}`;
    }
    expect(message).toContain('options.note holds a BIP 39 recovery phrase');
    expect(message).not.toContain('legal');
  });
  it('searches arrays and bodies nested deeper than a stack', () => {
    expect(() => refuseKeyMaterial({ items: ['x', { to: root.privateExtendedKey }] })).toThrow(
      /^items\.1\.to holds an extended private key/,
    );
    const deep = JSON.parse(`${'['.repeat(20_000)}"${WORDS}"${']'.repeat(20_000)}`) as unknown[];
    expect(() => refuseKeyMaterial({ deep })).toThrow(/holds a BIP 39 recovery phrase/);
    expect(() => refuseKeyMaterial({ deep: JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) })).not.toThrow();
  });
});
