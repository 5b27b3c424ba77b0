/**
 * Which key signs an object's own webhook (docs/decisions/048), delivered by the dispatcher to a
 * real receiver that verifies as docs/webhooks.md says: the key that made the order, whatever keys
 * are made later; the webhook key for an order no key made; a rolled key until its overlap ends
 * (the dispatcher's clock is moved, not waited for), then its replacement; a revoked key's webhooks
 * moved to another key at once, or kept for the hours stated. Keys also get a name, scopes, an
 * expiry and a "last used", and a rolled key authenticates beside its replacement for its overlap.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import {
  createKey,
  findApiKey,
  flushKeyUse,
  listKeys,
  revokeMerchantKey,
  rollKey,
  setWebhookKey,
  type IssuedKeys,
} from '@/lib/merchants';
import { makeOrder } from '@/lib/orders';
import { makeOrderRequest } from '@/lib/protocol';
import { dispatcherOptions, startDispatcher, type Dispatcher } from '@/lib/webhooks';
import { callInProcess, useDatabaseForApi } from './support/api-in-process';
import { createOrder, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { openTestDatabase } from './support/database';
import type { Keys } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { startReceiver, verifyWebhook, type Receiver } from './support/webhook-receiver';
import { waitFor } from './support/worker-process';

const HOUR = 3_600_000;
let db: Database;
let merchant: TestMerchant;
let hooks: Receiver;
let dispatcher: Dispatcher | undefined;
/** The dispatcher's clock: what signs follows it. */
let now = new Date();

beforeAll(async () => {
  db = await openTestDatabase();
  useDatabaseForApi(db);
  merchant = await createTestMerchant(db);
  hooks = await startReceiver();
});
afterEach(async () => {
  await dispatcher?.stop();
  dispatcher = undefined;
});
afterAll(async () => {
  await hooks?.close();
  await db?.close();
});

function dispatch(): void {
  dispatcher = startDispatcher(
    db,
    dispatcherOptions({
      policy: { allowPrivate: false, allowed: ['127.0.0.1'] },
      retryDelaysMs: [50],
      jitter: 0,
      timeoutMs: 2000,
      pollMs: 25,
      clock: () => now,
    }),
  );
}

/** An order made with `keys` (null: by the gateway itself, as an invoice's coin choice), paid, and its webhook received. */
async function paidWebhook(keys: Keys | null) {
  const fields = { currency: 'LTC', network: 'litecoin', amount: '0.01', successWebhook: hooks.url('/paid') };
  const order = keys
    ? await createOrder(db, keys, fields)
    : await makeOrder(
        { db, key: { keyId: null, merchantId: merchant.merchantId, mode: 'test' }, nonce: null },
        makeOrderRequest.parse({ ...fields, order: `no-key-${Date.now()}` }),
      );
  await broadcast(db, {
    network: network('litecoin'),
    to: order.address,
    tag: null,
    currency: 'LTC',
    amount: 1_000_000n,
  });
  await mine(db, network('litecoin'), 2);
  await watchOnce(db, sandboxChain(db, 'litecoin'));
  expect((await orderRow(db, order.id)).status).toBe('processed');
  await waitFor('its webhook', 10_000, () => hooks.received.some((r) => r.body?.orderId === order.id));
  return hooks.received.find((r) => r.body?.orderId === order.id)!;
}

/** The public key a webhook came with, checked to verify with that key's private key (and with no other of `others`). */
function signedBy(request: Awaited<ReturnType<typeof paidWebhook>>, keys: Keys, ...others: Keys[]): string {
  expect(request.headers['x-api-public-key']).toBe(keys.publicKey);
  expect(verifyWebhook(request, keys.privateKey)).toMatchObject({ apiSignature: true, timestamped: true });
  for (const other of others) expect(verifyWebhook(request, other.privateKey).apiSignature).toBe(false);
  return String(request.headers['x-api-public-key']);
}

describe("an object's webhook is signed", () => {
  it('with the key that made it, whatever keys are made later; with the webhook key when no key made it', async () => {
    dispatch();
    const integration = await createKey(db, merchant.merchantId, 'test', { name: 'Shop' });
    const newer = await createKey(db, merchant.merchantId, 'test', { name: 'Created later' });
    signedBy(await paidWebhook(integration), integration, newer, merchant.test);
    signedBy(await paidWebhook(merchant.test), merchant.test, newer, integration);
    // The merchant's first test key is the mode's webhook key; newer keys do not take it.
    const keys = await listKeys(db, merchant.merchantId, 'test');
    expect(keys.filter((k) => k.webhookKey).map((k) => k.publicKey)).toEqual([merchant.test.publicKey]);
    signedBy(await paidWebhook(null), merchant.test, newer, integration);
    // Designated on the keys page: another key becomes the webhook key.
    await setWebhookKey(db, merchant.merchantId, integration.keyId);
    signedBy(await paidWebhook(null), integration, merchant.test);
  });

  it('with a rolled key until its overlap ends, then with its replacement; both authenticate meanwhile', async () => {
    const rolling = await createKey(db, merchant.merchantId, 'test', { name: 'Rolling', scopes: ['read-only'] });
    const start = new Date();
    const replacement = await rollKey(db, merchant.merchantId, rolling.keyId, 1, 'owner@shop.example', start);
    expect(replacement.oldKeyExpiresAt.getTime()).toBe(start.getTime() + HOUR);
    const listed = (await listKeys(db, merchant.merchantId, 'test')).find((k) => k.keyId === replacement.keyId)!;
    expect(listed).toMatchObject({ name: 'Rolling', scopes: ['read-only'], createdBy: 'owner@shop.example' });
    // Both authenticate requests during the overlap.
    for (const keys of [rolling, replacement]) expect((await callInProcess('orders', {}, keys)).status).toBe(200);
    // Orders made with the old key during the overlap: signed with it until the overlap ends.
    const madeBefore = await createKey(db, merchant.merchantId, 'test', { name: 'Maker' });
    const rolledMaker = await rollKey(db, merchant.merchantId, madeBefore.keyId, 1, null, start);
    now = new Date(start.getTime() + HOUR - 60_000);
    dispatch();
    signedBy(await paidWebhook(madeBefore), madeBefore, rolledMaker);
    await dispatcher!.stop();
    now = new Date(start.getTime() + HOUR);
    dispatch();
    signedBy(await paidWebhook(madeBefore), rolledMaker, madeBefore);
    now = new Date();
  });

  it('rolled with no overlap, the old key is refused at once with KEY_EXPIRED', async () => {
    const old = await createKey(db, merchant.merchantId, 'test');
    await rollKey(db, merchant.merchantId, old.keyId, 0, null);
    const refused = await callInProcess('orders', {}, old);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 2007, name: 'KEY_EXPIRED' });
    // A key made with an expiry in the past is refused too.
    const expired = await createKey(db, merchant.merchantId, 'test', { expiresAt: new Date(Date.now() - 1) });
    expect((await callInProcess('orders', {}, expired)).body.error.name).toBe('KEY_EXPIRED');
  });

  it('after a revocation: with the key its webhooks moved to, or with the revoked key for the hours stated', async () => {
    dispatch();
    const moved = await createKey(db, merchant.merchantId, 'test', { name: 'Moved' });
    const target = await createKey(db, merchant.merchantId, 'test', { name: 'Target' });
    // An order of `moved` waits for its payment while the key is revoked.
    const fields = { currency: 'LTC', network: 'litecoin', amount: '0.01', successWebhook: hooks.url('/paid') };
    const open = await createOrder(db, moved, fields);
    const before = (await listKeys(db, merchant.merchantId, 'test')).find((k) => k.keyId === moved.keyId)!;
    expect(before.open).toEqual({ orders: 1, invoices: 0, webhooks: 0 });
    await revokeMerchantKey(db, merchant.merchantId, moved.keyId, { moveTo: target.keyId });
    expect(await findApiKey(db, moved.publicKey)).toBeUndefined();
    await broadcast(db, {
      network: network('litecoin'),
      to: open.address,
      tag: null,
      currency: 'LTC',
      amount: 1_000_000n,
    });
    await mine(db, network('litecoin'), 2);
    await watchOnce(db, sandboxChain(db, 'litecoin'));
    await waitFor('its webhook', 10_000, () => hooks.received.some((r) => r.body?.orderId === open.id));
    signedBy(
      hooks.received.find((r) => r.body?.orderId === open.id)!,
      target,
      moved,
    );

    const kept = await createKey(db, merchant.merchantId, 'test', { name: 'Kept' });
    const keptOrder = await createOrder(db, kept, fields);
    const start = new Date();
    await revokeMerchantKey(db, merchant.merchantId, kept.keyId, { keepHours: 2, moveTo: target.keyId }, start);
    await dispatcher!.stop();
    now = start;
    dispatch();
    await broadcast(db, {
      network: network('litecoin'),
      to: keptOrder.address,
      tag: null,
      currency: 'LTC',
      amount: 1_000_000n,
    });
    await mine(db, network('litecoin'), 2);
    await watchOnce(db, sandboxChain(db, 'litecoin'));
    await waitFor('its webhook', 10_000, () => hooks.received.some((r) => r.body?.orderId === keptOrder.id));
    signedBy(
      hooks.received.find((r) => r.body?.orderId === keptOrder.id)!,
      kept,
      target,
    );
    // Once the hours have passed, a re-send is signed with the key chosen for after them.
    await dispatcher!.stop();
    now = new Date(start.getTime() + 2 * HOUR + 1);
    dispatch();
    const count = hooks.received.length;
    const [event] = await db.query<{ id: string }>('select id from webhook_events where order_id = $1', [keptOrder.id]);
    expect((await callInProcess('webhooks/resend', { id: event!.id }, merchant.test)).status).toBe(200);
    await waitFor('the re-sent webhook', 10_000, () => hooks.received.length > count);
    signedBy(hooks.received.at(-1)!, target, kept);
    now = new Date();
  });

  it('refuses to move webhooks to a key of another mode or merchant, changing nothing', async () => {
    const victim = await createKey(db, merchant.merchantId, 'test');
    const other = await createTestMerchant(db);
    const foreign = (await listKeys(db, other.merchantId, 'test'))[0]!;
    const live = (await listKeys(db, merchant.merchantId, 'live'))[0]!;
    for (const moveTo of [foreign.keyId, live.keyId, victim.keyId])
      await expect(revokeMerchantKey(db, merchant.merchantId, victim.keyId, { moveTo })).rejects.toThrow(
        /another active key of the same mode/,
      );
    await expect(revokeMerchantKey(db, merchant.merchantId, victim.keyId, { keepHours: 169 })).rejects.toThrow(
      /1 to 168 hours/,
    );
    expect(await findApiKey(db, victim.publicKey)).toBeDefined();
  });
});

describe('a key’s last use', () => {
  it('is its last signed request’s time and address, written in one statement per flush, not per request', async () => {
    const used: IssuedKeys = await createKey(db, merchant.merchantId, 'test', { name: 'Used' });
    await flushKeyUse(db);
    const started = Date.now();
    expect((await callInProcess('orders', {}, used, '203.0.113.7')).status).toBe(200);
    expect((await callInProcess('orders', {}, used, '203.0.113.8')).status).toBe(200);
    const unwritten = (await listKeys(db, merchant.merchantId, 'test')).find((k) => k.keyId === used.keyId)!;
    expect(unwritten.lastUsedAt).toBeNull(); // not a write per request
    expect(await flushKeyUse(db)).toBe(1);
    const written = (await listKeys(db, merchant.merchantId, 'test')).find((k) => k.keyId === used.keyId)!;
    expect(written.lastUsedIp).toBe('203.0.113.8');
    expect(written.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(started - 1000);
    expect(await flushKeyUse(db)).toBe(0);
  });
});
