/**
 * The demo store as the merchant's server: checkout through the typed client against the real
 * gateway over HTTP, and its webhook route. The route takes a webhook only with a fresh
 * timestamped signature (`x-webhook-signature`) and then asks the gateway for the order: the
 * status and amount come from that answer, never from the webhook body. To replay and forge
 * webhooks at will, the test signs bodies itself with the merchant's private key, as SPEC
 * "Webhooks" says; the last test lets the gateway's own dispatcher deliver.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mine } from '@/lib/chains/sandbox';
import { simulateOrderPayment } from '@/lib/sandbox';
import { checkout, paymentOptions, StoreError, storeOrder } from '@/lib/store';
import { dispatcherOptions, startDispatcher } from '@/lib/webhooks';
import { network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { startTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { waitFor } from './support/worker-process';

let gateway: TestGateway;
let merchant: TestMerchant;

beforeAll(async () => {
  gateway = await startTestGateway();
  merchant = await createTestMerchant(gateway.db, 'Demo store');
  // The store reads its keys where the first start keeps them (lib/server/demo-merchant.ts).
  fs.writeFileSync(path.join(process.env.DATA_DIR!, 'demo-store.json'), JSON.stringify({ merchantId: merchant.merchantId, ...merchant.test }));
});
afterAll(() => gateway?.close());

async function storeRow(id: string) {
  const [row] = await gateway.db.query<{ status: string; received: string | null; updated_at: Date }>('select status, received, updated_at from store_orders where id = $1', [id]);
  return row!;
}

const hmac = (key: string, data: string) => createHmac('sha256', key).update(data).digest('hex');

interface Signing {
  privateKey?: string;
  publicKey?: string;
  /** Unix seconds the timestamped signature is made at; now by default. */
  t?: number;
  /** Headers to leave out, e.g. `x-webhook-signature` for a body signed as a request is. */
  without?: string[];
}

/** A webhook as the gateway sends it: both signatures, the id and the timestamp (lib/webhooks/signing.ts). */
function webhook(body: object, { privateKey = merchant.test.privateKey, publicKey = merchant.test.publicKey, t = Math.floor(Date.now() / 1000), without = [] }: Signing = {}) {
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-api-public-key': publicKey,
    'x-api-signature': hmac(privateKey, raw),
    'x-webhook-id': (body as { id: string }).id,
    'x-webhook-timestamp': String(t),
    'x-webhook-signature': `t=${t},v1=${hmac(privateKey, `${t}.${raw}`)}`,
  };
  for (const name of without) delete headers[name];
  return {
    raw,
    send: (rawOverride = raw) => fetch(`${gateway.baseUrl}/store/webhooks`, { method: 'POST', headers, body: rawOverride }),
  };
}

/** Pays the gateway order in full on the sandbox and lets the watcher make it `processed`. */
async function payInFull(gatewayOrderId: string): Promise<void> {
  await simulateOrderPayment(gateway.db, gatewayOrderId, 'full');
  await mine(gateway.db, network('tron'), 2);
  await watchOnce(gateway.db, sandboxChain(gateway.db, 'tron'));
  expect((await orderRow(gateway.db, gatewayOrderId)).status).toBe('processed');
}

/** The webhook the gateway wrote to its outbox for the order: its event id and the exact body. */
async function outboxEvent(gatewayOrderId: string): Promise<{ id: string; body: Record<string, unknown> }> {
  const [row] = await gateway.db.query<{ id: string; body: string }>('select id, body from webhook_events where order_id = $1', [gatewayOrderId]);
  return { id: row!.id, body: JSON.parse(row!.body) as Record<string, unknown> };
}

async function receipts(storeId: string): Promise<number> {
  const [row] = await gateway.db.query<{ n: number }>('select count(*)::int as n from store_webhook_receipts where store_order_id = $1', [storeId]);
  return row!.n;
}

/** A checkout of one mug in USDT on tron: the store order id and the gateway order it made. */
async function checkoutMug() {
  const link = await checkout({ mug: 1 }, { currency: 'USDT', network: 'tron' });
  const gatewayOrderId = link.split('/pay/')[1]!;
  const [row] = await gateway.db.query<{ id: string }>('select id from store_orders where gateway_order_id = $1', [gatewayOrderId]);
  const [order] = await gateway.db.query<{ client_order_id: string; amount: string; success_webhook: string; return_url: string }>(
    'select client_order_id, amount::text, success_webhook, return_url from orders where id = $1',
    [gatewayOrderId],
  );
  return { storeId: row!.id, gatewayOrderId, link, order: order! };
}

const ORDER_FIELDS = { event: 'ORDER', currency: 'USDT', network: 'tron', amount: '12' };

describe('demo store', () => {
  it('offers the coins the gateway accepts, priced from the cart', async () => {
    const options = await paymentOptions({ mug: 2 });
    expect(options.find((o) => o.currency === 'USDT' && o.network === 'tron')?.amount).toBe('24');
    expect(options.find((o) => o.currency === 'XRP')).toMatchObject({ network: 'ripple', tagRequired: true, amount: '12' });
  });

  it('checks out through the API: its order id as `order`, its own webhook and return URLs', async () => {
    const { storeId, link, order } = await checkoutMug();
    expect(link).toMatch(new RegExp(`^${gateway.baseUrl}/pay/[0-9a-f-]{36}$`));
    expect(order).toEqual({
      client_order_id: storeId,
      amount: '12000000', // 12 USDT in base units (6 decimals)
      success_webhook: `${gateway.baseUrl}/store/webhooks`,
      return_url: `${gateway.baseUrl}/store/orders/${storeId}`,
    });
    expect(await storeRow(storeId)).toMatchObject({ status: 'awaiting_payment' });
  });

  it('says in plain words when the coin is not accepted or the cart is empty', async () => {
    await expect(checkout({ mug: 1 }, { currency: 'DOGE', network: 'tron' })).rejects.toMatchObject({ code: 'unsupported_coin' });
    await expect(checkout({}, { currency: 'USDT', network: 'tron' })).rejects.toBeInstanceOf(StoreError);
    await expect(checkout({}, { currency: 'USDT', network: 'tron' })).rejects.toThrow(/cart is empty/);
  });

  it('takes the gateway\'s status once per webhook id; a second copy changes nothing', async () => {
    const { storeId, gatewayOrderId } = await checkoutMug();
    await payInFull(gatewayOrderId);
    const event = await outboxEvent(gatewayOrderId);
    const paid = webhook(event.body);
    const first = await paid.send();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true, duplicate: false });
    const after = await storeRow(storeId);
    expect(after).toMatchObject({ status: 'processed', received: '12' });

    const again = await paid.send();
    expect(await again.json()).toEqual({ ok: true, duplicate: true });
    expect(await storeRow(storeId)).toEqual(after);
    const view = await storeOrder(storeId);
    expect(view).toMatchObject({ status: 'processed', gateway: null });
  });

  it('rejects a forged webhook with 401 and changes nothing', async () => {
    const { storeId, gatewayOrderId } = await checkoutMug();
    await payInFull(gatewayOrderId);
    const before = await storeRow(storeId);
    const fields = (await outboxEvent(gatewayOrderId)).body;

    expect((await webhook(fields, { privateKey: 'not-the-private-key' }).send()).status).toBe(401);
    // A valid signature, but over other bytes than those sent.
    const signedOther = webhook({ ...fields, status: 'expired', received: '0' });
    expect((await signedOther.send(JSON.stringify(fields))).status).toBe(401);
    const otherMerchant = await createTestMerchant(gateway.db);
    expect((await webhook(fields, { privateKey: otherMerchant.test.privateKey, publicKey: otherMerchant.test.publicKey }).send()).status).toBe(401);

    expect(await storeRow(storeId)).toEqual(before);
    expect(await receipts(storeId)).toBe(0);
  });

  it('refuses a webhook signed only with x-api-signature, as the old test-signature operation could have handed one out', async () => {
    const { storeId, gatewayOrderId, order } = await checkoutMug();
    const before = await storeRow(storeId);
    // What anyone holding a request signature over these bytes could send: no timestamped signature.
    const forged = webhook(
      { ...ORDER_FIELDS, id: `evt-untimed-${storeId}`, orderId: gatewayOrderId, clientOrderId: order.client_order_id, status: 'processed', received: '12' },
      { without: ['x-webhook-signature', 'x-webhook-timestamp'] },
    );
    const answer = await forged.send();
    expect(answer.status).toBe(401);
    expect(await storeRow(storeId)).toEqual(before);
    expect(await receipts(storeId)).toBe(0);
  });

  it('a correctly signed webhook claiming "processed" for an order the gateway reports pending changes nothing', async () => {
    const { storeId, gatewayOrderId } = await checkoutMug();
    const before = await storeRow(storeId);
    const claim = webhook({ ...ORDER_FIELDS, id: `evt-claim-${storeId}`, orderId: gatewayOrderId, clientOrderId: storeId, status: 'processed', received: '12' });
    const answer = await claim.send();
    expect(answer.status).toBe(409);
    expect(await answer.json()).toEqual({ ok: false, error: 'the gateway does not report this order final' });
    expect(await storeRow(storeId)).toEqual(before);
    expect(await receipts(storeId)).toBe(0);
    expect(await storeOrder(storeId)).toMatchObject({ status: 'awaiting_payment', gateway: { status: 'pending', received: '0' } });
  });

  it('takes the status and amount from the gateway, not from the webhook body', async () => {
    const { storeId, gatewayOrderId } = await checkoutMug();
    await payInFull(gatewayOrderId);
    const event = await outboxEvent(gatewayOrderId);
    // Signed correctly, but the body says something else than the gateway's order.
    const answer = await webhook({ ...event.body, status: 'overpaid', received: '999' }).send();
    expect(await answer.json()).toEqual({ ok: true, duplicate: false });
    expect(await storeRow(storeId)).toMatchObject({ status: 'processed', received: '12' });
  });

  it('refuses a replayed webhook whose timestamp is more than five minutes old, or far ahead', async () => {
    const { storeId, gatewayOrderId } = await checkoutMug();
    await payInFull(gatewayOrderId);
    const before = await storeRow(storeId);
    const event = await outboxEvent(gatewayOrderId);
    const now = Math.floor(Date.now() / 1000);
    // A copy captured ten minutes ago, with both of its signatures intact.
    expect((await webhook(event.body, { t: now - 600 }).send()).status).toBe(401);
    expect((await webhook(event.body, { t: now + 600 }).send()).status).toBe(401);
    expect(await storeRow(storeId)).toEqual(before);
    expect(await receipts(storeId)).toBe(0);
    // The gateway's own (re)delivery is signed when it is sent, and is taken.
    expect(await (await webhook(event.body).send()).json()).toEqual({ ok: true, duplicate: false });
    expect(await storeRow(storeId)).toMatchObject({ status: 'processed', received: '12' });
  });

  it('a checkout that stopped before keeping the gateway order id still takes its webhook', async () => {
    const { storeId, gatewayOrderId } = await checkoutMug();
    await payInFull(gatewayOrderId);
    // As after a crash between make-order and the store's update.
    await gateway.db.query('update store_orders set gateway_order_id = null, payment_link = null where id = $1', [storeId]);
    const paid = webhook((await outboxEvent(gatewayOrderId)).body);
    expect(await (await paid.send()).json()).toEqual({ ok: true, duplicate: false });
    const [row] = await gateway.db.query<{ status: string; gateway_order_id: string }>('select status, gateway_order_id from store_orders where id = $1', [storeId]);
    expect(row).toEqual({ status: 'processed', gateway_order_id: gatewayOrderId });
    // Another gateway order naming this store order is not taken for it.
    const other = webhook({ ...ORDER_FIELDS, id: `evt-other-${storeId}`, orderId: '00000000-0000-4000-8000-000000000000', clientOrderId: storeId, status: 'expired', received: '0' });
    expect((await other.send()).status).toBe(404);
  });

  it('asks the API for the order while no webhook has arrived', async () => {
    const { storeId } = await checkoutMug();
    const view = await storeOrder(storeId);
    expect(view).toMatchObject({ status: 'awaiting_payment', gateway: { status: 'pending', received: '0' } });
  });

  it('the real flow: a simulated payment, the gateway\'s dispatcher delivers, the store confirms and marks it paid', { timeout: 120_000 }, async () => {
    const { storeId, gatewayOrderId } = await checkoutMug();
    // Last in the file: the dispatcher also delivers the outbox rows the tests above left.
    const dispatcher = startDispatcher(gateway.db, dispatcherOptions({ policy: { allowPrivate: false, allowed: ['127.0.0.1'] }, pollMs: 25, retryDelaysMs: [50, 50], jitter: 0 }));
    try {
      await payInFull(gatewayOrderId);
      const delivery = async () =>
        (await gateway.db.query<{ state: string }>('select state from webhook_events where order_id = $1', [gatewayOrderId]))[0]?.state;
      // The dispatcher records the delivery once the store has answered 2xx.
      await waitFor('the webhook delivered', 30_000, async () => (await delivery()) === 'delivered');
      expect(await storeRow(storeId)).toMatchObject({ status: 'processed', received: '12' });
      expect(await receipts(storeId)).toBe(1);
    } finally {
      await dispatcher.stop();
    }
  });
});
