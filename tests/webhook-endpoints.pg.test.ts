/**
 * Webhook endpoints (docs/webhooks.md, "Webhook endpoints"; docs/decisions/050), configured through
 * the API (called in this process, through the operations' wrapper) and delivered by the
 * dispatcher to real receivers on 127.0.0.1. The dispatcher's clock is moved, never waited for:
 * a secret rolled with a one-hour overlap signs beside the new one during it, and not after it;
 * an endpoint whose deliveries fail for an hour has its owners and admins mailed, once, and for
 * days is disabled.
 */
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import { createUser } from '@/lib/users';
import { dispatcherOptions, startDispatcher, type Dispatcher, type DispatcherOptions } from '@/lib/webhooks';
import { callInProcess, useDatabaseForApi } from './support/api-in-process';
import { after, createOrder, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { openTestDatabase } from './support/database';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { startReceiver, type Received, type Receiver } from './support/webhook-receiver';
import { waitFor } from './support/worker-process';

const HOUR = 3_600_000;
let db: Database;
let merchant: TestMerchant;
const receivers: Receiver[] = [];
const dispatchers: Dispatcher[] = [];

beforeAll(async () => {
  db = await openTestDatabase();
  useDatabaseForApi(db);
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

/** A dispatcher whose clock reads `clock()`: what signs, and the signature's time, follow it. */
function dispatch(clock: () => Date, overrides: Partial<DispatcherOptions> = {}): Dispatcher {
  const dispatcher = startDispatcher(
    db,
    dispatcherOptions({
      policy: { allowPrivate: false, allowed: ['127.0.0.1'] },
      retryDelaysMs: [50, 50, 50],
      jitter: 0,
      timeoutMs: 2000,
      pollMs: 25,
      clock,
      ...overrides,
    }),
  );
  dispatchers.push(dispatcher);
  return dispatcher;
}

async function api(path: string, body: Record<string, unknown>) {
  const answer = await callInProcess(path, body, merchant.test);
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body.response;
}

/** An order paid in full and confirmed through the sandbox ledger and the watcher. */
async function paidOrder(net = 'litecoin', currency = 'LTC', units = 1_000_000n) {
  const order = await createOrder(db, merchant.test, { currency, network: net, amount: '0.01' });
  await broadcast(db, { network: network(net), to: order.address, tag: order.tag, currency, amount: units });
  await mine(db, network(net), 2);
  await watchOnce(db, sandboxChain(db, net));
  expect((await orderRow(db, order.id)).status).toBe('processed');
  return order;
}

/** The `v1` signatures of a delivery, and whether each is the HMAC of "<t>.<raw body>" with `secret`. */
function signatures(request: Received): { t: string; v1: string[] } {
  const parts = String(request.headers['x-webhook-signature']).split(',');
  return {
    t: parts.find((p) => p.startsWith('t='))!.slice(2),
    v1: parts.filter((p) => p.startsWith('v1=')).map((p) => p.slice(3)),
  };
}
const hmac = (secret: string, t: string, raw: string) =>
  createHmac('sha256', secret).update(`${t}.${raw}`, 'utf8').digest('hex');

describe('webhook endpoints', () => {
  it('deliver the events of their types, signed with their own secret only; a rolled secret signs beside the new one for its overlap', async () => {
    const hooks = await receiver();
    const { endpoint, secret: first } = await api('webhook-endpoints/create', {
      url: hooks.url('/gateway'),
      eventTypes: ['order.processed'],
      description: 'Fulfilment',
    });
    expect(first).toMatch(/^whsec_\w{40,}$/);
    expect(endpoint).toMatchObject({
      status: 'enabled',
      eventTypes: ['order.processed'],
      previousSecretExpiresAt: null,
    });
    // The secret is in no later answer.
    expect(JSON.stringify(await api('webhook-endpoints/list', {}))).not.toContain(first);

    let now = new Date();
    dispatch(() => now);
    const one = await paidOrder();
    await waitFor('the first delivery', 10_000, () => hooks.received.length === 1);
    const [delivered] = hooks.received;
    // The event itself, without the API key's headers.
    expect(delivered!.body).toMatchObject({ type: 'order.processed', data: { orderId: one.id, status: 'processed' } });
    expect(delivered!.headers['x-webhook-id']).toBe(delivered!.body.id);
    expect(delivered!.headers['x-api-signature']).toBeUndefined();
    expect(delivered!.headers['x-api-public-key']).toBeUndefined();
    const signed = signatures(delivered!);
    expect(signed.t).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(signed.v1).toEqual([hmac(first, signed.t, delivered!.raw)]);

    // Rolled with a one-hour overlap: its end is answered, and both secrets sign meanwhile.
    const rolled = await api('webhook-endpoints/roll-secret', { id: endpoint.id, overlapHours: 1 });
    const second = rolled.secret as string;
    expect(second).not.toBe(first);
    const overlapEnd = new Date(rolled.endpoint.previousSecretExpiresAt as string);
    expect(Math.abs(overlapEnd.getTime() - (Date.now() + HOUR))).toBeLessThan(60_000);

    now = new Date(overlapEnd.getTime() - 60_000); // a minute before the overlap ends
    await paidOrder();
    await waitFor('the delivery during the overlap', 10_000, () => hooks.received.length === 2);
    const during = signatures(hooks.received[1]!);
    expect(during.v1).toEqual([
      hmac(second, during.t, hooks.received[1]!.raw),
      hmac(first, during.t, hooks.received[1]!.raw),
    ]);

    now = new Date(overlapEnd.getTime() + 1); // past it
    await paidOrder();
    await waitFor('the delivery after the overlap', 10_000, () => hooks.received.length === 3);
    const later = signatures(hooks.received[2]!);
    expect(later.v1).toEqual([hmac(second, later.t, hooks.received[2]!.raw)]);

    // An event of another type is not delivered to it; the log answers its deliveries by type and state.
    const expiring = await createOrder(db, merchant.test, { currency: 'BCH', network: 'bitcoincash', amount: '1' });
    await mine(db, network('bitcoincash'), 1, after(expiring.expires_at, 1));
    await watchOnce(db, sandboxChain(db, 'bitcoincash'), { now: after(expiring.expires_at, 2) });
    expect((await orderRow(db, expiring.id)).status).toBe('expired');
    const test = await api('webhook-endpoints/send-test', { id: endpoint.id });
    expect(test).toMatchObject({ eventType: 'webhook_endpoint.test', eventId: null, endpointId: endpoint.id });
    await waitFor('the test event', 10_000, () => hooks.received.length === 4);
    expect(hooks.received[3]!.body).toMatchObject({ type: 'webhook_endpoint.test', data: { endpointId: endpoint.id } });
    const processed = await api('webhook-endpoints/deliveries', { id: endpoint.id, eventType: 'order.processed' });
    expect(processed.deliveries).toHaveLength(3);
    expect(processed.deliveries.every((d: { state: string }) => d.state === 'delivered')).toBe(true);
    expect((await api('webhook-endpoints/deliveries', { id: endpoint.id, state: 'failed' })).deliveries).toEqual([]);
    const page = await api('webhook-endpoints/deliveries', { id: endpoint.id, limit: 2 });
    expect(page).toMatchObject({ hasMore: true });
    expect(page.deliveries[0].eventType).toBe('webhook_endpoint.test');
    const rest = await api('webhook-endpoints/deliveries', { id: endpoint.id, before: page.deliveries[1].id });
    expect(rest).toMatchObject({ hasMore: false });
    expect(rest.deliveries).toHaveLength(2);

    // Paused: nothing is written for it; deleted: it is not found.
    await api('webhook-endpoints/update', { id: endpoint.id, status: 'paused' });
    await paidOrder();
    const [count] = await db.query<{ n: number }>(
      'select count(*)::int as n from webhook_events where endpoint_id = $1',
      [endpoint.id],
    );
    expect(count!.n).toBe(4);
    expect(await api('webhook-endpoints/delete', { id: endpoint.id })).toEqual({ id: endpoint.id, deleted: true });
    expect((await callInProcess('webhook-endpoints/get', { id: endpoint.id }, merchant.test)).status).toBe(404);
  });

  it('mails owners and admins once when deliveries fail for an hour, then disables the endpoint after days', async () => {
    const team = Object.fromEntries(
      await Promise.all(
        (['owner', 'admin', 'viewer'] as const).map(async (role) => {
          const email = `${role}-${Date.now()}@hooks.example`;
          await createUser(db, { merchant: merchant.merchantId, email, role, password: 'a-long-enough-passphrase' });
          return [role, email] as const;
        }),
      ),
    );
    const alerts = async () =>
      db.query<{ recipient: string; detail: Record<string, string> }>(
        `select recipient, detail from mail_messages where kind = 'webhooks-failing' and merchant_id = $1 order by recipient`,
        [merchant.merchantId],
      );
    const failing = await receiver(() => ({ status: 500, body: 'down' }));
    const { endpoint } = await api('webhook-endpoints/create', {
      url: failing.url('/broken?token=s3cret'),
      eventTypes: ['*'],
    });
    const start = Date.now();
    let now = new Date(start);
    dispatch(() => now);
    await paidOrder();
    await waitFor(
      'a failed delivery',
      10_000,
      async () => (await api('webhook-endpoints/get', { id: endpoint.id })).failingSince !== null,
    );
    const failingSince = (await api('webhook-endpoints/get', { id: endpoint.id })).failingSince as string;
    expect(new Date(failingSince).getTime()).toBe(start);
    expect(await alerts()).toEqual([]);
    // An hour of failures by the dispatcher's clock: one mail to each owner and admin, none to viewers.
    now = new Date(start + HOUR);
    await paidOrder();
    await waitFor('the failing mails', 10_000, async () => (await alerts()).length > 0);
    const mailed = await alerts();
    expect(mailed.map((m) => m.recipient)).toEqual([team.admin, team.owner].sort());
    expect(mailed[0]!.detail).toEqual({ endpointId: endpoint.id, failingSince });
    // Three days later by the dispatcher's clock, another failure: disabled.
    now = new Date(start + 3 * 24 * HOUR + 1);
    await paidOrder();
    await waitFor(
      'the endpoint disabled',
      10_000,
      async () => (await api('webhook-endpoints/get', { id: endpoint.id })).status === 'disabled',
    );
    const disabled = await api('webhook-endpoints/get', { id: endpoint.id });
    // The same incident: no second mail.
    expect(await alerts()).toHaveLength(2);
    expect(disabled.disabledReason).toMatch(/^Every delivery failed from \d{4}-\d\d-\d\d \d\d:\d\d UTC to .* UTC\.$/);
    // Re-enabled by its owner, it starts afresh.
    const enabled = await api('webhook-endpoints/update', { id: endpoint.id, status: 'enabled' });
    expect(enabled).toMatchObject({ status: 'enabled', failingSince: null, disabledReason: null });
  });

  it('refuses what it cannot do: a bad URL or type, an overlap past 7 days, another merchant’s endpoint', async () => {
    const bad = await callInProcess(
      'webhook-endpoints/create',
      { url: 'ftp://x', eventTypes: ['order.nope'] },
      merchant.test,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['eventTypes.0', 'url']);
    const { endpoint } = await api('webhook-endpoints/create', {
      url: 'https://shop.example/hooks',
      eventTypes: ['*'],
    });
    const tooLong = await callInProcess(
      'webhook-endpoints/roll-secret',
      { id: endpoint.id, overlapHours: 169 },
      merchant.test,
    );
    expect(tooLong.status).toBe(400);
    const other = await createTestMerchant(db);
    for (const path of ['webhook-endpoints/get', 'webhook-endpoints/delete', 'webhook-endpoints/send-test'])
      expect((await callInProcess(path, { id: endpoint.id }, other.test)).status, path).toBe(404);
    expect((await callInProcess('webhook-endpoints/get', { id: endpoint.id }, merchant.live)).status).toBe(404);
  });
});
