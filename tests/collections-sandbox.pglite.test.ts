/**
 * Test-mode collection plans on the sandbox ledger (docs/decisions/097), in this process: a
 * litecoin plan prepared through `collections/prepare` for a merchant without a key of its own (the
 * public test seed's), signed by the signer's own functions with the public test seed, submitted
 * through `collections/submit`, taken by the sandbox, mined, and confirmed by the watcher with its
 * `collection.completed` event; and the sandbox's refusals (a bad signature, outputs above inputs,
 * an output spent already), each with nothing written; and a refund plan the same way, broadcast
 * outside the gateway and seen in the mempool (`acceptedAt`, still prepared), its refund neither
 * completed by hand nor planned again meanwhile (docs/decisions/116), then confirmed; and a refund plan read and submitted by the signer's API client (`--from-api`), its
 * ledger kept before the submission, a gateway's answer rewritten refused; and a plan's signed transaction handed to the
 * sandbox without a plan named (`npm run sandbox -- broadcast-raw`, docs/decisions/109), through the same checks. The signature check itself is unit-tested
 * in lib/chains/utxo/transactions/verify.test.ts; litecoind's side in collections-litecoind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommand, runAdminCommand } from '@/lib/admin';
import { findNetwork } from '@/lib/catalog';
import { broadcast, collectionNodeFor, mine, requiredConfirmations, testAccountXpub } from '@/lib/chains';
import { deriveAddress } from '@/lib/chains/derivation';
import type { Database } from '@/lib/db/client';
import { createKey } from '@/lib/merchants';
import { fundsOf, setTreasury } from '@/lib/payouts';
import { confirmClaim, makeRefund } from '@/lib/refunds';
import { OPERATIONS, type OperationName } from '@/lib/protocol';
import type { GatewayClient } from '@/scripts/signer/api';
import { signFromApi } from '@/scripts/signer/from-api';
import type { RefundLedger } from '@/scripts/signer/refunds';
import { rootOfPhrase, signerConfigSchema, signPlan } from '@/scripts/signer/sign-plan';
import { callInProcess, inProcessFetch, useDatabaseForApi } from './support/api-in-process';
import { createOrder, sandboxChain, watchOnce } from './support/chain';
import { expectDocumented } from './support/contract';
import { openTestDatabase } from './support/database';
import type { Keys } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { forgedSignature, spendOf as spendOfTo, TEST_PHRASE, type DepositOutput } from './support/sandbox-spends';

process.env.APP_SECRET ??= 'test-app-secret-that-is-at-least-32-characters';

/** Another seed, whose addresses are no test seed's. */
const OTHER_PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const litecoin = findNetwork('litecoin')!;
const seed = rootOfPhrase(TEST_PHRASE);
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

/** A transaction of the test seed's keys spending `inputs` and paying `pays` to the treasury. */
const spendOf = (inputs: DepositOutput[], pays: bigint) => spendOfTo(inputs, treasury, pays);

/** A deposit output paid now to a new order of the merchant, with its address's child index. */
async function paidDeposit(amount: bigint): Promise<DepositOutput> {
  const order = await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' });
  const { txHash } = await broadcast(db, { network: litecoin, to: order.address, currency: 'LTC', amount });
  const [address] = await db.query<{ index: number }>(
    `select derivation_index::int as index from addresses where address = $1`,
    [order.address],
  );
  return { txid: txHash, vout: 0, amount, index: address!.index };
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
  const paid: DepositOutput[] = [];

  it('is prepared from real sandbox transactions, signed with the public test seed, taken and confirmed', async () => {
    for (const amount of [150_000_000n, 25_000_000n]) paid.push(await paidDeposit(amount));
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
    const before = await written();
    const refused = await call('collections/submit', { id: plan.planId, transaction: forgedSignature(signed.rawTx) });
    expect(refused.status).toBe(409);
    expect(refused.body.error.name).toBe('PLAN_REFUSED');
    expect(refused.body.error.message).toMatch(
      /the sandbox's litecoin refused the transaction: input 0: its signature does not verify/,
    );
    expect(await written()).toEqual(before);

    const submitted = await call('collections/submit', { id: plan.planId, transaction: signed.rawTx });
    expect(submitted.status, JSON.stringify(submitted.body.error)).toBe(200);
    expect(submitted.body.response).toMatchObject({ planId: plan.planId, txid: signed.txid, status: 'prepared' });
    // Taken by the sandbox, not mined: still prepared, and collections/get says when it was taken.
    expect(plan.acceptedAt).toBeNull();
    const taken = await call('collections/get', { id: plan.planId });
    expect(taken.body.response).toMatchObject({ status: 'prepared', acceptedAt: expect.any(String) });

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
    const fresh = await paidDeposit(10_000n);
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
    // Broadcast as by the merchant's own node, not through the gateway: the watcher sees it in the mempool.
    expect(await collectionNodeFor(db, 'test', litecoin)!.broadcast(signed.rawTx)).toMatchObject({ outcome: 'taken' });
    await watchOnce(db, sandboxChain(db, 'litecoin'));
    const seen = await call('refund-plans/get', { id: plan.planId });
    expect(seen.body.response).toMatchObject({ status: 'prepared', acceptedAt: expect.any(String) });
    // Paid by its plan only (docs/decisions/116): not completed by hand meanwhile, even by the
    // plan's own transaction, nor given a second plan; nothing written.
    const refunder = await createKey(db, merchant.merchantId, 'test', { name: 'Refunds', scopes: ['refunds'] });
    const before = await written();
    const byHand = await callInProcess('refunds/complete', { id: made.refund.id, txId: signed.txid }, refunder);
    expectDocumented('refunds/complete', { ...byHand, headers: new Headers() });
    expect([byHand.status, byHand.body.error?.name, byHand.body.error?.message]).toEqual([
      409,
      'REFUND_STATE_CONFLICT',
      `Plan ${plan.planId} pays this refund: it is paid by that plan only; cancel the refund (its plan is discarded) before paying it another way.`,
    ]);
    const second = await call('refund-plans/prepare', { refundId: made.refund.id });
    expect([second.status, second.body.error?.name]).toEqual([409, 'REFUND_STATE_CONFLICT']);
    expect(await written()).toEqual(before);
    const [waiting] = await db.query('select state, sent_by_hand from refunds where id = $1', [made.refund.id]);
    expect(waiting).toEqual({ state: 'ready', sent_by_hand: false });

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

describe('a refund plan read through the API by the signer', () => {
  it('is checked as a file, kept in the ledger before it is submitted, and a rewritten answer is refused', async () => {
    const order = await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' });
    await broadcast(db, { network: litecoin, to: order.address, currency: 'LTC', amount: 100_000_000n });
    await mineAndWatch();
    // A payer outside the test seed: the one output the signer lets pay outside the wallet.
    const payer = deriveAddress(litecoin, rootOfPhrase(OTHER_PHRASE).derive("m/84'/2'/0'/0").publicExtendedKey, 0);
    const attacker = deriveAddress(litecoin, rootOfPhrase(OTHER_PHRASE).derive("m/84'/2'/0'/0").publicExtendedKey, 1);
    const now = new Date();
    const made = await makeRefund(
      db,
      { merchantId: merchant.merchantId, mode: 'test' },
      { target: { kind: 'order', id: order.id }, amount: 30_000_000n, createdBy: 'test', now },
    );
    await confirmClaim(db, made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1), { address: payer, tag: '' }, now);
    const prepared = await call('refund-plans/prepare', { refundId: made.refund.id });
    expect(prepared.status, JSON.stringify(prepared.body.error)).toBe(200);

    const config = signerConfigSchema.parse({ network: 'litecoin', treasury, maxFee: '0.001', refundDailyCap: '1' });
    const asked = { kind: 'refund', refundId: made.refund.id } as const;
    const steps: string[] = [];
    let kept: RefundLedger | null = null;
    const io = {
      confirm: async () => true,
      ledger: { refunds: [] },
      keepLedger: (next: RefundLedger) => {
        steps.push('ledger');
        kept = next;
      },
    };
    const client = (rewrite?: (plan: { refund: { destination: string } }) => void): GatewayClient => ({
      baseUrl: 'http://gateway.invalid',
      key: planner,
      fetch: async (input, init) => {
        steps.push(new URL(String(input)).pathname);
        const answer = await inProcessFetch(input, init);
        if (!rewrite || !String(input).endsWith('/refund-plans/get')) return answer;
        const body = await answer.json();
        rewrite(body.response);
        return new Response(JSON.stringify(body), { status: answer.status });
      },
    });

    // The gateway names another address in the claim than the plan's transaction pays: nothing kept, nothing sent.
    const before = await written();
    await expect(
      signFromApi(
        client((plan) => {
          plan.refund.destination = attacker;
        }),
        asked,
        config,
        seed,
        io,
      ),
    ).rejects.toThrow(
      new RegExp(`pays ${payer}, which is neither the treasury .*no output pays the refund's address`, 's'),
    );
    expect(kept).toBeNull();
    expect(steps).toEqual(['/api-gateway/refund-plans/get']);
    // Only the read's nonce: nothing submitted.
    expect(await written()).toEqual({ ...before, nonces: (before as { nonces: number }).nonces + 1 });

    steps.length = 0;
    const { signed, submitted } = await signFromApi(client(), asked, config, seed, io);
    expect(steps).toEqual(['/api-gateway/refund-plans/get', 'ledger', '/api-gateway/collections/submit']);
    expect(kept).toEqual({ refunds: [expect.objectContaining({ refundId: made.refund.id, txid: signed.txid })] });
    expect(submitted).toMatchObject({ planId: prepared.body.response.planId, kind: 'refund', txid: signed.txid });

    await mineAndWatch();
    const [refund] = await db.query('select state, txid from refunds where id = $1', [made.refund.id]);
    expect(refund).toEqual({ state: 'confirmed', txid: signed.txid });
  });
});

describe('a signed transaction handed to the sandbox by `npm run sandbox -- broadcast-raw`', () => {
  /** The command as the CLI sends it, run in this process (the CLI's own wiring: tests/sandbox-cli). */
  const broadcastRaw = (network: string, transaction: string) =>
    runAdminCommand(db, adminCommand.parse({ command: 'sandbox.broadcast-raw', network, transaction }));

  it("is checked by the sandbox as collections/submit's are, and a plan's moves as the watcher sees it", async () => {
    const deposit = await paidDeposit(40_000_000n);
    await mineAndWatch();
    const prepared = await call('collections/prepare', { network: 'litecoin' });
    expect(prepared.status, JSON.stringify(prepared.body.error)).toBe(200);
    const plan = prepared.body.response;
    const config = signerConfigSchema.parse({ network: 'litecoin', treasury, maxFee: '0.001' });
    const { signed } = await signPlan(JSON.stringify(plan), config, seed, { confirm: async () => true });

    const before = await written();
    await expect(broadcastRaw('litecoin', forgedSignature(signed.rawTx))).rejects.toThrow(
      /^the sandbox's litecoin refused the transaction: input 0: its signature does not verify/,
    );
    await expect(broadcastRaw('litecoin', 'deadbeef')).rejects.toThrow(/^the transaction does not decode/);
    await expect(broadcastRaw('ethereum', signed.rawTx)).rejects.toThrow(
      'ethereum is not a Bitcoin-family network of test mode',
    );
    expect(() =>
      adminCommand.parse({ command: 'sandbox.broadcast-raw', network: 'litecoin', transaction: 'xyz' }),
    ).toThrow(/must be the signed transaction, lower-case hex/);
    expect(await written()).toEqual(before);

    expect(await broadcastRaw('litecoin', signed.rawTx)).toEqual({ network: 'litecoin', txid: signed.txid });
    // The sandbox has it: taken again, as a node takes a transaction it knows.
    expect(await broadcastRaw('litecoin', signed.rawTx)).toEqual({ network: 'litecoin', txid: signed.txid });
    // Another spend of the plan's deposit output: spent already, in the sandbox's mempool.
    await expect(broadcastRaw('litecoin', spendOf([deposit], 1_000_000n))).rejects.toThrow(
      `input 0 spends ${deposit.txid}:0, spent already by ${signed.txid}`,
    );
    // No plan was named: the watcher sees the plan's transaction in the mempool, then mined.
    await watchOnce(db, sandboxChain(db, 'litecoin'));
    const seen = await call('collections/get', { id: plan.planId });
    expect(seen.body.response).toMatchObject({ status: 'prepared', acceptedAt: expect.any(String) });
    await mineAndWatch();
    const [stored] = await db.query('select status, txid from collection_plans where id = $1', [plan.planId]);
    expect(stored).toEqual({ status: 'confirmed', txid: signed.txid });
  });
});

describe.each([
  { name: 'dogecoin', ticker: 'DOGE', coinType: 3, version: '01000000' },
  { name: 'bitcoincash', ticker: 'BCH', coinType: 145, version: '02000000' },
])('a test-mode $name collection (a raw transaction, docs/decisions/118)', ({ name, ticker, coinType, version }) => {
  const network = findNetwork(name)!;
  const rawTreasury = deriveAddress(network, testAccountXpub(network), 90_000);

  it('is prepared raw, signed by the signer with the public test seed, taken by the sandbox and confirmed; its Funds line is gone', async () => {
    await setTreasury(db, { merchantId: merchant.merchantId, network: name, mode: 'test', address: rawTreasury });
    const deposits: string[] = [];
    for (const amount of [150_000_000n, 25_000_000n]) {
      const order = await createOrder(db, merchant.test, { currency: ticker, network: name, amount: '1' });
      deposits.push((await broadcast(db, { network, to: order.address, currency: ticker, amount })).txHash);
    }
    const mineAndWatchRaw = async () => {
      await mine(db, network, requiredConfirmations('test', network) + 1);
      await watchOnce(db, sandboxChain(db, name));
    };
    await mineAndWatchRaw();

    const prepared = await call('collections/prepare', { network: name });
    expect(prepared.status, JSON.stringify(prepared.body.error)).toBe(200);
    const plan = prepared.body.response;
    expect(plan).toMatchObject({ format: 'raw', masterFingerprint: '73c5da0a', treasury: rawTreasury, txid: null });
    expect(plan.unsignedTx.startsWith(version)).toBe(true);
    for (const input of plan.inputs) expect(input.path).toMatch(new RegExp(`^m/44'/${coinType}'/0'/0/\\d+$`));

    const config = signerConfigSchema.parse({ network: name, treasury: rawTreasury, maxFee: '0.01' });
    const { signed } = await signPlan(JSON.stringify(plan), config, seed, { confirm: async () => true });
    // Signed by another seed's signer: refused before anything is signed.
    await expect(
      signPlan(JSON.stringify(plan), config, rootOfPhrase(OTHER_PHRASE), { confirm: async () => true }),
    ).rejects.toThrow(/test plans are signed with the public test seed/);

    const before = await written();
    const refused = await call('collections/submit', { id: plan.planId, transaction: forgedSignature(signed.rawTx) });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/input 0: its signature does not verify/);
    expect(await written()).toEqual(before);

    const submitted = await call('collections/submit', { id: plan.planId, transaction: signed.rawTx });
    expect(submitted.status, JSON.stringify(submitted.body.error)).toBe(200);
    expect(submitted.body.response).toMatchObject({ planId: plan.planId, txid: signed.txid, status: 'prepared' });

    await mineAndWatchRaw();
    const got = await call('collections/get', { id: plan.planId });
    expect(got.body.response).toMatchObject({ format: 'raw', status: 'confirmed', txid: signed.txid });
    const events = await db.query<{ type: string }>('select type from events where object_id = $1', [plan.planId]);
    expect(events).toEqual([{ type: 'collection.completed' }]);
    const [received] = await db.query<{ amount: string }>(
      `select amount::text from sandbox_transfers where tx_hash = $1 and to_address = $2`,
      [signed.txid, rawTreasury],
    );
    expect(received!.amount).toBe(String(175_000_000n - BigInt(Math.round(Number(plan.fee) * 1e8))));
    expect((await fundsOf(db, merchant.merchantId, 'test')).filter((line) => line.network === name)).toEqual([]);
    expect(deposits).toHaveLength(2);
  });
});

describe('a test-mode dogecoin refund plan (a raw transaction, docs/decisions/121)', () => {
  const dogecoin = findNetwork('dogecoin')!;
  const dogeTreasury = deriveAddress(dogecoin, testAccountXpub(dogecoin), 90_000);
  const mineAndWatchDoge = async () => {
    await mine(db, dogecoin, requiredConfirmations('test', dogecoin) + 1);
    await watchOnce(db, sandboxChain(db, 'dogecoin'));
  };

  it('is prepared raw, signed with the refund checked, submitted and confirmed; its order keeps its status', async () => {
    await setTreasury(db, {
      merchantId: merchant.merchantId,
      network: 'dogecoin',
      mode: 'test',
      address: dogeTreasury,
    });
    const order = await createOrder(db, merchant.test, { currency: 'DOGE', network: 'dogecoin', amount: '100' });
    const paid = await broadcast(db, {
      network: dogecoin,
      to: order.address,
      currency: 'DOGE',
      amount: 10_000_000_000n,
    });
    await mineAndWatchDoge();
    const orderStatus = async () =>
      (await db.query<{ status: string }>('select status from orders where id = $1', [order.id]))[0]!.status;
    const paidStatus = await orderStatus();
    // A payer outside the test seed: the one output the signer lets pay outside the wallet.
    const payer = deriveAddress(dogecoin, rootOfPhrase(OTHER_PHRASE).derive("m/44'/3'/0'/0").publicExtendedKey, 0);
    const now = new Date();
    const made = await makeRefund(
      db,
      { merchantId: merchant.merchantId, mode: 'test' },
      { target: { kind: 'order', id: order.id }, amount: 4_000_000_000n, createdBy: 'test', now },
    );
    await confirmClaim(db, made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1), { address: payer, tag: '' }, now);

    const prepared = await call('refund-plans/prepare', { refundId: made.refund.id });
    expect(prepared.status, JSON.stringify(prepared.body.error)).toBe(200);
    const plan = prepared.body.response;
    expect(plan).toMatchObject({ format: 'raw', kind: 'refund', feeRate: '1000', txid: null, treasury: dogeTreasury });
    expect(plan.unsignedTx.startsWith('01000000')).toBe(true);
    // The refunded payment's own output is spent first.
    expect(plan.inputs[0]).toMatchObject({ txid: paid.txHash, vout: 0 });

    const config = signerConfigSchema.parse({
      network: 'dogecoin',
      treasury: dogeTreasury,
      maxFee: '1',
      refundDailyCap: '1000',
    });
    const { signed, ledgerEntry } = await signPlan(JSON.stringify(plan), config, seed, { confirm: async () => true });
    expect(ledgerEntry).toMatchObject({ refundId: made.refund.id, amount: '4000000000', txid: signed.txid });

    const submitted = await call('collections/submit', { id: plan.planId, transaction: signed.rawTx });
    expect(submitted.status, JSON.stringify(submitted.body.error)).toBe(200);
    expect(submitted.body.response).toMatchObject({ planId: plan.planId, kind: 'refund', txid: signed.txid });

    await mineAndWatchDoge();
    const got = await call('refund-plans/get', { id: plan.planId });
    expect(got.body.response).toMatchObject({ format: 'raw', status: 'confirmed', txid: signed.txid });
    const [refund] = await db.query('select state, txid from refunds where id = $1', [made.refund.id]);
    expect(refund).toEqual({ state: 'confirmed', txid: signed.txid });
    const [toPayer] = await db.query<{ amount: string }>(
      'select amount::text from sandbox_transfers where tx_hash = $1 and to_address = $2',
      [signed.txid, payer],
    );
    expect(toPayer!.amount).toBe('4000000000');
    expect(await orderStatus()).toBe(paidStatus);
  });
});
