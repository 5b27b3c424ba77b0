/**
 * Every merchant its own keys, on litecoind regtest (docs/decisions/083): two merchants each set a
 * descriptor of a seed of their own; each one's orders pay addresses of its own key (derived here
 * from the descriptor, independently of the gateway's derivation code); a collection plan of
 * merchant A is signed by `npm run signer` with A's seed, and A's signer refuses B's plan; a
 * merchant without a key is paid on the gateway's `LITECOIN_XPUB`, as before.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { p2wpkh } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { collectionPlan, prepareCollection, setDepositKey, setTreasury } from '@/lib/payouts';
import type { CollectionPlan } from '@/lib/protocol';
import type { LiveAdapter } from '@/lib/chains/live';
import type { Litecoind } from '../scripts/lib/litecoind.mjs';
import { createOrder, orderRow } from './support/chain';
import { watchLive, withLiveNetwork } from './support/live';
import { litecoindNetwork } from './support/live-networks';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { fileTempDir } from './support/temp-dir';

const run = promisify(execFile);
const REGTEST = { bech32: 'rltc', pubKeyHash: 0x6f, scriptHash: 0x3a, wif: 0xef };
const TEST_CHAIN = { private: 0x04358394, public: 0x043587cf };
const LTC = { currency: 'LTC', network: 'litecoin' };

/** A wallet of its own: its phrase (for its signer only), its descriptor (for the gateway), its addresses. */
function wallet(words: string) {
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(words), TEST_CHAIN);
  const account = root.derive("m/84'/1'/0'");
  const fingerprint = root.fingerprint.toString(16).padStart(8, '0');
  return {
    words,
    fingerprint,
    privateKey: account.privateExtendedKey,
    descriptor: `wpkh([${fingerprint}/84h/1h/0h]${account.publicExtendedKey}/0/*)`,
    /** Deposit address `index` of this wallet, by BIP 84 from its account key, as any wallet derives it. */
    address: (index: number) => p2wpkh(account.deriveChild(0).deriveChild(index).publicKey!, REGTEST).address!,
  };
}

const gatewayWallet = wallet(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
);
// Two BIP 39 test vectors: seeds of the merchants' own, neither the gateway's.
const walletA = wallet('legal winner thank year wave sausage worth useful legal winner thank yellow');
const walletB = wallet('letter advice cage absurd amount doctor acoustic avoid letter advice cage above');

let node: Litecoind;
let db: Database;
let merchantA: TestMerchant;
let adapter: LiveAdapter;
withLiveNetwork(
  litecoindNetwork({ xpub: gatewayWallet.descriptor, confirmations: 1, txindex: false }),
  (live) => ({ node, db, merchant: merchantA, adapter } = live),
);

const dir = fileTempDir('gw-deposit-keys-');

/** `npm run signer` on merchant `who`'s machine: its seed file, its configuration (its treasury). */
async function signer(who: ReturnType<typeof wallet>, plan: CollectionPlan, treasury: string) {
  const seedFile = path.join(dir, `seed-${who.fingerprint}.txt`);
  fs.writeFileSync(seedFile, `${who.words}\n`, { mode: 0o600 });
  const planFile = path.join(dir, `plan-${plan.planId}.json`);
  const configFile = path.join(dir, `signer-${who.fingerprint}.json`);
  const out = path.join(dir, `signed-${plan.planId}-${who.fingerprint}.json`);
  fs.writeFileSync(planFile, JSON.stringify(plan));
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      network: 'litecoin',
      chain: 'regtest',
      treasury,
      maxFee: '0.001',
      node: { url: node.url, user: node.user, password: node.password },
    }),
  );
  const args = [
    'scripts/cli.mjs',
    'signer',
    'sign',
    '--plan',
    planFile,
    '--config',
    configFile,
    '--seed-file',
    seedFile,
  ];
  try {
    const done = await run(process.execPath, [...args, '--out', out, '--yes'], { cwd: path.resolve(__dirname, '..') });
    return { code: 0, stderr: done.stderr, signed: JSON.parse(fs.readFileSync(out, 'utf8')) as { rawTx: string } };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr, signed: null };
  }
}

/** The derivation index and merchant of an order's deposit address, as the gateway stored them. */
async function addressRow(orderId: string): Promise<{ derivation_index: string; merchant_id: string | null }> {
  const [row] = await db.query<{ derivation_index: string; merchant_id: string | null }>(
    'select a.derivation_index::text, a.merchant_id from addresses a join orders o on o.address_id = a.id where o.id = $1',
    [orderId],
  );
  return row!;
}

describe('every merchant its own keys, on litecoind regtest', () => {
  it("each merchant's orders pay its own key; A's signer signs A's plan and refuses B's; no key: the gateway's", async () => {
    const merchantB = await createTestMerchant(db);
    const merchantC = await createTestMerchant(db);
    for (const [merchant, own] of [
      [merchantA, walletA],
      [merchantB, walletB],
    ] as const) {
      const set = await setDepositKey(db, {
        merchantId: merchant.merchantId,
        network: 'litecoin',
        mode: 'live',
        key: own.descriptor,
      });
      expect(set.key.startsWith(`${own.descriptor}#`)).toBe(true);
    }
    // One key, one merchant: B cannot take A's key (their addresses would be one pool's and another's).
    await expect(
      setDepositKey(db, {
        merchantId: merchantB.merchantId,
        network: 'litecoin',
        mode: 'live',
        key: walletA.descriptor,
      }),
    ).rejects.toMatchObject({ kind: 'DepositKeyInvalid' });

    // Orders of each: A and B from index 0 of their own keys, C on the gateway's key.
    const ordersA = [await createOrder(db, merchantA.live, { ...LTC, amount: '0.1' })];
    const ordersB = [await createOrder(db, merchantB.live, { ...LTC, amount: '0.2' })];
    ordersA.push(await createOrder(db, merchantA.live, { ...LTC, amount: '0.3' }));
    ordersB.push(await createOrder(db, merchantB.live, { ...LTC, amount: '0.4' }));
    const orderC = await createOrder(db, merchantC.live, { ...LTC, amount: '0.5' });
    expect(ordersA.map((o) => o.address)).toEqual([walletA.address(0), walletA.address(1)]);
    expect(ordersB.map((o) => o.address)).toEqual([walletB.address(0), walletB.address(1)]);
    const rowC = await addressRow(orderC.id);
    expect(orderC.address).toBe(gatewayWallet.address(Number(rowC.derivation_index)));
    expect((await addressRow(ordersA[0]!.id)).merchant_id).toBe(merchantA.merchantId);

    const amounts = ['0.1', '0.3', '0.2', '0.4', '0.5'];
    for (const [i, order] of [...ordersA, ...ordersB, orderC].entries())
      await node.rpc('sendtoaddress', order.address, amounts[i]);
    await node.mine(1);
    await watchLive(db, adapter);
    for (const order of [...ordersA, ...ordersB, orderC])
      expect((await orderRow(db, order.id)).status).toBe('processed');

    // Each merchant's plan spends its own outputs, under its own master fingerprint and paths.
    const treasuryA = await node.rpc('getnewaddress', '', 'bech32');
    const treasuryB = await node.rpc('getnewaddress', '', 'bech32');
    await setTreasury(db, { merchantId: merchantA.merchantId, network: 'litecoin', mode: 'live', address: treasuryA });
    await setTreasury(db, { merchantId: merchantB.merchantId, network: 'litecoin', mode: 'live', address: treasuryB });
    const prepare = async (merchant: TestMerchant) =>
      (await prepareCollection(db, {
        merchantId: merchant.merchantId,
        mode: 'live',
        network: 'litecoin',
        feeRate: 2n,
      })) as CollectionPlan;
    const planA = await prepare(merchantA);
    const planB = await prepare(merchantB);
    expect(planA.masterFingerprint).toBe(walletA.fingerprint);
    const byPath = (plan: CollectionPlan) => plan.inputs.map((i) => [i.path, i.address]).sort();
    expect(byPath(planA)).toEqual([
      ["m/84'/1'/0'/0/0", walletA.address(0)],
      ["m/84'/1'/0'/0/1", walletA.address(1)],
    ]);
    expect(planB.inputs.map((i) => i.address).sort()).toEqual([walletB.address(0), walletB.address(1)].sort());
    const decoded = await node.rpc('decodepsbt', planA.psbt);
    for (const input of decoded.inputs)
      expect(input.bip32_derivs).toEqual([expect.objectContaining({ master_fingerprint: walletA.fingerprint })]);

    // A's signer, pinned to B's treasury so that only the keys can stop it: it refuses B's plan.
    const refused = await signer(walletA, planB, treasuryB);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `the plan spends the key ${walletB.fingerprint}; this seed is ${walletA.fingerprint}`,
    );
    // A's signer signs A's plan; mined, the watcher confirms it.
    const signed = await signer(walletA, planA, treasuryA);
    expect(signed.code).toBe(0);
    await node.rpc('sendrawtransaction', signed.signed!.rawTx);
    await node.mine(1);
    await watchLive(db, adapter);
    expect((await collectionPlan(db, merchantA.merchantId, 'live', planA.planId))!.status).toBe('confirmed');

    // Neither seed nor private key reached the gateway: it holds the descriptors (public) only.
    const rows = await db.query<{ row: string }>(
      'select row_to_json(k)::text as row from deposit_keys k union all select row_to_json(p)::text from collection_plans p',
    );
    const stored = rows.map((r) => r.row).join('\n');
    for (const own of [walletA, walletB]) {
      expect(stored).not.toContain(own.words.split(' ').slice(0, 3).join(' '));
      expect(stored).not.toContain(own.privateKey.slice(4, 40));
    }
  }, 180_000);
});
