/**
 * Webhook endpoints on the dashboard (docs/webhooks.md, "Webhook endpoints"): an owner adds one for
 * `order.processed` and gets its secret once; "Send test event" and a paid order reach the receiver
 * signed with that secret only; a secret rolled with a one-hour overlap signs beside the new one
 * (two v1= values, the new first); the delivery log filters by event type and outcome; pause stops
 * it. The overlap's end (the dispatcher's clock) is tested in tests/webhook-endpoints.pg.test.ts.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { startReceiver, type Received, type Receiver } from '../tests/support/webhook-receiver';
import { expectAccessible } from './pay-support';
import { createUser, signIn } from './support/dashboard';
import { createKeys, expect, makeOrder, simulatePayment, test } from './support/fixtures';

test.describe.configure({ timeout: 240_000 });

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

/** The v1 values of a delivery's x-webhook-signature, and whether each is the HMAC of "t.body" with `secret`. */
function signedWith(delivery: Received, secret: string): boolean[] {
  const parts = String(delivery.headers['x-webhook-signature']).split(',');
  const t = parts.find((part) => part.startsWith('t='))!.slice(2);
  const expected = createHmac('sha256', secret).update(`${t}.${delivery.raw}`).digest('hex');
  return parts.filter((part) => part.startsWith('v1=')).map((part) => part.slice(3) === expected);
}

const ofType = (type: string) => receiver.received.filter((delivery) => delivery.body.type === type);

test('an endpoint added on the dashboard gets its secret once, a test event, its events, a rolled secret and a filtered log', async ({
  page,
}) => {
  const shop = await createKeys(`Endpoint shop ${randomBytes(3).toString('hex')}`, 'test');
  const owner = await createUser({ merchant: shop.merchantId, role: 'owner' });
  await signIn(page, owner.email, owner.password, undefined, { next: '/dashboard/webhooks/endpoints' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Webhook endpoints');

  await page.getByLabel('URL').fill(receiver.url('/events'));
  await page.getByLabel('All events').uncheck();
  await page.getByRole('checkbox', { name: 'order.processed' }).check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const secret = (await page.getByTestId('endpoint-secret').getByTestId('secret').textContent())!;
  expect(secret).toMatch(/^whsec_/);
  await page.reload();
  expect(await page.content()).not.toContain(secret);
  const endpoint = page.getByTestId('endpoint');
  await expect(endpoint).toContainText('Events: order.processed');
  await expectAccessible(page, 'the webhook endpoints page');

  // A test event, signed with the endpoint's secret only (no x-api-* header).
  await endpoint.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'A test event is on its way' })).toBeVisible();
  await expect.poll(() => ofType('webhook_endpoint.test').length, { timeout: 30_000 }).toBe(1);
  const [test1] = ofType('webhook_endpoint.test');
  expect(signedWith(test1!, secret)).toEqual([true]);
  expect(test1!.headers['x-api-signature']).toBeUndefined();

  // A paid order's event, as events/list answers it.
  const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '0.2' }, shop);
  await simulatePayment(order.orderId, 'full');
  await expect.poll(() => ofType('order.processed').length, { timeout: 90_000 }).toBe(1);
  const [processed] = ofType('order.processed');
  expect(processed!.body.data.orderId).toBe(order.orderId);
  expect(signedWith(processed!, secret)).toEqual([true]);

  // Roll with a one-hour overlap: deliveries carry the new secret's signature, then the old one's.
  await endpoint.getByText('Roll secret…').click();
  await endpoint.getByLabel(/Overlap/).fill('1');
  await endpoint.getByRole('button', { name: 'Confirm roll' }).click();
  await expect(endpoint.getByTestId('previous-secret-expires')).toContainText(/old secret too until \d{4}-\d\d-\d\d/);
  const rolled = (await endpoint.getByTestId('secret').textContent())!;
  expect(rolled).not.toBe(secret);
  await page.reload();
  await expect(endpoint.getByTestId('overlap-ends')).toBeVisible();
  await endpoint.getByRole('button', { name: 'Send test event' }).click();
  await expect.poll(() => ofType('webhook_endpoint.test').length, { timeout: 30_000 }).toBe(2);
  const test2 = ofType('webhook_endpoint.test')[1]!;
  expect(signedWith(test2, rolled)).toEqual([true, false]);
  expect(signedWith(test2, secret)).toEqual([false, true]);

  // The delivery log, by event type and by outcome.
  await page.getByRole('link', { name: 'Delivery log' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Endpoint deliveries');
  await expect(page.getByTestId('delivery')).toHaveCount(3);
  await page.getByLabel('Event type').selectOption('order.processed');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('delivery')).toHaveCount(1);
  await expect(page.getByTestId('delivery')).toHaveAttribute('data-event-type', 'order.processed');
  await page.getByLabel('Event type').selectOption('');
  await page.getByLabel('Outcome').selectOption('failed');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('No delivery matches.')).toBeVisible();
  await expectAccessible(page, "an endpoint's delivery log");

  // Paused: the page says so, and it gets nothing more.
  await page.getByRole('link', { name: 'All endpoints' }).click();
  await endpoint.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The endpoint is paused' })).toBeVisible();
  await expect(endpoint).toContainText('paused');
  await expect(endpoint.getByRole('button', { name: 'Enable' })).toBeVisible();
});
