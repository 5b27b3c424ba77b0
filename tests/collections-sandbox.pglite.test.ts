/**
 * Test-mode collection plans on the sandbox ledger (docs/decisions/097), in this process: a
 * litecoin plan prepared through `collections/prepare` for a merchant without a key of its own (the
 * public test seed's), signed by the signer's own functions with the public test seed, submitted
 * through `collections/submit`, taken by the sandbox, mined, and confirmed by the watcher with its
 * `collection.completed` event; and the sandbox's refusals (a bad signature, outputs above inputs,
 * an output spent already), each with nothing written; and a refund plan the same way, its refund
 * confirmed. The signature check itself is unit-tested
 * in lib/chains/utxo/transactions/verify.test.ts; litecoind's side in collections-litecoind.
 */
import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { RawTx } from '@scure/btc-signer/script.js';
import { SigHash, Transaction } from '@scure/btc-signer/transaction.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNetwork } from '@/lib/catalog';
import { broadcast, collectionNodeFor, mine, requiredConfirmations, testAccountXpub } from '@/lib/chains';
import { deriveAddress } from '@/lib/chains/derivation';
import { depositScript, scriptOf } from '@/lib/chains/utxo/transactions';
import type { Database } from '@/lib/db/client';
import { createKey } from '@/lib/merchants';
import { setTreasury } from '@/lib/payouts';
import { confirmClaim, makeRefund } from '@/lib/refunds';
import { OPERATIONS, type OperationName } from '@/lib/protocol';
import { rootOfPhrase, signerConfigSchema, signPlan } from '@/scripts/signer/sign-plan';
import { callInProcess, useDatabaseForApi } from './support/api-in-process';
import { createOrder, sandboxChain, watchOnce } from './support/chain';
import { expectDocumented } from './support/contract';
import { openTestDatabase } from './support/database';
import type { Keys } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';

process.env.APP_SECRET ??= 'test-app-secret-that-is-at-least-32-characters';

const TEST_PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const litecoin = findNetwork('litecoin')!;
const seed = rootOfPhrase(TEST_PHRASE);
/** The external chain of test mode's litecoin deposit addresses (m/84'/2'/0'/0). */
const depositChain = HDKey.fromExtendedKey(testAccountXpub(litecoin));
let db: Database;
let merchant: TestMerchant;
let planner: Keys;
/** An address of the test seed no order takes. */
const treasury = deriveAddress(litecoin, testAccountXpub(litecoin), 90_000);

async function call(path: OperationName, body: Record<string, unknown>) {
  const answer = await callInProcess(path, body, planner);
  if (answer.status === 200) {
    const parsed = OPERATIONS[path].response.safeParse(answer.body.response);
    expect(parsed.success, `${path}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
  }
  expectDocumented(path, { ...answer, headers: new Headers() });
  return answer;
}

/** Enough blocks for the sandbox's confirmations, then a watcher pass. */
async function mineAndWatch(): Promise<void> {
  await mine(db, litecoin, requiredConfirmations('test', litecoin) + 1);
  await watchOnce(db, sandboxChain(db, 'litecoin'));
}

/** Everything taking a transaction may write: the sandbox's transfers, transactions and spends, plans' txids, nonces, audit. */
async function written() {
  const [row] = await db.query(
    `select (select count(*)::int from sandbox_transfers) as transfers,
            (select count(*)::int from sandbox_transactions) as transactions,
            (select count(*)::int from sandbox_transfers where spent_by_tx is not null) as spent,
            (select count(*)::int from collection_plans where txid is not null) as txids,
            (select count(*)::int from api_nonces) as nonces,
            (select count(*)::int from audit_log) as audit`,
  );
  return row;
}

/** A transaction of the test seed's keys spending `inputs` (deposit outputs at child `index`) and paying `pays` to the treasury. */
function spendOf(inputs: { txid: string; vout: number; amount: bigint; index: number }[], pays: bigint): string {
  const tx = new Transaction({ version: 2 });
  for (const input of inputs) {
    const key = depositChain.deriveChild(input.index);
    tx.addInput({
      txid: input.txid,
      index: input.vout,
      witnessUtxo: { script: depositScript('wpkh', key.publicKey!, 'litecoin', 'mainnet'), amount: input.amount },
    });
  }
  tx.addOutput({ script: scriptOf('litecoin', 'mainnet', treasury), amount: pays });
  inputs.forEach((input, i) => {
    const child = seed.derive(`m/84'/2'/0'/0/${input.index}`);
    tx.signIdx(child.privateKey!, i, [SigHash.ALL]);
  });
  // btc-signer refuses to finalize what pays more than it spends: the sandbox must refuse it too.
  for (let i = 0; i < tx.inputsLength; i++) {
    const [[publicKey, signature]] = tx.getInput(i).partialSig! as [[Uint8Array, Uint8Array]];
    tx.updateInput(i, { finalScriptWitness: [signature, publicKey] }, true);
  }
  return hex.encode(tx.toBytes(true, true));
}

beforeAll(async () => {
  db = await openTestDatabase();
  useDatabaseForApi(db);
  merchant = await createTestMerchant(db);
  planner = await createKey(db, merchant.merchantId, 'test', {
    name: 'Signer',
    scopes: ['read-only', 'signing-plans'],
  });
  await setTreasury(db, { merchantId: merchant.merchantId, network: 'litecoin', mode: 'test', address: treasury });
});
afterAll(async () => {
  await db?.close();
});

describe('a test-mode collection', () => {
  const paid: { txid: string; vout: number; amount: bigint; index: number }[] = [];

  it('is prepared from real sandbox transactions, signed with the public test seed, taken and confirmed', async () => {
    for (const amount of [150_000_000n, 25_000_000n]) {
      const order = await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' });
      const { txHash } = await broadcast(db, { network: litecoin, to: order.address, currency: 'LTC', amount });
      const [address] = await db.query<{ index: number }>(
        `select derivation_index::int as index from addresses where address = $1`,
        [order.address],
      );
      paid.push({ txid: txHash, vout: 0, amount, index: address!.index });
    }
    await mineAndWatch();

    const prepared = await call('collections/prepare', { network: 'litecoin' });
    expect(prepared.status, JSON.stringify(prepared.body.error)).toBe(200);
    const plan = prepared.body.response;
    // The key origin of test mode's litecoin addresses: the public test seed's, on litecoin's coin type.
    expect(plan).toMatchObject({ mode: 'test', masterFingerprint: '73c5da0a', treasury, feeRate: '1' });
    expect(plan.inputs.map((i: { path: string }) => i.path).sort()).toEqual(
      paid.map((p) => `m/84'/2'/0'/0/${p.index}`).sort(),
    );

    // The signer's own checks: every previous transaction hashes to its input's txid.
    const config = signerConfigSchema.parse({ network: 'litecoin', treasury, maxFee: '0.001' });
    const { signed } = await signPlan(JSON.stringify(plan), config, seed, { confirm: async () => true });
    expect(signed.txid).toBe(plan.txid);

    // A signature changed in one byte: the plan's transaction still, but the sandbox refuses it.
    const forged = RawTx.decode(hex.decode(signed.rawTx));
    const signature = Uint8Array.from(forged.witnesses![0]![0]!);
    signature[10]! ^= 1;
    forged.witnesses![0]![0] = signature;
    const before = await written();
    const refused = await call('collections/submit', {
      id: plan.planId,
      transaction: hex.encode(RawTx.encode(forged)),
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.name).toBe('PLAN_REFUSED');
    expect(refused.body.error.message).toMatch(
      /the sandbox's litecoin refused the transaction: input 0: its signature does not verify/,
    );
    expect(await written()).toEqual(before);

    const submitted = await call('collections/submit', { id: plan.planId, transaction: signed.rawTx });
    expect(submitted.status, JSON.stringify(submitted.body.error)).toBe(200);
    expect(submitted.body.response).toMatchObject({ planId: plan.planId, txid: signed.txid, status: 'prepared' });

    await mineAndWatch();
    const [stored] = await db.query<{ status: string; txid: string }>(
      'select status, txid from collection_plans where id = $1',
      [plan.planId],
    );
    expect(stored).toEqual({ status: 'confirmed', txid: signed.txid });
    const spent = await db.query<{ spent_by_tx: string }>(
      `select spent_by_tx from chain_transfers where mode = 'test' and network = 'litecoin' and tx_hash = any($1)`,
      [paid.map((p) => p.txid)],
    );
    expect(spent).toEqual([{ spent_by_tx: signed.txid }, { spent_by_tx: signed.txid }]);
    const events = await db.query<{ type: string }>('select type from events where object_id = $1', [plan.planId]);
    expect(events).toEqual([{ type: 'collection.completed' }]);
    // The treasury got the plan's amount, in a transaction of the sandbox's.
    const [received] = await db.query<{ amount: string }>(
      `select amount::text from sandbox_transfers where tx_hash = $1 and to_address = $2`,
      [signed.txid, treasury],
    );
    expect(received!.amount).toBe(String(175_000_000n - BigInt(Math.round(Number(plan.fee) * 1e8))));
  });

  it('refuses outputs above the inputs and an output spent already, writing nothing', async () => {
    const node = collectionNodeFor(db, 'test', litecoin)!;
    const order = await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' });
    const { txHash } = await broadcast(db, { network: litecoin, to: order.address, currency: 'LTC', amount: 10_000n });
    const [address] = await db.query<{ index: number }>(
      `select derivation_index::int as index from addresses where address = $1`,
      [order.address],
    );
    const fresh = { txid: txHash, vout: 0, amount: 10_000n, index: address!.index };
    const before = await written();
    expect(await node.broadcast(spendOf([fresh], 10_001n))).toEqual({
      outcome: 'refused',
      reason: 'its outputs (10001) pay more than its inputs hold (10000)',
    });
    // The first test's outputs, spent by its plan's transaction.
    expect(await node.broadcast(spendOf([paid[0]!], 100_000n))).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(new RegExp(`^input 0 spends ${paid[0]!.txid}:0, spent already by [0-9a-f]{64}$`)),
    });
    expect(await written()).toEqual(before);
  });
});

describe('a test-mode refund plan', () => {
  it('is prepared, signed with the refund checked by the signer, taken, and confirms its refund', async () => {
    const order = await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' });
    await broadcast(db, { network: litecoin, to: order.address, currency: 'LTC', amount: 100_000_000n });
    await mineAndWatch();
    const payer = deriveAddress(litecoin, testAccountXpub(litecoin), 90_001);
    const now = new Date();
    const made = await makeRefund(
      db,
      { merchantId: merchant.merchantId, mode: 'test' },
      { target: { kind: 'order', id: order.id }, amount: 50_000_000n, createdBy: 'test', now },
    );
    await confirmClaim(db, made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1), { address: payer, tag: '' }, now);

    const prepared = await call('refund-plans/prepare', { refundId: made.refund.id });
    expect(prepared.status, JSON.stringify(prepared.body.error)).toBe(200);
    const plan = prepared.body.response;
    const config = signerConfigSchema.parse({ network: 'litecoin', treasury, maxFee: '0.001', refundDailyCap: '1' });
    const { signed, ledgerEntry } = await signPlan(JSON.stringify(plan), config, seed, { confirm: async () => true });
    expect(ledgerEntry).toMatchObject({ refundId: made.refund.id });
    const submitted = await call('collections/submit', { id: plan.planId, transaction: signed.rawTx });
    expect(submitted.status, JSON.stringify(submitted.body.error)).toBe(200);

    await mineAndWatch();
    const [stored] = await db.query('select status, txid from collection_plans where id = $1', [plan.planId]);
    expect(stored).toEqual({ status: 'confirmed', txid: signed.txid });
    const [refund] = await db.query<{ state: string; txid: string }>('select state, txid from refunds where id = $1', [
      made.refund.id,
    ]);
    expect(refund).toEqual({ state: 'confirmed', txid: signed.txid });
    const [toPayer] = await db.query<{ amount: string }>(
      'select amount::text from sandbox_transfers where tx_hash = $1 and to_address = $2',
      [signed.txid, payer],
    );
    expect(toPayer!.amount).toBe('50000000');
  });
});
