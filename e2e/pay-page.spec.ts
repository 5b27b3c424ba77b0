/**
 * The hosted payment page on the shared gateway under test: first paint, QR codes against the
 * documented wallet URIs (docs/payment-page.md, "Wallet URI of the QR code"), the tag warning, 404, languages and right-to-left,
 * a phone's width, copy buttons, a failing status endpoint. Specs that need blocks on demand
 * are in pay-flow.spec.ts.
 */
import { randomInt } from 'node:crypto';
import type { CDPSession, Page } from '@playwright/test';
import { NETWORKS } from '@/lib/catalog';
import { formatAmount } from '@/lib/pay/format';
import { directionOf, LANGUAGES } from '@/lib/pay/i18n';
import { MESSAGES } from '@/lib/pay/messages';
import {
  ADDED_LANGUAGES,
  characterPositions,
  decodeQr,
  expectAccessible,
  expectNoHorizontalScroll,
  expectQrAboveFold,
  longestLanguage,
  PHONE,
} from './pay-support';
import { baseUrl, createKeys, expect, makeOrder, test } from './support/fixtures';

/**
 * A font family that has each added language's script: Debian's Noto for Devanagari, Hangul and
 * Traditional Chinese (by the page's `lang`: CJK TC, not SC); for Urdu's Arabic script the first
 * font of the system's sans-serif that has it (DejaVu Sans here; Noto Nastaliq Urdu is installed
 * too, and a payer's phone draws Urdu with its own).
 */
const SCRIPT_FONT: Record<(typeof ADDED_LANGUAGES)[number], RegExp> = {
  hi: /Noto Sans Devanagari/,
  vi: /Noto Sans|DejaVu Sans/,
  id: /Noto Sans|DejaVu Sans/,
  ur: /DejaVu Sans|Noto (Naskh|Sans) Arabic|Noto Nastaliq Urdu/,
  'zh-Hant': /Noto Sans CJK TC/,
  ko: /Noto Sans CJK KR/,
};

test.describe('first paint', () => {
  test.use({ viewport: PHONE });

  test('a litecoin order: amount, address, countdown, BIP21 QR above the fold, address-only QR, no horizontal scroll', async ({
    page,
  }) => {
    const order = await makeOrder({
      currency: 'LTC',
      network: 'litecoin',
      amount: '0.25',
      description: 'Two books and a pen',
      returnUrl: 'https://shop.example/thanks',
    });
    const response = await page.goto(`/pay/${order.orderId}`);
    expect(response?.status()).toBe(200);

    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Awaiting payment');
    await expect(page.getByTestId('amount')).toHaveText('0.25 LTC');
    await expect(page.getByTestId('address')).toHaveText(order.address);
    await expect(page.getByTestId('network-badge')).toHaveText('Litecoin');
    // A native coin: its name is the network's, said once beside "Send exactly", and no token standard.
    const sendLine = page.locator('p', { has: page.getByTestId('network-badge') });
    await expect(sendLine.getByText('Litecoin', { exact: true })).toHaveCount(1);
    await expect(page.getByTestId('token-standard')).toHaveCount(0);
    await expect(page.getByText('Payment to e2e')).toBeVisible();
    await expect(page.getByText('Two books and a pen')).toBeVisible();
    await expect(page.getByTestId('test-banner')).toContainText('TEST MODE');
    await expect(page.getByRole('heading', { name: 'Simulate payment' })).toBeVisible();
    await expect(page.getByTestId('tag-warning')).toHaveCount(0);

    // Litecoin's default lifetime is an hour: the countdown starts near 60:00 and runs.
    const countdown = page.locator('time');
    await expect(countdown).toHaveText(/^(1:00:00|59:[0-5]\d)$/);
    const first = await countdown.textContent();
    await expect(countdown).not.toHaveText(first!, { timeout: 5_000 });

    const qr = page.getByTestId('qr');
    const box = await qr.boundingBox();
    expect(box!.y + box!.height, 'QR bottom edge on a 360x640 screen').toBeLessThanOrEqual(PHONE.height);
    expect(await decodeQr(qr)).toBe(`litecoin:${order.address}?amount=0.25`);

    await page.getByText('Address only', { exact: true }).click();
    await expect(qr).toBeHidden();
    expect(await decodeQr(page.locator('svg[data-qr="address"]'))).toBe(order.address);
    await expectNoHorizontalScroll(page);
  });

  test('EIP-681: a token with its contract, chain id and standard, a native coin in wei; on a desktop the QR beside the details', async ({
    page,
  }) => {
    const usdt = await makeOrder({ currency: 'USDT', network: 'polygon', amount: '10.5' });
    const contract = NETWORKS.find((n) => n.name === 'polygon')!.currencies.find((c) => c.ticker === 'USDT')!.contract!;
    await page.goto(`/pay/${usdt.orderId}`);
    expect(await decodeQr(page.getByTestId('qr'))).toBe(
      `ethereum:${contract}@137/transfer?address=${usdt.address}&uint256=10500000`,
    );
    await expect(page.getByTestId('token-standard')).toHaveText('ERC-20');
    await expect(page.getByTestId('network-badge')).toHaveText('Polygon');
    await expect(page.getByText('Tether USD', { exact: true })).toBeVisible();

    await page.setViewportSize({ width: 1280, height: 800 });
    const [qrBox, amountBox, addressBox] = [
      await page.getByTestId('qr').boundingBox(),
      await page.getByTestId('amount').boundingBox(),
      await page.getByTestId('address').boundingBox(),
    ];
    expect(qrBox!.x, 'the QR to the right of the amount').toBeGreaterThan(amountBox!.x + amountBox!.width);
    expect(qrBox!.y, 'the QR level with the details').toBeLessThan(addressBox!.y + addressBox!.height);
    await page.setViewportSize(PHONE);
    await expect(page.getByRole('link', { name: 'Open in wallet' })).toHaveAttribute(
      'href',
      `ethereum:${contract}@137/transfer?address=${usdt.address}&uint256=10500000`,
    );

    const eth = await makeOrder({ currency: 'ETH', network: 'base', amount: '0.0015' });
    await page.goto(`/pay/${eth.orderId}`);
    expect(await decodeQr(page.getByTestId('qr'))).toBe(`ethereum:${eth.address}@8453?value=1500000000000000`);
  });

  test('tron: the QR is the address alone, no wallet link, no address-only switch', async ({ page }) => {
    const order = await makeOrder({ currency: 'USDT', network: 'tron', amount: '25.5' });
    await page.goto(`/pay/${order.orderId}`);
    expect(await decodeQr(page.getByTestId('qr'))).toBe(order.address);
    await expect(page.getByRole('link', { name: 'Open in wallet' })).toHaveCount(0);
    await expect(page.getByText('Address only', { exact: true })).toHaveCount(0);
  });

  test('a ripple order shows its tag, copyable, and the warning that it is required; axe-clean', async ({ page }) => {
    const order = await makeOrder({ currency: 'XRP', network: 'ripple', amount: '12.5' });
    expect(order.tag).toMatch(/^\d+$/);
    await page.goto(`/pay/${order.orderId}`);
    const warning = page.getByTestId('tag-warning');
    await expect(warning).toBeVisible();
    await expect(warning).toContainText('The destination tag is required');
    await expect(page.getByTestId('tag')).toHaveText(order.tag!);
    await expect(page.getByRole('button', { name: 'Copy destination tag' })).toBeVisible();
    // The warning comes before the QR code, which carries the address only.
    const [warningBox, qrBox] = [await warning.boundingBox(), await page.getByTestId('qr').boundingBox()];
    expect(warningBox!.y).toBeLessThan(qrBox!.y);
    await expectQrAboveFold(page, order.address, 'a ripple order');
    await expectNoHorizontalScroll(page);
    await expectAccessible(page, 'ripple order with a tag');
  });

  test('every language: the QR above the fold carrying the wallet URI (ripple with its tag box; litecoin with the amount in the longest language), amounts grouped, nothing overflows', async ({
    page,
  }) => {
    // Twenty page loads: on a loaded two-core machine that can take minutes.
    test.setTimeout(360_000);
    const ripple = await makeOrder({ currency: 'XRP', network: 'ripple', amount: '1234.5' });
    const litecoin = await makeOrder({
      currency: 'LTC',
      network: 'litecoin',
      amount: '1234.5',
      description: 'A long description '.repeat(20),
    });
    // Ripple's tag box makes its page the tallest above the QR: every language. A URI with an amount (a denser QR) in the longest language and in Arabic.
    const pages = [
      ...LANGUAGES.map((language) => [language, ripple, ripple.address] as const),
      ...([longestLanguage(), 'ar'] as const).map(
        (language) => [language, litecoin, `litecoin:${litecoin.address}?amount=1234.5`] as const,
      ),
    ];
    for (const [language, order, uri] of pages) {
      await page.goto(`/pay/${order.orderId}?lang=${language}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(MESSAGES[language].screens.awaiting.title);
      await expect(page.getByTestId('amount')).toHaveText(`${formatAmount('1234.5', language)} ${order.currency}`);
      await expectQrAboveFold(page, uri, `${order.currency} in ${language}`);
      await expectNoHorizontalScroll(page);
    }
  });

  // The full browser: the headless shell draws every CJK language in the same face (decision 123).
  test(
    'the six added languages: the QR above the fold with the tag box, drawn in the fonts of their scripts, axe-clean',
    {
      tag: '@full-chromium',
    },
    async ({ page }) => {
      test.setTimeout(240_000);
      const order = await makeOrder({ currency: 'XRP', network: 'ripple', amount: '1234.5' });
      const cdp = await page.context().newCDPSession(page);
      for (const language of ADDED_LANGUAGES) {
        await page.goto(`/pay/${order.orderId}?lang=${language}`);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await expect(page.locator('html')).toHaveAttribute('dir', directionOf(language));
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(MESSAGES[language].screens.awaiting.title);
        await expect(page.getByTestId('tag-warning')).toContainText(MESSAGES[language].tagWarningTitle);
        await expectQrAboveFold(page, order.address, `XRP in ${language}`);
        await expectNoHorizontalScroll(page);
        // The heading is drawn with a font of its script (installed by npm test: scripts/lib/fonts.mjs), not boxes.
        expect((await headingFonts(cdp)).join(', '), `fonts of the ${language} heading`).toMatch(SCRIPT_FONT[language]);
        await expectAccessible(page, `the page in ${language}`);
        // The folded list of eighteen languages opens within a phone's width.
        const languages = page.getByTestId('languages');
        await languages.locator('summary').click();
        await expect(languages.getByRole('link')).toHaveCount(LANGUAGES.length);
        for (const link of await languages.getByRole('link').all()) await expect(link).toBeInViewport();
        await expectNoHorizontalScroll(page);
      }
    },
  );

  test('the awaiting screen is axe-clean in light and dark mode, at phone width', async ({ page }) => {
    const order = await makeOrder({
      currency: 'BTC',
      network: 'bitcoin',
      amount: '0.0015',
      description: 'A long description '.repeat(20),
    });
    await page.goto(`/pay/${order.orderId}`);
    await expectAccessible(page, 'awaiting payment');
  });
});

test('the countdown turns into "expiring soon" in the last minutes, then "time is up" and the payment details go', async ({
  page,
}) => {
  await page.clock.install();
  const order = await makeOrder({ currency: 'ETH', network: 'ethereum', amount: '0.01' }); // 30 minutes
  await page.goto(`/pay/${order.orderId}`);
  const countdown = page.locator('[data-phase]');
  await expect(countdown).toHaveAttribute('data-phase', 'running');
  await expect(countdown).toContainText(/Time left: (30:00|29:[0-5]\d)/);
  // The server drew that text; the page's clock takes over once hydrated, measuring its offset to the
  // server's then. Jumping before that would be measured into the offset and taken back (seen on a
  // loaded machine): the text moving on says the page ticks on its own.
  const rendered = (await countdown.textContent()) ?? '';
  await expect(countdown).not.toHaveText(rendered);
  await page.clock.fastForward('26:00');
  await expect(countdown).toHaveAttribute('data-phase', 'soon');
  await expect(countdown).toContainText(/Expiring soon: [34]:[0-5]\d/);
  await expect(page.getByRole('alert').filter({ hasText: 'Expiring soon' })).toHaveCount(1);
  await expect(page.getByTestId('qr')).toBeVisible();
  await page.clock.fastForward('05:00');
  await expect(countdown).toHaveAttribute('data-phase', 'over');
  await expect(countdown).toContainText('Time is up');
  await expect(page.getByTestId('qr')).toHaveCount(0);
  await expect(page.getByTestId('address')).toHaveCount(0);
});

test('copy buttons work from the keyboard and announce the copy', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.5' });
  await page.goto(`/pay/${order.orderId}`);
  const copyAddress = page.getByRole('button', { name: 'Copy address' });
  await copyAddress.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toHaveCount(1);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(order.address);
  await page.getByRole('button', { name: 'Copy amount' }).focus();
  await page.keyboard.press('Space');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('0.5');
});

test.describe('unknown orders', () => {
  test.use({ allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 404/] });

  test('an unknown or malformed id gives a 404 page and a 404 JSON status', async ({ page, request }) => {
    for (const id of ['6f1c1f7e-8a3b-4a53-9d55-0a4f7d1a2b3c', 'not-an-order', '..%2f..%2fetc']) {
      const response = await page.goto(`/pay/${id}`);
      expect(response?.status(), id).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Order not found');
      await expect(page.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
      const status = await request.get(`/api/pay/${id}/status`);
      expect(status.status(), id).toBe(404);
      expect(status.headers()['cache-control']).toContain('no-store');
      expect(await status.json()).toMatchObject({ error: 'NOT_FOUND' });
    }
    await expectAccessible(page, 'the 404 page');
  });
});

test.describe('languages', () => {
  test('?lang=es and Accept-Language: es give Spanish; English by default', async ({ page, browser }) => {
    const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.1' });
    await page.goto(`/pay/${order.orderId}?lang=es`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Esperando el pago');
    await expect(page.getByRole('button', { name: 'Copiar dirección' })).toBeVisible();

    const spanish = await browser.newContext({ locale: 'es-ES', baseURL: baseUrl() });
    const spanishPage = await spanish.newPage();
    await spanishPage.goto(`/pay/${order.orderId}`);
    await expect(spanishPage.getByRole('heading', { level: 1 })).toHaveText('Esperando el pago');
    await spanish.close();

    // A region negotiates to its language: pt-BR and pt-PT to pt, zh-CN to zh; Taiwan's and Hong
    // Kong's Chinese to Traditional Chinese (the copy button tells the scripts apart: 复制 / 複製).
    for (const [locale, language] of [
      ['pt-BR', 'pt'],
      ['pt-PT', 'pt'],
      ['zh-CN', 'zh'],
      ['zh-TW', 'zh-Hant'],
      ['zh-HK', 'zh-Hant'],
    ] as const) {
      const context = await browser.newContext({ locale, baseURL: baseUrl() });
      const regional = await context.newPage();
      await regional.goto(`/pay/${order.orderId}`);
      await expect(regional.locator('html')).toHaveAttribute('lang', language);
      await expect(regional.getByRole('heading', { level: 1 })).toHaveText(MESSAGES[language].screens.awaiting.title);
      await expect(regional.getByRole('button', { name: MESSAGES[language].copyAddress })).toBeVisible();
      await context.close();
    }

    // The folded language links: open, pick German.
    await page.getByTestId('languages').locator('summary').click();
    await page.getByRole('link', { name: 'Deutsch' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Warte auf Zahlung');

    await page.goto(`/pay/${order.orderId}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test.describe('Arabic', () => {
    test.use({ viewport: PHONE, locale: 'ar-EG' });

    test('from Accept-Language: right to left, mirrored layout, amounts and addresses left to right; axe-clean', async ({
      page,
    }) => {
      const order = await makeOrder({ currency: 'BCH', network: 'bitcoincash', amount: '0.125' });
      await page.goto(`/pay/${order.orderId}`);
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('بانتظار الدفع');
      await expect(page.getByTestId('address')).toHaveAttribute('dir', 'ltr');
      await expect(page.getByTestId('address')).toHaveText(order.address);
      // Mirrored: the status panel's accent border is on the right.
      const border = await page.locator('[data-screen]').evaluate((el) => getComputedStyle(el).borderRightWidth);
      expect(border).toBe('4px');
      expect(await decodeQr(page.getByTestId('qr'))).toBe(`${order.address}?amount=0.125`);
      await expectNoHorizontalScroll(page);
      await expectAccessible(page, 'Arabic page');
    });

    test('a merchant name ending in punctuation keeps its order inside the Arabic sentences (isolated)', async ({
      page,
    }) => {
      const merchant = `Shop ${randomInt(1e6)}!`;
      const order = await makeOrder(
        { currency: 'LTC', network: 'litecoin', amount: '0.1' },
        await createKeys(merchant),
      );
      await page.goto(`/pay/${order.orderId}`);
      const line = page.locator('header').getByText(merchant);
      await expect(line).toBeVisible();
      // Left to right inside the right-to-left line, "!" last: unisolated, it would stand left of "Shop".
      const xs = await characterPositions(line, merchant);
      expect(xs, `x of each character of ${merchant}`).toEqual([...xs].sort((a, b) => a - b));
      await expect(page).toHaveTitle(MESSAGES.ar.pageTitle.replace('{merchant}', `\u2068${merchant}\u2069`));
    });
  });
});

/** The platform fonts Chromium drew the page's heading with (DevTools' CSS.getPlatformFontsForNode). */
async function headingFonts(cdp: CDPSession): Promise<string[]> {
  const { root } = await cdp.send('DOM.getDocument');
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'h1' });
  await cdp.send('CSS.enable');
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  return fonts.filter((font) => font.glyphCount > 0).map((font) => font.familyName);
}

test.describe('a failing status endpoint', () => {
  // The browser logs each failed poll (503) as a console error: expected here.
  test.use({ allowedConsoleErrors: [/Failed to load resource: the server responded with a status of 503/] });

  test('a failing status endpoint: the last state stays, "reconnecting" after repeated failures, then recovery', async ({
    page,
  }) => {
    const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.3' });
    await page.goto(`/pay/${order.orderId}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Awaiting payment');
    let failed = 0;
    await page.route('**/api/pay/*/status', async (route) => {
      failed++;
      await route.fulfill({ status: 503, body: '{}' });
    });
    await expect(page.getByRole('alert').filter({ hasText: 'Reconnecting' })).toBeVisible({ timeout: 45_000 });
    expect(failed).toBeGreaterThanOrEqual(3);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Awaiting payment');
    await expect(page.getByTestId('address')).toHaveText(order.address);
    await page.unroute('**/api/pay/*/status');
    await expect(page.getByRole('alert').filter({ hasText: 'Reconnecting' })).toHaveCount(0, { timeout: 30_000 });
  });
});

/** Makes the page hidden or visible as a browser does: `visibilityState`, then a `visibilitychange` that bubbles to window. */
async function setVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
  await page.evaluate((state) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  }, state);
}

test('polling pauses while the tab is hidden, and polls at once when it shows again', async ({ page }) => {
  const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.3' });
  let polls = 0;
  page.on('request', (r) => {
    if (r.url().includes(`/api/pay/${order.orderId}/status`)) polls++;
  });
  await page.clock.install();
  await page.goto(`/pay/${order.orderId}`);
  await expect.poll(() => polls, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
  // From here the page's timers fire only when the test moves its clock.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
  await setVisibility(page, 'hidden');
  await page.waitForTimeout(500); // a poll sent just before is counted before, not while hidden
  const hiddenFrom = polls;
  await page.clock.runFor(20_000);
  await page.waitForTimeout(500);
  expect(polls, 'status requests while hidden').toBe(hiddenFrom);
  // No timer is due on the paused clock: only the return to the tab can poll now.
  await setVisibility(page, 'visible');
  await expect.poll(() => polls, { timeout: 5_000 }).toBeGreaterThan(hiddenFrom);
});
