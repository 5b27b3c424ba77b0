import { baseUrl, expect, makeOrder, test } from './support/fixtures';

test('the home page of the production server names the gateway and its API', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle('Crypto payment gateway');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Crypto payment gateway');
  await expect(page.getByRole('main')).toContainText('/api-gateway/*');
});

test('make-order over signed HTTP answers a payment link on the server under test', async () => {
  const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.25' });
  expect(order.status).toBe('pending');
  expect(order.amount).toBe('0.25');
  expect(order.orderId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(order.link).toBe(`${baseUrl()}/pay/${order.orderId}`);
  expect(new URL(order.link).origin).toBe(new URL(baseUrl()).origin);
});

test('pages name an icon, so the browser asks for no /favicon.ico (no console error anywhere)', async ({
  page,
  request,
}) => {
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  await page.goto('/');
  const icon = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(icon).toMatch(/^\/icon\.svg/);
  const answer = await request.get(icon!);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toContain('image/svg+xml');
  await page.waitForLoadState('networkidle');
  expect(asked).not.toContain('/favicon.ico');
  // A browser asks for /favicon.ico anyway where a document names no icon (seen on the store's
  // pages between a redirect and the next document): it finds the same icon, not a 404.
  const favicon = await request.get('/favicon.ico', { maxRedirects: 0 });
  expect(favicon.status()).toBe(308);
  expect(favicon.headers().location).toBe('/icon.svg');
});

test.describe('an unknown path', () => {
  // The browser reports the document's own 404 status in the console.
  test.use({ allowedConsoleErrors: [/status of 404/] });

  test('answers 404 with a page that says so and links to the start page', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test('the production server answers /healthz, /readyz (its sandbox networks watched) and /metrics', async ({
  request,
}) => {
  expect((await request.get('/healthz')).status()).toBe(200);
  const ready = await request.get('/readyz');
  const body = await ready.json();
  expect(ready.status(), JSON.stringify(body)).toBe(200);
  expect(body.workers).toEqual({ configured: true, running: true });
  expect(body.networks.length).toBeGreaterThan(3);
  expect(body.networks.every((n: { ready: boolean; mode: string }) => n.ready && n.mode === 'test')).toBe(true);
  const metrics = await request.get('/metrics');
  expect(metrics.status()).toBe(200);
  expect(await metrics.text()).toMatch(/^gateway_chain_healthy\{network="bitcoin",mode="test"\} 1$/m);
});
