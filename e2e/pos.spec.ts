/**
 * The point of sale for a cashier on a 360 x 640 phone: a sale keyed in with a tip, its QR code,
 * a reload in the middle (a dropped connection) that comes back to the sale, the payer paying it
 * from the QR code's invoice page on the sandbox ledger, the paid state, and the day's sales.
 * axe-clean in light and dark, in English and Arabic.
 */
import type { Page } from '@playwright/test';
import { expectAccessible, PHONE } from './pay-support';
import { createUser, signIn } from './support/dashboard';
import { expect, simulatePayment, test } from './support/fixtures';

test.setTimeout(180_000);

async function key(page: Page, digits: string): Promise<void> {
  const pad = page.getByTestId('keypad');
  for (const digit of digits) await pad.getByRole('button', { name: digit, exact: true }).click();
}

test('a cashier takes a sale with a tip, survives a reload, and sees it paid', async ({ page, browser }) => {
  const cashier = await createUser({ role: 'cashier' });
  await page.setViewportSize(PHONE);
  await signIn(page, cashier.email, cashier.password, undefined, { next: '/dashboard/pos' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Point of sale');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/dashboard/pos/manifest.webmanifest');
  await expectAccessible(page, 'point of sale, keypad');

  await key(page, '12.50');
  await expect(page.getByLabel('Amount (USD)')).toHaveValue('12.50');
  await page.getByText('10%', { exact: true }).click();
  await page.getByTestId('charge').click();
  await page.waitForURL(/\/dashboard\/pos\?sale=/);
  await expect(page.getByTestId('sale-total')).toHaveText('13.75 USD');
  await expect(page.getByTestId('sale-state')).toHaveAttribute('data-state', 'waiting');
  const qr = page.getByTestId('sale-qr');
  await expect(qr).toBeVisible();
  await expectAccessible(page, 'point of sale, waiting');

  // A dropped connection: the cashier opens the point of sale again and is back on the sale.
  const saleUrl = page.url();
  await page.goto('/dashboard/pos');
  await page.waitForURL(saleUrl);
  await expect(page.getByTestId('sale-state')).toHaveAttribute('data-state', 'waiting');

  // The payer scans the QR code: the invoice page, a coin, a payment.
  const invoiceUrl = new URL(saleUrl).searchParams.get('sale')!;
  const payer = await browser.newPage();
  await payer.goto(`/invoice/${invoiceUrl}`);
  await payer
    .getByRole('region', { name: /^USDT\b/ })
    .getByRole('button', { name: /^Tron\b/ })
    .click();
  await payer.waitForURL(/\/pay\/[0-9a-f-]{36}/);
  await simulatePayment(new URL(payer.url()).pathname.split('/').pop()!, 'full');
  await payer.close();

  await expect(page.getByTestId('sale-state')).toHaveAttribute('data-state', 'paid', { timeout: 90_000 });
  await expectAccessible(page, 'point of sale, paid');
  await page.getByTestId('new-sale').click();
  await expect(page.getByTestId('sales')).toContainText('13.75 USD');

  await page.goto('/dashboard/pos?lang=ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('نقطة البيع');
  await expectAccessible(page, 'point of sale, Arabic');
});
