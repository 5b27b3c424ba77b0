/**
 * The dashboard's API keys and settings pages, and the brand on the payment page: an owner creates
 * a test key and sees its private key once, the merchant API takes it until the owner revokes it;
 * a viewer gets 403 on the page and on the server actions posted directly (the key count and the
 * keys unchanged); the brand set in the settings shows on the payment page of the merchant's
 * orders; both pages are axe-clean in light and dark mode, the branded payment page in Arabic too.
 *
 * Each test works on a merchant of its own (created through the keys CLI), so that its brand and
 * keys change no other spec's pages.
 */
import { randomBytes } from 'node:crypto';
import type { Page, Request } from '@playwright/test';
import { expectAccessible, expectAccessibleInEnglishAndArabic } from './pay-support';
import { createUser, signIn, type CreatedUser } from './support/dashboard';
import { api, baseUrl, createKeys, expect, makeOrder, test, type Keys } from './support/fixtures';

/** A 1x1 PNG (opaque blue). */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC',
  'base64',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><script>alert(1)</script></svg>');

async function merchantWithUsers(): Promise<{
  name: string;
  keys: Keys & { merchantId: string };
  owner: CreatedUser;
  viewer: CreatedUser;
}> {
  const name = `Admin shop ${randomBytes(3).toString('hex')}`;
  const keys = await createKeys(name, 'test');
  const [owner, viewer] = await Promise.all([
    createUser({ merchant: keys.merchantId, role: 'owner' }),
    createUser({ merchant: keys.merchantId, role: 'viewer' }),
  ]);
  return { name, keys, owner, viewer };
}

/** The status the merchant API answers a signed request with `keys`: 200 while the key is valid, 401 once revoked. */
async function apiStatus(keys: Keys): Promise<number> {
  return (await api('find-tx', {}, keys)).status;
}

/** Replays a server action request the browser made, from another browser context (another user's cookies), with `edit` applied to its body. */
async function replay(page: Page, request: Request, edit: (body: string) => string = (body) => body) {
  const headers = request.headers();
  return page.request.post(request.url(), {
    headers: {
      'next-action': headers['next-action']!,
      'content-type': headers['content-type']!,
      accept: 'text/x-component',
      origin: baseUrl(),
    },
    data: edit(request.postData() ?? ''),
    maxRedirects: 0,
  });
}

// Each test signs in, saves forms and runs axe: beside the other specs on a loaded two-core
// machine that took over two minutes (a bound for a failure only).
test.describe.configure({ timeout: 300_000 });

const isAction = (request: Request) => request.method() === 'POST' && request.headers()['next-action'] !== undefined;

test('the owner creates a test key, sees it once, the API takes it until revoked; a viewer can do neither', async ({
  page,
  browser,
}) => {
  const shop = await merchantWithUsers();
  await signIn(page, shop.owner.email, shop.owner.password, undefined, { next: '/dashboard/keys' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('API keys');
  const rows = page.getByTestId('key-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-public-key', shop.keys.publicKey);

  const [create] = await Promise.all([
    page.waitForRequest(isAction),
    page.getByRole('button', { name: 'Create test key' }).click(),
  ]);
  await expect(page.getByTestId('new-key')).toContainText('not shown again');
  const created: Keys = {
    publicKey: (await page.getByTestId('new-public-key').textContent())!,
    privateKey: (await page.getByTestId('new-private-key').textContent())!,
  };
  expect(created.publicKey).toMatch(/^pk_test_/);
  expect(created.privateKey).toMatch(/^sk_test_/);
  await expect(rows).toHaveCount(2);
  expect(await apiStatus(created)).toBe(200);

  // A page load never shows the private key again: neither the reloaded page nor its raw HTML.
  await page.reload();
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('new-key')).toHaveCount(0);
  expect(await page.content()).not.toContain(created.privateKey);
  expect(await (await page.request.get('/dashboard/keys')).text()).not.toContain(created.privateKey);

  const row = rows.filter({ has: page.getByText(created.publicKey, { exact: true }) });
  // The confirmation is a modal dialog (components/ui Dialog): named, and Escape gives focus back to its trigger.
  await row.getByText('Revoke…').click();
  await expect(page.getByRole('dialog', { name: 'Revoke this key' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Revoke…' })).toBeFocused();
  await row.getByText('Revoke…').click();
  const [revoke] = await Promise.all([
    page.waitForRequest(isAction),
    row.getByRole('button', { name: 'Confirm revoke' }).click(),
  ]);
  await expect(page.getByRole('status').filter({ hasText: 'The key is revoked' })).toBeVisible();
  await expect(row).toContainText('Revoked');
  expect(await apiStatus(created)).toBe(401);

  // The viewer: 403 on the page, and on both actions posted as the browser posts them.
  const viewerContext = await browser.newContext({ baseURL: baseUrl() });
  try {
    const viewer = await viewerContext.newPage();
    await signIn(viewer, shop.viewer.email, shop.viewer.password, undefined, { next: '/dashboard/account' });
    expect((await viewer.goto('/dashboard/keys'))?.status()).toBe(403);
    expect((await replay(viewer, create)).status()).toBe(403);
    // The revocation aimed at the merchant's other, still valid key.
    const [revokedId] =
      /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(revoke.postData() ?? '') ?? [];
    // The other key's id, from its own confirmation (a closed dialog's form is not in the page).
    const other = rows.filter({ has: page.getByText(shop.keys.publicKey, { exact: true }) });
    await other.getByText('Revoke…').click();
    const otherId = await other.locator('input[name="keyId"]').first().inputValue();
    await page.keyboard.press('Escape');
    expect(revokedId, 'the revoke request carries the key id').toBeDefined();
    expect((await replay(viewer, revoke, (body) => body.replace(revokedId!, otherId))).status()).toBe(403);
  } finally {
    await viewerContext.close();
  }
  await page.reload();
  await expect(rows).toHaveCount(2);
  expect(await apiStatus(shop.keys)).toBe(200);

  // The same replay as the owner goes through: the viewer's 403s were the role check, not a malformed request.
  expect((await replay(page, create)).status()).toBe(200);
  await page.reload();
  await expect(rows).toHaveCount(3);
});

test('without JavaScript a confirmation opens in place and its form still posts', async ({ browser }) => {
  const shop = await merchantWithUsers();
  const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await signIn(page, shop.owner.email, shop.owner.password, undefined, { next: '/dashboard/keys' });
    const row = page.getByTestId('key-row');
    await row.getByText('Revoke…').click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await row.getByRole('button', { name: 'Confirm revoke' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The key is revoked' })).toBeVisible();
    expect(await apiStatus(shop.keys)).toBe(401);
  } finally {
    await context.close();
  }
});

test('the brand set in the settings shows on the payment page; bad logos and colours are refused with a reason', async ({
  page,
}) => {
  const shop = await merchantWithUsers();
  await signIn(page, shop.owner.email, shop.owner.password, undefined, { next: '/dashboard/settings' });
  const brandForm = page.locator('form').filter({ has: page.getByRole('button', { name: 'Save brand' }) });

  await page.getByLabel('Accent colour', { exact: true }).fill('#ffff00');
  await brandForm.getByRole('button', { name: 'Save brand' }).click();
  await expect(brandForm.getByRole('alert')).toContainText('White text on #ffff00 has a contrast of 1.07:1');

  await page.getByLabel('Logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: SVG });
  await page.getByLabel('Accent colour', { exact: true }).fill('#1d4ed8');
  await brandForm.getByRole('button', { name: 'Save brand' }).click();
  await expect(brandForm.getByRole('alert')).toContainText('PNG, JPEG, WebP or GIF');

  // Nothing was saved by either refusal.
  const before = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.1' }, shop.keys);
  await page.goto(`/pay/${before.orderId}`);
  await expect(page.getByTestId('brand-logo')).toHaveCount(0);
  await expect(page.locator('main[data-brand]')).toHaveCount(0);

  await page.goto('/dashboard/settings');
  await page.getByLabel('Logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG_1X1 });
  await page.getByLabel('Accent colour', { exact: true }).fill('#1d4ed8');
  await expect(page.getByTestId('color-preview')).toHaveCSS('background-color', 'rgb(29, 78, 216)');
  await brandForm.getByRole('button', { name: 'Save brand' }).click();
  await expect(brandForm.getByRole('status')).toHaveText(/Brand saved/);
  await page.reload();
  await expect(page.getByTestId('current-logo')).toHaveAttribute(
    'src',
    `data:image/png;base64,${PNG_1X1.toString('base64')}`,
  );

  const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.1' }, shop.keys);
  await page.goto(`/pay/${order.orderId}`);
  const logo = page.getByTestId('brand-logo');
  await expect(logo).toHaveAttribute('alt', shop.name);
  await expect(logo).toHaveAttribute('src', `data:image/png;base64,${PNG_1X1.toString('base64')}`);
  await expect(page.getByRole('link', { name: 'Open in wallet' })).toHaveCSS('background-color', 'rgb(29, 78, 216)');
  await expect(page.locator('header').first()).toHaveCSS('border-bottom-color', 'rgb(29, 78, 216)');
  // The brand colour on the payer's pages in both schemes and both directions of writing (issue 43's
  // "axe clean in light and dark, English and Arabic", on a branded page).
  await expectAccessibleInEnglishAndArabic(page, 'the branded payment page');
  await expect(page.locator('main[data-brand]')).toHaveCount(1);

  // The invoice page of the same merchant: its logo and header line too.
  const invoice = await api<{ invoiceLink: string }>(
    'make-invoice',
    { externalId: `admin-${randomBytes(4).toString('hex')}`, currency: 'USD', amount: '12.00', lifetime: 30 },
    shop.keys,
  );
  expect(invoice.status, JSON.stringify(invoice.body)).toBe(200);
  if (!invoice.body.success) throw new Error(JSON.stringify(invoice.body));
  await page.goto(new URL(invoice.body.response.invoiceLink).pathname);
  await expect(page.getByTestId('brand-logo')).toHaveAttribute('alt', shop.name);
  await expect(page.locator('header').first()).toHaveCSS('border-bottom-color', 'rgb(29, 78, 216)');
});

test('explorer links: a template per network, an empty field back to the default, a bad one refused', async ({
  page,
}) => {
  const shop = await merchantWithUsers();
  await signIn(page, shop.owner.email, shop.owner.password, undefined, { next: '/dashboard/settings' });
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Save explorer links' }) });
  const bitcoin = page.getByLabel('Bitcoin', { exact: true });
  await expect(bitcoin).toHaveAttribute('placeholder', 'https://mempool.space/tx/{tx}');

  await bitcoin.fill('http://mempool.example/tx/{tx}');
  await form.getByRole('button', { name: 'Save explorer links' }).click();
  await expect(form.getByRole('alert')).toContainText('bitcoin: An explorer URL must be an https:// address');

  await bitcoin.fill('https://mempool.example/tx/{tx}');
  await form.getByRole('button', { name: 'Save explorer links' }).click();
  await expect(form.getByRole('status')).toHaveText('Explorer links saved.');
  await page.reload();
  await expect(bitcoin).toHaveValue('https://mempool.example/tx/{tx}');

  await bitcoin.fill('');
  await form.getByRole('button', { name: 'Save explorer links' }).click();
  await expect(form.getByRole('status')).toHaveText('Explorer links saved.');
  await page.reload();
  await expect(bitcoin).toHaveValue('');
});

test('the keys, settings and mail pages are axe-clean in light and dark mode; a viewer gets 403 on settings too', async ({
  page,
  browser,
}) => {
  const shop = await merchantWithUsers();
  await signIn(page, shop.owner.email, shop.owner.password, undefined, { next: '/dashboard/keys' });
  await page.getByRole('button', { name: 'Create test key' }).click();
  await expect(page.getByTestId('new-key')).toBeVisible();
  await page.getByText('Revoke…').first().click();
  await expectAccessible(page, 'the keys page with a new key and an open confirmation');
  await page.goto('/dashboard/settings');
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
  await expectAccessible(page, 'the settings page');
  await page.goto('/dashboard/mail');
  await expect(page.getByRole('heading', { name: 'Mail', exact: true })).toBeVisible();
  await expectAccessible(page, 'the mail page');

  const viewerContext = await browser.newContext({ baseURL: baseUrl() });
  try {
    const viewer = await viewerContext.newPage();
    await signIn(viewer, shop.viewer.email, shop.viewer.password, undefined, { next: '/dashboard/account' });
    expect((await viewer.goto('/dashboard/settings'))?.status()).toBe(403);
  } finally {
    await viewerContext.close();
  }
});
