/**
 * Issue 43 ("what a new user tripped over"), one test per finding fixed, in a browser on the
 * shared gateway (which starts with the demo store):
 * - Found 1: the overview's chain health says idle or watching, and the time of the last pass;
 * - Found 3: the demo store works without JavaScript, up to the payment page, with no 500;
 * - Found 4 and 6: an expired store order offers "Order again", shows a payment that came late,
 *   and the dashboard's orders list names it by the store's order number, with its price in
 *   dollars, flagged "paid late";
 * - Found 5: "Simulate payment" offers no buttons once a payment covers the order;
 * - Found 7: the CSV export has what reconciles, and no JSON;
 * - Found 10: the store's own 404, every shopper's 404 with a way home, TRX named TRON, every
 *   dashboard page's title at one offset;
 * - Must show: no page of the payer's, the store's or the dashboard's scrolls sideways at 360 px
 *   (light and dark, English and Arabic, axe clean), the API keys page and /docs/api included (Found 8).
 *
 * Arbitrum is this file's own network: its blocks are dated ahead here (sandbox.mine --at), which dates every
 * later arbitrum block, so no other spec may use it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { Invoice } from '@/lib/protocol';
import { REFUND_CLAIM_MESSAGES } from '@/lib/mail/refund-claim-messages';
import { characterPositions, expectAccessible, expectNoHorizontalScroll, PHONE } from './pay-support';
import { axeViolations } from './support/axe';
import { createUser, signIn, type CreatedUser } from './support/dashboard';
import { api, expect, getOrder, makeOrder, mineAt, simulatePayment, test, type Keys } from './support/fixtures';

const UUID = '[0-9a-f-]{36}';

/** The demo store's keys, where the first start kept them (lib/server/demo-merchant.ts). */
function storeKeys(): Keys {
  const file = path.join(process.env.E2E_DATA_DIR!, 'demo-store.json');
  const { publicKey, privateKey } = JSON.parse(fs.readFileSync(file, 'utf8')) as Keys;
  return { publicKey, privateKey };
}

/** Mug in the cart, then Pay: answers the invoice id, on the invoice page. Works with and without script. */
async function checkoutMug(page: Page): Promise<string> {
  await page.goto('/store');
  await page.getByRole('button', { name: 'Add Ceramic mug to cart' }).click();
  await expect(page.getByText(/1 item in your cart/)).toBeVisible();
  await page.getByRole('link', { name: 'Check out' }).click();
  await expect(page.getByTestId('cart-total')).toHaveText('Total $12.00');
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await page.waitForURL(new RegExp(`/invoice/${UUID}(\\?.*)?$`));
  return new URL(page.url()).pathname.split('/').pop()!;
}

/** Picks `ticker` on the network whose button starts with `network`; answers the order id, on its payment page. */
async function chooseCoin(page: Page, ticker: string, network: RegExp): Promise<string> {
  await page
    .getByRole('region', { name: new RegExp(`^${ticker} `) })
    .getByRole('button', { name: network })
    .click();
  await page.waitForURL(new RegExp(`/pay/${UUID}(\\?.*)?$`));
  return new URL(page.url()).pathname.split('/').pop()!;
}

let owner: CreatedUser;
test.beforeAll(async () => {
  // The demo store's merchant: its orders are the store's.
  owner = await createUser({ merchant: 'Demo store', role: 'owner' });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('Found 3: the demo store takes its forms without script, up to the payment page, never a 500', async ({
    page,
    request,
  }) => {
    const statuses: number[] = [];
    page.on('response', (response) => statuses.push(response.status()));
    const home = await request.get('/store');
    expect(home.headers()['referrer-policy']).toBe('same-origin');
    await checkoutMug(page);
    await chooseCoin(page, 'USDT', /^Tron\b/);
    await expect(page.getByTestId('amount')).toHaveText('12 USDT');
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // Another site's post to the store is refused with a 403, not Next.js's bare 500.
    const forged = await request.post('/store/checkout', {
      headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      data: 'x=1',
    });
    expect(forged.status()).toBe(403);
  });
});

test("Found 4 and 6: an expired store order offers Order again, shows the late payment, and the orders list flags it under the store's number", async ({
  page,
}) => {
  const invoiceId = await checkoutMug(page);
  const answer = await api<Invoice>('get-invoice', { invoiceId }, storeKeys());
  const invoice = (answer.body as { response: Invoice }).response;
  // Found 10: TRX is named as its project names it.
  await expect(page.getByRole('region', { name: /^TRX TRON\b/ })).toBeVisible();
  const orderId = await chooseCoin(page, 'ETH', /^Arbitrum\b/);
  // Past the invoice's deadline on arbitrum's clock: the invoice and its order expire.
  await mineAt('arbitrum', new Date(Date.parse(invoice.expiresAt) + 1_000));
  await page.goto(invoice.returnUrl!);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('store-order-status')).toHaveAttribute('data-status', 'expired', { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId('store-order-status')).toHaveText('Expired: no payment arrived in time');
  await expect(page.getByText('Nothing was charged. You can order the same items again.')).toBeVisible();
  await expect(page.getByText(/payment service|signed notification/)).toHaveCount(0);

  // The shopper pays anyway, late: the store says so rather than ignoring it.
  const late = await simulatePayment(orderId, 'full');
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('store-order-late')).toContainText(`${late.amount} ETH on arbitrum`, {
      timeout: 1_000,
    });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId('store-order-late')).toContainText('contact us with your order number');
  await expectAccessible(page, "the store's expired order with a late payment");

  // Order again: the same mug back in the cart.
  const storeOrderId = new URL(page.url()).pathname.split('/').pop()!;
  await page.getByRole('button', { name: 'Order again' }).click();
  await page.waitForURL(/\/store\/checkout$/);
  await expect(page.getByTestId('cart-total')).toHaveText('Total $12.00');

  // The merchant's list: the store's order number, its description, $12.00, expired and paid late.
  await signIn(page, owner.email, owner.password);
  await page.goto(`/dashboard/orders?q=${orderId}`);
  const row = page.locator(`[data-testid="order-row"][data-order-id="${orderId}"]`);
  await expect(row.getByRole('link', { name: storeOrderId, exact: true })).toBeVisible();
  // The late payment waits for the merchant once confirmed (the store showed it when seen): the badge
  // leads to the decision.
  await expect(async () => {
    await page.reload();
    await expect(row.getByTestId('needs-decision')).toHaveAttribute('href', `/dashboard/orders/${orderId}#mispayment`, {
      timeout: 1_000,
    });
  }).toPass({ timeout: 60_000 });
  await expect(row).toContainText('$12.00');
  await expect(row).toContainText('expired');
  await expect(row).toContainText('paid late');
  await expect(row).not.toContainText('invoice:');
});

test('Found 5: Simulate payment offers no buttons once the payment seen covers the order', async ({ page }) => {
  const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.3' });
  await page.goto(`/pay/${order.orderId}`);
  const panel = page.locator('section', { has: page.getByRole('heading', { name: 'Simulate payment' }) });
  await expect(page.getByRole('button', { name: 'Full' })).toBeVisible();
  await page.getByRole('button', { name: 'Partial' }).click();
  // Half paid: something is left, so the buttons stay.
  await expect(page.getByText(/^Sent: [0-9a-f]{64}$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Full' })).toBeEnabled();
  await page.getByRole('button', { name: 'Full' }).click();
  // Covered: the buttons go, while its confirmations come (the panel keeps what it sent) and once paid.
  await expect(page.getByRole('button', { name: 'Full' })).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Over' })).toHaveCount(0);
  await expect(panel.getByRole('button')).toHaveCount(0);
});

test.describe('signed in', () => {
  test('Found 1: chain health says idle or watching, with the time of the last pass, and no lag in test mode', async ({
    page,
  }) => {
    await signIn(page, owner.email, owner.password);
    await page.goto('/dashboard');
    const cards = page.locator('[data-testid^="chain-"]');
    await expect(cards.first()).toBeVisible();
    const texts = await cards.allTextContents();
    expect(texts.length).toBeGreaterThanOrEqual(11);
    for (const text of texts) {
      expect(text).toMatch(/Idle: no payment waiting\.|Watching for \d+ payments? waiting\.|No block scanned yet\./);
      expect(text).not.toMatch(/behind the chain's time/);
    }
    expect(texts.filter((t) => /Last pass \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/.test(t)).length).toBeGreaterThan(0);
  });

  test('Found 7: the orders export reconciles (received, transaction ids, rate) and has no JSON', async ({ page }) => {
    await signIn(page, owner.email, owner.password);
    const day = new Date().toISOString().slice(0, 10);
    const csv = await (await page.request.get(`/dashboard/export?kind=orders&from=${day}&to=${day}`)).text();
    const header = csv.split('\r\n')[0]!.split(',');
    expect(header).toEqual(
      expect.arrayContaining([
        'received',
        'transactionIds',
        'invoiceId',
        'invoiceCurrency',
        'rate',
        'receivedInInvoiceCurrency',
      ]),
    );
    const invoices = await (await page.request.get(`/dashboard/export?kind=invoices&from=${day}&to=${day}`)).text();
    expect(invoices.split('\r\n')[0]).not.toContain('currencies');
    expect(invoices).not.toMatch(/(^|,)"?\[/m);
  });
});

test.describe('not found', () => {
  test.use({ allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 404/] });

  test("Found 10: the store's unknown order answers the store's own 404, every shopper's 404 a way home; TRX is named TRON", async ({
    page,
  }) => {
    const response = await page.goto('/store/orders/xyz');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('We could not find this order');
    await expect(page.getByRole('link', { name: 'Continue shopping' })).toHaveAttribute('href', '/store');
    await expect(page.getByRole('link', { name: 'Demo store' })).toBeVisible();
    // Every shopper's 404 says where to go: the payment page's goes back or to the start page, which
    // tells a shopper what to do (not only where the API is); a refund link that does not work too.
    await page.goto('/pay/6f1c1f7e-8a3b-4a53-9d55-0a4f7d1a2b3c');
    await expect(page.getByRole('button', { name: 'Go back' })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Paying for an order?' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText('Open the payment link the shop gave you');
    expect((await page.goto('/refund/no-such-claim'))?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('This refund link is not valid');
    await expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    const answer = await api<{ currency: string; name: string }[]>('available-currencies', {}, storeKeys());
    const currencies = (answer.body as { response: { currency: string; name: string }[] }).response;
    expect(currencies.find((c) => c.currency === 'TRX')?.name).toBe('TRON');
  });
});

test.describe('the refund claim page (issues 37 and 45)', () => {
  test.use({ viewport: PHONE });

  test("in the payer's language at 360 x 640: Hindi, then Arabic right to left with the network's name in order, confirmed; axe clean", async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.5' }, storeKeys());
    // The payer's own address: another order's, a valid litecoin address.
    const payerAddress = (await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.1' }, storeKeys()))
      .address;
    await simulatePayment(order.orderId);
    await expect
      .poll(async () => (await getOrder(order.orderId, storeKeys())).status, { timeout: 90_000 })
      .toBe('processed');
    // The merchant refunds on the dashboard and shares the link (the order has no payer's e-mail).
    await signIn(page, owner.email, owner.password);
    await page.goto(`/dashboard/orders/${order.orderId}`);
    await page.getByLabel('Refund amount (LTC)').fill('0.125');
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const shared = await page
      .getByText(/\/refund\/[A-Za-z0-9_-]{43}/)
      .first()
      .textContent();
    const claim = new URL(/https?:\/\/\S+\/refund\/[A-Za-z0-9_-]{43}/.exec(shared ?? '')![0]).pathname;

    // Hindi, one of the added languages, by ?lang=: the address form fits the phone.
    const hi = REFUND_CLAIM_MESSAGES.hi.page;
    await page.goto(`${claim}?lang=hi`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(hi.title);
    await expect(page.getByRole('heading', { level: 2 })).toHaveText(hi.askTitle);
    await expect(page.getByTestId('refund-amount')).toHaveText(
      hi.amountOn.replace('{network}', 'Litecoin').replace('{amount}', '0.125 LTC'),
    );
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, 'the refund claim page in Hindi');

    // Arabic (Accept-Language is tests/refund-claim-page.pg.test.ts's): right to left; "Litecoin"
    // reads left to right inside the sentence, its full stop after it (on its left).
    const ar = REFUND_CLAIM_MESSAGES.ar.page;
    await page.goto(`${claim}?lang=ar`);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ar.title);
    const sentence = page.getByTestId('refund-amount');
    const xs = await characterPositions(sentence, 'Litecoin.');
    const name = xs.slice(0, -1);
    expect(name, 'x of each letter of Litecoin').toEqual([...name].sort((a, b) => a - b));
    expect(xs.at(-1)!, 'the full stop left of the name').toBeLessThan(name[0]!);
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, 'the refund claim page in Arabic');

    // A wrong address is refused in Arabic; the right one reviewed, confirmed, and the page says so in Arabic.
    await page.getByLabel(ar.addressLabel.replace('{network}', 'Litecoin')).fill(`${payerAddress}x`);
    await page.getByRole('button', { name: ar.review }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      ar.errors.address.replace('{network}', 'Litecoin'),
    );
    await page.getByLabel(ar.addressLabel.replace('{network}', 'Litecoin')).fill(payerAddress);
    await page.getByRole('button', { name: ar.review }).click();
    await expect(page.getByRole('heading', { level: 2 })).toHaveText(ar.confirmTitle);
    await expectAccessible(page, 'the refund claim review in Arabic');
    await page.getByRole('button', { name: ar.confirm }).click();
    await expect(page.getByRole('heading', { level: 2 })).toHaveText(ar.states.ready);
    await expect(page.getByText(payerAddress)).toHaveAttribute('dir', 'ltr');
    await expectNoHorizontalScroll(page);
  });
});

test.describe('at 360 px', () => {
  test.use({
    viewport: { width: 360, height: 640 },
    allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 404/],
  });

  test('Must show: no payer, store or dashboard page scrolls sideways, light and dark, English and Arabic, axe clean', async ({
    page,
  }) => {
    test.setTimeout(600_000);
    const order = await makeOrder({ currency: 'USDT', network: 'tron', amount: '25.5' }, storeKeys());
    await page.setViewportSize({ width: 1280, height: 800 });
    const invoiceId = await checkoutMug(page);
    await page.setViewportSize({ width: 360, height: 640 });
    const answer = await api<Invoice>('get-invoice', { invoiceId }, storeKeys());
    const storeOrder = new URL((answer.body as { response: Invoice }).response.returnUrl!).pathname;
    const unknown = '6f1c1f7e-8a3b-4a53-9d55-0a4f7d1a2b3c';

    const sideways: string[] = [];
    /** axe's serious and critical findings, in light and dark: all pages are checked before the test says which. */
    const inaccessible: string[] = [];
    const check = async (url: string, languages: readonly string[] = ['en']) => {
      for (const language of languages) {
        const target = language === 'en' ? url : `${url}${url.includes('?') ? '&' : '?'}lang=${language}`;
        await page.goto(target);
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          const { scrollWidth, clientWidth } = await page.evaluate(() => ({
            scrollWidth: document.documentElement.scrollWidth,
            clientWidth: document.documentElement.clientWidth,
          }));
          if (scrollWidth > clientWidth) {
            // Which elements stick out (the innermost ones, not those a scrolling box clips), so that a
            // failure says what to fix.
            const wide = await page.evaluate((width) => {
              const clipped = (e: Element) => {
                if (['absolute', 'fixed'].includes(getComputedStyle(e).position)) return false;
                for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
                  if (getComputedStyle(a).overflowX !== 'visible') return true;
                return false;
              };
              const out = [...document.body.querySelectorAll('*')].filter((e) => {
                const r = e.getBoundingClientRect();
                return r.width > 0 && (r.right > width + 1 || r.left < -1) && !clipped(e);
              });
              return out
                .filter((e) => !out.some((o) => o !== e && e.contains(o)))
                .slice(0, 5)
                .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`);
            }, clientWidth);
            sideways.push(`${url} (${language}, ${colorScheme}): ${scrollWidth} px: ${wide.join('; ')}`);
          }
        }
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          for (const v of await axeViolations(page))
            if (v.impact === 'serious' || v.impact === 'critical')
              inaccessible.push(
                `${url} (${language}, ${colorScheme}): ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
              );
        }
        await page.emulateMedia({ colorScheme: 'light' });
      }
    };

    for (const url of [`/pay/${order.orderId}`, `/invoice/${invoiceId}`, `/pay/${unknown}`, `/invoice/${unknown}`])
      await check(url, ['en', 'ar']);
    for (const url of ['/', '/store', '/store/checkout', storeOrder, '/store/orders/xyz', '/dashboard/sign-in'])
      await check(url);
    await signIn(page, owner.email, owner.password);
    /** Where each dashboard page's title starts (Found 10: three offsets before one PageBody). */
    const titleAt = new Map<string, string>();
    for (const url of [
      '/dashboard',
      '/dashboard/orders',
      `/dashboard/orders/${order.orderId}`,
      '/dashboard/invoices',
      `/dashboard/invoices/${invoiceId}`,
      '/dashboard/links',
      '/dashboard/subscriptions',
      '/dashboard/deposits',
      '/dashboard/funds',
      '/dashboard/webhooks',
      '/dashboard/webhooks/endpoints',
      '/dashboard/mail',
      '/dashboard/keys',
      '/dashboard/team',
      '/dashboard/settings',
      '/dashboard/account',
      '/dashboard/audit',
    ]) {
      await check(url);
      const box = await page.getByRole('heading', { level: 1 }).first().boundingBox();
      titleAt.set(url, box ? `${Math.round(box.x)},${Math.round(box.y)}` : 'no heading');
    }
    await check('/docs/api');

    expect(inaccessible, 'axe, serious or critical').toEqual([]);
    expect(sideways, 'pages wider than 360 px').toEqual([]);
    // Found 10: every dashboard page's body starts at one offset.
    expect([...titleAt.values()], 'every dashboard page has its title').not.toContain('no heading');
    expect(new Set(titleAt.values()).size, JSON.stringify(Object.fromEntries(titleAt))).toBe(1);
    // The payment page at 360 px in the shared helper's words too.
    await page.goto(`/pay/${order.orderId}`);
    await expectNoHorizontalScroll(page);
  });
});
