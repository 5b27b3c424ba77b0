/**
 * Keys that never break a working integration (issue 33, docs/decisions/048): with the demo store
 * running, a key created on the dashboard between an order and its payment changes nothing: the
 * store verifies the webhook (signed with the key that made the invoice) and shows "Paid". Then
 * the keys page's own actions on a merchant of their own: a named, read-only key refused a write,
 * a roll whose old key keeps working for the overlap, and a revocation that asks what becomes of
 * its open orders' webhooks; money-out scopes granted only by an owner with a current
 * authenticator code.
 */
import { randomBytes } from 'node:crypto';
import type { Request } from '@playwright/test';
import { createUser, enrolTwoFactor, signIn, totpCode } from './support/dashboard';
import { api, baseUrl, createKeys, expect, makeOrder, test, type Keys } from './support/fixtures';
import { checkoutMug, chooseCoin, deliveries, expectStoreStatus, storeKeys, UUID } from './support/store';

// Sign-in, a checkout and a payment beside the other specs on a loaded two-core machine (a bound for a failure only).
test.describe.configure({ timeout: 240_000 });

const isAction = (request: Request) => request.method() === 'POST' && request.headers()['next-action'] !== undefined;

/** The status the merchant API answers a signed `find-tx` (a read) with `keys`. */
async function readStatus(keys: Keys): Promise<number> {
  return (await api('find-tx', {}, keys)).status;
}

test('a key created on the dashboard between an order and its payment changes nothing: the store verifies its webhook and shows Paid', async ({
  page,
  browser,
}) => {
  const owner = await createUser({ merchant: 'Demo store', role: 'owner' });
  // The shopper's order, made by the store with the key it was set up with.
  await checkoutMug(page);
  const orderId = await chooseCoin(page, 'USDT', /^Tron\b/);

  // Meanwhile the merchant creates another test key on the dashboard.
  const dashboard = await browser.newContext({ baseURL: baseUrl() });
  let created: Keys;
  try {
    const keysPage = await dashboard.newPage();
    await signIn(keysPage, owner.email, owner.password, undefined, { next: '/dashboard/keys' });
    await expect(keysPage.getByRole('heading', { level: 1 })).toHaveText('API keys');
    await expect(keysPage.getByText('Creating a key changes nothing for integrations that already work')).toBeVisible();
    const storeRow = keysPage
      .getByTestId('key-row')
      .and(keysPage.locator(`[data-public-key="${storeKeys().publicKey}"]`));
    await expect(storeRow).toContainText('Webhook key');
    await keysPage.getByLabel('Name').fill('Second integration');
    await Promise.all([
      keysPage.waitForRequest(isAction),
      keysPage.getByRole('button', { name: 'Create test key' }).click(),
    ]);
    await expect(keysPage.getByTestId('new-key')).toContainText('not shown again');
    created = {
      publicKey: (await keysPage.getByTestId('new-public-key').textContent())!,
      privateKey: (await keysPage.getByTestId('new-private-key').textContent())!,
    };
    const newRow = keysPage.getByTestId('key-row').and(keysPage.locator(`[data-public-key="${created.publicKey}"]`));
    await expect(newRow).toContainText('Second integration');
    await expect(newRow).not.toContainText('Webhook key');
    expect(await readStatus(created)).toBe(200);
  } finally {
    await dashboard.close();
  }

  // The shopper pays: the store gets the webhook, verifies it with its own key, and shows Paid.
  await page.getByRole('button', { name: 'Full' }).click();
  await page.waitForURL(new RegExp(`/store/orders/${UUID}$`), { timeout: 45_000 });
  await expectStoreStatus(page, 'processed');
  await expect(page.getByTestId('store-order-status')).toHaveText(/Paid/);
  const [paid] = await deliveries(orderId);
  expect(paid).toMatchObject({ kind: 'invoice', invoiceStatus: 'PROCESSED', state: 'delivered' });
  expect(paid!.log.every((attempt) => attempt.statusCode === 200)).toBe(true);
});

test('the keys page: a named read-only key refused a write, a roll whose old key works for the overlap, a revocation that moves its webhooks', async ({
  page,
}) => {
  const shop = await createKeys(`Keys shop ${randomBytes(3).toString('hex')}`, 'test');
  const owner = await createUser({ merchant: shop.merchantId, role: 'owner' });
  await signIn(page, owner.email, owner.password, undefined, { next: '/dashboard/keys' });
  const rows = page.getByTestId('key-row');
  const rowOf = (publicKey: string) => rows.and(page.locator(`[data-public-key="${publicKey}"]`));
  const shown = async (): Promise<Keys> => ({
    publicKey: (await page.getByTestId('new-public-key').textContent())!,
    privateKey: (await page.getByTestId('new-private-key').textContent())!,
  });

  // A read-only key: answered a read, refused a write with the documented error.
  await page.getByLabel('Name').fill('Reports');
  await page.getByLabel('Scope').selectOption({ label: 'Read-only' });
  await page.getByRole('button', { name: 'Create test key' }).click();
  await expect(page.getByTestId('new-key')).toBeVisible();
  const reports = await shown();
  await expect(rowOf(reports.publicKey)).toContainText('Reports');
  await expect(rowOf(reports.publicKey)).toContainText('Read-only');
  expect(await readStatus(reports)).toBe(200);
  const refused = await api(
    'make-order',
    { order: 'ro-1', currency: 'LTC', network: 'litecoin', amount: '1' },
    reports,
  );
  expect(refused.status).toBe(403);
  expect(refused.body).toMatchObject({ error: { name: 'INSUFFICIENT_SCOPE' } });
  // Its last use shows (flushed once a minute: the page says "Never" until then, so only the column is checked).
  await expect(page.getByRole('columnheader', { name: 'Last used' })).toBeVisible();

  // Roll the first key with a one-hour overlap: both keys work meanwhile, and the page says until when.
  await page.reload();
  const first = rowOf(shop.publicKey);
  await first.getByText('Roll…').click();
  await first.getByLabel(/Overlap/).fill('1');
  await first.getByRole('button', { name: 'Confirm roll' }).click();
  await expect(first.getByTestId('old-key-expires')).toContainText(/works until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  const rolled = await shown();
  expect(await readStatus(rolled)).toBe(200);
  expect(await readStatus(shop)).toBe(200);
  await page.reload();
  await expect(rowOf(shop.publicKey).getByTestId('key-status')).toContainText('Rolled: works until');

  // An open order made with the new key: revoking it asks what becomes of its webhooks.
  await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.5' }, rolled);
  await page.reload();
  const rolledRow = rowOf(rolled.publicKey);
  await rolledRow.getByText('Revoke…').click();
  await expect(rolledRow).toContainText('1 open orders');
  await rolledRow.getByRole('radio', { name: /Move to/ }).check();
  await rolledRow.getByLabel('Key to move the webhooks to').selectOption({ label: `Reports (${reports.publicKey})` });
  await rolledRow.getByRole('button', { name: 'Confirm revoke' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The key is revoked' })).toBeVisible();
  await expect(rowOf(rolled.publicKey).getByTestId('key-status')).toContainText(
    `its webhooks are signed with ${reports.publicKey}`,
  );
  expect(await readStatus(rolled)).toBe(401);
});

test('money-out scopes: no key has them by default; only an owner with a current authenticator code grants them', async ({
  page,
  browser,
}) => {
  const shop = await createKeys(`Money-out shop ${randomBytes(3).toString('hex')}`, 'test');
  const [owner, admin] = await Promise.all([
    createUser({ merchant: shop.merchantId, role: 'owner' }),
    createUser({ merchant: shop.merchantId, role: 'admin' }),
  ]);
  await signIn(page, owner.email, owner.password, undefined, { next: '/dashboard/account' });
  const secret = await enrolTwoFactor(page);
  await page.goto('/dashboard/keys');
  const row = page.getByTestId('key-row').and(page.locator(`[data-public-key="${shop.publicKey}"]`));
  await expect(row.getByRole('cell', { name: 'Full', exact: true })).toBeVisible();

  // A wrong code changes nothing.
  await row.getByText('Money-out scopes…').click();
  await row.getByRole('checkbox', { name: /^Refunds/ }).check();
  await row.getByLabel('Authenticator code').fill('000000');
  await row.getByRole('button', { name: 'Save money-out scopes' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The code was refused' })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Full', exact: true })).toBeVisible();

  // The current code grants it.
  await row.getByText('Money-out scopes…').click();
  await row.getByRole('checkbox', { name: /^Refunds/ }).check();
  await row.getByLabel('Authenticator code').fill(totpCode(secret, 1));
  await row.getByRole('button', { name: 'Save money-out scopes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'money-out scopes are saved' })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Full, Refunds', exact: true })).toBeVisible();

  // An admin manages keys but is not offered money-out scopes.
  const adminContext = await browser.newContext({ baseURL: baseUrl() });
  try {
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, admin.email, admin.password, undefined, { next: '/dashboard/keys' });
    await expect(adminPage.getByRole('heading', { level: 1 })).toHaveText('API keys');
    await expect(adminPage.getByText('Money-out scopes…')).toHaveCount(0);
  } finally {
    await adminContext.close();
  }
});

test("a network's treasury: only an owner, the address's last characters typed again and a current code; audited", async ({
  page,
}) => {
  const shop = await createKeys(`Treasury shop ${randomBytes(3).toString('hex')}`, 'test');
  const owner = await createUser({ merchant: shop.merchantId, role: 'owner' });
  await signIn(page, owner.email, owner.password, undefined, { next: '/dashboard/account' });
  const secret = await enrolTwoFactor(page);
  const TREASURY = 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh';
  await page.goto('/dashboard/funds');
  const litecoin = page.getByTestId('treasury').filter({ hasText: 'Litecoin' });
  await expect(litecoin).toHaveText('Litecoin: not set');
  // The page has a form per section (the deposit key's too): this one's fields.
  const form = page.getByRole('region', { name: 'Treasuries' });
  const set = async (address: string, confirm: string, code: string) => {
    await form.getByLabel('Network').selectOption({ label: 'Litecoin' });
    await form.getByLabel('Treasury address').fill(address);
    await form.getByLabel('Its last six characters, typed again').fill(confirm);
    await form.getByLabel('Authenticator code').fill(code);
    await form.getByRole('button', { name: 'Set treasury' }).click();
  };
  // The last characters mistyped, then an address of another network: nothing changes.
  await set(TREASURY, 'kk4wh0', totpCode(secret, 1));
  await expect(page.getByRole('alert').filter({ hasText: 'last six characters' })).toBeVisible();
  await set('0x9858EfFD232B4033E47d90003D41EC34EcaEda94', 'caEda94'.slice(1), totpCode(secret, 1));
  await expect(page.getByRole('alert').filter({ hasText: 'not an address of the network' })).toBeVisible();
  await expect(litecoin).toHaveText('Litecoin: not set');
  // Right, with the current code.
  await set(TREASURY, TREASURY.slice(-6), totpCode(secret, 1));
  await expect(page.getByRole('status').filter({ hasText: 'The treasury is saved' })).toBeVisible();
  await expect(litecoin).toHaveText(`Litecoin: ${TREASURY}`);
  await page.goto('/dashboard/audit');
  await expect(page.getByRole('main')).toContainText('treasury.set');
});

test("the merchant's own deposit key: a descriptor with its origin, only with a current code; a private key refused unechoed; audited", async ({
  page,
}) => {
  const shop = await createKeys(`Deposit key shop ${randomBytes(3).toString('hex')}`, 'test');
  const owner = await createUser({ merchant: shop.merchantId, role: 'owner' });
  await signIn(page, owner.email, owner.password, undefined, { next: '/dashboard/account' });
  const secret = await enrolTwoFactor(page);
  // BIP 84 account key (m/84'/2'/0', public) of the "legal winner ... yellow" BIP 39 test vector on litecoin.
  const ACCOUNT =
    'xpub6Bv2jbjfWp25KRCJWz8xSn2Y8soq8KVmh2PB6NVfXenzEHddcxjfb9hLCowGgj2jXXi2TEDPKQhtcciXkt6Q5rHEw9WPZDKJ5uPjwDtxhkp';
  const DESCRIPTOR = `wpkh([b8688df1/84h/2h/0h]${ACCOUNT}/0/*)`;
  await page.goto('/dashboard/funds');
  const form = page.getByRole('region', { name: 'Deposit keys' });
  const litecoin = form.getByTestId('deposit-key').filter({ hasText: 'Litecoin' });
  await expect(litecoin).toHaveText("Litecoin: the gateway's key");
  const set = async (key: string, code: string) => {
    await form.getByLabel('Network').selectOption({ label: 'Litecoin' });
    await form.getByLabel('Descriptor').fill(key);
    await form.getByLabel('Authenticator code').fill(code);
    await form.getByRole('button', { name: 'Set deposit key' }).click();
  };
  // A recovery phrase where the descriptor belongs: refused, and nowhere on the page.
  const PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
  await set(PHRASE, totpCode(secret, 1));
  await expect(page.getByRole('alert').filter({ hasText: 'not a usable descriptor' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText('abandon');
  await expect(litecoin).toHaveText("Litecoin: the gateway's key");
  // Right, with the current code: stored with its checksum.
  await set(DESCRIPTOR, totpCode(secret, 1));
  await expect(page.getByRole('status').filter({ hasText: 'Your deposit key is saved' })).toBeVisible();
  await expect(litecoin).toContainText(`Litecoin: ${DESCRIPTOR}#`);
  await page.goto('/dashboard/audit');
  await expect(page.getByRole('main')).toContainText('deposit-key.set');
});
