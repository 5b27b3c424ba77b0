/**
 * The demo store as a shopper and a merchant meet it (issue: merchant checkout): the store's
 * server action makes an invoice of the cart's price in dollars with keys held on the server, the
 * shopper picks the coin on the invoice page, the payment page takes the (simulated) payment, the
 * gateway's signed INVOICE webhook updates the store's own record, and the shopper lands back on
 * the store's order page. Runs on the shared gateway of e2e/support, which starts with
 * DEMO_STORE=true so that the demo merchant and its keys exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { root } from '../scripts/lib/build.mjs';
import { api, baseUrl, expect, mineAt, test } from './support/fixtures';
import { startGatewayServer } from './support/server';
import {
  checkoutMug,
  chooseCoin,
  deliveries,
  expectStoreStatus,
  invoiceOf,
  storeKeys,
  UUID,
  waitForPath,
} from './support/store';

test("shop, pay $12.00 in a coin chosen on the invoice page, simulate the payment, and land on the store's order page, paid by the signed webhook", async ({
  page,
}) => {
  await checkoutMug(page);
  const orderId = await chooseCoin(page, 'USDT', /^Tron\b/);
  await expect(page.getByTestId('invoice-price')).toContainText('$12.00');
  await expect(page.getByTestId('amount')).toHaveText('12 USDT');
  await page.getByRole('button', { name: 'Full' }).click();
  // The payment page sends the shopper back to the store (the invoice's returnURL) once paid.
  await page.waitForURL(new RegExp(`/store/orders/${UUID}$`), { timeout: 45_000 });
  await expectStoreStatus(page, 'processed');
  await expect(page.getByTestId('store-order-status')).toHaveText(/Paid/);
  await expect(page.getByTestId('store-order-received')).toContainText('12 USDT on tron');
  await expect(page.getByTestId('store-order-total')).toHaveText('Total $12.00');

  const [paid] = await deliveries(orderId);
  expect(paid).toMatchObject({ kind: 'invoice', invoiceStatus: 'PROCESSED', state: 'delivered' });
  expect(paid!.log.at(-1)).toMatchObject({ statusCode: 200 });
  expect(paid!.log.at(-1)!.responseExcerpt).toContain('"duplicate":false');

  // A second copy of the same webhook (same id): the store answers it, and changes nothing.
  const shown = await page.getByTestId('store-order-status').textContent();
  const resent = await api('webhooks/resend', { id: paid!.id }, storeKeys());
  expect(resent.status).toBe(200);
  await expect(async () => {
    const [again] = await deliveries(orderId);
    expect(again!.log).toHaveLength(2);
    expect(again!.log[1]).toMatchObject({ statusCode: 200 });
    expect(again!.log[1]!.responseExcerpt).toContain('"duplicate":true');
  }).toPass({ timeout: 60_000 });
  await page.reload();
  await expect(page.getByTestId('store-order-status')).toHaveText(shown!);
});

test('an expired invoice shows as expired in the store after its webhook', async ({ page }) => {
  // dogecoin: no other spec uses it on this gateway. A block dated ahead dates every later block of
  // its network (see mineAt), so another spec's order there would expire at once, whenever the
  // two happen to run (pay-page's Arabic test pays in BCH).
  const invoiceId = await checkoutMug(page);
  const orderId = await chooseCoin(page, 'DOGE');
  const invoice = await invoiceOf(invoiceId);
  expect(invoice).toMatchObject({ status: 'INIT', orderId, receivedCurrency: 'DOGE' });
  // Past the invoice's deadline, which bounds its order's: both expire, on the chain's clock.
  await mineAt('dogecoin', new Date(new Date(invoice.expiresAt).getTime() + 1_000));
  await expect(async () => {
    const [expired] = await deliveries(orderId);
    expect(expired).toMatchObject({ kind: 'invoice', invoiceStatus: 'EXPIRED', state: 'delivered' });
  }).toPass({ timeout: 30_000 });
  await page.goto(invoice.returnUrl!);
  await expectStoreStatus(page, 'expired');
  await expect(page.getByTestId('store-order-status')).toHaveText(/Expired/);
});

test("the store's private key reaches no browser: not in a bundle file, a page, or a server action's answer", async ({
  page,
}) => {
  const { privateKey } = storeKeys();
  const answers: string[] = [];
  page.on('response', async (response) => {
    if (response.request().method() === 'POST' && /\/(store|invoice)\b/.test(response.url()))
      answers.push(await response.text().catch(() => ''));
  });
  const html: string[] = [];
  for (const url of ['/', '/store']) {
    await page.goto(url);
    html.push(await page.content());
  }
  await page.getByRole('button', { name: 'Add Ceramic mug to cart' }).click();
  // The action's answer sets the cart cookie: wait for it before leaving the page.
  await expect(page.getByText(/1 item in your cart/)).toBeVisible();
  await page.goto('/store/checkout');
  html.push(await page.content());
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await waitForPath(page, 'invoice');
  html.push(await page.content());
  await chooseCoin(page, 'USDC', /^Ethereum\b/);
  html.push(await page.content());
  expect(answers.length, 'server action answers seen').toBeGreaterThan(0);
  for (const text of [...html, ...answers]) expect(text).not.toContain(privateKey);

  const staticDir = path.join(process.cwd(), '.next', 'static');
  const files = fs.readdirSync(staticDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
  expect(files.length).toBeGreaterThan(0);
  for (const file of files)
    expect(fs.readFileSync(path.join(file.parentPath, file.name), 'utf8').includes(privateKey), file.name).toBe(false);
});

test('a forged webhook is rejected with 401 and changes nothing', async ({ page, request }) => {
  const invoiceId = await checkoutMug(page);
  const { publicKey } = storeKeys();
  const invoice = await invoiceOf(invoiceId);
  const storeOrderId = invoice.externalId!;
  const webhookId = `forged-${invoiceId}`;
  const body = JSON.stringify({
    ...invoice,
    event: 'INVOICE',
    webhookId,
    status: 'PROCESSED',
    receivedAmount: '12',
    receivedCurrency: 'USDT',
  });
  const forged = await request.post(`${baseUrl()}/store/webhooks`, {
    headers: {
      'content-type': 'application/json',
      'x-api-public-key': publicKey,
      'x-api-signature': 'ab'.repeat(32),
      'x-webhook-id': webhookId,
    },
    data: body,
  });
  expect(forged.status()).toBe(401);
  await page.goto(`/store/orders/${storeOrderId}`);
  await expect(page.getByTestId('store-order-status')).toHaveAttribute('data-status', 'awaiting_payment');
  // No coin chosen yet: the gateway's invoice is still CREATED.
  await expect(page.getByTestId('store-order-gateway')).toHaveAttribute('data-status', 'created');
  await expect(page.getByRole('link', { name: 'Open the payment page' })).toHaveAttribute('href', invoice.invoiceLink);
});

test('a checkout whose cart emptied meanwhile is refused in plain words', async ({ page, context }) => {
  await page.goto('/store');
  await page.getByRole('button', { name: 'Add Hoodie to cart' }).click();
  await expect(page.getByText(/1 item in your cart/)).toBeVisible();
  await page.getByRole('link', { name: 'Check out' }).click();
  await expect(page.getByTestId('cart-total')).toHaveText('Total $45.00');
  // As when the cart was emptied in another tab: the action reads the cart when Pay is pressed.
  await context.clearCookies();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.locator('main').getByRole('alert')).toHaveText('Your cart is empty: add something before paying.');
  expect(page.url()).toContain('/store/checkout?error=empty_cart');
  // No stack trace, no exception name.
  expect(await page.locator('main').innerText()).not.toMatch(/StoreError|GatewayApiError|\n\s+at \S+ \(/);
});

test("the embedded checkout: the payment page in the store's iframe tells the store each status", async ({ page }) => {
  const invoiceId = await checkoutMug(page);
  await chooseCoin(page, 'XRP');
  const storeOrderId = (await invoiceOf(invoiceId)).externalId!;
  await page.goto(`/store/orders/${storeOrderId}`);
  await expect(page.getByTestId('store-order-coin')).toHaveText(/In XRP on \S+: \S+ XRP/);
  await page.getByRole('link', { name: 'Pay without leaving the store (embedded)' }).click();
  await page.waitForURL(/\/embed$/);
  const frame = page.frameLocator('iframe[title="Payment page"]');
  await expect(frame.getByTestId('tag-warning')).toBeVisible();
  await expect(page.getByTestId('embed-status')).toHaveAttribute('data-status', 'pending');
  // The frame takes the height the page posts: the whole page shows, nothing scrolls inside it.
  const inner = frame.locator('html');
  await expect.poll(() => inner.evaluate((html) => html.scrollHeight - html.clientHeight)).toBe(0);
  expect(await inner.evaluate((html) => html.clientHeight)).toBeGreaterThan(640);
  await frame.getByRole('button', { name: 'Full' }).click();
  await expect(page.getByTestId('embed-status')).toHaveAttribute('data-status', 'processed', { timeout: 30_000 });
  // Inside the iframe the page does not navigate away: the store decides.
  expect(page.url()).toContain('/embed');
});

test("the embedded checkout loads when the store is opened at 127.0.0.1 and the gateway's links say localhost", async ({
  page,
  request,
}) => {
  // A gateway of its own: starting one takes half a minute on a loaded machine.
  test.setTimeout(180_000);
  // The address `npm start` prints and the gateway's PUBLIC_BASE_URL naming the same server otherwise.
  const server = await startGatewayServer(path.join(root, '.tmp', 'e2e-store-origins.log'), (port) => ({
    // The embedded database, as `npm start` runs it: the other specs' gateways are on PostgreSQL.
    DATABASE_URL: '',
    PUBLIC_BASE_URL: `http://localhost:${port}`,
    // Opened at another origin than the payment page's, the store is a site that frames it: the
    // payment page's frame-ancestors must name it, as for any merchant's site (FRAME_ANCESTORS in docs/configuration.md).
    FRAME_ANCESTORS: `http://127.0.0.1:${port}`,
  }));
  try {
    const store = server.baseUrl;
    const gatewayOrigin = store.replace('//127.0.0.1:', '//localhost:');
    // The store at 127.0.0.1 sends the shopper to the invoice link, which names localhost.
    await checkoutMug(page, store);
    expect(new URL(page.url()).origin).toBe(gatewayOrigin);
    const orderId = await chooseCoin(page, 'USDT', /^Tron\b/);
    expect(new URL(page.url()).origin).toBe(gatewayOrigin);
    const { returnUrl } = (await (await request.get(`${gatewayOrigin}/api/pay/${orderId}/status`)).json()) as {
      returnUrl: string;
    };
    const storeOrderId = returnUrl.split('/').pop()!;

    const embed = await page.goto(`${store}/store/orders/${storeOrderId}/embed`);
    // The store's pages may frame that gateway, by its origin, and nothing else.
    const frameSrc = (await embed!.headerValue('content-security-policy'))
      ?.split('; ')
      .filter((d) => d.startsWith('frame-src'));
    expect(frameSrc).toEqual([`frame-src ${gatewayOrigin}`]);
    const frame = page.frameLocator('iframe[title="Payment page"]');
    await expect(frame.getByTestId('amount')).toHaveText('12 USDT');
    await expect(page.getByTestId('embed-status')).toHaveAttribute('data-status', 'pending');
    // Pages outside the store still frame nothing but their own origin.
    const home = await request.get(`${store}/`);
    expect(home.headers()['content-security-policy']).not.toContain('frame-src');
  } finally {
    // Leave the store first: its pages prefetch, and a stopped server would fail those.
    await page.goto('about:blank');
    await server.stop();
  }
});
