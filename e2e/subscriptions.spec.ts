/**
 * A subscription's life through the pages where people act (docs/subscriptions.md, issue 41): an
 * owner makes a weekly plan and a Spanish-speaking subscriber on the dashboard's Subscriptions page
 * and moves its test clock; the subscriber opens the page linked from the mail the catcher kept,
 * pays the first period, misses the second until it is past due and then canceled after the grace
 * period, reactivates by paying, and pays two periods ahead, which cover the next two renewals with
 * no invoice mailed for them. Every subscription event, as events/list answers them and as the
 * webhook endpoint receives them, in order and as the served OpenAPI document describes them;
 * every mail caught, in Spanish and, for a second subscriber, in Arabic. The subscriber page is
 * axe-clean in light and dark on a 360 px phone, left to right and right to left; so is the
 * dashboard's Subscriptions page.
 */
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SUBSCRIPTION_MESSAGES } from '@/lib/mail/subscription-messages';
import { interpolate, isolate } from '@/lib/pay/format';
import { LANGUAGE_NAMES, type Language } from '@/lib/pay/i18n';
import { MESSAGES } from '@/lib/pay/messages';
import type { GatewayEvent, Subscription } from '@/lib/protocol';
import { EVENT_TYPE_VALUES } from '@/lib/protocol/events';
import { startReceiver, type Receiver } from '../tests/support/webhook-receiver';
import { expectAccessible, expectNoHorizontalScroll, PHONE } from './pay-support';
import { createUser, signIn } from './support/dashboard';
import { api, baseUrl, createKeys, expect, test, type Keys } from './support/fixtures';

test.setTimeout(180_000);

const PLAN = 'Coffee club';
const SUBSCRIPTION_EVENTS = EVENT_TYPE_VALUES.filter((type) => type.startsWith('subscription.'));
/** Payments settle in seconds on the sandbox ledger (a block a second), then the worker's next pass counts them. */
const SETTLED = { timeout: 90_000, intervals: [500, 1000] };

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

async function apiOk<T>(operation: string, fields: Record<string, unknown>, keys: Keys): Promise<T> {
  const answer = await api<T>(operation, fields, keys);
  if (!answer.body.success) throw new Error(`${operation} answered ${JSON.stringify(answer.body)}`);
  return answer.body.response;
}

/** The served OpenAPI document's schema of `operation`'s 200 answer, compiled. */
async function documentedAnswer(operation: string) {
  const document = (await (await fetch(`${baseUrl()}/api-gateway/openapi.json`)).json()) as {
    paths: Record<string, { post: { responses: Record<string, { content: Record<string, { schema: object }> }> } }>;
    components: object;
  };
  const schema =
    document.paths[`/api-gateway/${operation}`]!.post.responses['200']!.content['application/json']!.schema;
  return new Ajv2020({ strict: false, validateFormats: false, allErrors: true }).compile({
    ...schema,
    components: document.components,
  });
}

/** A browser of the subscriber's own, a 360 x 640 phone, failing the test on a console error as the fixture's does. */
async function phone(browser: Browser): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: PHONE });
  const errors: string[] = [];
  context.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  context.on('weberror', (error) => errors.push(error.error().message));
  return { context, page: await context.newPage(), errors };
}

/** On the Mail page: the subscriber page link of the first mail of `kind` to `to`, once the mailer has written it. */
async function pageLinkOfMail(page: Page, to: string, kind: string): Promise<string> {
  const subject = page.getByRole('row').filter({ hasText: to }).filter({ hasText: kind }).last().getByRole('link');
  // The page is drawn by the server: a message not written yet needs the page again.
  await expect(async () => {
    await page.goto('/dashboard/mail');
    await expect(subject).not.toHaveText('not rendered yet', { timeout: 500 });
  }).toPass({ timeout: 30_000 });
  await subject.click();
  const text = await page.locator('pre').textContent();
  const link = /\/subscription\/[\w-]+\?lang=[\w-]+/.exec(text ?? '')?.[0];
  expect(link, `a subscriber page link in ${text}`).toBeTruthy();
  return link!;
}

/** Moves the test clock on the Subscriptions page; the renewals it makes due run before the page comes back. */
async function moveClock(page: Page, days: number): Promise<void> {
  const clock = page.getByTestId('test-clock');
  const shown = async () => Date.parse(/\d{4}-\d\d-\d\dT[\d:.]+Z/.exec((await clock.textContent()) ?? '')![0]);
  const before = await shown();
  await page.getByLabel('Move forward by (days)').fill(String(days));
  await page.getByRole('button', { name: 'Move the clock' }).click();
  // From the second move on the page comes back at the same address: wait for the clock it shows.
  await expect.poll(shown).toBeGreaterThanOrEqual(before + days * 86_400_000);
}

/** The subscriber row of `email` on the Subscriptions page, as its cells read. */
async function dashboardRow(page: Page, email: string): Promise<string[]> {
  return page.getByTestId('subscriber-row').filter({ hasText: email }).getByRole('cell').allTextContents();
}

/** From an invoice page: a coin, then the payment page's own "Simulate payment: Full" in the page's language. */
async function payInvoice(page: Page, language: Language): Promise<void> {
  await page.waitForURL(/\/invoice\/[0-9a-f-]{36}/);
  await page
    .getByRole('region', { name: /^USDT\b/ })
    .getByRole('button', { name: /^Tron\b/ })
    .click();
  await page.waitForURL(/\/pay\/[0-9a-f-]{36}/);
  await page.getByRole('button', { name: MESSAGES[language].simulateFull, exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /[0-9a-f]{16}/ })).toBeVisible();
}

test('three periods on a moved clock: paid, past due, canceled, reactivated, two renewals from credit', async ({
  page,
  browser,
}) => {
  const shopName = `Subscription shop ${randomBytes(3).toString('hex')}`;
  const shop = await createKeys(shopName, 'test');
  const owner = await createUser({ merchant: shop.merchantId, role: 'owner' });
  await apiOk('webhook-endpoints/create', { url: receiver.url('/events'), eventTypes: SUBSCRIPTION_EVENTS }, shop);
  const es = SUBSCRIPTION_MESSAGES.es;
  const ana = `ana-${randomBytes(3).toString('hex')}@e2e.test`;

  // The owner makes a weekly plan (invoice a day ahead, two days of grace) and subscribes Ana, in Spanish.
  await signIn(page, owner.email, owner.password, undefined, { next: '/dashboard/subscriptions' });
  await page.getByLabel('Name', { exact: true }).fill(PLAN);
  await page.getByLabel('Price per period').fill('5');
  await page.getByRole('combobox', { name: /^Period\b/ }).selectOption('week');
  await page.getByLabel('Invoice sent before a period (days)').fill('1');
  await page.getByLabel('Grace before cancelling unpaid (days)').fill('2');
  await page.getByRole('button', { name: 'Create plan' }).click();
  await page.waitForURL(/notice=plan/);
  await page.getByLabel('E-mail', { exact: true }).fill(ana);
  await page.getByLabel('Language of the mails and page').selectOption({ label: LANGUAGE_NAMES.es });
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await page.waitForURL(/notice=subscriber/);
  expect((await dashboardRow(page, ana)).slice(0, 3)).toEqual([ana, PLAN, 'active']);
  const { subscriptions } = await apiOk<{ subscriptions: Subscription[] }>('subscriptions/list', {}, shop);
  const id = subscriptions.find((s) => s.email === ana)!.id;
  const subscription = () => apiOk<Subscription>('subscriptions/get', { id }, shop);

  // Period 0: Ana opens her page from the mail that started it, and pays the open invoice.
  const pageLink = await pageLinkOfMail(page, ana, 'subscription-started');
  const anaPhone = await phone(browser);
  const sub = anaPhone.page;
  await sub.goto(pageLink);
  await expect(sub.locator('html')).toHaveAttribute('lang', 'es');
  await expect(sub.getByTestId('subscription-status')).toHaveText(es.page.statuses.active);
  await expectNoHorizontalScroll(sub);
  await expectAccessible(sub, 'the subscriber page, Spanish, an open invoice');
  await sub.getByRole('link', { name: es.page.payOpen }).click();
  await payInvoice(sub, 'es');
  await expect.poll(async () => (await subscription()).paidPeriods, SETTLED).toBe(1);

  // Period 1: invoiced a day before it starts, unpaid: past due when it starts, canceled two days later.
  await page.goto('/dashboard/subscriptions');
  await moveClock(page, 6);
  expect((await subscription()).openInvoiceId).not.toBeNull();
  await moveClock(page, 1);
  expect((await dashboardRow(page, ana))[2]).toBe('past_due');
  await moveClock(page, 2);
  expect((await dashboardRow(page, ana))[2]).toBe('canceled');
  expect(await subscription()).toMatchObject({ status: 'canceled', cancelReason: 'unpaid' });

  // Reactivated by paying one period on her page: a new cycle.
  await sub.goto(pageLink);
  await expect(sub.getByTestId('subscription-status')).toHaveText(es.page.statuses.canceled);
  await expectAccessible(sub, 'the subscriber page, Spanish, ended');
  await sub.getByRole('button', { name: es.page.reactivate }).click();
  await payInvoice(sub, 'es');
  await expect.poll(async () => (await subscription()).status, SETTLED).toBe('active');
  expect(await subscription()).toMatchObject({ cycle: 1, period: 0, paidPeriods: 1 });

  // Two periods paid ahead: they cover the next two renewals, with no invoice made or mailed for them.
  await sub.goto(pageLink);
  await sub.getByLabel(es.page.periods).fill('2');
  await sub.getByRole('button', { name: es.page.payAhead }).click();
  await payInvoice(sub, 'es');
  await expect.poll(async () => (await subscription()).creditPeriods, SETTLED).toBe(2);
  await page.goto('/dashboard/subscriptions');
  for (const period of [1, 2]) {
    await moveClock(page, 7);
    expect(await subscription()).toMatchObject({ status: 'active', period, openInvoiceId: null });
  }
  expect((await dashboardRow(page, ana)).slice(2, 5)).toEqual(['active', expect.stringMatching(/^\d{4}-/), '0']);
  // The credit used up, the next period is invoiced (and mailed) as usual.
  await moveClock(page, 6);
  expect((await subscription()).openInvoiceId).not.toBeNull();
  await sub.goto(pageLink);
  await expect(sub.getByRole('link', { name: es.page.payOpen })).toBeVisible();
  await anaPhone.context.close();
  expect(anaPhone.errors, "errors logged by the subscriber's pages").toEqual([]);

  // Every event of her subscription, in order, as events/list answers it and as the OpenAPI document says.
  const listed = await api<{ events: GatewayEvent[]; hasMore: boolean }>(
    'events/list',
    { types: SUBSCRIPTION_EVENTS, limit: 100 },
    shop,
  );
  const eventList = await documentedAnswer('events/list');
  expect(eventList(listed.body), JSON.stringify(eventList.errors)).toBe(true);
  if (!listed.body.success) throw new Error(JSON.stringify(listed.body));
  const events = listed.body.response.events.filter((event) => (event.data as { id: string }).id === id);
  expect(events.map((event) => event.type)).toEqual([
    'subscription.created',
    'subscription.invoice_created',
    'subscription.paid',
    'subscription.renewed',
    'subscription.invoice_created',
    'subscription.past_due',
    'subscription.canceled',
    'subscription.invoice_created',
    'subscription.reactivated',
    'subscription.renewed',
    'subscription.invoice_created',
    'subscription.paid',
    'subscription.renewed',
    'subscription.renewed',
    'subscription.invoice_created',
  ]);
  // Each delivered to the endpoint, signed bodies of the same shape. Deliveries run concurrently
  // (lib/webhooks/dispatcher.ts), so they may arrive in any order: the feed above gives the order.
  const delivered = () => receiver.received.filter((d) => d.body?.data?.id === id);
  await expect.poll(() => delivered().length, SETTLED).toBe(events.length);
  expect(
    delivered()
      .map((d) => d.body.id)
      .sort(),
  ).toEqual(events.map((event) => event.id).sort());
  const bodies = { success: true, response: { events: delivered().map((d) => d.body), hasMore: false } };
  expect(eventList(bodies), JSON.stringify(eventList.errors)).toBe(true);

  // A second subscriber, in Arabic: her mail and her page, right to left.
  const amal = `amal-${randomBytes(3).toString('hex')}@e2e.test`;
  await page.goto('/dashboard/subscriptions');
  await page.getByLabel('E-mail', { exact: true }).fill(amal);
  await page.getByLabel('Language of the mails and page').selectOption({ label: LANGUAGE_NAMES.ar });
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await page.waitForURL(/notice=subscriber/);
  await expectAccessible(page, 'the Subscriptions page with a plan, two subscribers and a moved clock');
  await page.setViewportSize(PHONE);
  await expectNoHorizontalScroll(page);
  const amalLink = await pageLinkOfMail(page, amal, 'subscription-started');
  const amalPhone = await phone(browser);
  await amalPhone.page.goto(amalLink);
  await expect(amalPhone.page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(amalPhone.page.getByTestId('subscription-status')).toHaveText(
    SUBSCRIPTION_MESSAGES.ar.page.statuses.active,
  );
  await expectNoHorizontalScroll(amalPhone.page);
  await expectAccessible(amalPhone.page, 'the subscriber page, Arabic');
  await amalPhone.context.close();
  expect(amalPhone.errors, "errors logged by the Arabic subscriber's page").toEqual([]);

  // Every mail caught, each in its subscriber's language: none for the periods paid ahead.
  const mails = async (to: string) => {
    await page.goto('/dashboard/mail');
    const rows = await page
      .getByRole('row')
      .filter({ hasText: to })
      .evaluateAll((found) =>
        found.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')),
      );
    // The page lists the newest first; the two mails of the transaction that made the subscription
    // share their time, and the page breaks that tie by id: those two are compared sorted.
    const oldestFirst = rows.reverse().map((cells) => [cells[3]!, cells[1]!]);
    return [...oldestFirst.slice(0, 2).sort(), ...oldestFirst.slice(2)];
  };
  const subject = (text: { title: string }) => `${shopName}: ${interpolate(text.title, { plan: isolate(PLAN) })}`;
  await expect
    .poll(() => mails(ana), SETTLED)
    .toEqual([
      ['subscription-invoice', subject(es.mail.invoice)],
      ['subscription-started', subject(es.mail.started)],
      ['subscription-invoice', subject(es.mail.invoice)],
      ['subscription-past-due', subject(es.mail.pastDue)],
      ['subscription-canceled', subject(es.mail.canceled)],
      ['subscription-invoice', subject(es.mail.invoice)],
    ]);
  const ar = SUBSCRIPTION_MESSAGES.ar.mail;
  await expect
    .poll(() => mails(amal), SETTLED)
    .toEqual([
      ['subscription-invoice', subject(ar.invoice)],
      ['subscription-started', subject(ar.started)],
    ]);

  // The owner cancels Amal's subscription from the dashboard, then retires the plan
  // (docs/decisions/079): no new subscriber; both in the audit log.
  await page.goto('/dashboard/subscriptions');
  await page.getByRole('button', { name: `Cancel the subscription of ${amal}` }).click();
  await page.waitForURL(/notice=canceled/);
  expect((await dashboardRow(page, amal))[2]).toBe('canceled');
  await expect(page.getByRole('button', { name: `Cancel the subscription of ${amal}` })).toHaveCount(0);
  expect((await apiOk<{ subscriptions: Subscription[] }>('subscriptions/list', {}, shop)).subscriptions).toEqual(
    expect.arrayContaining([expect.objectContaining({ email: amal, status: 'canceled', cancelReason: 'merchant' })]),
  );
  await page.getByLabel('New subscribers').selectOption('false');
  await page.getByRole('button', { name: 'Save plan' }).click();
  await page.waitForURL(/notice=retired/);
  await expect(page.getByTestId('plan-row').filter({ hasText: PLAN })).toContainText('retired');
  await expect(page.getByRole('button', { name: 'Subscribe' })).toHaveCount(0);
  await page.goto('/dashboard/audit');
  await expect(page.getByText('subscription_plan.update').first()).toBeVisible();
  await expect(page.getByText('subscription.cancel', { exact: true }).first()).toBeVisible();
});
