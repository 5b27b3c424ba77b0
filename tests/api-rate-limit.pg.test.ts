/**
 * API_RATE_LIMIT: a key that sends more than its budget gets 429 RATE_LIMITED with retry-after,
 * and those requests write nothing; other keys are not affected; the budget comes back.
 */
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countRows } from './support/database';
import { call, startTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';

const LIMIT = 5;
let gateway: TestGateway;
let busy: TestMerchant;
let other: TestMerchant;
beforeAll(async () => {
  process.env.API_RATE_LIMIT = String(LIMIT);
  gateway = await startTestGateway();
  busy = await createTestMerchant(gateway.db);
  other = await createTestMerchant(gateway.db);
});
afterAll(() => gateway?.close());

const order = (i: number) => ({ currency: 'USDT', network: 'tron', amount: '1', order: `limited-${i}` });

it('answers 429 with retry-after beyond the budget, writes nothing for it, and lets other keys through', async () => {
  const before = await countRows(gateway.db);
  const burst = 6 * LIMIT;
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: burst }, (_, i) => call(gateway, 'make-order', order(i), busy.test)),
  );
  const seconds = (performance.now() - started) / 1000;
  const created = answers.filter((a) => a.status === 200).length;
  const limited = answers.filter((a) => a.status === 429);
  // The bucket holds one second of requests and refills at the rate while the burst is served
  // (longer on a loaded machine): at most LIMIT + LIMIT per second elapsed get through.
  expect(created).toBeGreaterThanOrEqual(LIMIT);
  expect(created).toBeLessThanOrEqual(LIMIT + Math.ceil(seconds * LIMIT));
  expect(limited.length).toBeGreaterThan(0);
  expect(limited).toHaveLength(burst - created);
  for (const answer of limited) {
    expect(answer.body.error).toMatchObject({ name: 'RATE_LIMITED', code: 2005 });
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }
  const after = await countRows(gateway.db);
  expect(after.orders! - before.orders!).toBe(created);
  expect(after.api_nonces! - before.api_nonces!).toBe(created);

  expect((await call(gateway, 'find-tx', {}, other.test)).status).toBe(200);
});

it('never lets forged requests spend a budget, and refuses them from their headers while it is spent', async () => {
  const fresh = await createTestMerchant(gateway.db);
  const forged = (keys: { publicKey: string }, body = '{}') =>
    fetch(`${gateway.baseUrl}/api-gateway/find-tx`, {
      method: 'POST',
      body,
      headers: { 'x-api-public-key': keys.publicKey, 'x-api-signature': '0'.repeat(64) },
    });
  const refused = await Promise.all(Array.from({ length: 3 * LIMIT }, () => forged(fresh.test)));
  expect(refused.map((r) => r.status)).toEqual(Array(3 * LIMIT).fill(401));
  // The whole budget is still there for the merchant's own requests.
  const own = await Promise.all(Array.from({ length: LIMIT }, () => call(gateway, 'find-tx', {}, fresh.test)));
  expect(own.map((a) => a.status)).toEqual(Array(LIMIT).fill(200));
  // Spend it to the end, then at once a request whose body never comes: refused from its headers.
  let last = await call(gateway, 'find-tx', {}, fresh.test);
  for (let i = 0; i < 3 * LIMIT && last.status === 200; i++) last = await call(gateway, 'find-tx', {}, fresh.test);
  expect(last.status).toBe(429);
  const answer = await new Promise<number>((resolve, reject) => {
    const req = http.request(`${gateway.baseUrl}/api-gateway/find-tx`, {
      method: 'POST',
      headers: { 'x-api-public-key': fresh.test.publicKey, 'x-api-signature': '0'.repeat(64), 'content-length': '100' },
    });
    req.on('response', (res) => resolve(res.statusCode!)).on('error', reject);
    req.write('{'); // and nothing more
  });
  expect(answer).toBe(429);
});

it('gives the budget back after retry-after', async () => {
  let answer = await call(gateway, 'find-tx', {}, busy.test);
  for (let i = 0; i < 3 * LIMIT && answer.status === 200; i++) answer = await call(gateway, 'find-tx', {}, busy.test);
  expect(answer.status).toBe(429);
  await new Promise((r) => setTimeout(r, Number(answer.headers.get('retry-after')) * 1000));
  expect((await call(gateway, 'find-tx', {}, busy.test)).status).toBe(200);
});
