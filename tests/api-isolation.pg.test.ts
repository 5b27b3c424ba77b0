/**
 * Scoping: a merchant's key reads only that merchant's data, and a test key never sees live
 * data (nor a live key test data), whatever identifier it is given.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, startTestGateway, type TestGateway } from './support/gateway';
import { fakeTxHash, insertDeposit, insertPayment } from './support/fixtures';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let gateway: TestGateway;
let alice: TestMerchant;
let bob: TestMerchant;
let order: {
  orderId: string;
  addressId: string;
  address: string;
  tag: string | null;
  currency: string;
  network: string;
};
let depositId: string;
const tx = fakeTxHash();

beforeAll(async () => {
  gateway = await startTestGateway();
  alice = await createTestMerchant(gateway.db, 'Alice');
  bob = await createTestMerchant(gateway.db, 'Bob');
  const made = await call(
    gateway,
    'make-order',
    { currency: 'BTC', network: 'bitcoin', amount: '0.1', order: 'alice-1' },
    alice.test,
  );
  order = made.body.response;
  await insertPayment(gateway.db, order, { merchantId: alice.merchantId, mode: 'test', txHash: tx, amount: 1000n });
  depositId = await insertDeposit(gateway.db, order, {
    merchantId: alice.merchantId,
    mode: 'test',
    txHash: tx,
    amount: 500n,
  });
});
afterAll(() => gateway?.close());

it('lets the owner read its order, deposit and operations', async () => {
  expect((await call(gateway, 'order', { orderId: order.orderId }, alice.test)).status).toBe(200);
  expect((await call(gateway, 'orphan-deposits/get-deposit', { id: depositId }, alice.test)).status).toBe(200);
  expect((await call(gateway, 'find-tx', { tx }, alice.test)).body.response).toHaveLength(2);
});

it('answers 404 and [] to another merchant', async () => {
  expect((await call(gateway, 'order', { orderId: order.orderId }, bob.test)).status).toBe(404);
  const deposit = await call(gateway, 'orphan-deposits/get-deposit', { id: depositId }, bob.test);
  expect(deposit.status).toBe(404);
  expect(deposit.body.error.name).toBe('NOT_FOUND');
  expect((await call(gateway, 'find-tx', { tx }, bob.test)).body.response).toEqual([]);
  expect((await call(gateway, 'orders', {}, bob.test)).body.response.total).toBe(0);
});

it("never shows test data to the same merchant's live key", async () => {
  expect((await call(gateway, 'order', { orderId: order.orderId }, alice.live)).status).toBe(404);
  expect((await call(gateway, 'orphan-deposits/get-deposit', { id: depositId }, alice.live)).status).toBe(404);
  expect((await call(gateway, 'find-tx', { tx }, alice.live)).body.response).toEqual([]);
  expect((await call(gateway, 'orders', {}, alice.live)).body.response.total).toBe(0);
});

it('never shows live data to a test key', async () => {
  // A live order row as the live adapters will write it (no live network is configurable yet).
  const [live] = await gateway.db.query<{ id: string }>(
    `insert into orders (id, merchant_id, mode, client_order_id, currency, network, amount, tolerance_percent, threshold,
                         address_id, address, lifetime, expires_at)
     select gen_random_uuid(), $1, 'live', 'live-1', 'BTC', 'bitcoin', 1000, 0, 1000, id, address, 7200, now() + interval '2 hours'
       from addresses where id = $2 returning id`,
    [alice.merchantId, order.addressId],
  );
  const liveTx = fakeTxHash();
  await insertPayment(
    gateway.db,
    { ...order, orderId: live!.id },
    { merchantId: alice.merchantId, mode: 'live', txHash: liveTx, amount: 1000n },
  );
  expect((await call(gateway, 'order', { orderId: live!.id }, alice.live)).status).toBe(200);
  expect((await call(gateway, 'order', { orderId: live!.id }, alice.test)).status).toBe(404);
  expect((await call(gateway, 'find-tx', { tx: liveTx }, alice.test)).body.response).toEqual([]);
  expect((await call(gateway, 'find-tx', { tx: liveTx }, alice.live)).body.response).toHaveLength(1);
  // The same `order` in the other mode is another order, not a conflict.
  const sameIdTest = await call(
    gateway,
    'make-order',
    { currency: 'LTC', network: 'litecoin', amount: '3', order: 'live-1' },
    alice.test,
  );
  expect(sameIdTest.status).toBe(200);
});

it('keeps idempotency keys per merchant: the same order id at two merchants is two orders', async () => {
  const request = { currency: 'ETH', network: 'ethereum', amount: '1', order: 'shared-id' };
  const a = await call(gateway, 'make-order', request, alice.test);
  const b = await call(gateway, 'make-order', { ...request, amount: '2' }, bob.test);
  expect(a.status).toBe(200);
  expect(b.status).toBe(200);
  expect(a.body.response.orderId).not.toBe(b.body.response.orderId);
});
