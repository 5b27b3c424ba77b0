/**
 * The demo store as a shopper and a merchant meet it (issue: merchant checkout): the store's
 * server action makes the order with keys held on the server, the payment page takes the
 * (simulated) payment, the gateway's signed webhook updates the store's own record, and the
 * shopper lands back on the store's order page. Runs on the shared gateway of e2e/support, which
 * starts with DEMO_STORE=true so that the demo merchant and its keys exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { root } from '../scripts/lib/build.mjs';
import { api, baseUrl, expect, mineAt, test, type Keys } from './support/fixtures';
import { startGatewayServer } from './support/server';

/** The demo store's keys, where the first start kept them (lib/server/demo-merchant.ts). */
function storeKeys(): Keys {
  const file = path.join(process.env.E2E_DATA_DIR!, 'demo-store.json');
  const { publicKey, privateKey } = JSON.parse(fs.readFileSync(file, 'utf8')) as Keys;
  return { publicKey, privateKey };
}

interface Delivery {
  id: string;
  kind: 'success' | 'error';
  orderStatus: string;
  state: string;
  log: { statusCode: number | null; responseExcerpt: string | null }[];
}

async function deliveries(orderId: string): Promise<Delivery[]> {
  const answer = await api<Delivery[]>('webhooks/list', { orderId }, storeKeys());
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body as { response: Delivery[] }).response;
}

/** Puts one mug in the cart and pays with `coin` ("USDT on Tron"); answers the gateway order id, on its payment page. */
async function checkoutMug(page: import('@playwright/test').Page, coin: RegExp): Promise<string> {
  await page.goto('/store');
  await page.getByRole('button', { name: 'Add Ceramic mug to cart' }).click();
  await expect(page.getByText(/1 item in your cart/)).toBeVisible();
  await page.getByRole('link', { name: 'Check out' }).click();
  await page.getByRole('radio', { name: coin }).check();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** Reloads the store's order page until it shows `status` (it is rendered from the store's record). */
async function expectStoreStatus(page: import('@playwright/test').Page, status: string): Promise<void> {
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('store-order-status')).toHaveAttribute('data-status', status, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

test('shop, pay with a chosen coin, simulate the payment, and land on the store\'s order page, paid by the signed webhook', async ({ page }) => {
  const orderId = await checkoutMug(page, /^USDT on Tron/);
  await expect(page.getByTestId('amount')).toHaveText('12 USDT');
  await page.getByRole('button', { name: 'Full' }).click();
  // The payment page sends the shopper back to the store (returnUrl) once paid.
  await page.waitForURL(/\/store\/orders\/[0-9a-f-]{36}$/, { timeout: 45_000 });
  await expectStoreStatus(page, 'processed');
  await expect(page.getByTestId('store-order-status')).toHaveText(/Paid/);

  const [success] = await deliveries(orderId);
  expect(success).toMatchObject({ kind: 'success', orderStatus: 'processed', state: 'delivered' });
  expect(success!.log.at(-1)).toMatchObject({ statusCode: 200 });
  expect(success!.log.at(-1)!.responseExcerpt).toContain('"duplicate":false');

  // A second copy of the same webhook (same id): the store answers it, and changes nothing.
  const shown = await page.getByTestId('store-order-status').textContent();
  const resent = await api('webhooks/resend', { id: success!.id }, storeKeys());
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

test('an expired order shows as expired in the store after the error webhook', async ({ page }) => {
  // dogecoin: no other spec uses it on this gateway. A block dated ahead dates every later block of
  // its network (see mineAt), so another spec's order there would expire at once, whenever the
  // two happen to run (pay-page's Arabic test pays in BCH).
  const orderId = await checkoutMug(page, /^DOGE on Dogecoin/);
  const storeOrderUrl = await page.evaluate(async () => document.querySelector('a[href*="/store/orders/"]')?.getAttribute('href') ?? null);
  const order = (await api<{ expiresAt: string; returnUrl: string }>('order', { orderId }, storeKeys())).body as { response: { expiresAt: string; returnUrl: string } };
  await mineAt('dogecoin', new Date(new Date(order.response.expiresAt).getTime() + 1_000));
  await expect(async () => {
    const [error] = await deliveries(orderId);
    expect(error).toMatchObject({ kind: 'error', orderStatus: 'expired', state: 'delivered' });
  }).toPass({ timeout: 30_000 });
  await page.goto(storeOrderUrl ?? order.response.returnUrl);
  await expectStoreStatus(page, 'expired');
  await expect(page.getByTestId('store-order-status')).toHaveText(/Expired/);
});

test('the store\'s private key reaches no browser: not in a bundle file, a page, or a server action\'s answer', async ({ page }) => {
  const { privateKey } = storeKeys();
  const answers: string[] = [];
  page.on('response', async (response) => {
    if (response.request().method() === 'POST' && response.url().includes('/store')) answers.push(await response.text().catch(() => ''));
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
  await page.getByRole('radio', { name: /^USDC on Ethereum/ }).check();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.waitForURL(/\/pay\//);
  html.push(await page.content());
  expect(answers.length, 'server action answers seen').toBeGreaterThan(0);
  for (const text of [...html, ...answers]) expect(text).not.toContain(privateKey);

  const staticDir = path.join(process.cwd(), '.next', 'static');
  const files = fs.readdirSync(staticDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) expect(fs.readFileSync(path.join(file.parentPath, file.name), 'utf8').includes(privateKey), file.name).toBe(false);
});

test('a forged webhook is rejected with 401 and changes nothing', async ({ page, request }) => {
  const orderId = await checkoutMug(page, /^LTC on Litecoin/);
  const { publicKey } = storeKeys();
  const order = (await api<{ clientOrderId: string }>('order', { orderId }, storeKeys())).body as { response: { clientOrderId: string } };
  const body = JSON.stringify({ id: `forged-${orderId}`, event: 'ORDER', orderId, clientOrderId: order.response.clientOrderId, status: 'processed', received: '1' });
  const forged = await request.post(`${baseUrl()}/store/webhooks`, {
    headers: { 'content-type': 'application/json', 'x-api-public-key': publicKey, 'x-api-signature': 'ab'.repeat(32), 'x-webhook-id': `forged-${orderId}` },
    data: body,
  });
  expect(forged.status()).toBe(401);
  await page.goto(`/store/orders/${order.response.clientOrderId}`);
  await expect(page.getByTestId('store-order-status')).toHaveAttribute('data-status', 'awaiting_payment');
  await expect(page.getByTestId('store-order-gateway')).toHaveAttribute('data-status', 'pending');
});

test('a coin the gateway does not take is refused in plain words, and the cart is kept', async ({ page }) => {
  await page.goto('/store');
  await page.getByRole('button', { name: 'Add Hoodie to cart' }).click();
  await page.getByRole('link', { name: 'Check out' }).click();
  // A tampered form: a coin and network pair the gateway does not offer.
  const radio = page.getByRole('radio').first();
  await radio.evaluate((input: HTMLInputElement) => (input.value = 'DOGE@tron'));
  await radio.check();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expect(page.locator('main').getByRole('alert')).toHaveText('This coin cannot be used to pay here. Please choose another one.');
  expect(page.url()).toContain('/store/checkout?error=unsupported_coin');
  await expect(page.getByText('1 × Hoodie')).toBeVisible();
  // No stack trace, no exception name.
  expect(await page.locator('main').innerText()).not.toMatch(/StoreError|GatewayApiError|\n\s+at \S+ \(/);
});

test('the embedded checkout: the payment page in the store\'s iframe tells the store each status', async ({ page }) => {
  const orderId = await checkoutMug(page, /^XRP on /);
  const order = (await api<{ clientOrderId: string }>('order', { orderId }, storeKeys())).body as { response: { clientOrderId: string } };
  await page.goto(`/store/orders/${order.response.clientOrderId}/embed`);
  const frame = page.frameLocator('iframe[title="Payment page"]');
  await expect(frame.getByTestId('tag-warning')).toBeVisible();
  await expect(page.getByTestId('embed-status')).toHaveAttribute('data-status', 'pending');
  await frame.getByRole('button', { name: 'Full' }).click();
  await expect(page.getByTestId('embed-status')).toHaveAttribute('data-status', 'processed', { timeout: 30_000 });
  // Inside the iframe the page does not navigate away: the store decides.
  expect(page.url()).toContain('/embed');
});

test('the embedded checkout loads when the store is opened at 127.0.0.1 and the gateway\'s links say localhost', async ({ page, request }) => {
  // A gateway of its own: starting one takes half a minute on a loaded machine.
  test.setTimeout(180_000);
  // The address `npm start` prints and the gateway's PUBLIC_BASE_URL naming the same server otherwise.
  const server = await startGatewayServer(path.join(root, '.tmp', 'e2e-store-origins.log'), (port) => ({
    PUBLIC_BASE_URL: `http://localhost:${port}`,
    // Opened at another origin than the payment page's, the store is a site that frames it: the
    // payment page's frame-ancestors must name it, as for any merchant's site (README FRAME_ANCESTORS).
    FRAME_ANCESTORS: `http://127.0.0.1:${port}`,
  }));
  try {
    const store = server.baseUrl;
    const gatewayOrigin = store.replace('//127.0.0.1:', '//localhost:');
    await page.goto(`${store}/store`);
    await page.getByRole('button', { name: 'Add Ceramic mug to cart' }).click();
    await expect(page.getByText(/1 item in your cart/)).toBeVisible();
    await page.getByRole('link', { name: 'Check out' }).click();
    await page.getByRole('radio', { name: /^USDT on Tron/ }).check();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(new RegExp(`^${gatewayOrigin}/pay/[0-9a-f-]{36}$`));
    const orderId = new URL(page.url()).pathname.split('/').pop()!;
    const { returnUrl } = (await (await request.get(`${gatewayOrigin}/api/pay/${orderId}/status`)).json()) as { returnUrl: string };
    const storeOrderId = returnUrl.split('/').pop()!;

    const embed = await page.goto(`${store}/store/orders/${storeOrderId}/embed`);
    // The store's pages may frame that gateway, by its origin, and nothing else.
    const frameSrc = (await embed!.headerValue('content-security-policy'))?.split('; ').filter((d) => d.startsWith('frame-src'));
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
