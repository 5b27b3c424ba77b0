import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, startTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let gateway: TestGateway;
let merchant: TestMerchant;
beforeAll(async () => {
  gateway = await startTestGateway();
  merchant = await createTestMerchant(gateway.db);
});
afterAll(() => gateway?.close());

it('creates an order', async () => {
  const answer = await call(gateway, 'make-order', { currency: 'BTC', network: 'bitcoin', amount: '0.1', order: 'x1' }, merchant.test);
  expect(answer.status).toBe(200);
  expect(answer.body.response.status).toBe('pending');
});
