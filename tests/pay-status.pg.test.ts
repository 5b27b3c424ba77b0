/**
 * The payment page's public status endpoint (GET /api/pay/{orderId}/status) and the page itself
 * over real HTTP, on PGlite and on PostgreSQL: payer-safe fields only, confirmations counted
 * from the watcher's cursor, received and remaining, late transfers, 404s. The browser side is
 * in e2e/pay-*.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import { after, network, sandboxChain, watchOnce } from './support/chain';
import { call, withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';
import { simulatePay } from './support/sandbox-http';

let gateway: TestGateway;
let merchant: TestMerchant;

withTestGateway((started) => ({ gateway, merchant } = started), { merchantName: 'Status shop' });

let orders = 0;
async function makeOrder(fields: Record<string, unknown>) {
  const made = await call(gateway, 'make-order', { order: `status-${++orders}`, ...fields }, merchant.test);
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body.response;
}

async function status(orderId: string) {
  const response = await fetch(`${gateway.baseUrl}/api/pay/${orderId}/status`);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('GET /api/pay/{orderId}/status', () => {
  it('a fresh order: payer-safe fields only, no-store', async () => {
    const order = await makeOrder({
      currency: 'LTC',
      network: 'litecoin',
      amount: '0.25',
      description: 'One mug',
      returnUrl: 'https://shop.example/thanks',
      successWebhook: 'https://hooks.example/ok',
      errorWebhook: 'https://hooks.example/ko',
      payerEmail: 'payer@mail.example',
      externalUserId: 'user-77',
    });
    const answer = await status(order.orderId);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toContain('no-store');
    expect(answer.body).toMatchObject({
      orderId: order.orderId,
      status: 'pending',
      screen: 'awaiting',
      test: true,
      merchantName: 'Status shop',
      description: 'One mug',
      currency: 'LTC',
      currencyName: 'Litecoin',
      network: 'litecoin',
      networkName: 'Litecoin',
      amount: '0.25',
      received: '0',
      remaining: '0.25',
      address: order.address,
      tag: null,
      walletUri: `litecoin:${order.address}?amount=0.25`,
      returnUrl: 'https://shop.example/thanks',
      expiresAt: order.expiresAt,
      requiredConfirmations: 2,
      payments: [],
      otherTransfers: [],
    });
    const text = JSON.stringify(answer.body);
    for (const secret of [
      'hooks.example',
      'payer@mail.example',
      'user-77',
      order.clientOrderId,
      merchant.test.privateKey,
    ])
      expect(text).not.toContain(secret);
  });

  it('detected with k/n from the cursor, then partially paid with received and remaining', async () => {
    const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.25' });
    const chain = sandboxChain(gateway.db, 'litecoin');
    const paid = await simulatePay(gateway, { orderId: order.orderId, kind: 'partial' });
    expect(paid.status).toBe(200);
    await watchOnce(gateway.db, chain);
    let view = (await status(order.orderId)).body;
    expect(view.screen).toBe('detected');
    expect(view.payments).toEqual([{ txid: paid.body.txHash, amount: '0.125', status: 'detected', confirmations: 0 }]);
    expect(view.remaining).toBe('0.125');
    expect(view.walletUri).toBe(`litecoin:${order.address}?amount=0.125`);

    await mine(gateway.db, network('litecoin'), 1);
    await watchOnce(gateway.db, chain);
    expect((await status(order.orderId)).body.payments[0].confirmations).toBe(1);

    await mine(gateway.db, network('litecoin'), 1);
    await watchOnce(gateway.db, chain);
    view = (await status(order.orderId)).body;
    expect(view).toMatchObject({ status: 'pending', screen: 'partially-paid', received: '0.125', remaining: '0.125' });
    expect(view.payments[0]).toMatchObject({ status: 'confirmed', confirmations: 2 });
  });

  it('expired on chain time, then a late payment: paid late with its txid', async () => {
    const order = await makeOrder({ currency: 'DOGE', network: 'dogecoin', amount: '10' });
    const chain = sandboxChain(gateway.db, 'dogecoin');
    const expiresAt = new Date(order.expiresAt);
    await mine(gateway.db, network('dogecoin'), 1, after(expiresAt, 1));
    await watchOnce(gateway.db, chain, { now: after(expiresAt, 2) });
    expect((await status(order.orderId)).body).toMatchObject({ status: 'expired', screen: 'expired' });

    const late = await broadcast(gateway.db, {
      network: network('dogecoin'),
      to: order.address,
      tag: null,
      currency: 'DOGE',
      amount: 1_000_000_000n,
      at: after(expiresAt, 10),
    });
    await mine(gateway.db, network('dogecoin'), 1, after(expiresAt, 11));
    await watchOnce(gateway.db, chain, { now: after(expiresAt, 12) });
    const view = (await status(order.orderId)).body;
    expect(view.screen).toBe('paid-late');
    expect(view.otherTransfers).toEqual([
      { txid: late.txHash, currency: 'DOGE', amount: '10', confirmations: 1, late: true },
    ]);
  });

  it('404 JSON for an unknown or malformed id, and a 404 page', async () => {
    for (const id of ['6f1c1f7e-8a3b-4a53-9d55-0a4f7d1a2b3c', 'nope', '1%27%20or%201%3D1']) {
      const answer = await status(id);
      expect(answer.status, id).toBe(404);
      expect(answer.body).toEqual({ error: 'NOT_FOUND', message: 'Order not found.' });
      const page = await fetch(`${gateway.baseUrl}/pay/${id}`);
      expect(page.status, id).toBe(404);
      expect(await page.text()).toContain('Order not found');
    }
  });
});

describe('paths that are not valid percent-encoding', () => {
  // Next.js's router decodes dynamic segments and answered these with a bare 500 (text/plain, no
  // security headers, nothing logged); proxy.ts takes their `%` literally, so they are unknown ids.
  const broken = ['%E0%A4%A', '%ZZ', '%', 'abc%2', '%ED%A0%80'];

  it('the status route answers its JSON 404', async () => {
    for (const id of broken) {
      const response = await fetch(`${gateway.baseUrl}/api/pay/${id}/status`);
      expect(response.status, id).toBe(404);
      expect(response.headers.get('content-type'), id).toMatch(/^application\/json/);
      expect(response.headers.get('cache-control'), id).toContain('no-store');
      expect(response.headers.get('x-content-type-options'), id).toBe('nosniff');
      expect(await response.json(), id).toEqual({ error: 'NOT_FOUND', message: 'Order not found.' });
    }
  });

  it('the payment page answers its 404 page with the security headers', async () => {
    for (const id of broken) {
      const page = await fetch(`${gateway.baseUrl}/pay/${id}`);
      expect(page.status, id).toBe(404);
      expect(page.headers.get('content-type'), id).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy'), id).toMatch(
        /script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/,
      );
      expect(page.headers.get('x-content-type-options'), id).toBe('nosniff');
      // The payer's pages send a Referer to the gateway alone: their forms post without JavaScript (proxy.ts).
      expect(page.headers.get('referrer-policy'), id).toBe('same-origin');
      expect(await page.text(), id).toContain('Order not found');
    }
  });

  it("so do the other pages with an id in the path (the demo store's orders)", async () => {
    for (const path of ['/store/orders/%ZZ', '/store/orders/%E0%A4%A/embed']) {
      const page = await fetch(`${gateway.baseUrl}${path}`);
      expect(page.status, path).toBe(404);
      expect(page.headers.get('content-security-policy'), path).toMatch(/script-src 'self' 'nonce-/);
    }
  });
});

describe('GET /pay/{orderId}', () => {
  it('renders the first paint from the same view, in the negotiated language, with a nonce CSP', async () => {
    const order = await makeOrder({ currency: 'XRP', network: 'ripple', amount: '12.5' });
    const page = await fetch(`${gateway.baseUrl}/pay/${order.orderId}`, {
      headers: { 'accept-language': 'es-ES,es;q=0.9' },
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="es" dir="ltr"');
    expect(html).toContain('Esperando el pago');
    expect(html).toContain(order.tag);
    expect(html).toContain('La etiqueta de destino es obligatoria');
    expect(page.headers.get('content-security-policy')).toMatch(
      /script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/,
    );
    const arabic = await (await fetch(`${gateway.baseUrl}/pay/${order.orderId}?lang=ar`)).text();
    expect(arabic).toContain('<html lang="ar" dir="rtl"');
  });
});
