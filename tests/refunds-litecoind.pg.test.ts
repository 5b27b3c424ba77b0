/**
 * Sending a refund on litecoind regtest (docs/decisions/081), nothing mocked: a paid order, a
 * refund whose payer confirms an address by the claim, a refund plan the gateway prepares,
 * `npm run signer` signing it with the public test seed after checking the payment and its ledger,
 * the node mining it, the watcher moving the refund to confirmed with its event, the order's
 * status unchanged. Then a gateway playing attacker: the same refund signed twice, a plan whose
 * destination or amount was changed, a refund above the signer's daily cap. Last, refunds sent by
 * hand from the node's wallet, completed by their transaction ids (docs/decisions/092): one from
 * the mempool confirmed by the watcher's re-check, one already mined found by the block search on a
 * node without -txindex.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import type { LiveAdapter } from '@/lib/chains/live';
import { collectionPlan, setTreasury } from '@/lib/payouts';
import { createKey } from '@/lib/merchants';
import { refundPlanSchema, type MoneyOutPlan, type RefundPlan } from '@/lib/protocol';
import {
  cancelRefund,
  completeRefundByTransaction,
  confirmClaim,
  getRefund,
  makeRefund,
  planRefund,
  reopenRefund,
} from '@/lib/refunds';
import type { Litecoind } from '../scripts/lib/litecoind.mjs';
import { callInProcess, useDatabaseForApi } from './support/api-in-process';
import { createOrder, orderRow } from './support/chain';
import { expectDocumented } from './support/contract';
import { watchLive, withLiveNetwork } from './support/live';
import { litecoindNetwork } from './support/live-networks';
import type { TestMerchant } from './support/merchants';
import { fileTempDir } from './support/temp-dir';

process.env.APP_SECRET ??= 'test-app-secret-that-is-at-least-32-characters';
const run = promisify(execFile);
const WORDS = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const root = HDKey.fromMasterSeed(mnemonicToSeedSync(WORDS), { private: 0x04358394, public: 0x043587cf });
const account = root.derive("m/84'/1'/0'");
const DESCRIPTOR = `wpkh([73c5da0a/84h/1h/0h]${account.publicExtendedKey}/0/*)`;

let node: Litecoind;
let db: Database;
let merchant: TestMerchant;
let adapter: LiveAdapter;
withLiveNetwork(
  litecoindNetwork({ xpub: DESCRIPTOR, confirmations: 1, txindex: false }),
  (live) => ({ node, db, merchant, adapter } = live),
);

const dir = fileTempDir('gw-refund-signer-');
const seedFile = path.join(dir, 'seed.txt');
fs.writeFileSync(seedFile, `${WORDS}\n`, { mode: 0o600 });
const ledgerFile = path.join(dir, 'signer-ledger.json');

/** `npm run signer` as the merchant runs it, with its ledger beside its configuration. */
async function signer(plan: MoneyOutPlan, config: Record<string, unknown>, name = plan.planId) {
  const planFile = path.join(dir, `plan-${name}.json`);
  const configFile = path.join(dir, 'signer.json');
  const out = path.join(dir, `signed-${name}.json`);
  fs.writeFileSync(planFile, JSON.stringify(plan));
  fs.writeFileSync(configFile, JSON.stringify(config));
  const args = ['scripts/cli.mjs', 'signer', 'sign', '--plan', planFile, '--config', configFile];
  args.push('--seed-file', seedFile, '--out', out, '--yes');
  try {
    await run(process.execPath, args, { cwd: path.resolve(__dirname, '..') }).then((r) => (result = { code: 0, ...r }));
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    result = { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
  expect(result.stderr).not.toContain('abandon');
  return {
    ...result,
    signed: result.code === 0 ? (JSON.parse(fs.readFileSync(out, 'utf8')) as { txid: string; rawTx: string }) : null,
  };
}
let result: { code: number; stdout: string; stderr: string };

let treasury: string;
const signerConfig = (overrides: Record<string, unknown> = {}) => ({
  network: 'litecoin',
  chain: 'regtest',
  treasury,
  maxFee: '0.001',
  node: { url: node.url, user: node.user, password: node.password },
  refundDailyCap: '1',
  ...overrides,
});
const scope = () => ({ merchantId: merchant.merchantId, mode: 'live' as const });
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** A refund of `orderId` whose payer confirmed `address` (a new address of the node's wallet). */
async function claimedRefund(orderId: string, amount: bigint) {
  const made = await makeRefund(db, scope(), {
    target: { kind: 'order', id: orderId },
    amount,
    createdBy: 'user:test',
    now: new Date(),
  });
  const address = (await node.rpc('getnewaddress', '', 'bech32')) as string;
  await confirmClaim(db, tokenOf(made.claimUrl), { address, tag: '' }, new Date());
  return { refund: made.refund, address };
}

async function eventTypes(refundId: string): Promise<string[]> {
  const rows = await db.query<{ type: string }>('select type from events where object_id = $1 order by position', [
    refundId,
  ]);
  return rows.map((r) => r.type);
}

describe('a refund sent with the merchant key on litecoind regtest', () => {
  let orderId: string;

  it('is planned from the paid order, signed by the signer, mined, and confirmed by the watcher; the order never moves', async () => {
    treasury = await node.rpc('getnewaddress', '', 'bech32');
    await setTreasury(db, { merchantId: merchant.merchantId, network: 'litecoin', mode: 'live', address: treasury });
    const order = await createOrder(db, merchant.live, { currency: 'LTC', network: 'litecoin', amount: '0.5' });
    orderId = order.id;
    await node.rpc('sendtoaddress', order.address, '0.5');
    await node.mine(1);
    await watchLive(db, adapter);
    expect((await orderRow(db, order.id)).status).toBe('processed');

    const { refund, address } = await claimedRefund(order.id, 20_000_000n);
    // Prepared through the signed API by a key of the signing-plans scope.
    const planner = await createKey(db, merchant.merchantId, 'live', {
      name: 'Signer',
      scopes: ['read-only', 'signing-plans'],
    });
    useDatabaseForApi(db);
    const prepared = await callInProcess('refund-plans/prepare', { refundId: refund.id, feeRate: '2' }, planner);
    expectDocumented('refund-plans/prepare', { ...prepared, headers: new Headers() });
    const plan = refundPlanSchema.parse(prepared.body.response);
    expect(plan).toMatchObject({ kind: 'refund', status: 'prepared' });
    const newest = await callInProcess('refund-plans/get', { refundId: refund.id }, planner);
    expect(newest.body.response).toEqual(plan);
    expect(plan.refund).toMatchObject({ refundId: refund.id, amount: '0.2', pays: '0.2', destination: address });
    // The order's own output is spent: it proves the payment to the signer without a node.
    expect(plan.inputs.map((i) => i.address)).toEqual([order.address]);
    const decoded = await node.rpc('decodepsbt', plan.psbt);
    // Litecoin Core answers `addresses` (a list), Bitcoin Core `address`.
    const paid = decoded.tx.vout.map(
      (o: { value: number; scriptPubKey: { address?: string; addresses?: string[] } }) => [
        o.scriptPubKey.address ?? o.scriptPubKey.addresses?.[0],
        o.value,
      ],
    );
    expect(paid).toContainEqual([address, 0.2]);
    expect(paid.map((p: [string]) => p[0])).toContain(treasury);
    // One open plan per refund.
    await expect(planRefund(db, scope(), refund.id, { feeFromRefund: false, feeRate: 2n })).rejects.toThrow(
      /an open plan pays this refund already/i,
    );

    const signed = await signer(plan, signerConfig());
    expect(signed.stderr).toContain(`REFUND ${refund.id} of order ${order.id}`);
    expect(signed.stderr).toContain(`pays 0.2 LTC to ${address}, the address the payer confirmed`);
    expect(signed.stderr).toContain('(the REFUND to the payer)');
    expect(signed.code).toBe(0);
    expect(signed.signed!.txid).toBe(plan.txid);
    const ledger = JSON.parse(fs.readFileSync(ledgerFile, 'utf8'));
    expect(ledger.refunds).toEqual([
      expect.objectContaining({ refundId: refund.id, destination: address, amount: '20000000' }),
    ]);

    await node.rpc('sendrawtransaction', signed.signed!.rawTx);
    await node.mine(1);
    await watchLive(db, adapter);
    expect(await getRefund(db, scope(), refund.id)).toMatchObject({ state: 'confirmed', txId: plan.txid });
    expect(await eventTypes(refund.id)).toEqual(['refund.created', 'refund.ready', 'refund.confirmed']);
    expect((await collectionPlan(db, merchant.merchantId, 'live', plan.planId))!.status).toBe('confirmed');
    expect(await node.rpc('getreceivedbyaddress', address, 1)).toBeCloseTo(0.2, 8);
    expect((await orderRow(db, order.id)).status).toBe('processed');

    // The same refund again: the signer's ledger refuses it, whatever the gateway says.
    const again = await signer(plan, signerConfig(), 'again');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`refund ${refund.id} was signed on`);
  }, 120_000);

  it('refuses a plan whose destination or amount the gateway changed, and a refund above the daily cap', async () => {
    // The first order's output paid the first refund: another order's deposit pays this one.
    const other = await createOrder(db, merchant.live, { currency: 'LTC', network: 'litecoin', amount: '1' });
    await node.rpc('sendtoaddress', other.address, '1');
    await node.mine(1);
    await watchLive(db, adapter);
    const { refund, address } = await claimedRefund(orderId, 30_000_000n);
    const plan = (await planRefund(db, scope(), refund.id, { feeFromRefund: true, feeRate: 2n })) as RefundPlan;
    expect(plan.inputs.map((i) => i.address)).toEqual([other.address]);
    expect(Number(plan.refund.pays)).toBeLessThan(0.3);
    const attacker = (await node.rpc('getnewaddress', '', 'bech32')) as string;
    const redirected = await signer({ ...plan, refund: { ...plan.refund, destination: attacker } }, signerConfig());
    expect(redirected.code).toBe(1);
    expect(redirected.stderr).toContain(`pays ${address}, which is neither the treasury`);
    const inflated = await signer(
      { ...plan, refund: { ...plan.refund, amount: '0.31', pays: '0.31', feeFromRefund: false } },
      signerConfig(),
    );
    expect(inflated.code).toBe(1);
    expect(inflated.stderr).toMatch(/above what is left of its payment/);
    const capped = await signer(plan, signerConfig({ refundDailyCap: '0.4' }));
    expect(capped.code).toBe(1);
    expect(capped.stderr).toContain("above this signer's refundDailyCap 0.4");

    // The plan spends no output of the refunded payment: only the signer's node can vouch for it.
    const noNode = await signer(plan, signerConfig({ node: undefined }));
    expect(noNode.code).toBe(1);
    expect(noNode.stderr).toContain('this signer has no node to find the payment on');
    const proved = await signer(plan, signerConfig());
    expect(proved.code).toBe(0);

    // Its claim reopened before it was broadcast: the plan to the forgotten address is out of the
    // watcher's way (the signer's ledger still counts what it signed). A new address, a new plan;
    // canceled, that one goes too.
    const reopened = await reopenRefund(db, scope(), refund.id, new Date());
    expect((await collectionPlan(db, merchant.merchantId, 'live', plan.planId))!).toMatchObject({
      status: 'stale',
      reason: "the refund's claim was reopened: the address it paid is forgotten",
    });
    await confirmClaim(db, tokenOf(reopened.claimUrl), { address: attacker, tag: '' }, new Date());
    const replanned = (await planRefund(db, scope(), refund.id, { feeFromRefund: true, feeRate: 2n })) as RefundPlan;
    expect(replanned.inputs.map((i) => i.address)).toEqual([other.address]);
    await cancelRefund(db, scope(), refund.id, new Date());
    expect((await collectionPlan(db, merchant.merchantId, 'live', replanned.planId))!).toMatchObject({
      status: 'stale',
      reason: 'the refund was canceled',
    });
  }, 120_000);

  it('completes refunds sent by hand by their ids: from the mempool, then mined and found without -txindex', async () => {
    const chain = { chain: () => adapter, now: new Date() };
    const byHand = await claimedRefund(orderId, 5_000_000n);
    const fromMempool = (await node.rpc('sendtoaddress', byHand.address, '0.05')) as string;
    expect(await completeRefundByTransaction(db, scope(), byHand.refund.id, fromMempool, chain)).toMatchObject({
      state: 'sent',
      txId: fromMempool,
    });

    // Mined before the gateway heard of it: not in the mempool, and no -txindex: found in its block.
    const mined = await claimedRefund(orderId, 4_000_000n);
    const inBlock = (await node.rpc('sendtoaddress', mined.address, '0.04')) as string;
    await node.mine(1);
    await expect(node.rpc('getrawtransaction', inBlock, true)).rejects.toThrow();
    expect(await completeRefundByTransaction(db, scope(), mined.refund.id, inBlock, chain)).toMatchObject({
      state: 'confirmed',
      txId: inBlock,
    });
    // Paying the payer less than owed (the fee was not the payer's to bear) is refused by what the chain shows.
    const short = await claimedRefund(orderId, 3_000_000n);
    const less = (await node.rpc('sendtoaddress', short.address, '0.02999')) as string;
    await expect(completeRefundByTransaction(db, scope(), short.refund.id, less, chain)).rejects.toThrow(
      /pays 0\.02999 LTC to the refund's address; the refund owes 0\.03 LTC/,
    );

    await watchLive(db, adapter);
    expect(await getRefund(db, scope(), byHand.refund.id)).toMatchObject({ state: 'confirmed', txId: fromMempool });
    expect(await eventTypes(byHand.refund.id)).toEqual([
      'refund.created',
      'refund.ready',
      'refund.sent',
      'refund.confirmed',
    ]);
    expect((await orderRow(db, orderId)).status).toBe('processed');
  }, 120_000);
});
