/**
 * A refund sent by hand, completed by its transaction id (docs/decisions/092), in test mode on the
 * sandbox ledger, through `refunds/complete` in this process (signature, nonce, scope, zod,
 * envelope; every answer against its schema and the OpenAPI document): each refusal with its
 * documented error and nothing written, a mempool transaction making the refund sent and the
 * watcher's re-check confirming it, one transaction never completing two refunds, the audit log,
 * and the order unchanged throughout. A transaction that vanishes (decision 129): recorded missing by
 * the watcher's pass, cleared when found again, and only after an hour, and only while the node
 * still does not find it, marked not sent: failed once, its amount refundable again (the dashboard's
 * action, audited, in tests/refunds-dashboard.pg.test.ts). The
 * families' lookups are unit-tested in
 * lib/chains/transaction.test.ts, the judgement in lib/refunds/transfer-check.test.ts, litecoind
 * in tests/refunds-litecoind.pg.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNetwork } from '@/lib/catalog';
import { broadcast, mine, requiredConfirmations, sandboxAdapter, type ChainAdapter } from '@/lib/chains';
import { drop } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import type { OperationName } from '@/lib/protocol';
import {
  confirmClaim,
  makeRefund,
  markRefundNotSent,
  MISSING_BEFORE_NOT_SENT_MS,
  recheckRefundsSentByHand,
} from '@/lib/refunds';
import { useDatabaseForApi } from './support/api-in-process';
import { createOrder, orderRow } from './support/chain';
import { checkedCallInProcess } from './support/contract';
import { openTestDatabase } from './support/database';
import type { Keys } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';

process.env.APP_SECRET ??= 'test-app-secret-that-is-at-least-32-characters';

const litecoin = findNetwork('litecoin')!;
const now = new Date();
let db: Database;
let merchant: TestMerchant & { moneyOut: Keys };
let refunder: Keys;
/** Valid litecoin addresses of the test seed (other orders'), for the payer and a stranger. */
let payer: string;
let stranger: string;

const call = (path: OperationName, body: Record<string, unknown>, keys: Keys = refunder) =>
  checkedCallInProcess(path, body, keys);

/** A processed litecoin order that received 2 LTC, and a refund of `amount` LTC (base units) whose payer confirmed `payer`. */
async function readyRefund(amount = 50_000_000n): Promise<{ orderId: string; refundId: string }> {
  const order = await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '2' });
  await db.query(`update orders set status = 'processed', received = 200000000 where id = $1`, [order.id]);
  const scope = { merchantId: merchant.merchantId, mode: 'test' as const };
  const made = await makeRefund(db, scope, {
    target: { kind: 'order', id: order.id },
    amount,
    createdBy: 'test',
    now,
  });
  await confirmClaim(db, made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1), { address: payer, tag: '' }, now);
  return { orderId: order.id, refundId: made.refund.id };
}

const pay = async (to: string, amount: bigint) =>
  (await broadcast(db, { network: litecoin, to, currency: 'LTC', amount })).txHash;

/** Everything a completion may write: the refund, its events, its audit entries, the nonces spent. */
async function snapshot(refundId: string) {
  const [refund] = await db.query('select state, txid, sent_by_hand, version from refunds where id = $1', [refundId]);
  const [counts] = await db.query<{ events: number; audit: number }>(
    `select (select count(*)::int from events where object_id = $1) as events,
            (select count(*)::int from audit_log where action = 'refund.complete') as audit`,
    [refundId],
  );
  return { refund, counts };
}

beforeAll(async () => {
  db = await openTestDatabase();
  useDatabaseForApi(db);
  merchant = await createTestMerchant(db, undefined, { scopes: ['full', 'refunds'] });
  refunder = merchant.moneyOut;
  payer = (await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' })).address;
  stranger = (await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' })).address;
});
afterAll(async () => {
  await db?.close();
});

describe('refunds/complete', () => {
  it('refuses what does not pay the refund, each with its documented error, and writes nothing', async () => {
    const { refundId } = await readyRefund();
    const before = await snapshot(refundId);
    const refusals: [unknown, number, string, string | RegExp][] = [
      ['nothex', 422, 'REFUND_TRANSACTION_REFUSED', 'This is not a transaction id of litecoin.'],
      ['1'.repeat(80), 422, 'REFUND_TRANSACTION_REFUSED', 'This is not a transaction id of litecoin.'],
      ['ab\u0000cd', 400, 'VALIDATION_ERROR', /NUL/],
      ['e1'.repeat(32), 422, 'REFUND_TRANSACTION_REFUSED', /does not know this transaction/],
      [await pay(stranger, 50_000_000n), 422, 'REFUND_TRANSACTION_REFUSED', /pays no LTC to the refund's address/],
      [await pay(payer, 49_999_999n), 422, 'REFUND_TRANSACTION_REFUSED', /pays 0\.49999999 LTC .* owes 0\.5 LTC/],
    ];
    for (const [txId, status, name, message] of refusals) {
      const answer = await call('refunds/complete', { id: refundId, txId });
      expect([answer.status, answer.body.error?.name], String(txId)).toEqual([status, name]);
      expect(answer.body.error.details[0].message).toMatch(message);
    }
    expect(await snapshot(refundId)).toEqual(before);
  });

  it('makes a refund sent by a mempool transaction, and the watcher confirms it; the order never moves', async () => {
    const { orderId, refundId } = await readyRefund();
    const [orderBefore] = await db.query('select status, received, updated_at from orders where id = $1', [orderId]);
    const txId = await pay(payer, 50_000_000n);
    // Typed in capitals: hex ids are case-blind, the refund keeps the network's spelling.
    const sent = await call('refunds/complete', { id: refundId, txId: txId.toUpperCase() });
    expect(sent.status).toBe(200);
    expect(sent.body.response).toMatchObject({ id: refundId, state: 'sent', txId, address: payer });
    const [audit] = await db.query<{ actor: string; detail: Record<string, unknown> }>(
      "select actor, detail from audit_log where action = 'refund.complete' and detail->>'refundId' = $1",
      [refundId],
    );
    expect(audit).toEqual({
      actor: `API key ${refunder.publicKey}`,
      detail: { refundId, txId, state: 'sent', mode: 'test' },
    });

    // Entered again: a re-check, no second event. Another refund cannot take the same transaction.
    const events = async () =>
      (
        await db.query<{ type: string }>('select type from events where object_id = $1 order by position', [refundId])
      ).map((e) => e.type);
    expect((await call('refunds/complete', { id: refundId, txId })).body.response.state).toBe('sent');
    expect(await events()).toEqual(['refund.created', 'refund.ready', 'refund.sent']);
    const other = await readyRefund();
    const used = await call('refunds/complete', { id: other.refundId, txId });
    expect([used.status, used.body.error.message]).toEqual([422, 'This transaction already completes another refund.']);

    // A refund sent is not completed by another transaction.
    const another = await call('refunds/complete', { id: refundId, txId: await pay(payer, 50_000_000n) });
    expect(another.body.error.message).toBe(
      `This refund was sent by transaction ${txId}: only that transaction completes it.`,
    );

    const required = requiredConfirmations('test', litecoin);
    const chain = sandboxAdapter(db, litecoin, required);
    await mine(db, litecoin, required - 1);
    await recheckRefundsSentByHand(db, chain, 'test', new Date());
    expect((await call('refunds/get', { id: refundId })).body.response.state).toBe('sent');
    await mine(db, litecoin, 1);
    await recheckRefundsSentByHand(db, chain, 'test', new Date());
    expect((await call('refunds/get', { id: refundId })).body.response).toMatchObject({ state: 'confirmed', txId });
    expect(await events()).toEqual(['refund.created', 'refund.ready', 'refund.sent', 'refund.confirmed']);
    expect((await db.query('select status, received, updated_at from orders where id = $1', [orderId]))[0]).toEqual(
      orderBefore,
    );
  });

  it('confirms at once a transaction already with its confirmations; refuses a refund not ready, another merchant’s, a full key', async () => {
    const { refundId } = await readyRefund(10_000_000n);
    const txId = await pay(payer, 10_000_000n);
    await mine(db, litecoin, requiredConfirmations('test', litecoin));
    const done = await call('refunds/complete', { id: refundId, txId });
    expect(done.body.response).toMatchObject({ state: 'confirmed', txId });
    const again = await call('refunds/complete', { id: refundId, txId });
    expect([again.status, again.body.error.name]).toEqual([409, 'REFUND_STATE_CONFLICT']);

    const order = await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '2' });
    await db.query(`update orders set status = 'processed', received = amount where id = $1`, [order.id]);
    const waiting = await call('refunds/make', { orderId: order.id, amount: '0.1' });
    const early = await call('refunds/complete', { id: waiting.body.response.id, txId: await pay(payer, 10_000_000n) });
    expect([early.status, early.body.error.name]).toEqual([409, 'REFUND_STATE_CONFLICT']);

    const theirs = (await createTestMerchant(db, undefined, { scopes: ['full', 'refunds'] })).moneyOut;
    const notFound = await call('refunds/complete', { id: refundId, txId }, theirs);
    expect([notFound.status, notFound.body.error.name]).toEqual([404, 'NOT_FOUND']);
    const full = await call('refunds/complete', { id: refundId, txId }, merchant.test);
    expect([full.status, full.body.error.name]).toEqual([403, 'INSUFFICIENT_SCOPE']);
  });
});

describe('a refund sent by hand whose transaction vanished (decision 129)', () => {
  const scope = () => ({ merchantId: merchant.merchantId, mode: 'test' as const });
  const row = async (refundId: string) =>
    (
      await db.query<{ state: string; missing_since: Date | null }>(
        'select state, missing_since from refunds where id = $1',
        [refundId],
      )
    )[0]!;
  const refundEvents = async (refundId: string) =>
    (
      await db.query<{ type: string }>('select type from events where object_id = $1 order by position', [refundId])
    ).map((e) => e.type);

  it('records since when the node misses it, clears that when found again; a node error records nothing', async () => {
    const { refundId } = await readyRefund();
    const txId = await pay(payer, 50_000_000n);
    expect((await call('refunds/complete', { id: refundId, txId })).body.response.state).toBe('sent');
    const sandbox = sandboxAdapter(db, litecoin, requiredConfirmations('test', litecoin));
    // A node that lost its mempool (a restart) does not find it; another that fails does not answer.
    let node: 'lost' | 'down' | 'found' = 'lost';
    const chain: ChainAdapter = {
      ...sandbox,
      transaction: async (id, hint) => {
        if (node === 'down') throw new Error('connection refused');
        return node === 'lost' ? null : sandbox.transaction!(id, hint);
      },
    };
    const first = new Date('2026-11-28T10:00:00.000Z');
    await recheckRefundsSentByHand(db, chain, 'test', first);
    expect(await row(refundId)).toEqual({ state: 'sent', missing_since: first });
    await recheckRefundsSentByHand(db, chain, 'test', new Date(first.getTime() + 60_000));
    expect((await row(refundId)).missing_since).toEqual(first);
    const answer = await call('refunds/get', { id: refundId });
    expect(answer.body.response.missingSince).toBe(first.toISOString());

    node = 'found';
    await recheckRefundsSentByHand(db, chain, 'test', new Date());
    expect(await row(refundId)).toEqual({ state: 'sent', missing_since: null });
    node = 'down';
    await recheckRefundsSentByHand(db, chain, 'test', new Date());
    expect(await row(refundId)).toEqual({ state: 'sent', missing_since: null });
    expect(await refundEvents(refundId)).toEqual(['refund.created', 'refund.ready', 'refund.sent']);
  });

  it('marks it not sent only after an hour and while the node does not find it: failed once, its amount refundable again', async () => {
    // The whole payment refunded: a new refund is possible only once this one lets its amount go.
    const { orderId, refundId } = await readyRefund(200_000_000n);
    const txId = await pay(payer, 200_000_000n);
    expect((await call('refunds/complete', { id: refundId, txId })).body.response.state).toBe('sent');
    const chain = sandboxAdapter(db, litecoin, requiredConfirmations('test', litecoin));
    const mark = (at: Date) => markRefundNotSent(db, scope(), refundId, { now: at, chain: () => chain });
    const again = async () => (await call('refunds/make', { orderId, amount: '0.1' })).body.error?.name;

    // Found: never offered, refused if asked.
    await expect(mark(new Date())).rejects.toThrow(`finds transaction ${txId}: the refund stays sent`);
    await drop(db, litecoin, txId);
    const missed = new Date('2026-11-28T10:00:00.000Z');
    await recheckRefundsSentByHand(db, chain, 'test', missed);
    expect((await row(refundId)).missing_since).toEqual(missed);
    await expect(mark(new Date(missed.getTime() + MISSING_BEFORE_NOT_SENT_MS - 1))).rejects.toThrow(
      /for less than an hour/,
    );
    expect(await again()).toBe('REFUND_EXCEEDS_RECEIVED');

    const later = new Date(missed.getTime() + MISSING_BEFORE_NOT_SENT_MS);
    const failed = await mark(later);
    expect(failed).toMatchObject({ id: refundId, state: 'failed', txId, missingSince: missed.toISOString() });
    expect(await mark(later).catch((e: Error) => e.message)).toMatch(/^Only a refund sent by hand, and not confirmed/);
    expect(await refundEvents(refundId)).toEqual(['refund.created', 'refund.ready', 'refund.sent', 'refund.failed']);
    expect(await again()).toBeUndefined();
  });

  it('refuses, and keeps the refund sent, when the node finds the transaction again at that moment', async () => {
    const { refundId } = await readyRefund();
    const txId = await pay(payer, 50_000_000n);
    await call('refunds/complete', { id: refundId, txId });
    const long = new Date(Date.now() - 2 * MISSING_BEFORE_NOT_SENT_MS);
    await db.query('update refunds set missing_since = $2 where id = $1', [refundId, long]);
    const chain = sandboxAdapter(db, litecoin, requiredConfirmations('test', litecoin));
    await expect(markRefundNotSent(db, scope(), refundId, { now: new Date(), chain: () => chain })).rejects.toThrow(
      `Your node finds transaction ${txId} now: the refund stays sent.`,
    );
    expect(await row(refundId)).toEqual({ state: 'sent', missing_since: null });
    expect(await refundEvents(refundId)).toEqual(['refund.created', 'refund.ready', 'refund.sent']);
  });
});

describe('refunds/make to the address the payment came from', () => {
  const ethereum = findNetwork('ethereum')!;
  /** A processed order of `currency` on `network` paid by one transfer of 1 coin from each of `senders`. */
  async function paidBy(network: string, currency: string, decimals: number, senders: string[]): Promise<string> {
    const made = await createOrder(db, merchant.test, { currency, network, amount: String(senders.length) });
    const order = await orderRow(db, made.id);
    const unit = 10n ** BigInt(decimals);
    await db.query(`update orders set status = 'processed', received = $2 where id = $1`, [
      order.id,
      (unit * BigInt(senders.length)).toString(),
    ]);
    for (const [i, sender] of senders.entries()) {
      await db.query(
        `insert into payments (order_id, merchant_id, mode, address_id, network, currency, tx_hash, output_index,
           address, tag, sender_address, amount, status, confirmations)
         values ($1, $2, 'test', $3, $4, $5, $6, 0, $7, $8, $9, $10, 'processed', 1)`,
        [
          order.id,
          order.merchant_id,
          order.address_id,
          network,
          currency,
          `${order.id}-${i}`,
          order.address,
          order.tag,
          sender,
          unit.toString(),
        ],
      );
    }
    return order.id;
  }
  /** Everything refunds/make may write for the merchant. */
  const written = async () =>
    (
      await db.query<{ refunds: number; balances: number; events: number; audit: number }>(
        `select (select count(*)::int from refunds where merchant_id = $1) as refunds,
                (select count(*)::int from refund_balances where merchant_id = $1) as balances,
                (select count(*)::int from events where merchant_id = $1 and type like 'refund.%') as events,
                (select count(*)::int from audit_log where merchant_id = $1 and action = 'refund.create') as audit`,
        [merchant.merchantId],
      )
    )[0];

  it('makes the refund ready to the one EVM sender, with no link, audited; it completes as any ready refund', async () => {
    const sender = (await createOrder(db, merchant.test, { currency: 'ETH', network: 'ethereum', amount: '1' }))
      .address;
    const orderId = await paidBy('ethereum', 'ETH', 18, [sender, sender.toLowerCase()]);
    const made = await call('refunds/make', { orderId, amount: '0.5', to: 'sender' });
    expect(made.status).toBe(200);
    expect(made.body.response).toMatchObject({
      state: 'ready',
      address: sender,
      tag: null,
      claimUrl: null,
      claim: { delivery: 'sender' },
      amount: '0.5',
    });
    const refundId = made.body.response.id as string;
    const [audit] = await db.query<{ actor: string; detail: Record<string, unknown> }>(
      "select actor, detail from audit_log where action = 'refund.create' and detail->>'refundId' = $1",
      [refundId],
    );
    expect(audit).toEqual({
      actor: `API key ${refunder.publicKey}`,
      detail: { refundId, amount: '0.5', currency: 'ETH', to: 'sender', mode: 'test' },
    });
    const events = await db.query<{ type: string }>('select type from events where object_id = $1 order by position', [
      refundId,
    ]);
    expect(events.map((e) => e.type)).toEqual(['refund.created', 'refund.ready']);

    // Sent by hand from any wallet, like a refund whose payer confirmed the address.
    const { txHash } = await broadcast(db, { network: ethereum, to: sender, currency: 'ETH', amount: 5n * 10n ** 17n });
    const sent = await call('refunds/complete', { id: refundId, txId: txHash });
    expect(sent.status).toBe(200);
    expect(sent.body.response).toMatchObject({ id: refundId, txId: txHash, address: sender });
    expect(['sent', 'confirmed']).toContain(sent.body.response.state);
  });

  it('refuses two senders, the Bitcoin family and the XRP Ledger with REFUND_DESTINATION_REFUSED, and writes nothing', async () => {
    const one = (await createOrder(db, merchant.test, { currency: 'ETH', network: 'ethereum', amount: '1' })).address;
    const two = (await createOrder(db, merchant.test, { currency: 'ETH', network: 'ethereum', amount: '1' })).address;
    const cases: [string, RegExp][] = [
      [await paidBy('ethereum', 'ETH', 18, [one, two]), /did not come from one address/],
      [await paidBy('litecoin', 'LTC', 8, [payer]), /did not come from one address/],
      [
        await paidBy('ripple', 'XRP', 6, ['rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh']),
        /needs the destination tag.*claim link/,
      ],
    ];
    const before = await written();
    for (const [orderId, message] of cases) {
      const refused = await call('refunds/make', { orderId, amount: '0.5', to: 'sender' });
      expect([refused.status, refused.body.error?.name], orderId).toEqual([422, 'REFUND_DESTINATION_REFUSED']);
      expect(refused.body.error.details[0].path).toBe('to');
      expect(refused.body.error.message).toMatch(message);
    }
    const unknown = await call('refunds/make', { orderId: cases[0]![0], amount: '0.5', to: 'wallet' });
    expect([unknown.status, unknown.body.error.name, unknown.body.error.details[0].path]).toEqual([
      400,
      'VALIDATION_ERROR',
      'to',
    ]);
    expect(await written()).toEqual(before);
    // The same order refunds by claim link as before.
    const byClaim = await call('refunds/make', { orderId: cases[0]![0], amount: '0.5' });
    expect(byClaim.body.response).toMatchObject({ state: 'awaiting_address', claim: { delivery: 'shared' } });
    expect(byClaim.body.response.claimUrl).toEqual(expect.any(String));
  });
});
