/**
 * The docs' request examples run as a newcomer runs them, against a real gateway: the curl request
 * and the Node and Python signing code of docs/api.md, the invoice code of docs/invoices.md. Each
 * runs in a fresh shell in a folder laid out as after `npm start` (data/demo-store.json with the
 * merchant's test keys), with nothing exported but PATH, HOME and GATEWAY_URL, the override the
 * examples document (the test gateway listens on a free port, not 3000). A merchant copying them
 * must get a created order.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';
import { docCodeAfter, exampleScript, freshShellEnv, newcomerFolder } from './support/docs';

const run = promisify(execFile);

let gateway: TestGateway;
let merchant: TestMerchant;
let dir: string;
withTestGateway((started) => ({ gateway, merchant } = started));
beforeAll(async () => {
  dir = newcomerFolder({ merchantId: merchant.merchantId, ...merchant.test });
});
afterAll(async () => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs the example `marker` of `file` in a fresh `bash -c` in the newcomer's folder; its output is JSON. */
async function runExample(file: string, marker: string) {
  const script = exampleScript(dir, docCodeAfter(file, marker));
  const { stdout } = await run('bash', ['-c', script], {
    cwd: dir,
    env: freshShellEnv(dir, { GATEWAY_URL: gateway.baseUrl }),
    timeout: 60_000,
  });
  return JSON.parse(stdout);
}

async function storedOrder(orderId: string) {
  const [row] = await gateway.db.query<{ client_order_id: string; amount: string }>(
    'select client_order_id, amount::text from orders where id = $1',
    [orderId],
  );
  return row;
}

it('the curl example creates an order', async () => {
  const answer = await runExample('docs/api.md', '<!-- example:curl');
  expect(answer).toMatchObject({
    success: true,
    response: { status: 'pending', currency: 'USDT', network: 'tron', amount: '25.5', clientOrderId: 'order-1001' },
  });
  expect(await storedOrder(answer.response.orderId)).toEqual({ client_order_id: 'order-1001', amount: '25500000' });
});

it('the Node signing example creates an order', async () => {
  const answer = await runExample('docs/api.md', '<!-- example:node');
  expect(answer).toMatchObject({ success: true, response: { currency: 'BTC', network: 'bitcoin', amount: '0.0015' } });
  expect(await storedOrder(answer.response.orderId)).toMatchObject({ amount: '150000' });
});

it('the Python signing example creates an order', async () => {
  const answer = await runExample('docs/api.md', '<!-- example:python');
  expect(answer).toMatchObject({ success: true, response: { currency: 'LTC', network: 'litecoin', amount: '0.25' } });
  expect(await storedOrder(answer.response.orderId)).toMatchObject({ amount: '25000000' });
});

it('the Node invoice example creates a USD invoice offering the coins it names', async () => {
  const answer = await runExample('docs/invoices.md', '<!-- example:invoice-node');
  expect(answer).toMatchObject({
    success: true,
    response: { status: 'CREATED', currency: 'USD', amount: '73.5', description: 'Two ceramic mugs' },
  });
  expect(answer.response.currencies).toEqual([
    {
      currency: 'USDT',
      networks: [
        { name: 'tron', amount: '73.5' },
        { name: 'ethereum', amount: '73.5' },
      ],
    },
    { currency: 'BTC', networks: [{ name: 'bitcoin', amount: '0.001225' }] },
  ]);
  expect(answer.response.invoiceLink).toBe(`${gateway.baseUrl}/invoice/${answer.response.id}`);
});

it('the Python invoice example creates a EUR invoice with insurance', async () => {
  const answer = await runExample('docs/invoices.md', '<!-- example:invoice-python');
  // 19.90 EUR × 1.01 = 20.099 EUR; LTC at 80 USD = 74.074… EUR (18 decimals, half up).
  expect(answer).toMatchObject({
    success: true,
    response: { currency: 'EUR', amount: '19.9', insurancePercent: '1', status: 'CREATED' },
  });
  expect(answer.response.currencies).toEqual([
    { currency: 'LTC', networks: [{ name: 'litecoin', amount: '0.27133651' }] },
  ]);
});
