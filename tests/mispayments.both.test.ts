/**
 * Mispayments (lib/mispayments, docs/decisions/069) over the sandbox ledger and the real watcher:
 * "pay the rest" makes one remainder order however often (and however concurrently: PostgreSQL
 * runs the opens side by side, hence both databases) it is opened; paying it settles the original
 * with `order.resolved` in the same transaction, the original's status never moving; the
 * merchant's late-payment rule and dashboard decision settle an order once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import { updateLatePaymentRule } from '@/lib/merchants';
import { decideMispayment, mispaymentsOf, openRemainder } from '@/lib/mispayments';
import { openTestDatabase } from './support/database';
import { after, createOrder, eventsOf, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let db: Database;
let merchant: TestMerchant;

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
});
afterAll(async () => {
  await db?.close();
});

async function pay(
  to: { address: string; tag: string | null },
  net: string,
  currency: string,
  amount: bigint,
  at?: Date,
) {
  await broadcast(db, { network: network(net), to: to.address, tag: to.tag, currency, amount, at });
}

async function resolvedEvents(orderId: string) {
  return db.query<{ type: string; data: Record<string, unknown> }>(
    `select type, data::json as data from events where type = 'order.resolved' and object_id = $1`,
    [orderId],
  );
}

async function resolution(orderId: string) {
  const [row] = await db.query<{
    kind: string;
    decided_by: string;
    total_received: string;
    remainder_order_id: string | null;
  }>('select kind, decided_by, total_received, remainder_order_id from order_resolutions where order_id = $1', [
    orderId,
  ]);
  return row;
}

describe('pay the rest', () => {
  it('one remainder however often it is opened; paying it resolves the original, whose status stays', async () => {
    const chain = sandboxChain(db, 'litecoin');
    const original = await createOrder(db, merchant.test, {
      currency: 'LTC',
      network: 'litecoin',
      amount: '1',
      successWebhook: 'https://store.example/paid',
    });
    await pay(original, 'litecoin', 'LTC', 40_000_000n);
    await mine(db, network('litecoin'), 2);
    await watchOnce(db, chain);
    await mine(db, network('litecoin'), 1, after(original.expires_at, 1));
    await watchOnce(db, chain, { now: after(original.expires_at, 2) });
    expect(await orderRow(db, original.id)).toMatchObject({ status: 'partial', received: '40000000' });

    // Twenty payers at once, then a hundred one after the other: one order, one address.
    const opened = await Promise.all(Array.from({ length: 20 }, () => openRemainder(db, original.id)));
    for (let i = 0; i < 100; i++) opened.push(await openRemainder(db, original.id));
    expect(new Set(opened.map((o) => o.orderId)).size).toBe(1);
    const rest = await orderRow(db, opened[0]!.orderId);
    expect(rest).toMatchObject({
      status: 'pending',
      amount: '60000000',
      remainder_of: original.id,
      currency: 'LTC',
      success_webhook: 'https://store.example/paid',
    });
    const [{ n }] = (await db.query<{ n: number }>('select count(*)::int as n from orders where remainder_of = $1', [
      original.id,
    ])) as [{ n: number }];
    expect(n).toBe(1);
    // A remainder offers no remainder of its own.
    await expect(openRemainder(db, rest.id)).rejects.toMatchObject({ kind: 'NoRemainder' });

    await pay(rest, 'litecoin', 'LTC', 60_000_000n);
    await mine(db, network('litecoin'), 2);
    await watchOnce(db, chain, { now: after(original.expires_at, 3) });
    expect(await orderRow(db, rest.id)).toMatchObject({ status: 'processed' });
    expect(await orderRow(db, original.id)).toMatchObject({ status: 'partial', received: '40000000' });
    expect(await resolution(original.id)).toEqual({
      kind: 'remainder_paid',
      decided_by: 'payer',
      total_received: '100000000',
      remainder_order_id: rest.id,
    });
    expect(await resolvedEvents(original.id)).toEqual([
      {
        type: 'order.resolved',
        data: expect.objectContaining({
          orderId: original.id,
          remainderOrderId: rest.id,
          kind: 'remainder_paid',
          decidedBy: 'payer',
          amount: '1',
          totalReceived: '1',
        }),
      },
    ]);
    // The remainder has its own seed-shaped success webhook, like any order.
    const webhooks = await db.query<{ kind: string; order_id: string }>(
      `select kind, order_id from webhook_events where order_id = $1 and kind = 'success'`,
      [rest.id],
    );
    expect(webhooks).toEqual([{ kind: 'success', order_id: rest.id }]);
    // The dashboard's chain: the original names its remainder and its settlement; the remainder its original.
    const scope = { merchantId: merchant.merchantId, mode: 'test' };
    const facts = await mispaymentsOf(db, scope, [original.id, rest.id]);
    expect(facts.get(original.id)).toMatchObject({
      waiting: false,
      rest: { orderId: rest.id, status: 'processed' },
      settlement: { kind: 'remainder_paid', decidedBy: 'payer', totalReceived: '1' },
    });
    expect(facts.get(rest.id)).toMatchObject({ remainderOf: original.id, waiting: false });
    // Another merchant's scope sees none of it.
    expect((await mispaymentsOf(db, { merchantId: crypto.randomUUID(), mode: 'test' }, [original.id])).size).toBe(0);
    // Settled: the original offers nothing more, and the merchant has nothing to decide.
    expect((await openRemainder(db, original.id)).orderId).toBe(rest.id);
    await expect(
      decideMispayment(
        db,
        { merchantId: merchant.merchantId, mode: 'test', userId: merchant.merchantId },
        original.id,
        'accept',
      ),
    ).rejects.toMatchObject({ kind: 'NothingToDecide' });
  });

  it('offers no remainder below the minimum, nor for an order that received nothing', async () => {
    const chain = sandboxChain(db, 'dogecoin');
    const nearly = await createOrder(db, merchant.test, { currency: 'DOGE', network: 'dogecoin', amount: '100' });
    const nothing = await createOrder(db, merchant.test, { currency: 'DOGE', network: 'dogecoin', amount: '100' });
    await pay(nearly, 'dogecoin', 'DOGE', 9_950_000_000n);
    await mine(db, network('dogecoin'), 2);
    await watchOnce(db, chain);
    await mine(db, network('dogecoin'), 1, after(nothing.expires_at, 1));
    await watchOnce(db, chain, { now: after(nothing.expires_at, 2) });
    expect((await orderRow(db, nearly.id)).status).toBe('partial');
    await expect(openRemainder(db, nearly.id)).rejects.toMatchObject({ kind: 'NoRemainder' });
    await expect(openRemainder(db, nothing.id)).rejects.toMatchObject({ kind: 'NoRemainder' });
    await expect(openRemainder(db, 'not-a-uuid')).rejects.toMatchObject({ kind: 'NotFound' });
  });
  it("the merchant's decision closes an open remainder: paid after it, the remainder counts nothing and ends expired", async () => {
    const chain = sandboxChain(db, 'litecoin');
    const original = await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' });
    await pay(original, 'litecoin', 'LTC', 30_000_000n);
    await mine(db, network('litecoin'), 2);
    await watchOnce(db, chain);
    await mine(db, network('litecoin'), 1, after(original.expires_at, 1));
    await watchOnce(db, chain, { now: after(original.expires_at, 2) });
    const rest = await orderRow(db, (await openRemainder(db, original.id)).orderId);
    expect(rest).toMatchObject({ status: 'pending', amount: '70000000' });

    const decidedAt = new Date();
    const scope = { merchantId: merchant.merchantId, mode: 'test' as const, userId: merchant.merchantId };
    expect(await decideMispayment(db, scope, original.id, 'accept')).toMatchObject({
      resolution: { kind: 'accepted', remainderOrderId: rest.id },
      refunds: [],
    });
    // Closed in the decision's transaction: its deadline is the decision, so nothing sent later is a payment.
    const closed = await orderRow(db, rest.id);
    expect(closed.status).toBe('pending');
    expect(closed.expires_at.getTime()).toBeLessThanOrEqual(Date.now());
    expect(closed.expires_at.getTime()).toBeGreaterThanOrEqual(decidedAt.getTime() - 1000);
    expect((await openRemainder(db, original.id)).orderId).toBe(rest.id);

    // The payer pays the remainder anyway: a late orphan deposit, never a second payment of the order.
    const paidAt = after(closed.expires_at, 60);
    await pay(rest, 'litecoin', 'LTC', 70_000_000n, paidAt);
    await mine(db, network('litecoin'), 2, after(paidAt, 1));
    await watchOnce(db, chain, { now: after(paidAt, 2) });
    expect(await orderRow(db, rest.id)).toMatchObject({ status: 'expired', received: '0' });
    expect(await eventsOf(db, rest.id)).toContainEqual({ from_status: 'pending', to_status: 'expired' });
    expect(await resolution(rest.id)).toBeUndefined();
    expect(await resolution(original.id)).toMatchObject({ kind: 'accepted', decided_by: 'merchant' });
    expect(await resolvedEvents(original.id)).toHaveLength(1);
  });
});

describe('late payments', () => {
  it("the merchant's rule settles a late payment within N minutes; a later one waits for the merchant", async () => {
    const other = await createTestMerchant(db);
    await updateLatePaymentRule(db, other.merchantId, { minutes: 30, rateMovePercent: '2' });
    const chain = sandboxChain(db, 'bitcoincash');
    const inTime = await createOrder(db, other.test, { currency: 'BCH', network: 'bitcoincash', amount: '0.5' });
    const tooLate = await createOrder(db, other.test, { currency: 'BCH', network: 'bitcoincash', amount: '0.5' });
    const deadline = tooLate.expires_at;
    await mine(db, network('bitcoincash'), 1, after(deadline, 1));
    await watchOnce(db, chain, { now: after(deadline, 2) });
    expect((await orderRow(db, inTime.id)).status).toBe('expired');

    // Rule: 30 minutes. One paid (and mined) 20 minutes late, one 40 minutes late.
    await pay(inTime, 'bitcoincash', 'BCH', 50_000_000n, after(deadline, 19 * 60));
    await mine(db, network('bitcoincash'), 1, after(deadline, 20 * 60));
    await pay(tooLate, 'bitcoincash', 'BCH', 50_000_000n, after(deadline, 39 * 60));
    await mine(db, network('bitcoincash'), 2, after(deadline, 40 * 60));
    await watchOnce(db, chain, { now: after(deadline, 41 * 60) });

    expect(await orderRow(db, inTime.id)).toMatchObject({ status: 'expired', received: '0' });
    expect(await resolution(inTime.id)).toMatchObject({
      kind: 'accepted',
      decided_by: 'rule',
      total_received: '50000000',
    });
    expect(await resolvedEvents(inTime.id)).toHaveLength(1);
    expect(await resolution(tooLate.id)).toBeUndefined();

    const scope = { merchantId: other.merchantId, mode: 'test' as const, userId: other.merchantId };
    expect((await mispaymentsOf(db, scope, [tooLate.id])).get(tooLate.id)).toMatchObject({
      waiting: true,
      late: '0.5',
    });
    // Another merchant cannot decide it; its own can, once.
    await expect(
      decideMispayment(db, { ...scope, merchantId: merchant.merchantId }, tooLate.id, 'accept'),
    ).rejects.toMatchObject({ kind: 'NotFound' });
    expect((await decideMispayment(db, scope, tooLate.id, 'leave')).resolution).toMatchObject({
      kind: 'left',
      decidedBy: 'merchant',
    });
    await expect(decideMispayment(db, scope, tooLate.id, 'accept')).rejects.toMatchObject({ kind: 'NothingToDecide' });
    expect(await orderRow(db, tooLate.id)).toMatchObject({ status: 'expired', received: '0' });
    expect(await resolvedEvents(tooLate.id)).toHaveLength(1);
  });
});
