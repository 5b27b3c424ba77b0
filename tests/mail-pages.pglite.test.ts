/**
 * The payer's side of mail through the real server: the payment page records the language the
 * payer saw (their mail speaks it), and the unsubscribe link of every payer mail asks on GET
 * (mail scanners follow links), unsubscribes on POST (a mail client's RFC 8058 one-click too),
 * and answers 404, never a 500, to anything else.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSubscriptionPlanRequest, createSubscriptionRequest } from '@/lib/protocol';
import { createPlan, createSubscription, withInvoiceQuotes } from '@/lib/subscriptions';
import { createOrder } from './support/chain';
import { withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started), { merchantName: 'Tea House' });

let orderId: string;
let mailId: string;
beforeAll(async () => {
  const order = await createOrder(gateway.db, merchant.test, {
    currency: 'LTC',
    network: 'litecoin',
    amount: '0.1',
    payerEmail: 'tea@example.com',
  });
  orderId = order.id;
  mailId = randomUUID();
  await gateway.db.query(
    `insert into mail_messages (id, merchant_id, mode, kind, event_key, order_id, recipient, state)
     values ($1, $2, 'test', 'payment-detected', $3, $4, 'tea@example.com', 'sent')`,
    [mailId, merchant.merchantId, `${order.id}/payment-detected`, order.id],
  );
});

const unsubscribes = async () =>
  (await gateway.db.query('select recipient from mail_unsubscribes where merchant_id = $1', [merchant.merchantId]))
    .length;

describe('mail pages', () => {
  it('the payment page records the language the payer saw', async () => {
    const page = await fetch(`${gateway.baseUrl}/pay/${orderId}?lang=ja`);
    expect(page.status).toBe(200);
    const [row] = await gateway.db.query<{ payer_language: string }>(
      'select payer_language from orders where id = $1',
      [orderId],
    );
    expect(row!.payer_language).toBe('ja');
  });

  it('GET asks in that language and changes nothing; POST unsubscribes, once', async () => {
    const asked = await fetch(`${gateway.baseUrl}/mail/unsubscribe/${mailId}`);
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toContain('lang="ja"');
    expect(html).toContain('<form method="post">');
    expect(html).toContain('\u2068Tea House\u2069');
    expect(await unsubscribes()).toBe(0);

    for (let i = 0; i < 2; i++) {
      const done = await fetch(`${gateway.baseUrl}/mail/unsubscribe/${mailId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(done.status).toBe(200);
      expect(await done.text()).toContain('完了しました');
    }
    expect(await unsubscribes()).toBe(1);
  });

  it("a subscriber mail's link asks in the subscriber's language (the mail has no order)", async () => {
    const scope = { merchantId: merchant.merchantId, mode: 'test' as const };
    const plan = await createPlan(
      gateway.db,
      scope,
      createSubscriptionPlanRequest.parse({ name: 'Tea club', currency: 'LTC', amount: '0.1', interval: 'month' }),
    );
    const subscription = await withInvoiceQuotes((quotes) =>
      gateway.db.transaction((tx) =>
        createSubscription(
          tx,
          scope,
          createSubscriptionRequest.parse({ planId: plan.id, email: 'club@example.com', language: 'ar' }),
          quotes,
        ),
      ),
    );
    const [mail] = await gateway.db.query<{ id: string }>(
      'select id from mail_messages where subscription_id = $1 order by created_at limit 1',
      [subscription.id],
    );
    const html = await (await fetch(`${gateway.baseUrl}/mail/unsubscribe/${mail!.id}`)).text();
    expect(html).toContain('lang="ar" dir="rtl"');
    expect(html).toContain('\u2068Tea House\u2069');
  });

  it('an unknown, malformed or oversized link is a 404, never a 500', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', '%ZZ', 'x'.repeat(3000), '%00', encodeURIComponent('\u2028')]) {
      for (const method of ['GET', 'POST']) {
        const answer = await fetch(`${gateway.baseUrl}/mail/unsubscribe/${id}`, { method });
        expect(answer.status, `${method} ${id.slice(0, 20)}`).toBe(404);
      }
    }
  });
});
