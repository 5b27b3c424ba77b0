/**
 * The payer's claim page over HTTP, as a browser without JavaScript uses it (docs/refunds.md):
 * the link opens the amount and network, a bad address is said on the page, the reviewed address
 * is posted once (the form's own fields, as the browser sends them), and after that the link
 * neither takes another address nor a replay; a reopened claim's old link is a 404, the order's
 * payment link opens no claim.
 */
import { beforeAll, expect, it } from 'vitest';
import { REFUND_CLAIM_MESSAGES } from '@/lib/mail';
import { makeRefund, reopenRefund } from '@/lib/refunds';
import type { OrderRow } from '@/lib/orders/rows';
import { createOrder } from './support/chain';
import { withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));

let order: OrderRow;
/** Another valid litecoin address (another order's), for the payer. */
let payerAddress: string;

beforeAll(async () => {
  order = await createOrder(gateway.db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '2' });
  await gateway.db.query(`update orders set status = 'processed', received = amount where id = $1`, [order.id]);
  payerAddress = (await createOrder(gateway.db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' }))
    .address;
});

const scope = () => ({ merchantId: merchant.merchantId, mode: 'test' as const });
const pathOf = (url: string) => new URL(url).pathname;

async function page(path: string, language?: string): Promise<{ status: number; html: string }> {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    redirect: 'manual',
    headers: language ? { 'accept-language': language } : {},
  });
  return { status: response.status, html: await response.text() };
}

const unescape = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The hidden fields of the page's posting form, as a browser without JavaScript submits them. */
function hiddenFields(html: string, heading = 'Confirm the address'): [string, string][] {
  const form = html.slice(html.lastIndexOf('<form', html.indexOf(heading)));
  const end = form.indexOf('</form>');
  return [...form.slice(0, end).matchAll(/<input\b([^>]*)>/g)]
    .map((match) => match[1]!)
    .filter((attributes) => /type="hidden"/.test(attributes))
    .map((attributes) => {
      const name = /name="([^"]*)"/.exec(attributes)?.[1] ?? '';
      const value = /value="([^"]*)"/.exec(attributes)?.[1] ?? '';
      return [unescape(name), unescape(value)] as [string, string];
    });
}

async function post(path: string, fields: [string, string][]): Promise<{ status: number; location: string | null }> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  const response = await fetch(`${gateway.baseUrl}${path}`, { method: 'POST', body: form, redirect: 'manual' });
  return { status: response.status, location: response.headers.get('location') };
}

it('shows the refund, reviews the address, stores it once, and refuses a replay or another address', async () => {
  const made = await makeRefund(gateway.db, scope(), {
    target: { kind: 'order', id: order.id },
    amount: 50_000_000n,
    createdBy: 'test',
    now: new Date(),
  });
  const path = pathOf(made.claimUrl);
  const opened = await page(path);
  expect(opened.status).toBe(200);
  expect(opened.html).toContain('0.5 LTC');
  expect(opened.html).toContain('Litecoin');
  expect(opened.html).toContain('noindex');

  const bad = await page(`${path}?address=${encodeURIComponent(`${payerAddress}x`)}`);
  expect(bad.html).toContain('This is not a valid <bdi>Litecoin</bdi> address: check it and try again.');
  expect(bad.html).not.toContain('Confirm the address');

  const review = await page(`${path}?address=${encodeURIComponent(payerAddress)}`);
  expect(review.html).toContain('Confirm the address');
  // The claim page's own not-found (404) and errors are the payer's language's: English here, from no Accept-Language.
  expect(review.html).toContain('<html lang="en" dir="ltr"');
  const fields = hiddenFields(review.html);
  expect(fields, review.html.slice(review.html.indexOf('Confirm the address'))).toContainEqual([
    'address',
    payerAddress,
  ]);
  const confirmed = await post(path, fields);
  expect(confirmed.status).toBe(303);
  expect(confirmed.location).toContain(path);
  const [row] = await gateway.db.query<{ state: string; address: string }>(
    'select state, address from refunds where id = $1',
    [made.refund.id],
  );
  expect(row).toEqual({ state: 'ready', address: payerAddress });
  expect((await page(path)).html).toContain('Address confirmed');

  // Replayed, and with another address: the address stays.
  await post(path, fields);
  await post(
    path,
    fields.map(([name, value]) => [name, name === 'address' ? order.address : value]),
  );
  const [after] = await gateway.db.query<{ address: string; version: number }>(
    'select address, version from refunds where id = $1',
    [made.refund.id],
  );
  expect(after).toEqual({ address: payerAddress, version: 2 });

  // Reopened by the merchant: the old link is dead, the new one asks again.
  const reopened = await reopenRefund(gateway.db, scope(), made.refund.id, new Date());
  expect((await page(path)).status).toBe(404);
  expect((await page(pathOf(reopened.claimUrl))).html).toContain('Where should we send it?');
});

it('answers 404 to a guessed link, a malformed one and the order id', async () => {
  for (const token of ['A'.repeat(43), 'short', order.id, '%00'.repeat(3)]) {
    expect((await page(`/refund/${token}`)).status, token).toBe(404);
  }
});

it("speaks the payer's language: Arabic right to left, its errors too, after the form's post", async () => {
  const t = REFUND_CLAIM_MESSAGES.ar.page;
  const made = await makeRefund(gateway.db, scope(), {
    target: { kind: 'order', id: order.id },
    amount: 1_000_000n,
    createdBy: 'test',
    now: new Date(),
  });
  const path = pathOf(made.claimUrl);
  const opened = await page(path, 'ar-EG,ar;q=0.9');
  expect(opened.html).toContain('<html lang="ar" dir="rtl"');
  expect(opened.html).toContain(`<title>${t.title}</title>`);
  expect(opened.html).toContain(`<h2 class="font-semibold">${t.askTitle}</h2>`);
  // The network's name isolated inside the Arabic sentence.
  expect(opened.html).toContain('على شبكة <bdi>Litecoin</bdi>.');
  expect(opened.html).not.toContain('Where should we send it?');

  const bad = await page(`${path}?lang=ar&address=${encodeURIComponent(`${payerAddress}x`)}`);
  expect(bad.html).toContain(t.errors.address.replace('{network}', '<bdi>Litecoin</bdi>'));

  // The review form carries the language; a refused post (an address tampered with after the
  // review) comes back to the page in it, which says why in Arabic.
  const review = await page(`${path}?lang=ar&address=${encodeURIComponent(payerAddress)}`);
  const fields = hiddenFields(review.html, t.confirmTitle);
  expect(fields).toContainEqual(['lang', 'ar']);
  const refused = await post(
    `${path}?lang=ar`,
    fields.map(([name, value]) => [name, name === 'address' ? `${payerAddress}x` : value]),
  );
  expect(refused.status).toBe(303);
  expect(refused.location).toContain(`${path}?error=address&lang=ar`);
  const back = new URL(refused.location!, gateway.baseUrl);
  expect((await page(`${back.pathname}${back.search}`)).html).toContain(
    t.errors.address.replace('{network}', '<bdi>Litecoin</bdi>'),
  );
  const confirmed = await post(`${path}?lang=ar`, fields);
  expect(confirmed.location).toContain(`${path}?lang=ar`);
  expect((await page(`${path}?lang=ar`)).html).toContain(t.states.ready);

  // A link that does not work: the 404 in Arabic too.
  const gone = await page(`/refund/${'A'.repeat(43)}`, 'ar');
  expect(gone.status).toBe(404);
  expect(gone.html).toContain(t.notFoundTitle);
});
