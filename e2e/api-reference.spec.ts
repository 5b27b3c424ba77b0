/**
 * /docs/api (docs/decisions/087): the OpenAPI document rendered by Scalar, served by the gateway
 * itself under the pages' strict CSP. Every file it loads comes from the gateway, no script or
 * style breaks the policy (a violation is a console error, which fails the test, and is counted
 * here as well, but for one understood probe, below), the signing, a signed example per operation
 * and its answer's example show, and the page is axe-clean in light and dark and fits a 360 px phone.
 */
import type { Page } from '@playwright/test';
import { expectAccessible, expectNoHorizontalScroll, PHONE } from './pay-support';
import { baseUrl, expect, test } from './support/fixtures';

/** Opens /docs/api counting CSP violations and the origins of every request the page makes. */
async function openReference(page: Page): Promise<{ violations: () => Promise<string[]>; origins: Set<string> }> {
  const origins = new Set<string>();
  page.on('request', (request) => origins.add(new URL(request.url()).origin));
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  const response = await page.goto('/docs/api');
  expect(response!.status()).toBe(200);
  const csp = response!.headers()['content-security-policy'] ?? '';
  // The strict policy of every page: scripts by nonce only.
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]+=*' 'strict-dynamic'(;|$)/);
  // Scalar renders the whole OpenAPI document in the browser: seen taking
  // over 20 s on a machine with a dozen processes runnable per core. A bound for a failure only.
  await expect(page.getByRole('heading', { name: 'Merchant API', level: 1 })).toBeVisible({ timeout: 90_000 });
  return {
    origins,
    violations: async () =>
      (await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).filter(
        // Zod's probe for whether it may compile validators (`try { Function('') } catch`), in
        // Scalar's bundle: refused, as it should be; Zod then validates without compiling.
        (violation) => violation !== 'script-src eval',
      ),
  };
}

test('renders the OpenAPI document with the signing and a signed example, from the gateway only, within the CSP', async ({
  page,
}) => {
  const { origins, violations } = await openReference(page);
  await expect(page.getByRole('heading', { name: 'Signing a request' })).toBeVisible();
  await expect(page.getByText('HMAC-SHA256', { exact: true }).first()).toBeVisible();
  // An operation, its request fields and its signed curl call, reached by the sidebar.
  await page.getByRole('link', { name: '/api-gateway/make-order' }).first().click();
  await expect(
    page.getByRole('heading', { name: 'Create a payment order, or answer the existing one with the same order.' }),
  ).toBeVisible();
  await expect(page.getByText('successWebhook', { exact: true }).first()).toBeVisible();
  await expect(page.getByText(/openssl dgst -sha256 -hmac/).first()).toBeVisible();
  // Its answer's example, generated from the response schema (lib/protocol/examples.ts): the order's payment link.
  await expect(page.getByText('"https://pay.example/pay/6f1c1b1e-8f7a-4c4b-9a55-2d0f5f0b8e21"').first()).toBeVisible();
  // The fonts are the gateway's: Noto Sans, loaded from /docs/api/assets.
  await expect
    .poll(() => page.evaluate(() => document.fonts.check('16px "Noto Sans Variable"')), { message: 'Noto Sans loaded' })
    .toBe(true);
  expect(await violations(), 'CSP violations').toEqual([]);
  expect([...origins], 'every request to the gateway itself').toEqual([new URL(baseUrl()).origin]);
});

test('without JavaScript it links to the OpenAPI document', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/docs/api');
  await expect(page.getByRole('link', { name: '/api-gateway/openapi.json' })).toBeVisible();
  await context.close();
});

test('its files are served from the gateway, and nothing else by that path', async ({ request }) => {
  const font = await request.get('/docs/api/assets/noto-sans-latin-wght-normal.woff2');
  expect(font.status()).toBe(200);
  expect(font.headers()['content-type']).toBe('font/woff2');
  const scalar = await request.get('/docs/api/assets/scalar/standalone.esm.js');
  expect(scalar.status()).toBe(200);
  expect(scalar.headers()['content-type']).toMatch(/^text\/javascript/);
  for (const path of [
    '/docs/api/assets/scalar/standalone.esm.js.map',
    '/docs/api/assets/scalar/..%2F..%2Fpackage.json',
    '/docs/api/assets/scalar/chunks/..%2F..%2F..%2Fpackage.json',
    '/docs/api/assets/package.json',
    '/docs/api/assets/scalar/chunks/nothing.js',
  ])
    expect((await request.get(path)).status(), path).toBe(404);
});

test.describe('on a phone', () => {
  test.use({ viewport: PHONE });

  test('axe-clean in light and dark mode, no horizontal scroll', async ({ page }) => {
    const { violations } = await openReference(page);
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, '/docs/api');
    expect(await violations(), 'CSP violations').toEqual([]);
  });
});
