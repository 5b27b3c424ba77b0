/**
 * The README's examples are run as written against a real gateway: the curl request, and the
 * Node and Python signing code. A merchant copying them must get a created order.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';
import { docCodeAfter } from './support/docs';

const run = promisify(execFile);

let gateway: TestGateway;
let merchant: TestMerchant;
let dir: string;
withTestGateway((started) => ({ gateway, merchant } = started));
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-readme-'));
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function runExample(command: string, file: string, code: string) {
  const script = path.join(dir, file);
  fs.writeFileSync(script, code);
  const env = { ...process.env, GATEWAY_URL: gateway.baseUrl, PUBLIC_KEY: merchant.test.publicKey, PRIVATE_KEY: merchant.test.privateKey };
  const { stdout } = await run(command, [script], { env, timeout: 60_000 });
  return JSON.parse(stdout);
}

async function storedOrder(orderId: string) {
  const [row] = await gateway.db.query<{ client_order_id: string; amount: string }>('select client_order_id, amount::text from orders where id = $1', [orderId]);
  return row;
}

it('the curl example creates an order', async () => {
  const code = docCodeAfter('docs/api.md', '## A first request with curl').replaceAll('http://127.0.0.1:3000', gateway.baseUrl);
  const answer = await runExample('bash', 'first.sh', code);
  expect(answer).toMatchObject({ success: true, response: { status: 'pending', currency: 'USDT', network: 'tron', amount: '25.5', clientOrderId: 'order-1001' } });
  expect(await storedOrder(answer.response.orderId)).toEqual({ client_order_id: 'order-1001', amount: '25500000' });
});

it('the Node signing example creates an order', async () => {
  const answer = await runExample(process.execPath, 'sign.mjs', docCodeAfter('docs/api.md', '<!-- example:node'));
  expect(answer).toMatchObject({ success: true, response: { currency: 'BTC', network: 'bitcoin', amount: '0.0015' } });
  expect(await storedOrder(answer.response.orderId)).toMatchObject({ amount: '150000' });
});

it('the Python signing example creates an order', async () => {
  const answer = await runExample('python3', 'sign.py', docCodeAfter('docs/api.md', '<!-- example:python'));
  expect(answer).toMatchObject({ success: true, response: { currency: 'LTC', network: 'litecoin', amount: '0.25' } });
  expect(await storedOrder(answer.response.orderId)).toMatchObject({ amount: '25000000' });
});

it('the Node invoice example creates a USD invoice offering the coins it names', async () => {
  const answer = await runExample(process.execPath, 'invoice.mjs', docCodeAfter('docs/invoices.md', '<!-- example:invoice-node'));
  expect(answer).toMatchObject({ success: true, response: { status: 'CREATED', currency: 'USD', amount: '73.5', description: 'Two ceramic mugs' } });
  expect(answer.response.currencies).toEqual([
    { currency: 'USDT', networks: [{ name: 'tron', amount: '73.5' }, { name: 'ethereum', amount: '73.5' }] },
    { currency: 'BTC', networks: [{ name: 'bitcoin', amount: '0.001225' }] },
  ]);
  expect(answer.response.invoiceLink).toBe(`${gateway.baseUrl}/invoice/${answer.response.id}`);
});

it('the Python invoice example creates a EUR invoice with insurance', async () => {
  const answer = await runExample('python3', 'invoice.py', docCodeAfter('docs/invoices.md', '<!-- example:invoice-python'));
  // 19.90 EUR × 1.01 = 20.099 EUR; LTC at 80 USD = 74.074… EUR (18 decimals, half up).
  expect(answer).toMatchObject({ success: true, response: { currency: 'EUR', amount: '19.9', insurancePercent: '1', status: 'CREATED' } });
  expect(answer.response.currencies).toEqual([{ currency: 'LTC', networks: [{ name: 'litecoin', amount: '0.27133651' }] }]);
});
