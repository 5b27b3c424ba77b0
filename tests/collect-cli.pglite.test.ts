/**
 * `npm run collect` on the embedded database, offline: a treasury is set, and a key pasted in its
 * place is refused without being echoed; so is the merchant's own deposit key (`npm run keys --
 * deposit-key`); test mode has nothing to collect yet and
 * says so. (Live collections end to end: tests/collections-litecoind.pg.test.ts.)
 */
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { WIF } from '@scure/btc-signer';
import { beforeAll, describe, expect, it } from 'vitest';
import { addressOfScript, depositScript } from '@/lib/chains/utxo/transactions';
import { CLI_TEST_TIMEOUT, newDataDir, runCli } from './support/cli';
import { childEnv } from './support/test-env';

let env: NodeJS.ProcessEnv;
const cli = (script: 'collect' | 'keys', ...args: string[]) => runCli(env, script, ...args);
const WORDS = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const seed = HDKey.fromMasterSeed(mnemonicToSeedSync(WORDS));
/** The merchant's treasury: an address of a wallet of its own. */
const TREASURY = addressOfScript(
  'litecoin',
  'mainnet',
  depositScript('wpkh', seed.derive("m/84'/2'/0'/0/0").publicKey!, 'litecoin', 'mainnet'),
)!;

describe('npm run collect', () => {
  beforeAll(async () => {
    const dataDir = newDataDir('gw-collect-cli-');
    env = { ...childEnv(), DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO_STORE: 'false', ADDRESS_POOL_SIZE: '16' };
    expect((await cli('keys', 'create', '--name', 'Collect shop', '--mode', 'test', '--json')).code).toBe(0);
  }, CLI_TEST_TIMEOUT);

  it(
    'sets a treasury, refuses key material, and prepares nothing in test mode',
    async () => {
      const set = await cli('collect', 'treasury', 'Collect shop', 'litecoin', TREASURY, '--mode', 'test');
      expect(set.stdout).toContain(`now go to ${TREASURY}`);
      const wif = WIF().encode(seed.derive('m/0').privateKey!);
      for (const [secret, what] of [
        [wif, 'a WIF private key'],
        [WORDS, 'a BIP 39 recovery phrase'],
      ] as const) {
        const refused = await cli('collect', 'treasury', 'Collect shop', 'litecoin', secret, '--mode', 'test');
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain(`address holds ${what}`);
        expect(refused.stdout + refused.stderr).not.toContain(secret.split(' ')[0]!.slice(0, 12));
      }

      // The fee payer (docs/decisions/107): kept by the Funds form's rules; a phrase in its path refused unechoed.
      const payer = ['collect', 'fee-payer', 'Collect shop', 'tron', 'TLrpNTBuCpGMrB9TyVwgEhNVRhtWEQPHh4'] as const;
      const kept = await cli(...payer, "m/44'/195'/1'/0/0", '--mode', 'test');
      expect([kept.code, kept.stdout]).toEqual([
        0,
        expect.stringContaining("paid by TLrpNTBuCpGMrB9TyVwgEhNVRhtWEQPHh4 (m/44'/195'/1'/0/0)"),
      ]);
      const phrase = await cli(...payer, WORDS, '--mode', 'test');
      expect(phrase.code).not.toBe(0);
      expect(phrase.stdout + phrase.stderr).not.toContain('legal winner');

      // The merchant's own deposit key (docs/decisions/083): a descriptor with its origin is taken;
      // the same with its private key is refused naming the field, never echoing it.
      const account = seed.derive("m/84'/2'/0'");
      const descriptor = `wpkh([${seed.fingerprint.toString(16).padStart(8, '0')}/84h/2h/0h]${account.publicExtendedKey}/0/*)`;
      const own = await cli('keys', 'deposit-key', 'Collect shop', 'litecoin', descriptor, '--mode', 'test', '--json');
      expect(own.code).toBe(0);
      expect(JSON.parse(own.stdout)).toMatchObject({ network: 'litecoin', mode: 'test', dropped: 0 });
      const xprv = descriptor.replace(account.publicExtendedKey, account.privateExtendedKey);
      const refusedKey = await cli('keys', 'deposit-key', 'Collect shop', 'litecoin', xprv, '--mode', 'test');
      expect(refusedKey.code).not.toBe(0);
      expect(refusedKey.stderr).toContain('key: not a usable litecoin deposit key: refusing an extended PRIVATE key');
      expect(refusedKey.stdout + refusedKey.stderr).not.toContain(account.privateExtendedKey.slice(4, 30));

      const funds = await cli('collect', 'funds', 'Collect shop', '--mode', 'test', '--json');
      expect(JSON.parse(funds.stdout)).toEqual([]);
      const prepare = await cli('collect', 'prepare', 'Collect shop', 'litecoin', '--mode', 'test', '--fee-rate', '2');
      expect(prepare.code).not.toBe(0);
      // Test-mode plans are built (docs/decisions/097): refused here only because no watcher ran.
      expect(prepare.stderr).toContain('the litecoin watcher has not scanned a block yet');
    },
    CLI_TEST_TIMEOUT,
  );
});
