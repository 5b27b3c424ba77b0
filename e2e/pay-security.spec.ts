/**
 * What the payment page must never give away, no language's texts in the client code (the pages
 * get theirs as props), and the security headers of every page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { INVOICE_MESSAGES, MESSAGES } from '@/lib/pay/messages';
import { WALLET_MESSAGES } from '@/lib/pay/wallet-messages';
import { expect, makeOrder, test, testKeys } from './support/fixtures';
import { E2E_APP_SECRET } from './support/server';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** The fields of the public status answer (docs/api.md, "Payment page status (public, unsigned)"): nothing else. */
const PUBLIC_FIELDS = [
  'address',
  'amount',
  'blockSeconds',
  'currency',
  'currencyName',
  'description',
  'expiresAt',
  'invoice',
  'merchantName',
  'network',
  'networkName',
  'orderId',
  'otherTransfers',
  'payments',
  'received',
  // The payer's refund choice (docs/decisions/088): its kind and amount, from the order's own facts.
  'refundOffer',
  // The original order of a remainder order, and what is left to pay on a mispaid one (docs/mispayments.md).
  'remainderOf',
  'remaining',
  'requiredConfirmations',
  'rest',
  'returnUrl',
  'screen',
  'serverTime',
  'status',
  'tag',
  'test',
  'tokenStandard',
  'walletUri',
];

test('no private key, webhook URL, payer e-mail, external user id or merchant order id in the page, the status answer or the client bundle', async ({
  page,
  request,
}) => {
  const marker = randomBytes(6).toString('hex');
  const secrets = {
    privateKey: testKeys().privateKey,
    appSecret: E2E_APP_SECRET,
    successWebhook: `https://hooks.example/success-${marker}`,
    errorWebhook: `https://hooks.example/error-${marker}`,
    payerEmail: `payer-${marker}@mail.example`,
    externalUserId: `user-${marker}`,
    clientOrderId: `client-order-${marker}`,
  };
  const order = await makeOrder({
    currency: 'USDT',
    network: 'tron',
    amount: '12',
    order: secrets.clientOrderId,
    successWebhook: secrets.successWebhook,
    errorWebhook: secrets.errorWebhook,
    payerEmail: secrets.payerEmail,
    externalUserId: secrets.externalUserId,
    description: `Order ${marker}`,
  });
  expect(order.payerEmail).toBe(secrets.payerEmail); // the merchant API does answer them

  const html = await (await request.get(`/pay/${order.orderId}`)).text();
  expect(html).toContain(`Order ${marker}`);
  const statusResponse = await request.get(`/api/pay/${order.orderId}/status`);
  const statusText = await statusResponse.text();
  expect(Object.keys(JSON.parse(statusText)).sort()).toEqual([...PUBLIC_FIELDS].sort());
  // What the browser saw, scripts and RSC payload included.
  await page.goto(`/pay/${order.orderId}`);
  const rendered = await page.content();

  const bundle = filesUnder(path.join(ROOT, '.next', 'static'));
  expect(bundle.length).toBeGreaterThan(0);
  for (const [name, value] of Object.entries(secrets)) {
    expect(html, `${name} in the page HTML`).not.toContain(value);
    expect(rendered, `${name} in the rendered page`).not.toContain(value);
    expect(statusText, `${name} in the status answer`).not.toContain(value);
  }
  for (const file of bundle) {
    const content = fs.readFileSync(file, 'utf8');
    for (const [name, value] of Object.entries(secrets))
      expect(content.includes(value), `${name} in ${path.relative(ROOT, file)}`).toBe(false);
    // Server-only modules never reach the browser.
    expect(content.includes('select o.id, o.mode, o.status'), `SQL in ${path.relative(ROOT, file)}`).toBe(false);
  }
});

/** Every string of a message table's entry (nested objects and plural forms included). */
const stringsOf = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Object.values(value as object).flatMap(stringsOf);

test("no language's texts in the client bundle: a payer page gets its one language as props (decision 055)", () => {
  // A language module imported by a client component would put its texts in a chunk, and every
  // language's in every page's first load with the tables: the budget would grow with each one.
  const tables = { MESSAGES, INVOICE_MESSAGES, WALLET_MESSAGES };
  // Each table's three longest texts in each language: sentences no other code says.
  const texts = Object.entries(tables).flatMap(([table, byLanguage]) =>
    Object.entries(byLanguage).flatMap(([language, messages]) =>
      stringsOf(messages)
        .sort((a, b) => b.length - a.length)
        .slice(0, 3)
        .map((text) => ({ where: `${table}.${language}`, text })),
    ),
  );
  // As a minifier may write them: as they are, or with \u escapes for what is not ASCII.
  const escaped = (text: string) =>
    JSON.stringify(text)
      .slice(1, -1)
      .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const chunks = filesUnder(path.join(ROOT, '.next', 'static')).filter((file) => file.endsWith('.js'));
  expect(chunks.length).toBeGreaterThan(0);
  for (const file of chunks) {
    const content = fs.readFileSync(file, 'utf8');
    const found = texts.filter(({ text }) => content.includes(text) || content.includes(escaped(text)));
    expect(
      found.map((t) => t.where),
      `texts in ${path.relative(ROOT, file)}`,
    ).toEqual([]);
  }
});

test('security headers: a nonce-based CSP on every page, nosniff, and no referrer to another site', async ({
  request,
}) => {
  const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.2' });
  const first = await request.get(`/pay/${order.orderId}`);
  const second = await request.get(`/pay/${order.orderId}`);
  const csp = first.headers()['content-security-policy']!;
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(second.headers()['content-security-policy']).not.toContain(nonce);
  const scriptSrc = csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('script-src'))!;
  expect(scriptSrc).not.toContain('unsafe-inline');
  expect(scriptSrc).not.toContain('unsafe-eval');
  expect(csp).toContain("frame-ancestors 'self'");
  expect(csp).toContain("object-src 'none'");
  // Every script of the page carries the nonce (an injected one would not).
  const scripts = [...(await first.text()).matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);

  for (const response of [await request.get('/'), await request.get(`/api/pay/${order.orderId}/status`)]) {
    expect(response.headers()['x-content-type-options'], response.url()).toBe('nosniff');
    expect(response.headers()['referrer-policy'], response.url()).toBe('no-referrer');
  }
  // The payer's pages send a Referer to the gateway alone (their forms post without JavaScript:
  // proxy.ts, decision 069), never to another site: the link stays a capability.
  for (const response of [first, await request.get(`/pay/not-an-order`)]) {
    expect(response.headers()['x-content-type-options'], response.url()).toBe('nosniff');
    expect(response.headers()['referrer-policy'], response.url()).toBe('same-origin');
  }
  const home = await request.get('/');
  expect(home.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(home.headers()['x-frame-options']).toBe('DENY');
  expect((await request.get('/pay/not-an-order')).headers()['content-security-policy']).toContain("'nonce-");
  const status = await request.get(`/api/pay/${order.orderId}/status`);
  expect(status.headers()['cache-control']).toContain('no-store');
  expect(status.headers()['content-type']).toContain('application/json');
});
