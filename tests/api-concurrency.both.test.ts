/**
 * Idempotency under concurrency: the same `order` sent 50 times at once creates one order and
 * every answer names it; the same `order` with another amount gets 409; bursts larger than the
 * address pool get distinct addresses.
 */
import { expect, it } from 'vitest';
import { call, withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));

it('creates exactly one order for 50 concurrent requests with the same order', async () => {
  const request = { currency: 'USDT', network: 'tron', amount: '42', order: 'concurrent-1' };
  const answers = await Promise.all(
    Array.from({ length: 50 }, () => call(gateway, 'make-order', request, merchant.test)),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
  const ids = new Set(answers.map((a) => a.body.response.orderId));
  expect(ids.size).toBe(1);
  const [count] = await gateway.db.query<{ n: number }>(
    `select count(*)::int as n from orders where client_order_id = 'concurrent-1'`,
  );
  expect(count!.n).toBe(1);
  // The requests that lost the race took pool positions that stay unused (decision 002): the
  // winner's address is its alone, and the next order on the network gets another one.
  const next = await call(gateway, 'make-order', { ...request, order: 'concurrent-2' }, merchant.test);
  expect(next.status).toBe(200);
  const ordersPerAddress = await gateway.db.query<{ address: string; orders: number }>(
    `select address, count(*)::int as orders from orders where network = 'tron' group by address order by address`,
  );
  const addresses = [answers[0]!.body.response.address, next.body.response.address].sort();
  expect(ordersPerAddress).toEqual(addresses.map((address) => ({ address, orders: 1 })));

  const conflict = await call(gateway, 'make-order', { ...request, amount: '43' }, merchant.test);
  expect(conflict.status).toBe(409);
  expect(conflict.body.error.name).toBe('ORDER_CONFLICT');
});

it('keeps 50 concurrent distinct orders apart, each with its own address', async () => {
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      call(
        gateway,
        'make-order',
        { currency: 'ETH', network: 'ethereum', amount: '1', order: `distinct-${i}` },
        merchant.test,
      ),
    ),
  );
  expect(answers.filter((a) => a.status !== 200).map((a) => a.body)).toEqual([]);
  expect(new Set(answers.map((a) => a.body.response.address)).size).toBe(50);
});

it("serialises one user's concurrent first orders onto one personal address", async () => {
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      call(
        gateway,
        'make-order',
        {
          currency: ['BTC', 'USDT'][i % 2] === 'BTC' ? 'ETH' : 'USDT',
          network: 'ethereum',
          amount: '1',
          order: `personal-race-${i}`,
          externalUserId: 'racer',
        },
        merchant.test,
      ),
    ),
  );
  const created = answers.filter((a) => a.status === 200);
  // One pending order per currency on the personal address: one ETH and one USDT order win.
  expect(created).toHaveLength(2);
  expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.name === 'PERSONAL_ADDRESS_BUSY')).toBe(
    true,
  );
  expect(new Set(created.map((a) => a.body.response.address)).size).toBe(1);
});

it('serves a burst four times the address pool as refills arrive; a request refused meanwhile is safe to retry', async () => {
  // ADDRESS_POOL_SIZE is 32 in tests (support/gateway.ts): most of these wait for the derivation thread.
  const body = (i: number) => ({ currency: 'TRX', network: 'tron', amount: '1', order: `burst-${i}` });
  let answers = await Promise.all(
    Array.from({ length: 128 }, (_, i) => call(gateway, 'make-order', body(i), merchant.test)),
  );
  const refused = answers.filter((a) => a.status !== 200);
  // A request that waited too long for an address is told so with a 503 at once, never a hang or a 500.
  expect(
    refused.every(
      (a) => a.status === 503 && a.body.error.name === 'OVERLOADED' && a.headers.get('retry-after') === '1',
    ),
  ).toBe(true);
  for (let round = 0; round < 5 && answers.some((a) => a.status !== 200); round++) {
    answers = await Promise.all(
      answers.map((a, i) => (a.status === 200 ? a : call(gateway, 'make-order', body(i), merchant.test))),
    );
  }
  expect(answers.map((a) => a.status)).toEqual(Array(128).fill(200));
  expect(new Set(answers.map((a) => a.body.response.address)).size).toBe(128);
  const [orders] = await gateway.db.query<{ n: number; addresses: number }>(
    `select count(*)::int as n, count(distinct address)::int as addresses from orders where client_order_id like 'burst-%'`,
  );
  expect(orders).toEqual({ n: 128, addresses: 128 });
});
