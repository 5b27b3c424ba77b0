/**
 * The demo store as the merchant's server: checkout through the typed client against the real
 * gateway over HTTP, and its webhook route. To replay and forge webhooks at will, the test signs
 * bodies itself with the merchant's private key, as SPEC "Webhooks" says; the gateway's own
 * webhooks reaching the store are covered by e2e/store.spec.ts.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout, paymentOptions, StoreError, storeOrder } from '@/lib/store';
import { startTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';

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

function webhook(body: object, privateKey = merchant.test.privateKey, publicKey = merchant.test.publicKey) {
  const raw = JSON.stringify(body);
  return {
    raw,
    send: (rawOverride = raw, id = (body as { id: string }).id) =>
      fetch(`${gateway.baseUrl}/store/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-public-key': publicKey,
          'x-api-signature': createHmac('sha256', privateKey).update(raw).digest('hex'),
          'x-webhook-id': id,
        },
        body: rawOverride,
      }),
  };
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

describe.skipIf(process.env.TEST_DB === 'postgres')('demo store', () => {
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

  it('takes the status of a signed webhook once; a second copy changes nothing', async () => {
    const { storeId, gatewayOrderId } = await checkoutMug();
    const paid = webhook({ ...ORDER_FIELDS, id: `evt-${storeId}`, orderId: gatewayOrderId, clientOrderId: storeId, status: 'processed', received: '12' });
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
    const before = await storeRow(storeId);
    const fields = { ...ORDER_FIELDS, id: `evt-forged-${storeId}`, orderId: gatewayOrderId, clientOrderId: storeId, status: 'processed', received: '12' };

    const wrongKey = await webhook(fields, 'not-the-private-key').send();
    expect(wrongKey.status).toBe(401);
    // A valid signature, but over other bytes than those sent.
    const signedOther = webhook({ ...fields, status: 'expired', received: '0' });
    const swapped = await signedOther.send(JSON.stringify(fields));
    expect(swapped.status).toBe(401);
    const otherMerchant = await createTestMerchant(gateway.db);
    const foreign = await webhook(fields, otherMerchant.test.privateKey, otherMerchant.test.publicKey).send();
    expect(foreign.status).toBe(401);

    expect(await storeRow(storeId)).toEqual(before);
    const [receipts] = await gateway.db.query<{ n: number }>('select count(*)::int as n from store_webhook_receipts where store_order_id = $1', [storeId]);
    expect(receipts!.n).toBe(0);
  });

  it('a checkout that stopped before keeping the gateway order id still takes its webhook', async () => {
    const { storeId, gatewayOrderId } = await checkoutMug();
    // As after a crash between make-order and the store's update.
    await gateway.db.query('update store_orders set gateway_order_id = null, payment_link = null where id = $1', [storeId]);
    const paid = webhook({ ...ORDER_FIELDS, id: `evt-late-${storeId}`, orderId: gatewayOrderId, clientOrderId: storeId, status: 'processed', received: '12' });
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
});
