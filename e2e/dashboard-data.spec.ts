/**
 * The dashboard's data pages in a browser (issue 17, "Must show"): search by a transaction hash,
 * a resend from the order page that reaches a receiver, a viewer's forged resend refused, a
 * pending order's page following its payment (decision 055), the CSV export against the merchant
 * API's `orders`, the test/live switch, axe in light and dark, and no sideways scrolling at 360 px.
 *
 * The file runs serially on one merchant of its own (made with the keys CLI), so that the orders
 * of other specs running beside it never enter its lists or its export; later tests reuse the
 * paid order of the earlier ones instead of paying again.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { startReceiver, type Receiver } from '../tests/support/webhook-receiver';
import { expectAccessible, expectNoHorizontalScroll } from './pay-support';
import { createUser, signIn, type CreatedUser } from './support/dashboard';
import {
  api,
  baseUrl,
  createKeys,
  expect,
  getOrder,
  makeOrder,
  simulatePayment,
  test,
  type Keys,
  type Order,
} from './support/fixtures';

test.describe.configure({ mode: 'serial' });

interface WebhookEventAnswer {
  id: string;
  kind: string;
  state: string;
  attempts: number;
}

let keys: Keys;
let owner: CreatedUser;
let viewer: CreatedUser;
let receiver: Receiver;
/** Paid in the first test, its success webhook sent to `receiver`. */
let paid: { order: Order; txHash: string };

test.beforeAll(async () => {
  const merchant = `dash-data-${randomBytes(4).toString('hex')}`;
  keys = await createKeys(merchant);
  [owner, viewer] = await Promise.all([
    createUser({ merchant, role: 'owner' }),
    createUser({ merchant, role: 'viewer' }),
  ]);
  receiver = await startReceiver();
});

test.afterAll(async () => {
  await receiver?.close();
});

async function webhookEvents(orderId: string): Promise<WebhookEventAnswer[]> {
  const answer = await api<WebhookEventAnswer[]>('webhooks/list', { orderId }, keys);
  if (!answer.body.success) throw new Error(`webhooks/list answered ${answer.status}`);
  return answer.body.response;
}

/** Applies the orders page's search box, as a user does (a GET form). */
async function searchOrders(page: Page, text: string): Promise<void> {
  await page.goto('/dashboard/orders');
  await page.getByLabel('Order id, your order id, address or transaction hash').fill(text);
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL(/[?&]q=/);
}

test('search by a transaction hash finds its order', async ({ page }) => {
  const order = await makeOrder(
    { currency: 'LTC', network: 'litecoin', amount: '0.5', successWebhook: receiver.url('/paid') },
    keys,
  );
  const payment = await simulatePayment(order.orderId);
  paid = { order, txHash: payment.txHash };
  await expect.poll(async () => (await getOrder(order.orderId, keys)).status, { timeout: 60_000 }).toBe('processed');

  await signIn(page, owner.email, owner.password);
  await searchOrders(page, payment.txHash);
  const rows = page.getByRole('region', { name: 'Orders, newest first' }).getByRole('row');
  await expect(rows).toHaveCount(2); // the header and the one order
  // The coin's and the network's icons, the payment page's (issue 43): files that load, beside their names.
  const icons = rows.nth(1).locator('img[alt=""]');
  await expect(icons).toHaveCount(2);
  expect(await icons.evaluateAll((images) => images.map((i) => new URL((i as HTMLImageElement).src).pathname))).toEqual(
    ['/icons/coin/LTC.svg', '/icons/network/litecoin.svg'],
  );
  await expect
    .poll(() => icons.evaluateAll((images) => images.every((i) => (i as HTMLImageElement).naturalWidth > 0)))
    .toBe(true);
  await page.getByRole('link', { name: order.clientOrderId }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Order ${order.clientOrderId}`);
  await expect(page.getByRole('region', { name: 'Payments of this order' })).toContainText(payment.txHash);

  // A hash of nothing: the empty state, not an error.
  await searchOrders(page, 'f'.repeat(64));
  await expect(page.getByText('No orders match these filters.')).toBeVisible();
  // A bad filter: its message, not a 500.
  const bad = await page.goto('/dashboard/orders?status=sideways');
  expect(bad?.status()).toBe(200);
  await expect(page.getByRole('alert').filter({ hasText: 'These filters cannot be used' })).toContainText('status');
});

test("a resend from the order page reaches the merchant's receiver", async ({ page }) => {
  await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  const first = receiver.received[0]!;
  await signIn(page, owner.email, owner.password);
  await page.goto(`/dashboard/orders/${paid.order.orderId}`);
  const event = page.getByTestId('webhook-event');
  await expect(event).toContainText('delivered');
  await page.getByRole('button', { name: 'Resend success webhook' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'queued for sending again' })).toBeVisible();
  await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBe(2);
  // The same event again (same id, same body), as the API's webhooks/resend sends it.
  expect(receiver.received[1]!.headers['x-webhook-id']).toBe(first.headers['x-webhook-id']);
  expect(receiver.received[1]!.raw).toBe(first.raw);
  await expect
    .poll(async () => (await webhookEvents(paid.order.orderId)).find((e) => e.kind === 'success')?.state)
    .toBe('delivered');
  await page.reload();
  await expect(event.getByRole('row')).toHaveCount(3); // header and two attempts
});

test('a viewer sees no resend button, and a resend posted directly is refused with 403 and sends nothing', async ({
  page,
  browser,
}) => {
  // The action's id, from the owner's page (the viewer's has no such form).
  const ownerContext = await browser.newContext({ baseURL: baseUrl() });
  const ownerPage = await ownerContext.newPage();
  await signIn(ownerPage, owner.email, owner.password);
  await ownerPage.goto(`/dashboard/orders/${paid.order.orderId}`);
  const resendForm = ownerPage
    .getByTestId('webhook-event')
    .locator('form')
    .filter({ has: ownerPage.getByRole('button', { name: /^Resend/ }) });
  const actionField = await resendForm.locator('input[name^="$ACTION_ID_"]').getAttribute('name');
  const eventId = await resendForm.locator('input[name="eventId"]').inputValue();
  await ownerContext.close();
  expect(actionField).toBeTruthy();
  const actionId = actionField!.slice('$ACTION_ID_'.length);

  const before = { received: receiver.received.length, events: await webhookEvents(paid.order.orderId) };
  await signIn(page, viewer.email, viewer.password);
  await page.goto(`/dashboard/orders/${paid.order.orderId}`);
  await expect(page.getByTestId('webhook-event')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Resend/ })).toHaveCount(0);

  const url = `/dashboard/orders/${paid.order.orderId}`;
  const headers = { origin: baseUrl() };
  // As the browser's fetch posts it (the Next-Action header, and the arguments encoded the way
  // React's encodeReply encodes one FormData argument: the root `0` names form `1`, whose fields
  // follow with the prefix `1_`): 403.
  const asFetch = await page.request.post(url, {
    headers: { ...headers, 'next-action': actionId, accept: 'text/x-component' },
    multipart: { '0': '["$K1"]', '1_eventId': eventId, '1_back': url },
  });
  expect(asFetch.status()).toBe(403);
  // As a form posts it without JavaScript: 403 too.
  const asForm = await page.request.post(url, { headers, multipart: { [actionField!]: '', eventId, back: url } });
  expect(asForm.status()).toBe(403);
  // Nothing was queued: a resend would have put the event back to pending at once.
  expect(await webhookEvents(paid.order.orderId)).toEqual(before.events);
  expect(receiver.received.length).toBe(before.received);
});

test('the order page follows a pending order: its payment and its new status show without a reload', async ({
  page,
}) => {
  const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.2' }, keys);
  await signIn(page, owner.email, owner.password);
  await page.goto(`/dashboard/orders/${order.orderId}`);
  const status = page.locator('dt:text-is("Status") + dd');
  await expect(status).toHaveText('pending');
  // Gone if the document were loaded again: the page must change in place.
  await page.evaluate(() => Object.assign(window, { followedInPlace: true }));
  const payment = await simulatePayment(order.orderId);
  await expect(page.getByRole('region', { name: 'Payments of this order' })).toContainText(payment.txHash, {
    timeout: 60_000,
  });
  await expect(status).toHaveText('processed', { timeout: 60_000 });
  expect(await page.evaluate(() => 'followedInPlace' in window)).toBe(true);
});

/** RFC 4180 records of `text` (quoted cells with "" for a quote, CRLF line ends). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      record.push(cell);
      cell = '';
    } else if (!quoted && c === '\n') {
      record.push(cell.replace(/\r$/, ''));
      records.push(record);
      record = [];
      cell = '';
    } else {
      cell += c;
    }
  }
  if (cell !== '' || record.length > 0) records.push([...record, cell]);
  return records;
}

test('the CSV export downloaded from the page equals what the `orders` operation answers for the same range', async ({
  page,
}) => {
  for (const amount of ['1.25', '0.003']) {
    await makeOrder({ currency: 'BTC', network: 'bitcoin', amount, description: 'Mug, "blue", 2 pcs' }, keys);
  }
  await signIn(page, owner.email, owner.password);
  await page.goto('/dashboard/orders');
  const day = (d: Date) => d.toISOString().slice(0, 10);
  // Every order of this merchant was made during this run: yesterday to today covers a run across midnight.
  const box = page.getByRole('region', { name: 'Export CSV' });
  await box.getByLabel('From (UTC)').fill(day(new Date(Date.now() - 86_400_000)));
  await box.getByLabel('To (UTC, inclusive)').fill(day(new Date()));
  await box.getByRole('button', { name: 'Export CSV' }).click();
  const save = page.getByTestId('export-file');
  await expect(save).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), save.click()]);
  expect(download.suggestedFilename()).toMatch(/^orders-test-.*\.csv$/);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const [header, ...rows] = parseCsv(Buffer.concat(chunks).toString('utf8'));

  const answer = await api<{ orders: Record<string, unknown>[]; total: number }>('orders', { limit: 100 }, keys);
  if (!answer.body.success) throw new Error(`orders answered ${answer.status}`);
  const { orders, total } = answer.body.response;
  expect(total).toBe(orders.length);
  // The operation's fields first, as it answers them; the columns that reconcile (received, ids, rate) after them.
  const fields = Object.keys(orders[0]!);
  expect(header!.slice(0, fields.length)).toEqual(fields);
  expect(header!.slice(fields.length)).toEqual([
    'received',
    'transactionIds',
    'invoiceId',
    'invoiceCurrency',
    'rate',
    'receivedInInvoiceCurrency',
  ]);
  expect(rows.map((row) => row.slice(0, fields.length))).toEqual(
    orders.map((o) => fields.map((column) => (o[column] === null ? '' : String(o[column])))),
  );
  await expect(page.getByText(`${orders.length} rows ready.`)).toBeVisible();
});

test('a bad export query is a 400 naming the parameter, never cached', async ({ page }) => {
  await signIn(page, owner.email, owner.password);
  const answer = await page.request.get('/dashboard/export?kind=orders&from=yesterday');
  expect(answer.status()).toBe(400);
  expect(answer.headers()['cache-control']).toBe('no-store');
  expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/from/);
});

test('the test/live switch: live mode hides the test orders, on every screen', async ({ page }) => {
  await signIn(page, owner.email, owner.password);
  await searchOrders(page, paid.order.orderId);
  await expect(page.getByTestId('mode-band')).toBeVisible();
  await expect(page.getByRole('link', { name: paid.order.clientOrderId })).toBeVisible();

  await page.getByRole('button', { name: 'Switch to live' }).click();
  await expect(page.getByTestId('mode')).toHaveText('live data');
  await expect(page.getByTestId('mode-band')).toHaveCount(0);
  await expect(page.getByText('No orders match these filters.')).toBeVisible();
  // The mode is the session's: the order's own page is not found in live mode either.
  // (Fetched with the page's cookies rather than opened: the browser logs a 404 as a console error.)
  const detail = await page.request.get(`/dashboard/orders/${paid.order.orderId}`);
  expect(detail.status()).toBe(404);
  await expect(page.getByTestId('mode')).toHaveText('live data');

  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Switch to test' }).click();
  await expect(page.getByTestId('mode')).toHaveText('test data');
  await expect(page.getByTestId('mode-band')).toBeVisible();
});

/**
 * Every dashboard page, at 360 px in light and dark, with axe, is the sweep of e2e/polish.spec.ts;
 * here the data pages once at desktop width, with data in them, and the compact menu.
 */
test('the data pages are axe-clean at desktop width with data in them; the compact menu works without JavaScript', async ({
  page,
}) => {
  test.slow();
  const invoice = await api<{ id: string }>(
    'make-invoice',
    { externalId: `dash-${randomBytes(4).toString('hex')}`, currency: 'USD', amount: '12.00', lifetime: 30 },
    keys,
  );
  if (!invoice.body.success) throw new Error(`make-invoice answered ${invoice.status}`);
  await signIn(page, owner.email, owner.password);
  for (const path of [`/dashboard/orders/${paid.order.orderId}`, `/dashboard/invoices/${invoice.body.response.id}`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page, path);
  }
  // The compact menu opens without JavaScript and leads on.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.getByText('Menu').click();
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page).toHaveURL(/\/dashboard\/webhooks$/);
  await expectNoHorizontalScroll(page);
});
