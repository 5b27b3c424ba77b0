/**
 * The demo store as the merchant's server: checkout through the typed client against the real
 * gateway over HTTP (an invoice of the cart's price in dollars), and its webhook route. The route
 * takes a webhook only with a fresh timestamped signature (`x-webhook-signature`) and an
 * `x-webhook-id` equal to the body's `webhookId`, and then asks the gateway for the invoice: the
 * status and amount come from that answer, never from the webhook body. The shopper's coin
 * choice on the invoice page is made through the domain code (`chooseCoin`). To replay and forge
 * webhooks at will, the test signs bodies itself with the merchant's private key, as SPEC
 * "Webhooks" says; the last test lets the gateway's own dispatcher deliver.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fillAddressPool } from '@/lib/addresses';
import { mine } from '@/lib/chains/sandbox';
import { chooseCoin, sweepInvoices } from '@/lib/invoices';
import { simulateOrderPayment } from '@/lib/sandbox';
import { checkout, StoreError, storeOrder } from '@/lib/store';
import { dispatcherOptions, startDispatcher } from '@/lib/webhooks';
import { createOrder, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { call, withTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { waitFor } from './support/worker-process';

let gateway: TestGateway;
let merchant: TestMerchant;

withTestGateway((started) => ({ gateway, merchant } = started), { merchantName: 'Demo store' });
beforeAll(async () => {
  // The store reads its keys where the first start keeps them (lib/server/demo-merchant.ts).
  fs.writeFileSync(
    path.join(process.env.DATA_DIR!, 'demo-store.json'),
    JSON.stringify({ merchantId: merchant.merchantId, ...merchant.test }),
  );
  // The coin choice makes its order through the domain code, which takes an address from the pool.
  await fillAddressPool(gateway.db, network('tron'), 'test');
});

async function storeRow(id: string) {
  const [row] = await gateway.db.query<{
    status: string;
    received: string | null;
    gateway_invoice_id: string | null;
    updated_at: Date;
  }>('select status, received, gateway_invoice_id, updated_at from store_orders where id = $1', [id]);
  return row!;
}

const hmac = (key: string, data: string) => createHmac('sha256', key).update(data).digest('hex');

interface Signing {
  privateKey?: string;
  publicKey?: string;
  /** Unix seconds the timestamped signature is made at; now by default. */
  t?: number;
  /** `x-webhook-id`; the body's `webhookId` (else its `id`) by default. */
  webhookId?: string;
  /** Headers to leave out, e.g. `x-webhook-signature` for a body signed as a request is. */
  without?: string[];
}

/** A webhook as the gateway sends it: both signatures, the id and the timestamp (lib/webhooks/signing.ts). */
function webhook(
  body: object,
  {
    privateKey = merchant.test.privateKey,
    publicKey = merchant.test.publicKey,
    t = Math.floor(Date.now() / 1000),
    webhookId,
    without = [],
  }: Signing = {},
) {
  const raw = JSON.stringify(body);
  const fields = body as { webhookId?: string; id: string };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-api-public-key': publicKey,
    'x-api-signature': hmac(privateKey, raw),
    'x-webhook-id': webhookId ?? fields.webhookId ?? fields.id,
    'x-webhook-timestamp': String(t),
    'x-webhook-signature': `t=${t},v1=${hmac(privateKey, `${t}.${raw}`)}`,
  };
  for (const name of without) delete headers[name];
  return {
    raw,
    send: (rawOverride = raw) =>
      fetch(`${gateway.baseUrl}/store/webhooks`, { method: 'POST', headers, body: rawOverride }),
  };
}

/** Pays the gateway order in full on the sandbox and lets the watcher make it `processed`. */
async function payInFull(gatewayOrderId: string): Promise<void> {
  await simulateOrderPayment(gateway.db, gatewayOrderId, 'full');
  await mine(gateway.db, network('tron'), 2);
  await watchOnce(gateway.db, sandboxChain(gateway.db, 'tron'));
  expect((await orderRow(gateway.db, gatewayOrderId)).status).toBe('processed');
}

/** The webhook the gateway wrote to its outbox for the invoice: its event id and the exact body. */
async function outboxEvent(invoiceId: string): Promise<{ id: string; body: Record<string, unknown> }> {
  const [row] = await gateway.db.query<{ id: string; body: string }>(
    'select id, body from webhook_events where invoice_id = $1',
    [invoiceId],
  );
  return { id: row!.id, body: JSON.parse(row!.body) as Record<string, unknown> };
}

async function receipts(storeId: string): Promise<number> {
  const [row] = await gateway.db.query<{ n: number }>(
    'select count(*)::int as n from store_webhook_receipts where store_order_id = $1',
    [storeId],
  );
  return row!.n;
}

/** A checkout of one mug: the store order id and the gateway invoice it made, before any coin is chosen. */
async function checkoutMug() {
  const link = await checkout({ mug: 1 });
  const invoiceId = link.split('/invoice/')[1]!;
  const [row] = await gateway.db.query<{ id: string }>('select id from store_orders where gateway_invoice_id = $1', [
    invoiceId,
  ]);
  return { storeId: row!.id, invoiceId, link };
}

/** A checkout of one mug whose shopper chose USDT on tron on the invoice page: also the order that choice made. */
async function checkoutMugInUsdt() {
  const made = await checkoutMug();
  const order = await chooseCoin(gateway.db, made.invoiceId, { currency: 'USDT', network: 'tron' });
  return { ...made, gatewayOrderId: order.id };
}

/** A checkout of one mug, paid in full in USDT, its invoice PROCESSED: also the webhook the gateway wrote. */
async function paidMug() {
  const made = await checkoutMugInUsdt();
  await payInFull(made.gatewayOrderId);
  return { ...made, event: await outboxEvent(made.invoiceId) };
}

describe('demo store', () => {
  it("checks out with an invoice of the cart's price in dollars: its order id as externalId and order, its own webhook and return URLs", async () => {
    const { storeId, invoiceId, link } = await checkoutMug();
    expect(link).toBe(`${gateway.baseUrl}/invoice/${invoiceId}`);
    const answer = await call(gateway, 'get-invoice', { invoiceId }, merchant.test);
    expect(answer.status).toBe(200);
    const invoice = answer.body.response;
    expect(invoice).toMatchObject({
      status: 'CREATED',
      currency: 'USD',
      amount: '12',
      externalId: storeId,
      order: storeId,
      description: '1 × Ceramic mug',
      webhookURL: `${gateway.baseUrl}/store/webhooks`,
      returnUrl: `${gateway.baseUrl}/store/orders/${storeId}`,
      orderId: null,
    });
    // lifetime: 60 minutes.
    expect(new Date(invoice.expiresAt).getTime() - new Date(invoice.createdAt).getTime()).toBe(60 * 60_000);
    // Every coin the gateway takes is offered, priced from the dollars.
    expect(invoice.currencies).toContainEqual({
      currency: 'USDT',
      networks: expect.arrayContaining([{ name: 'tron', amount: '12' }]),
    });
    const [row] = await gateway.db.query(
      'select status, total_cents, currency, network, amount, gateway_order_id, payment_link from store_orders where id = $1',
      [storeId],
    );
    expect(row).toEqual({
      status: 'awaiting_payment',
      total_cents: 1200,
      currency: null,
      network: null,
      amount: null,
      gateway_order_id: null,
      payment_link: link,
    });
  });

  it('says in plain words when the cart is empty', async () => {
    await expect(checkout({})).rejects.toBeInstanceOf(StoreError);
    await expect(checkout({ nothing: 2 })).rejects.toMatchObject({
      code: 'empty_cart',
      message: expect.stringMatching(/cart is empty/),
    });
  });

  it('asks the gateway for the invoice while no webhook has arrived: the coin once chosen, and what it received', async () => {
    const { storeId, invoiceId } = await checkoutMug();
    expect(await storeOrder(storeId)).toMatchObject({
      status: 'awaiting_payment',
      totalCents: 1200,
      coin: null,
      gateway: { status: 'created', received: null },
    });
    const order = await chooseCoin(gateway.db, invoiceId, { currency: 'USDT', network: 'tron' });
    expect(await storeOrder(storeId)).toMatchObject({
      status: 'awaiting_payment',
      coin: {
        currency: 'USDT',
        network: 'tron',
        amount: '12',
        orderId: order.id,
        orderLink: `${gateway.baseUrl}/pay/${order.id}`,
      },
      gateway: { status: 'init', received: '0 USDT on tron' },
    });
  });

  it("takes the gateway's status once per webhook id; a second copy changes nothing", async () => {
    const { storeId, invoiceId, event } = await paidMug();
    expect(event.body).toMatchObject({
      event: 'INVOICE',
      id: invoiceId,
      webhookId: event.id,
      externalId: storeId,
      status: 'PROCESSED',
    });
    const paid = webhook(event.body);
    const first = await paid.send();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true, duplicate: false });
    const after = await storeRow(storeId);
    expect(after).toMatchObject({ status: 'processed', received: '12 USDT on tron' });

    const again = await paid.send();
    expect(await again.json()).toEqual({ ok: true, duplicate: true });
    expect(await storeRow(storeId)).toEqual(after);
    expect(await receipts(storeId)).toBe(1);
    expect(await storeOrder(storeId)).toMatchObject({
      status: 'processed',
      received: '12 USDT on tron',
      gateway: null,
    });
  });

  it('rejects a forged webhook with 401 and changes nothing', async () => {
    const { storeId, event } = await paidMug();
    const before = await storeRow(storeId);
    const fields = event.body;

    expect((await webhook(fields, { privateKey: 'not-the-private-key' }).send()).status).toBe(401);
    // A valid signature, but over other bytes than those sent.
    const signedOther = webhook({ ...fields, status: 'EXPIRED', receivedAmount: '0' });
    expect((await signedOther.send(JSON.stringify(fields))).status).toBe(401);
    const otherMerchant = await createTestMerchant(gateway.db);
    expect(
      (
        await webhook(fields, {
          privateKey: otherMerchant.test.privateKey,
          publicKey: otherMerchant.test.publicKey,
        }).send()
      ).status,
    ).toBe(401);

    expect(await storeRow(storeId)).toEqual(before);
    expect(await receipts(storeId)).toBe(0);
  });

  it('refuses a webhook signed only with x-api-signature, as the old test-signature operation could have handed one out', async () => {
    const { storeId, event } = await paidMug();
    const before = await storeRow(storeId);
    // What anyone holding a request signature over these bytes could send: no timestamped signature.
    const answer = await webhook(event.body, { without: ['x-webhook-signature', 'x-webhook-timestamp'] }).send();
    expect(answer.status).toBe(401);
    expect(await storeRow(storeId)).toEqual(before);
    expect(await receipts(storeId)).toBe(0);
  });

  it("refuses a webhook whose x-webhook-id is not the body's webhookId, or is missing", async () => {
    const { storeId, event } = await paidMug();
    const before = await storeRow(storeId);
    for (const signing of [
      { webhookId: `${event.id}-other` },
      { webhookId: event.body.id as string },
      { without: ['x-webhook-id'] },
    ]) {
      const answer = await webhook(event.body, signing).send();
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ ok: false, error: 'x-webhook-id differs from the webhook id of the body' });
    }
    expect(await storeRow(storeId)).toEqual(before);
    expect(await receipts(storeId)).toBe(0);
  });

  it('a correctly signed webhook claiming PROCESSED for an invoice the gateway does not report final changes nothing', async () => {
    const { storeId, invoiceId } = await checkoutMug();
    const before = await storeRow(storeId);
    const claim = (status: string) => ({
      event: 'INVOICE',
      webhookId: `evt-claim-${status}-${storeId}`,
      id: invoiceId,
      externalId: storeId,
      status: 'PROCESSED',
      receivedAmount: '12',
    });
    // No coin chosen yet (CREATED), then chosen and waiting for the payment (INIT).
    const created = await webhook(claim('created')).send();
    expect(created.status).toBe(409);
    expect(await created.json()).toEqual({ ok: false, error: 'the gateway does not report this invoice final' });
    await chooseCoin(gateway.db, invoiceId, { currency: 'USDT', network: 'tron' });
    expect((await webhook(claim('init')).send()).status).toBe(409);
    expect(await storeRow(storeId)).toEqual(before);
    expect(await receipts(storeId)).toBe(0);
    expect(await storeOrder(storeId)).toMatchObject({
      status: 'awaiting_payment',
      gateway: { status: 'init', received: '0 USDT on tron' },
    });
  });

  it('takes the status and amount from the gateway, not from the webhook body', async () => {
    const { storeId, event } = await paidMug();
    // Signed correctly, but the body says something else than the gateway's invoice.
    const answer = await webhook({
      ...event.body,
      status: 'OVERPAID',
      receivedAmount: '999',
      receivedCurrency: 'BTC',
    }).send();
    expect(await answer.json()).toEqual({ ok: true, duplicate: false });
    expect(await storeRow(storeId)).toMatchObject({ status: 'processed', received: '12 USDT on tron' });
  });

  it('refuses a replayed webhook whose timestamp is more than five minutes old, or far ahead', async () => {
    const { storeId, event } = await paidMug();
    const before = await storeRow(storeId);
    const now = Math.floor(Date.now() / 1000);
    // A copy captured ten minutes ago, with both of its signatures intact.
    expect((await webhook(event.body, { t: now - 600 }).send()).status).toBe(401);
    expect((await webhook(event.body, { t: now + 600 }).send()).status).toBe(401);
    expect(await storeRow(storeId)).toEqual(before);
    expect(await receipts(storeId)).toBe(0);
    // The gateway's own (re)delivery is signed when it is sent, and is taken.
    expect(await (await webhook(event.body).send()).json()).toEqual({ ok: true, duplicate: false });
    expect(await storeRow(storeId)).toMatchObject({ status: 'processed', received: '12 USDT on tron' });
  });

  it("a checkout that stopped before keeping the invoice id still takes its webhook, and no other invoice's", async () => {
    const { storeId, invoiceId, event } = await paidMug();
    // As after a crash between make-invoice and the store's update.
    await gateway.db.query('update store_orders set gateway_invoice_id = null, payment_link = null where id = $1', [
      storeId,
    ]);
    // Another invoice of the store, whose webhook names this store order: the gateway says it is another's.
    const other = await paidMug();
    const misnamed = await webhook({ ...other.event.body, externalId: storeId }).send();
    expect(misnamed.status).toBe(409);
    expect(await misnamed.json()).toEqual({ ok: false, error: 'the gateway reports another invoice' });
    expect(await receipts(storeId)).toBe(0);

    expect(await (await webhook(event.body).send()).json()).toEqual({ ok: true, duplicate: false });
    expect(await storeRow(storeId)).toMatchObject({ status: 'processed', gateway_invoice_id: invoiceId });
    // Once the store order knows its invoice, a webhook naming another invoice does not find it.
    const later = await webhook({ ...other.event.body, webhookId: `evt-later-${storeId}`, externalId: storeId }).send();
    expect(later.status).toBe(404);
  });

  it('an invoice that expires with no coin chosen makes the store order expired, nothing received', async () => {
    const { storeId, invoiceId } = await checkoutMug();
    // Its time is up (only this invoice: the others of this file have an hour left).
    await gateway.db.query(`update invoices set expires_at = now() - interval '1 second' where id = $1`, [invoiceId]);
    expect(await sweepInvoices(gateway.db)).toContainEqual({ invoiceId, from: 'CREATED', to: 'EXPIRED' });
    const event = await outboxEvent(invoiceId);
    expect(await (await webhook(event.body).send()).json()).toEqual({ ok: true, duplicate: false });
    expect(await storeRow(storeId)).toMatchObject({ status: 'expired', received: null });
  });

  it('a store order made before invoices (make-order in a coin) still takes its ORDER webhook', async () => {
    const [legacy] = await gateway.db.query<{ id: string }>(
      `insert into store_orders (items, total_cents, currency, network, amount) values ($1, 1200, 'USDT', 'tron', '12') returning id`,
      [JSON.stringify([{ sku: 'mug', quantity: 1, cents: 1200 }])],
    );
    const storeId = legacy!.id;
    const order = await createOrder(gateway.db, merchant.test, {
      currency: 'USDT',
      network: 'tron',
      amount: '12',
      order: storeId,
      successWebhook: `${gateway.baseUrl}/store/webhooks`,
      errorWebhook: `${gateway.baseUrl}/store/webhooks`,
    });
    await gateway.db.query('update store_orders set gateway_order_id = $2, payment_link = $3 where id = $1', [
      storeId,
      order.id,
      `${gateway.baseUrl}/pay/${order.id}`,
    ]);
    expect(await storeOrder(storeId)).toMatchObject({
      coin: { currency: 'USDT', network: 'tron', amount: '12', orderId: order.id },
      gateway: { status: 'pending', received: '0 USDT on tron' },
    });

    await payInFull(order.id);
    const [row] = await gateway.db.query<{ id: string; body: string }>(
      'select id, body from webhook_events where order_id = $1',
      [order.id],
    );
    const body = JSON.parse(row!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ event: 'ORDER', id: row!.id, clientOrderId: storeId });
    expect(await (await webhook(body).send()).json()).toEqual({ ok: true, duplicate: false });
    expect(await (await webhook(body).send()).json()).toEqual({ ok: true, duplicate: true });
    expect(await storeRow(storeId)).toMatchObject({ status: 'processed', received: '12' });
    expect(await storeOrder(storeId)).toMatchObject({
      status: 'processed',
      received: '12 USDT on tron',
      gateway: null,
    });

    // An ORDER webhook naming a store order of the invoice era is not taken for it.
    const { storeId: newer } = await checkoutMug();
    const misnamed = await webhook({ ...body, id: `evt-order-${newer}`, clientOrderId: newer }).send();
    expect(misnamed.status).toBe(404);
    expect(await receipts(newer)).toBe(0);
  });

  it(
    "the real flow: a simulated payment, the gateway's dispatcher delivers, the store confirms and marks it paid",
    { timeout: 120_000 },
    async () => {
      const { storeId, invoiceId, gatewayOrderId } = await checkoutMugInUsdt();
      // Last in the file: the dispatcher also delivers the outbox rows the tests above left.
      const dispatcher = startDispatcher(
        gateway.db,
        dispatcherOptions({
          policy: { allowPrivate: false, allowed: ['127.0.0.1'] },
          pollMs: 25,
          retryDelaysMs: [50, 50],
          jitter: 0,
        }),
      );
      try {
        await payInFull(gatewayOrderId);
        const delivery = async () =>
          (
            await gateway.db.query<{ state: string }>('select state from webhook_events where invoice_id = $1', [
              invoiceId,
            ])
          )[0]?.state;
        // The dispatcher records the delivery once the store has answered 2xx.
        await waitFor('the webhook delivered', 30_000, async () => (await delivery()) === 'delivered');
        expect(await storeRow(storeId)).toMatchObject({ status: 'processed', received: '12 USDT on tron' });
        expect(await receipts(storeId)).toBe(1);
      } finally {
        await dispatcher.stop();
      }
    },
  );
});
