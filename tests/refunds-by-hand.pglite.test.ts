/**
 * A refund sent by hand, completed by its transaction id (docs/decisions/092), in test mode on the
 * sandbox ledger, through `refunds/complete` in this process (signature, nonce, scope, zod,
 * envelope; every answer against its schema and the OpenAPI document): each refusal with its
 * documented error and nothing written, a mempool transaction making the refund sent and the
 * watcher's re-check confirming it, one transaction never completing two refunds, the audit log,
 * and the order unchanged throughout. The families' lookups are unit-tested in
 * lib/chains/transaction.test.ts, the judgement in lib/refunds/transfer-check.test.ts, litecoind
 * in tests/refunds-litecoind.pg.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNetwork } from '@/lib/catalog';
import { broadcast, mine, requiredConfirmations, sandboxAdapter } from '@/lib/chains';
import type { Database } from '@/lib/db/client';
import type { OperationName } from '@/lib/protocol';
import { confirmClaim, makeRefund, recheckRefundsSentByHand } from '@/lib/refunds';
import { useDatabaseForApi } from './support/api-in-process';
import { createOrder } from './support/chain';
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
