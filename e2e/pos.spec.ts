/**
 * The point of sale for a cashier on a 360 x 640 phone: a sale keyed in with a tip, its QR code,
 * a reload in the middle (a dropped connection) that comes back to the sale, the payer paying it
 * from the QR code's invoice page on the sandbox ledger, the paid state, and the day's sales.
 * axe-clean in light and dark, in English and Arabic. And a cashier's browser refused every other
 * dashboard page, route and server action (issue 40; over HTTP too in tests/cashier-refused.pg.test.ts).
 */
import type { Page } from '@playwright/test';
import { expectAccessible, PHONE } from './pay-support';
import { createUser, signIn } from './support/dashboard';
import { expect, simulatePayment, test } from './support/fixtures';
import { actionsRefusedToCashiers, pathsRefusedToCashiers } from '../tests/support/dashboard-walk';

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

test.describe('a cashier elsewhere in the dashboard', () => {
  // Each refusal is an HTTP 403, which the browser reports as a failed load.
  test.use({ allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 403/] });

  test('is refused every other dashboard page and action, from its own browser, and led back to its sales', async ({
    page,
  }) => {
    const cashier = await createUser({ role: 'cashier' });
    await page.setViewportSize(PHONE);
    await signIn(page, cashier.email, cashier.password, undefined, { next: '/dashboard/pos' });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Point of sale');

    // Every page and route of the dashboard but the point of sale, walked from the sources.
    const paths = pathsRefusedToCashiers();
    expect(paths.length).toBeGreaterThan(10);
    for (const { path, kind } of paths) {
      const response = await page.goto(path);
      expect(response?.status(), `${kind} ${path}`).toBe(403);
      if (kind === 'page') await expect(page.getByRole('heading', { level: 1 }), path).toHaveText('Not allowed');
    }
    await expectAccessible(page, 'the page that refuses a cashier');
    await page.getByRole('link', { name: 'Point of sale' }).click();
    await page.waitForURL(/\/dashboard\/pos$/);

    // Every other server action of the dashboard (from the build), posted by the cashier's browser
    // with its session as React posts a call: each refused 403, none redirected or run.
    const actions = actionsRefusedToCashiers();
    expect(actions.length).toBeGreaterThan(10);
    const answers = await page.evaluate(async (calls) => {
      const statuses: string[] = [];
      for (const { id, name, page: path } of calls) {
        const call = new FormData();
        call.set('0', '[]');
        const response = await fetch(path, {
          method: 'POST',
          headers: { 'next-action': id },
          body: call,
          redirect: 'manual',
        });
        statuses.push(`${name} on ${path}: ${response.status}`);
      }
      return statuses;
    }, actions);
    expect(answers).toEqual(actions.map(({ name, page: path }) => `${name} on ${path}: 403`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Point of sale');
  });
});
