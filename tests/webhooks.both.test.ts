/**
 * Signed webhooks, delivered at least once (SPEC "Webhooks"): orders paid or expired through the
 * sandbox ledger and the watcher write their webhook to the outbox in the status change's
 * transaction; the dispatcher (in this process, with a short retry schedule) sends it to real HTTP
 * receivers on 127.0.0.1, which verify it as docs/webhooks.md tells merchants to.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { broadcast, broadcastMany, mine } from '@/lib/chains/sandbox';
import { config } from '@/lib/config';
import type { Database } from '@/lib/db/client';
import { setLogLevel } from '@/lib/log';
import { serializeOrderDetails } from '@/lib/orders';
import type { OrderRow, PaymentRow } from '@/lib/orders/rows';
import { noRiskScreen } from '@/lib/risk';
import { settleOrder } from '@/lib/watcher';
import {
  dispatcherOptions,
  listOrderDeliveries,
  resendWebhook,
  startDispatcher,
  type Dispatcher,
  type DispatcherOptions,
  type Resolver,
} from '@/lib/webhooks';
import { openTestDatabase } from './support/database';
import { after, createOrder, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { closedPort, startReceiver, verifyWebhook, type Receiver } from './support/webhook-receiver';
import { waitFor } from './support/worker-process';

/** The body's fields: the `order` operation's answer plus event and id (docs/webhooks.md, "Payload"). */
const WEBHOOK_FIELDS = [
  'status',
  'link',
  'amount',
  'paymentTolerancePercent',
  'currency',
  'network',
  'address',
  'addressId',
  'tag',
  'orderId',
  'clientOrderId',
  'externalUserId',
  'payerEmail',
  'description',
  'successWebhook',
  'errorWebhook',
  'returnUrl',
  'expiresAt',
  'createdAt',
  'received',
  'message',
  'checkRisks',
  'lifetime',
  'updatedAt',
  'transactions',
  'event',
  'id',
].sort();
const HEADERS = [
  'x-api-public-key',
  'x-api-signature',
  'x-webhook-id',
  'x-webhook-attempt',
  'x-webhook-timestamp',
  'x-webhook-signature',
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let db: Database;
let merchant: TestMerchant;
const receivers: Receiver[] = [];
const dispatchers: Dispatcher[] = [];

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
});
afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
afterAll(async () => {
  await db?.close();
});

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args);
  receivers.push(started);
  return started;
}

/** The dispatcher with the tests' settings: 127.0.0.1 allowed, a short retry schedule and timeout. */
function dispatch(overrides: Partial<DispatcherOptions> = {}): Dispatcher {
  const dispatcher = startDispatcher(
    db,
    dispatcherOptions({
      policy: { allowPrivate: false, allowed: ['127.0.0.1'] },
      retryDelaysMs: [50, 50, 50, 50, 50],
      jitter: 0,
      timeoutMs: 2000,
      pollMs: 25,
      ...overrides,
    }),
  );
  dispatchers.push(dispatcher);
  return dispatcher;
}

/** An order paid in full and confirmed through the sandbox ledger and the watcher. */
async function paidOrder(
  net: string,
  currency: string,
  amount: string,
  units: bigint,
  fields: Record<string, unknown>,
  keys = merchant.test,
) {
  const order = await createOrder(db, keys, { currency, network: net, amount, ...fields });
  await broadcast(db, { network: network(net), to: order.address, tag: order.tag, currency, amount: units });
  await mine(db, network(net), 2);
  await watchOnce(db, sandboxChain(db, net));
  expect((await orderRow(db, order.id)).status).toBe('processed');
  return order;
}

async function events(orderId: string) {
  return db.query<{ id: string; kind: string; state: string; attempts: number; url: string; body: string }>(
    'select id, kind, state, attempts, url, body from webhook_events where order_id = $1 order by kind',
    [orderId],
  );
}

async function stateOf(eventId: string): Promise<string> {
  const [row] = await db.query<{ state: string }>('select state from webhook_events where id = $1', [eventId]);
  return row!.state;
}

describe('webhooks', () => {
  it('success and error webhooks reach a real receiver, which verifies both signatures and gets exactly the documented fields', async () => {
    const hooks = await receiver();
    const success = await paidOrder('litecoin', 'LTC', '0.5', 50_000_000n, {
      successWebhook: hooks.url('/success?token=abc'),
      errorWebhook: hooks.url('/error'),
      description: 'Two mugs',
    });
    // Expired with nothing received: the error webhook.
    const expiring = await createOrder(db, merchant.test, {
      currency: 'BCH',
      network: 'bitcoincash',
      amount: '1',
      successWebhook: hooks.url('/success'),
      errorWebhook: hooks.url('/error'),
    });
    await mine(db, network('bitcoincash'), 1, after(expiring.expires_at, 1));
    await watchOnce(db, sandboxChain(db, 'bitcoincash'), { now: after(expiring.expires_at, 2) });
    expect((await orderRow(db, expiring.id)).status).toBe('expired');
    // An order without URLs gets no outbox row.
    const silent = await paidOrder('dogecoin', 'DOGE', '3', 300_000_000n, {});
    expect(await events(silent.id)).toEqual([]);

    const [successEvent] = await events(success.id);
    const [errorEvent] = await events(expiring.id);
    expect(successEvent).toMatchObject({
      kind: 'success',
      state: 'pending',
      attempts: 0,
      url: hooks.url('/success?token=abc'),
    });
    expect(errorEvent).toMatchObject({ kind: 'error', state: 'pending', attempts: 0, url: hooks.url('/error') });

    dispatch();
    await waitFor('both webhooks', 10_000, () => hooks.received.length >= 2);
    await waitFor(
      'both delivered in the log',
      5_000,
      async () => (await stateOf(successEvent!.id)) === 'delivered' && (await stateOf(errorEvent!.id)) === 'delivered',
    );
    expect(hooks.received).toHaveLength(2);

    for (const [event, order, path] of [
      [successEvent!, success, '/success?token=abc'],
      [errorEvent!, expiring, '/error'],
    ] as const) {
      const request = hooks.received.find((r) => r.headers['x-webhook-id'] === event.id)!;
      expect(request.path).toBe(path);
      expect(request.headers['content-type']).toBe('application/json');
      for (const header of HEADERS) expect(request.headers[header], header).toBeTruthy();
      expect(request.headers['x-api-public-key']).toBe(merchant.test.publicKey);
      expect(request.headers['x-webhook-attempt']).toBe('1');
      const verified = verifyWebhook(request, merchant.test.privateKey);
      expect(verified).toMatchObject({ apiSignature: true, timestamped: true });
      expect(Math.abs(verified.timestamp - Date.now() / 1000)).toBeLessThan(30);
      // Another key's signature does not verify: the check can fail.
      expect(verifyWebhook(request, merchant.live.privateKey)).toMatchObject({
        apiSignature: false,
        timestamped: false,
      });
      // The raw body is the snapshot taken in the status change's transaction, byte for byte.
      expect(request.raw).toBe(event.body);
      expect(Object.keys(request.body).sort()).toEqual(WEBHOOK_FIELDS);
      expect(request.body).toMatchObject({ event: 'ORDER', id: event.id, orderId: order.id });
      expect(request.body.id).toMatch(UUID);
      const row = await orderRow(db, order.id);
      const payments = await db.query<PaymentRow>(
        'select * from payments where order_id = $1 order by created_at, id',
        [order.id],
      );
      expect(request.body).toEqual({ ...serializeOrderDetails(row, payments), event: 'ORDER', id: event.id });
    }
    const successBody = hooks.received.find((r) => r.headers['x-webhook-id'] === successEvent!.id)!.body;
    expect(successBody).toMatchObject({ status: 'processed', received: '0.5', amount: '0.5', description: 'Two mugs' });
    expect(successBody.transactions).toHaveLength(1);
    expect(successBody.transactions[0]).toMatchObject({ amount: '0.5', status: 'processed', confirmations: 2 });
    const errorBody = hooks.received.find((r) => r.headers['x-webhook-id'] === errorEvent!.id)!.body;
    expect(errorBody).toMatchObject({ status: 'expired', received: '0', transactions: [] });

    const [log] = await listOrderDeliveries(db, success.id);
    expect(log).toMatchObject({ id: successEvent!.id, state: 'delivered', attempts: 1, nextAttemptAt: null });
    expect(log!.log).toEqual([
      expect.objectContaining({
        attempt: 1,
        statusCode: 200,
        outcome: 'delivered',
        responseExcerpt: 'ok',
        error: null,
      }),
    ]);
  });

  it('an order with externalUserId sends its webhook to the URL of its request', async () => {
    const hooks = await receiver();
    const order = await paidOrder('ethereum', 'ETH', '0.1', 100_000_000_000_000_000n, {
      externalUserId: 'user-42',
      successWebhook: hooks.url('/user-hook'),
    });
    dispatch();
    await waitFor('the webhook', 10_000, () => hooks.received.length === 1);
    expect(hooks.received[0]!.path).toBe('/user-hook');
    expect(hooks.received[0]!.body).toMatchObject({
      orderId: order.id,
      externalUserId: 'user-42',
      status: 'processed',
    });
  });

  it('a receiver answering 500 three times and then 200: four attempts logged, one delivery', async () => {
    const hooks = await receiver((_r, i) =>
      i < 3 ? { status: 500, body: `boom ${i + 1}` } : { status: 200, body: '{"received":true}', delayMs: 300 },
    );
    const order = await paidOrder('bsc', 'BNB', '0.2', 200_000_000_000_000_000n, { successWebhook: hooks.url() });
    const [event] = await events(order.id);
    dispatch();
    await waitFor('delivery', 10_000, async () => (await stateOf(event!.id)) === 'delivered');
    expect(hooks.received).toHaveLength(4);
    expect(hooks.received.map((r) => r.headers['x-webhook-id'])).toEqual(Array(4).fill(event!.id));
    expect(hooks.received.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2', '3', '4']);
    expect(new Set(hooks.received.map((r) => r.raw)).size).toBe(1);
    for (const request of hooks.received)
      expect(verifyWebhook(request, merchant.test.privateKey)).toMatchObject({ apiSignature: true, timestamped: true });

    const [delivery] = await listOrderDeliveries(db, order.id);
    expect(delivery).toMatchObject({ state: 'delivered', attempts: 4 });
    expect(delivery!.log.map((a) => [a.attempt, a.statusCode, a.outcome, a.responseExcerpt])).toEqual([
      [1, 500, 'http_error', 'boom 1'],
      [2, 500, 'http_error', 'boom 2'],
      [3, 500, 'http_error', 'boom 3'],
      [4, 200, 'delivered', '{"received":true}'],
    ]);
    // The receiver held its last answer for 300 ms: that attempt's latency counts the wait (less
    // one millisecond: Node's timers count whole milliseconds).
    expect(delivery!.log[3]!.latencyMs).toBeGreaterThanOrEqual(299);
    for (const a of delivery!.log) {
      expect(a.latencyMs).toBeLessThan(2000);
      expect(Number.isNaN(Date.parse(a.at))).toBe(false);
    }
    // Delivered: the dispatcher does not send it again.
    await new Promise((r) => setTimeout(r, 300));
    expect(hooks.received).toHaveLength(4);
  });

  it('does not follow redirects, and keeps only the first KiB of an answer', async () => {
    const hooks = await receiver((r, i) =>
      i === 0 ? { status: 302, body: 'moved' } : { status: 200, body: 'x'.repeat(5000) },
    );
    const order = await paidOrder('bitcoin', 'BTC', '0.002', 200_000n, { successWebhook: hooks.url('/first') });
    const [event] = await events(order.id);
    dispatch();
    await waitFor('delivery', 10_000, async () => (await stateOf(event!.id)) === 'delivered');
    expect(hooks.received.map((r) => r.path)).toEqual(['/first', '/first']);
    const [delivery] = await listOrderDeliveries(db, order.id);
    expect(delivery!.log.map((a) => [a.statusCode, a.outcome, a.error])).toEqual([
      [302, 'http_error', 'HTTP 302: redirects are not followed'],
      [200, 'delivered', null],
    ]);
    expect(delivery!.log[1]!.responseExcerpt).toBe('x'.repeat(1024));
  });

  it('a receiver that is down (connection refused) gets the webhook when it comes back, with the same x-webhook-id', async () => {
    const port = await closedPort();
    const order = await paidOrder('polygon', 'POL', '1', 1_000_000_000_000_000_000n, {
      successWebhook: `http://127.0.0.1:${port}/hook`,
    });
    const [event] = await events(order.id);
    dispatch({ retryDelaysMs: [100, 100, 100, 100, 100, 100, 100, 100] });
    await waitFor(
      'two refused connections',
      10_000,
      async () => (await listOrderDeliveries(db, order.id))[0]!.log.length >= 2,
    );
    const down = (await listOrderDeliveries(db, order.id))[0]!;
    expect(down.state).toBe('pending');
    for (const a of down.log)
      expect(a).toMatchObject({
        outcome: 'network_error',
        statusCode: null,
        error: expect.stringContaining('ECONNREFUSED'),
      });

    const hooks = await receiver(undefined, port);
    await waitFor(
      'delivery after the receiver came back',
      10_000,
      async () => (await stateOf(event!.id)) === 'delivered',
    );
    expect(hooks.received).toHaveLength(1);
    expect(hooks.received[0]!.headers['x-webhook-id']).toBe(event!.id);
    const delivered = (await listOrderDeliveries(db, order.id))[0]!;
    expect(delivered.log.at(-1)).toMatchObject({ outcome: 'delivered', statusCode: 200 });
    expect(delivered.log.slice(0, -1).every((a) => a.outcome === 'network_error')).toBe(true);
    expect(hooks.received[0]!.headers['x-webhook-attempt']).toBe(String(delivered.log.length));
    expect(verifyWebhook(hooks.received[0]!, merchant.test.privateKey).apiSignature).toBe(true);
  });

  it('a hanging receiver is cut at the timeout and retried, and does not delay deliveries to other merchants', async () => {
    const other = await createTestMerchant(db);
    let hang = true;
    const slow = await receiver(() => (hang ? 'hang' : { status: 200, body: 'late but fine' }));
    const fast = await receiver();
    // Twelve webhooks to the hanging merchant (more than the concurrency), then four of another merchant.
    const tron = network('tron');
    const hanging: OrderRow[] = [];
    for (let i = 0; i < 12; i++)
      hanging.push(
        await createOrder(db, merchant.test, {
          currency: 'USDT',
          network: 'tron',
          amount: '10',
          successWebhook: slow.url(),
        }),
      );
    const quick: OrderRow[] = [];
    for (let i = 0; i < 4; i++)
      quick.push(
        await createOrder(db, other.test, {
          currency: 'USDT',
          network: 'tron',
          amount: '10',
          successWebhook: fast.url(),
        }),
      );
    await broadcastMany(
      db,
      tron,
      [...hanging, ...quick].map((o) => ({ to: o.address, currency: 'USDT', amount: 10_000_000n })),
    );
    await mine(db, tron, 2);
    await watchOnce(db, sandboxChain(db, 'tron'));

    const started = Date.now();
    dispatch({
      timeoutMs: 1500,
      concurrency: 8,
      merchantConcurrency: 4,
      retryDelaysMs: [200, 200, 200, 200, 200, 200],
    });
    await waitFor("the other merchant's four webhooks", 10_000, () => fast.received.length === 4);
    const fastDone = Date.now() - started;
    expect(fastDone).toBeLessThan(1000); // well before the hanging merchant's first timeout
    await waitFor(
      'the first timeouts',
      10_000,
      async () =>
        (
          await attemptsOf(
            hanging.map((o) => o.id),
            'timeout',
          )
        ).length >= 4,
    );
    const timeouts = await attemptsOf(
      hanging.map((o) => o.id),
      'timeout',
    );
    for (const t of timeouts) {
      expect(t.latency_ms).toBeGreaterThanOrEqual(1450);
      expect(t.latency_ms).toBeLessThan(3000);
      expect(t.error).toMatch(/no answer within 1500 ms/);
    }
    hang = false;
    await waitFor('all twelve hanging webhooks delivered on a retry', 20_000, async () => {
      const [row] = await db.query<{ n: number }>(
        `select count(*)::int as n from webhook_events where order_id = any($1::uuid[]) and state = 'delivered'`,
        [hanging.map((o) => o.id)],
      );
      return row!.n === 12;
    });
    expect(
      (
        await attemptsOf(
          hanging.map((o) => o.id),
          'timeout',
        )
      ).length,
    ).toBeGreaterThanOrEqual(4);
    console.info(
      `webhooks: other merchant's 4 webhooks delivered in ${fastDone} ms while 12 to a hanging endpoint timed out at 1500 ms`,
    );
  });

  it('a status change whose transaction rolls back leaves no outbox row; one committed with no dispatcher running is delivered when one starts', async () => {
    const hooks = await receiver();
    const order = await createOrder(db, merchant.test, {
      currency: 'ETH',
      network: 'base',
      amount: '0.01',
      errorWebhook: hooks.url(),
    });
    const view = {
      now: after(order.expires_at, 10),
      tipHeight: 1_000,
      tipTime: after(order.expires_at, 5),
      requiredConfirmations: 2,
      screen: noRiskScreen,
    };
    const rolledBack = new Error('rolled back on purpose');
    await expect(
      db.transaction(async (tx) => {
        const change = await settleOrder(tx, order.id, view);
        expect(change).toMatchObject({ from: 'pending', to: 'expired' });
        const [inside] = await tx.query<{ n: number }>(
          'select count(*)::int as n from webhook_events where order_id = $1',
          [order.id],
        );
        expect(inside!.n).toBe(1); // written in the transaction...
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await events(order.id)).toEqual([]); // ...and gone with it
    expect((await orderRow(db, order.id)).status).toBe('pending');

    // Committed while no dispatcher runs (as after a crash right after the commit).
    await db.transaction((tx) => settleOrder(tx, order.id, view));
    const [event] = await events(order.id);
    expect(event).toMatchObject({ kind: 'error', state: 'pending', attempts: 0 });
    await new Promise((r) => setTimeout(r, 200));
    expect(hooks.received).toHaveLength(0);
    dispatch();
    await waitFor('delivery once a dispatcher runs', 10_000, async () => (await stateOf(event!.id)) === 'delivered');
    expect(hooks.received.map((r) => r.headers['x-webhook-id'])).toEqual([event!.id]);
    expect(hooks.received[0]!.body).toMatchObject({ status: 'expired', id: event!.id });
  });

  it('refuses webhook URLs on 127.0.0.1, 10.0.0.1, 169.254.169.254 or names resolving to them by default, and logs the refusal', async () => {
    const hooks = await receiver();
    const names: Record<string, string[]> = {
      'intranet.example.test': ['10.0.0.1'],
      'metadata.example.test': ['169.254.169.254'],
      'rebind.example.test': ['93.184.216.34', '127.0.0.1'], // one public answer does not make a private one safe
      'mapped.example.test': ['::ffff:10.0.0.1'],
    };
    const resolver: Resolver = async (host) => {
      const answer = names[host];
      if (answer)
        return answer.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
      const { systemResolver } = await import('@/lib/webhooks');
      return systemResolver(host);
    };
    const targets = [
      hooks.url('/direct'),
      `http://localhost:${hooks.port}/by-name`,
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:9/hook',
      'http://intranet.example.test/hook',
      'http://metadata.example.test/hook',
      'http://rebind.example.test/hook',
      'http://mapped.example.test/hook',
    ];
    const orders: OrderRow[] = [];
    for (const url of targets)
      orders.push(
        await createOrder(db, merchant.test, { currency: 'XRP', network: 'ripple', amount: '5', successWebhook: url }),
      );
    const ripple = network('ripple');
    await broadcastMany(
      db,
      ripple,
      orders.map((o) => ({ to: o.address, tag: o.tag, currency: 'XRP', amount: 5_000_000n })),
    );
    await mine(db, ripple, 2);
    await watchOnce(db, sandboxChain(db, 'ripple'));

    // The default policy: what the configuration says when nothing is allowed.
    const defaults = dispatcherOptions();
    expect(defaults.policy).toMatchObject({ allowPrivate: false, allowed: [] });
    const logged = await capturingLogs(async () => {
      dispatch({ policy: { ...defaults.policy, resolver } });
      const ids = orders.map((o) => o.id);
      await waitFor('every target refused', 10_000, async () => {
        const [row] = await db.query<{ n: number }>(
          `select count(*)::int as n from webhook_events where order_id = any($1::uuid[]) and state = 'refused'`,
          [ids],
        );
        return row!.n === targets.length;
      });
    });
    const refusals = logged.filter((l) => l.msg === 'webhook target refused');
    expect(refusals).toHaveLength(targets.length);
    // The log names the host, never the URL's path or query (a merchant may put a token there).
    expect(refusals.map((l) => l.host).sort()).toEqual(targets.map((t) => new URL(t).host).sort());
    expect(JSON.stringify(refusals)).not.toMatch(/\/hook|meta-data|by-name|direct/);
    expect(hooks.received).toEqual([]);
    for (const [i, order] of orders.entries()) {
      const [delivery] = await listOrderDeliveries(db, order.id);
      expect(delivery!.log, targets[i]).toEqual([
        expect.objectContaining({ attempt: 1, outcome: 'refused', statusCode: null }),
      ]);
      expect(delivery!.log[0]!.error).toMatch(/^refused: .* resolves to .* \((loopback|private|cloud metadata).*\)/);
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(hooks.received).toEqual([]); // refused is final: no retries

    // Allowed by configuration, a refused event is re-sent and delivered.
    await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
    const direct = (await listOrderDeliveries(db, orders[0]!.id))[0]!;
    dispatch({ policy: { allowPrivate: false, allowed: ['127.0.0.0/8'] } });
    const resent = await resendWebhook(db, direct.id);
    expect(resent).toMatchObject({ id: direct.id, state: 'pending' });
    await waitFor('the re-sent webhook', 10_000, async () => (await stateOf(direct.id)) === 'delivered');
    expect(hooks.received.map((r) => [r.path, r.headers['x-webhook-id'], r.headers['x-webhook-attempt']])).toEqual([
      ['/direct', direct.id, '2'],
    ]);
  });

  it("delivers to the gateway's own origin (PUBLIC_BASE_URL) although it is on loopback, so the demo store gets its webhooks", async () => {
    const hooks = await receiver();
    const own = `http://localhost:${hooks.port}`;
    const order = await paidOrder('dogecoin', 'DOGE', '2', 200_000_000n, { successWebhook: `${own}/demo/webhook` });
    dispatch({ policy: { allowPrivate: false, allowed: [], ownOrigin: own } });
    await waitFor('delivery to the own origin', 10_000, () => hooks.received.length === 1);
    expect(hooks.received[0]!).toMatchObject({
      path: '/demo/webhook',
      body: expect.objectContaining({ orderId: order.id }),
    });
  });

  it('connects to the address it checked: the name is resolved once per attempt, never again by the HTTP client', async () => {
    const hooks = await receiver();
    let lookups = 0;
    const resolver: Resolver = async () => {
      lookups++;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    // A name no DNS server knows: the request can only reach the receiver through the checked address.
    const order = await paidOrder('arbitrum', 'ETH', '0.05', 50_000_000_000_000_000n, {
      successWebhook: `http://hooks.gateway-test.invalid:${hooks.port}/pinned`,
    });
    dispatch({ policy: { allowPrivate: false, allowed: ['127.0.0.1'], resolver } });
    await waitFor('delivery', 10_000, () => hooks.received.length === 1);
    expect(hooks.received[0]!.path).toBe('/pinned');
    expect(hooks.received[0]!.headers.host).toBe(`hooks.gateway-test.invalid:${hooks.port}`);
    expect(hooks.received[0]!.body.orderId).toBe(order.id);
    expect(lookups).toBe(1);
  });

  it('re-sends a delivered event with the same id and body, and stops after the last retry as failed', async () => {
    const hooks = await receiver(() => ({ status: 503, body: 'maintenance' }));
    const order = await paidOrder('bitcoin', 'BTC', '0.001', 100_000n, { successWebhook: hooks.url() });
    const [event] = await events(order.id);
    dispatch({ retryDelaysMs: [30, 30] });
    await waitFor('failed after three attempts', 10_000, async () => (await stateOf(event!.id)) === 'failed');
    expect(hooks.received).toHaveLength(3);
    const failed = (await listOrderDeliveries(db, order.id))[0]!;
    expect(failed).toMatchObject({ state: 'failed', attempts: 3, nextAttemptAt: null });
    const resent = await resendWebhook(db, event!.id);
    expect(resent!.state).toBe('pending');
    await waitFor(
      'failed again after a new round of three',
      10_000,
      async () => hooks.received.length === 6 && (await stateOf(event!.id)) === 'failed',
    );
    expect(hooks.received.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(new Set(hooks.received.map((r) => r.headers['x-webhook-id']))).toEqual(new Set([event!.id]));
    // Scoped: another merchant's scope does not find it.
    const stranger = await createTestMerchant(db);
    expect(await resendWebhook(db, event!.id, { merchantId: stranger.merchantId, mode: 'test' })).toBeUndefined();
    expect(await listOrderDeliveries(db, order.id, { merchantId: stranger.merchantId, mode: 'test' })).toEqual([]);
    expect(await listOrderDeliveries(db, order.id, { merchantId: merchant.merchantId, mode: 'live' })).toEqual([]);
  });
});

async function attemptsOf(orderIds: string[], outcome: string) {
  return db.query<{ latency_ms: number; error: string }>(
    `select a.latency_ms, a.error from webhook_attempts a join webhook_events e on e.id = a.event_id
      where e.order_id = any($1::uuid[]) and a.outcome = $2`,
    [orderIds, outcome],
  );
}

/** The gateway's JSON log lines (warn and above, on stderr) written while `work` runs. */
async function capturingLogs(work: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  setLogLevel('warn');
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    const text = String(chunk);
    if (text.startsWith('{')) lines.push(text);
    else return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    return true;
  }) as typeof process.stderr.write;
  try {
    await work();
  } finally {
    process.stderr.write = write;
    setLogLevel(config().logLevel);
  }
  return lines.flatMap((l) => l.trim().split('\n')).map((l) => JSON.parse(l) as Record<string, unknown>);
}
