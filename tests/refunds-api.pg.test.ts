/**
 * refunds/make, refunds/get and refunds/list (docs/decisions/071), through the API's own wrapper
 * in this process (signature, nonce, scope, zod, envelope): in the coin and priced in fiat at the
 * invoice's, a custom and the current rate, each refusal with its documented error and nothing
 * written, and every answer checked against the operation's schema and the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { chooseCoin } from '@/lib/invoices';
import type { OperationName } from '@/lib/protocol';
import type { OrderRow } from '@/lib/orders/rows';
import { useDatabaseForApi } from './support/api-in-process';
import { createOrder } from './support/chain';
import { checkedCallInProcess } from './support/contract';
import { openTestDatabase } from './support/database';
import type { Keys } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';

process.env.APP_SECRET ??= 'test-app-secret-that-is-at-least-32-characters';

let db: Database;
let merchant: TestMerchant & { moneyOut: Keys };
let refunder: Keys;

const call = (path: OperationName, body: Record<string, unknown>, keys: Keys = refunder) =>
  checkedCallInProcess(path, body, keys);

/** A litecoin order that received its amount and is processed, as the watcher leaves it. */
async function paid(order: OrderRow): Promise<OrderRow> {
  await db.query(`update orders set status = 'processed', received = amount where id = $1`, [order.id]);
  return order;
}

async function refundCount(): Promise<number> {
  const [row] = await db.query<{ n: number }>('select count(*)::int as n from refunds');
  return row!.n;
}

beforeAll(async () => {
  db = await openTestDatabase();
  useDatabaseForApi(db);
  merchant = await createTestMerchant(db, undefined, { scopes: ['full', 'refunds'] });
  refunder = merchant.moneyOut;
});
afterAll(async () => {
  await db?.close();
});

describe('refunds/make', () => {
  it('refunds part of an order in the coin, answers the claim link, and leaves the order as it was', async () => {
    const order = await paid(
      await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '2' }),
    );
    const answer = await call('refunds/make', { orderId: order.id, amount: '0.5' });
    expect(answer.status).toBe(200);
    expect(answer.body.response).toMatchObject({
      state: 'awaiting_address',
      orderId: order.id,
      network: 'litecoin',
      currency: 'LTC',
      amount: '0.5',
      price: null,
      claim: { delivery: 'shared' },
      address: null,
    });
    expect(answer.body.response.claimUrl).toMatch(/\/refund\/[A-Za-z0-9_-]{43}$/);
    const got = await call('refunds/get', { id: answer.body.response.id });
    const { claimUrl: _, ...refund } = answer.body.response;
    expect(got.body.response).toEqual(refund);
    const listed = await call('refunds/list', { orderId: order.id });
    expect(listed.body.response.refunds.map((r: { id: string }) => r.id)).toEqual([refund.id]);
    const [row] = await db.query<{ status: string }>('select status from orders where id = $1', [order.id]);
    expect(row!.status).toBe('processed');
  });

  it("converts an invoice's fiat at the invoice's rate, a custom rate and the current rate, rounding down", async () => {
    const invoice = await call(
      'make-invoice',
      { currency: 'USD', amount: '100', externalId: 'refund-invoice', currencies: [{ currency: 'LTC' }] },
      merchant.test,
    );
    const order = await paid(await chooseCoin(db, invoice.body.response.id, { currency: 'LTC', network: 'litecoin' }));
    const [invoiceRow] = await db.query<{ rate: string }>('select rate from invoices where id = $1', [
      invoice.body.response.id,
    ]);

    const atInvoiceRate = await call('refunds/make', {
      invoiceId: invoice.body.response.id,
      amount: '10',
      currency: 'usd',
    });
    expect(atInvoiceRate.status).toBe(200);
    expect(atInvoiceRate.body.response).toMatchObject({
      invoiceId: invoice.body.response.id,
      orderId: order.id,
      price: { amount: '10', currency: 'USD', rate: invoiceRow!.rate, rateSource: 'invoice' },
    });

    // 10 USD at 30 USD per LTC: 0.33333333 LTC, the last base unit rounded down.
    const custom = await call('refunds/make', { orderId: order.id, amount: '10', currency: 'USD', rate: '30' });
    expect(custom.body.response).toMatchObject({
      amount: '0.33333333',
      price: { amount: '10', currency: 'USD', rate: '30', rateSource: 'custom' },
    });

    const current = await call('refunds/make', { orderId: order.id, amount: '1', currency: 'USD', rate: 'current' });
    expect(current.status, JSON.stringify(current.body)).toBe(200);
    expect(current.body.response.price.rateSource).toBe('current');

    // A rate of its own only an invoice has; an order made by make-order needs one given.
    const plain = await paid(
      await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' }),
    );
    const refused = await call('refunds/make', { orderId: plain.id, amount: '1', currency: 'USD' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.name).toBe('REFUND_REFUSED');
  });
});

describe('refusals, each with nothing written', () => {
  let order: OrderRow;
  beforeAll(async () => {
    order = await paid(await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' }));
  });

  it.each([
    ['an 80-digit amount', () => ({ orderId: order.id, amount: '9'.repeat(80) }), 400, 'VALIDATION_ERROR'],
    ['no payment named', () => ({ amount: '1' }), 400, 'VALIDATION_ERROR'],
    ['two payments named', () => ({ orderId: order.id, invoiceId: order.id, amount: '1' }), 400, 'VALIDATION_ERROR'],
    ['a NUL byte in the id', () => ({ orderId: 'a\u0000b', amount: '1' }), 400, 'VALIDATION_ERROR'],
    [
      'a rate that is no decimal',
      () => ({ orderId: order.id, amount: '1', currency: 'USD', rate: '1e3' }),
      400,
      'VALIDATION_ERROR',
    ],
    ['more decimals than the coin has', () => ({ orderId: order.id, amount: '0.000000001' }), 409, 'REFUND_REFUSED'],
    ['more than was received', () => ({ orderId: order.id, amount: '1.00000001' }), 409, 'REFUND_EXCEEDS_RECEIVED'],
    ['a 77-digit amount', () => ({ orderId: order.id, amount: '9'.repeat(69) }), 409, 'REFUND_EXCEEDS_RECEIVED'],
    ['an order that is not there', () => ({ orderId: crypto.randomUUID(), amount: '1' }), 404, 'NOT_FOUND'],
  ] as const)('%s', async (_, body, status, name) => {
    const before = await refundCount();
    const answer = await call('refunds/make', body());
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(answer.body.error.name).toBe(name);
    expect(await refundCount()).toBe(before);
  });

  it('refuses a pending order', async () => {
    const pending = await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' });
    const answer = await call('refunds/make', { orderId: pending.id, amount: '0.1' });
    expect(answer.status).toBe(409);
    expect(answer.body.error.name).toBe('REFUND_REFUSED');
  });

  it('refuses refunds/make to a key without the refunds scope, and lets it read refunds', async () => {
    const answer = await call('refunds/make', { orderId: order.id, amount: '0.1' }, merchant.test);
    expect(answer.status).toBe(403);
    expect(answer.body.error.name).toBe('INSUFFICIENT_SCOPE');
    expect((await call('refunds/list', {}, merchant.test)).status).toBe(200);
  });

  it("answers another merchant's refund as not found", async () => {
    const made = await call('refunds/make', { orderId: order.id, amount: '0.1' });
    const theirs = (await createTestMerchant(db, undefined, { scopes: ['full', 'refunds'] })).moneyOut;
    const answer = await call('refunds/get', { id: made.body.response.id }, theirs);
    expect(answer.status).toBe(404);
    expect((await call('refunds/list', { orderId: order.id }, theirs)).body.response.refunds).toEqual([]);
    const before = await refundCount();
    expect((await call('refunds/make', { orderId: order.id, amount: '0.1' }, theirs)).status).toBe(404);
    expect(await refundCount()).toBe(before);
  });
});
