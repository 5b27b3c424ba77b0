/**
 * The payer's refund choices (issue 38, docs/decisions/082): "get back what I sent" on an
 * underpaid order, "claim the excess" on an overpaid one. One refund per order, started by the
 * payer, bearing its fee, its link mailed to the payer only; nothing below the minimum, so dust
 * makes no refund; the order's status never moves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { requestPayerRefund } from '@/lib/mispayments';
import { createOrder, orderRow } from './support/chain';
import { openTestDatabase } from './support/database';
import { createTestMerchant, type TestMerchant } from './support/merchants';

process.env.APP_SECRET ??= 'test-app-secret-that-is-at-least-32-characters';

let db: Database;
let merchant: TestMerchant;
const now = new Date('2026-11-27T10:00:00.000Z');

/** A final litecoin order of `amount` LTC that received `received` base units. */
async function finalOrder(status: string, amount: string, received: bigint, payerEmail?: string) {
  const order = await createOrder(db, merchant.test, {
    currency: 'LTC',
    network: 'litecoin',
    amount,
    ...(payerEmail ? { payerEmail } : {}),
  });
  await db.query('update orders set status = $2, received = $3 where id = $1', [order.id, status, received.toString()]);
  return order;
}

async function refundsOf(orderId: string) {
  return db.query<{ amount: string; created_by: string; fee_from_refund: boolean; claim_delivery: string }>(
    'select amount, created_by, fee_from_refund, claim_delivery from refunds where order_id = $1',
    [orderId],
  );
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { kind?: string }).kind ?? String(error);
  }
  return 'accepted';
}

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
});
afterAll(async () => {
  await db?.close();
});

describe("the payer's refund choices", () => {
  it('gives an underpaid order back what it received, once, mailed to the payer, the fee borne by the refund', async () => {
    const order = await finalOrder('partial', '3', 100_000_000n, 'payer@example.com');
    const asked = await requestPayerRefund(db, order.id, 'sent', now);
    expect(asked.refund).toMatchObject({ amount: '1', state: 'awaiting_address', claim: { delivery: 'mail' } });
    expect(await requestPayerRefund(db, order.id, 'sent', now)).toEqual({ refund: null, existing: true });
    expect(await refundsOf(order.id)).toEqual([
      { amount: '100000000', created_by: 'payer', fee_from_refund: true, claim_delivery: 'mail' },
    ]);
    expect((await orderRow(db, order.id)).status).toBe('partial');
  });

  it("claims an overpaid order's excess, not what it was paid for", async () => {
    const order = await finalOrder('overpaid', '1', 150_000_000n, 'payer@example.com');
    expect(await refusal(requestPayerRefund(db, order.id, 'sent', now))).toBe('NoPayerRefund');
    expect((await requestPayerRefund(db, order.id, 'excess', now)).refund).toMatchObject({ amount: '0.5' });
    expect((await orderRow(db, order.id)).status).toBe('overpaid');
  });

  it('makes nothing below the minimum (a hundred dust asks, no refund), without the payer address, or for a processed order', async () => {
    const dust = await finalOrder('overpaid', '1', 100_900_000n, 'payer@example.com');
    for (let i = 0; i < 100; i++)
      expect(await refusal(requestPayerRefund(db, dust.id, 'excess', now))).toBe('NoPayerRefund');
    expect(await refundsOf(dust.id)).toEqual([]);
    const anonymous = await finalOrder('partial', '3', 100_000_000n);
    expect(await refusal(requestPayerRefund(db, anonymous.id, 'sent', now))).toBe('NoPayerRefund');
    const processed = await finalOrder('processed', '1', 100_000_000n, 'payer@example.com');
    expect(await refusal(requestPayerRefund(db, processed.id, 'sent', now))).toBe('NoPayerRefund');
    expect(await refusal(requestPayerRefund(db, crypto.randomUUID(), 'sent', now))).toBe('NotFound');
  });
});
