/**
 * A payment link on the shared gateway under test: made through the merchant API, opened by two
 * shoppers in browsers of their own, each going on to an invoice of their own and paying it in
 * another coin on the sandbox ledger; the link then counts two paid invoices. The link's page is
 * axe-clean in light and dark, in English and Arabic, on a 360 x 640 phone.
 */
import type { Page } from '@playwright/test';
import { LINK_MESSAGES } from '@/lib/pay/link-messages';
import type { PaymentLink } from '@/lib/protocol';
import { expectAccessible, expectNoHorizontalScroll, PHONE } from './pay-support';
import { createUser, signIn } from './support/dashboard';
import { api, expect, simulatePayment, test } from './support/fixtures';

test.setTimeout(180_000);

async function createLink(fields: Record<string, unknown>): Promise<PaymentLink> {
  const answer = await api<PaymentLink>('payment-links/create', fields);
  if (!answer.body.success) throw new Error(`payment-links/create answered ${JSON.stringify(answer.body)}`);
  return answer.body.response;
}

async function getLink(id: string): Promise<PaymentLink> {
  const answer = await api<PaymentLink>('payment-links/get', { id });
  if (!answer.body.success) throw new Error(`payment-links/get answered ${JSON.stringify(answer.body)}`);
  return answer.body.response;
}

/** On the invoice page: picks `ticker` on `networkName`, answers the order id of the payment page it opens. */
async function pickCoin(page: Page, ticker: string, networkName: string): Promise<string> {
  await page
    .getByRole('region', { name: new RegExp(`^${ticker}\\b`) })
    .getByRole('button', { name: new RegExp(`^${networkName}\\b`) })
    .click();
  await page.waitForURL(/\/pay\/[0-9a-f-]{36}(\?|$)/);
  return new URL(page.url()).pathname.split('/').pop()!;
}

test('two shoppers pay one link in different coins; the link counts both', async ({ browser }) => {
  const link = await createLink({
    title: 'Workshop ticket',
    description: 'Saturday, 10:00',
    currency: 'USD',
    amount: '24.50',
    maxQuantity: 4,
    currencies: [
      { currency: 'USDT', networks: ['tron'] },
      { currency: 'BTC', networks: ['bitcoin'] },
    ],
  });
  const shoppers = [
    { quantity: '3', ticker: 'USDT', network: 'Tron', total: '$73.50' },
    { quantity: '1', ticker: 'BTC', network: 'Bitcoin', total: '$24.50' },
  ];
  const contexts = await Promise.all(shoppers.map(() => browser.newContext()));
  const orders: string[] = [];
  for (const [i, shopper] of shoppers.entries()) {
    const page = await contexts[i]!.newPage();
    await page.goto(link.link);
    await expect(page.getByTestId('link-title')).toHaveText('Workshop ticket');
    await expect(page.getByTestId('link-price')).toHaveText('$24.50');
    await page.getByLabel(LINK_MESSAGES.en.quantity).fill(shopper.quantity);
    await page.getByTestId('link-go-on').click();
    await page.waitForURL(/\/invoice\/[0-9a-f-]{36}/);
    await expect(page.getByTestId('invoice-price')).toHaveText(shopper.total);
    orders.push(await pickCoin(page, shopper.ticker, shopper.network));
  }
  for (const orderId of orders) await simulatePayment(orderId, 'full');
  await expect.poll(async () => (await getLink(link.id)).paid, { timeout: 90_000, intervals: [1000] }).toBe(2);
  expect(await getLink(link.id)).toMatchObject({ invoices: 2, paid: 2, paidTotal: '98', views: 2 });
  await Promise.all(contexts.map((c) => c.close()));
});

test('the link page on a phone: axe clean in light and dark, English and Arabic; a refusal is said', async ({
  page,
}) => {
  const link = await createLink({ title: 'Donation', currency: 'EUR', minAmount: '5', maxAmount: '500' });
  await page.setViewportSize(PHONE);
  for (const lang of ['en', 'ar'] as const) {
    await page.goto(`${link.link}?lang=${lang}`);
    await expect(page.locator('html')).toHaveAttribute('dir', lang === 'ar' ? 'rtl' : 'ltr');
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, `link page, ${lang}`);
    await page.getByRole('textbox').fill('4');
    await page.getByTestId('link-go-on').click();
    await expect(page.getByTestId('link-error')).toBeVisible();
    await expectAccessible(page, `link page with a refusal, ${lang}`);
  }
});

test('an admin makes a link in the dashboard and finds its QR code and pay button; the pages are axe clean', async ({
  page,
}) => {
  const admin = await createUser({ role: 'admin' });
  await signIn(page, admin.email, admin.password, undefined, { next: '/dashboard/links' });
  await expectAccessible(page, 'payment links page');
  await page.getByLabel('Title', { exact: true }).fill('Gift card');
  await page.getByLabel('Price currency', { exact: true }).fill('EUR');
  await page.getByLabel('Fixed price', { exact: true }).fill('50');
  await page.getByRole('button', { name: 'Create link' }).click();
  await page.waitForURL(/\/dashboard\/links\/[0-9a-f-]{36}\?notice=created/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gift card');
  const url = await page.getByTestId('public-link').textContent();
  expect(url).toMatch(/\/link\/[0-9a-f-]{36}$/);
  await expect(page.getByText(`<a href="${url}"`)).toBeVisible();
  await expectAccessible(page, 'a payment link page of the dashboard');
  await page.getByRole('button', { name: 'Disable link' }).click();
  await page.waitForURL(/notice=disabled/);
  await expect(page.getByText('disabled', { exact: true })).toBeVisible();
});
