/**
 * The typed client (lib/client) against the real API over HTTP: typed answers, its error types,
 * and what it retries. Where a failure cannot be produced by the gateway on demand (an overloaded
 * gateway, a lost answer, a server that is not a gateway), a small HTTP proxy in front of the real
 * gateway produces it; every request that reaches the gateway is real.
 *
 * The client's behaviour does not depend on the database, so this file runs on PGlite only.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  GatewayApiError,
  GatewayClient,
  GatewayProtocolError,
  GatewayTimeoutError,
  GatewayUnreachableError,
  type GatewayClientOptions,
} from '@/lib/client';
import { freePort } from '../scripts/lib/postgres.mjs';
import { withTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let gateway: TestGateway;
let merchant: TestMerchant;

withTestGateway((started) => ({ gateway, merchant } = started));

function client(options: Partial<GatewayClientOptions> = {}): GatewayClient {
  return new GatewayClient({ baseUrl: gateway.baseUrl, ...merchant.test, retryDelayMs: 10, ...options });
}

async function ordersNamed(clientOrderId: string): Promise<number> {
  const [row] = await gateway.db.query<{ n: number }>(
    'select count(*)::int as n from orders where client_order_id = $1',
    [clientOrderId],
  );
  return row!.n;
}

interface Seen {
  body: string;
  nonce: unknown;
}

/**
 * An HTTP server in front of the gateway: `answer(n, request)` decides what the n-th request (from
 * 1) gets: 'forward' passes it to the gateway, a function writes its own answer.
 */
async function proxy(
  answer: (
    n: number,
    seen: Seen,
  ) => 'forward' | ((res: http.ServerResponse, forward: () => Promise<Response>) => unknown),
) {
  const seen: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const request = { body, nonce: JSON.parse(body).nonce };
    seen.push(request);
    const forward = () =>
      fetch(`${gateway.baseUrl}${req.url}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-public-key': String(req.headers['x-api-public-key']),
          'x-api-signature': String(req.headers['x-api-signature']),
        },
        body,
      });
    const decision = answer(seen.length, request);
    if (decision !== 'forward') return void (await decision(res, forward));
    const upstream = await forward();
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const overloaded = (res: http.ServerResponse) =>
  res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' }).end(
    JSON.stringify({
      success: false,
      error: { code: 5003, name: 'OVERLOADED', message: 'The gateway is busy; retry shortly.', details: [] },
      requestId: 'proxy',
    }),
  );

describe('typed API client over HTTP', () => {
  it('answers every operation typed and checked', async () => {
    const api = client();
    const order = await api.makeOrder({
      currency: 'usdt',
      network: 'tron',
      amount: '12.50',
      order: 'client-typed-1',
      description: 'Two mugs',
    });
    expect(order).toMatchObject({
      status: 'pending',
      currency: 'USDT',
      network: 'tron',
      amount: '12.5',
      clientOrderId: 'client-typed-1',
      tag: null,
      description: 'Two mugs',
    });
    expect(order.link).toBe(`${gateway.baseUrl}/pay/${order.orderId}`);
    expect(new Date(order.expiresAt).getTime() - new Date(order.createdAt).getTime()).toBe(1800_000);

    const details = await api.getOrder(order.orderId);
    expect(details).toMatchObject({ orderId: order.orderId, received: '0', transactions: [] });

    const listed = await api.listOrders({ status: ['pending'], limit: 5 });
    expect(listed.orders.map((o) => o.orderId)).toContain(order.orderId);
    expect(listed.limit).toBe(5);

    const currencies = await api.availableCurrencies();
    expect(currencies.find((c) => c.currency === 'USDT')?.networks.map((n) => n.network)).toContain('tron');
    expect(currencies.find((c) => c.currency === 'XRP')?.networks[0]).toMatchObject({
      network: 'ripple',
      tagRequired: true,
    });

    const balances = await api.advancedBalances();
    expect(balances).toHaveLength(1);
    expect(balances[0]!.availableCurrenciesForDeposit).toContain('BTC');

    expect(await api.findTx('0'.repeat(64))).toEqual([]);
  });

  it('turns the documented errors into GatewayApiError without retrying them, and writes nothing', async () => {
    const api = client();
    const invalid = await api
      .makeOrder({ currency: 'USDT', network: 'tron', amount: '-1', order: 'client-invalid-1' })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(GatewayApiError);
    expect(invalid).toMatchObject({ kind: 'api', status: 400, errorName: 'VALIDATION_ERROR', code: 1002, attempts: 1 });
    expect((invalid as GatewayApiError).details.map((d) => d.path)).toEqual(['amount']);
    expect((invalid as GatewayApiError).requestId).toMatch(/\S/);
    expect(await ordersNamed('client-invalid-1')).toBe(0);

    const unsupported = await api
      .makeOrder({ currency: 'DOGE', network: 'tron', amount: '1', order: 'client-unsupported-1' })
      .catch((e: unknown) => e);
    expect(unsupported).toMatchObject({ errorName: 'UNSUPPORTED_CURRENCY', status: 422, attempts: 1 });

    const missing = await api.getDeposit('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(missing).toMatchObject({ errorName: 'NOT_FOUND', status: 404 });

    const wrongKey = await client({ privateKey: `${merchant.test.privateKey}x` })
      .getOrder('x')
      .catch((e: unknown) => e);
    expect(wrongKey).toMatchObject({ errorName: 'INVALID_SIGNATURE', status: 401, attempts: 1 });

    const stranger = await createTestMerchant(gateway.db);
    const order = await api.makeOrder({
      currency: 'BTC',
      network: 'bitcoin',
      amount: '0.001',
      order: 'client-scoped-1',
    });
    const foreign = await client(stranger.test)
      .getOrder(order.orderId)
      .catch((e: unknown) => e);
    expect(foreign).toMatchObject({ errorName: 'NOT_FOUND', status: 404 });
  });

  it('retries an overloaded gateway with a new nonce each time, and creates one order', async () => {
    const front = await proxy((n) => (n <= 2 ? overloaded : 'forward'));
    try {
      const order = await client({ baseUrl: front.baseUrl }).makeOrder({
        currency: 'LTC',
        network: 'litecoin',
        amount: '0.1',
        order: 'client-retry-503',
      });
      expect(order.clientOrderId).toBe('client-retry-503');
      expect(front.seen).toHaveLength(3);
      expect(new Set(front.seen.map((s) => s.nonce)).size).toBe(3);
      expect(await ordersNamed('client-retry-503')).toBe(1);
    } finally {
      await front.stop();
    }
  });

  it('repeats a make-order whose answer was lost: the repeat answers the order the first attempt made', async () => {
    // The first request reaches the gateway, which makes the order, but its answer comes too late.
    const front = await proxy((n) =>
      n === 1
        ? async (res, forward) => {
            await forward();
            await new Promise((resolve) => setTimeout(resolve, 700));
            res.writeHead(504).end('gateway timeout');
          }
        : 'forward',
    );
    try {
      const api = client({ baseUrl: front.baseUrl, timeoutMs: 400 });
      const order = await api.makeOrder({
        currency: 'BTC',
        network: 'bitcoin',
        amount: '0.002',
        order: 'client-lost-answer',
      });
      expect(front.seen).toHaveLength(2);
      expect(await ordersNamed('client-lost-answer')).toBe(1);
      const [row] = await gateway.db.query<{ id: string }>(
        `select id from orders where client_order_id = 'client-lost-answer'`,
      );
      expect(order.orderId).toBe(row!.id);
    } finally {
      await front.stop();
    }
  });

  it('says the gateway is unreachable, after its retries', async () => {
    const port = await freePort();
    const error = await client({ baseUrl: `http://127.0.0.1:${port}`, retries: 2 })
      .availableCurrencies()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayUnreachableError);
    expect(error).toMatchObject({ kind: 'unreachable', attempts: 3, operation: 'available-currencies' });
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('says the gateway did not answer in time, after its retries', async () => {
    const front = await proxy(() => () => undefined); // never answers
    try {
      const started = Date.now();
      const error = await client({ baseUrl: front.baseUrl, timeoutMs: 300, retries: 1 })
        .advancedBalances()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayTimeoutError);
      expect(error).toMatchObject({ kind: 'timeout', attempts: 2, timeoutMs: 300 });
      expect(front.seen).toHaveLength(2);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await front.stop();
    }
  });

  it("refuses an answer that is not the API's, without retrying it", async () => {
    const wrongShape = await proxy(
      () => (res) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ success: true, response: { status: 'paid', amount: 12.5 } })),
    );
    const notJson = await proxy(
      () => (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>shop</html>'),
    );
    try {
      const shape = await client({ baseUrl: wrongShape.baseUrl })
        .getOrder('x')
        .catch((e: unknown) => e);
      expect(shape).toBeInstanceOf(GatewayProtocolError);
      expect(shape).toMatchObject({ kind: 'protocol', attempts: 1, status: 200 });
      expect(wrongShape.seen).toHaveLength(1);
      const html = await client({ baseUrl: notJson.baseUrl })
        .getOrder('x')
        .catch((e: unknown) => e);
      expect(html).toBeInstanceOf(GatewayProtocolError);
      expect((html as Error).message).toMatch(/not JSON/);
    } finally {
      await wrongShape.stop();
      await notJson.stop();
    }
  });
});

describe('the operations of issue 20', () => {
  it('answers each typed by the wire contract', async () => {
    const gatewayClient = client();
    const order = await gatewayClient.makeOrder({
      currency: 'BTC',
      network: 'bitcoin',
      amount: '0.2',
      order: 'client-issue20',
    });
    expect(await gatewayClient.operationByTxHash('ab'.repeat(32))).toEqual([]);
    expect(await gatewayClient.validateAddress(order.address, 'bitcoin')).toMatchObject({ isValid: true });
    const [balance] = await gatewayClient.advancedBalances();
    expect(await gatewayClient.advancedBalance(balance!.advancedBalanceId)).toEqual(balance);
    expect(await gatewayClient.advancedBalance()).toEqual(balance);
    expect(await gatewayClient.listDeposits({ limit: 5 })).toEqual([]);
    expect(await gatewayClient.findAddressById(order.addressId)).toMatchObject({
      address: order.address,
      type: 'PAY_IN',
      balance: '0',
    });
    expect(await gatewayClient.findAddressByAddress(order.address)).toMatchObject({ id: order.addressId });
    expect(await gatewayClient.addressTransactions({ id: order.addressId })).toEqual([]);
    const user = await gatewayClient.createUser({ clientId: 'client-user-1', clientName: 'Ann' });
    expect(await gatewayClient.getUser({ clientId: 'client-user-1' })).toEqual(user);
    const address = await gatewayClient.getUserAddress({ id: user.id, currency: 'LTC', network: 'litecoin' });
    expect(await gatewayClient.getUserAddresses({ id: user.id })).toEqual([address]);
    await expect(gatewayClient.getWebhook(crypto.randomUUID())).rejects.toMatchObject({
      name: 'GatewayApiError',
      errorName: 'NOT_FOUND',
    });
    await expect(gatewayClient.getWebhookVerbose(crypto.randomUUID(), ['id'])).rejects.toMatchObject({
      errorName: 'NOT_FOUND',
    });
  });
});
