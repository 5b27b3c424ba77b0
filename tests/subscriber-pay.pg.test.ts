/**
 * The subscriber page's pay form over real HTTP (app/subscription/[token]/pay/route.ts): with the
 * rate sources failing it makes no invoice and sends the subscriber back to the page, which says
 * to try again (never a server error); with them back, the same post goes on to the invoice.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { subscriberLinkToken } from '@/lib/mail';
import { LINK_MESSAGES } from '@/lib/pay/link-messages';
import { createSubscriptionPlanRequest, createSubscriptionRequest } from '@/lib/protocol';
import { RateUnavailable, rateService } from '@/lib/rates';
import { createPlan, createSubscription, withInvoiceQuotes } from '@/lib/subscriptions';
import { countRows } from './support/database';
import { withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));
afterEach(() => vi.restoreAllMocks());

/** A trialing subscriber's page token (from its welcome mail), so that no invoice exists yet. */
async function subscriberPage(): Promise<string> {
  const scope = { merchantId: merchant.merchantId, mode: 'test' as const };
  const plan = await createPlan(
    gateway.db,
    scope,
    createSubscriptionPlanRequest.parse({
      name: 'Tea club',
      currency: 'USD',
      amount: '4.50',
      interval: 'month',
      trialDays: 30,
    }),
  );
  const sub = await withInvoiceQuotes((quotes) =>
    gateway.db.transaction((tx) =>
      createSubscription(
        tx,
        scope,
        createSubscriptionRequest.parse({ planId: plan.id, email: 'tea@example.com', language: 'es' }),
        quotes,
      ),
    ),
  );
  const [mail] = await gateway.db.query<{ id: string }>(
    "select id from mail_messages where subscription_id = $1 and kind = 'subscription-started'",
    [sub.id],
  );
  return `/subscription/${subscriberLinkToken(mail!.id)}`;
}

const payAhead = (page: string) =>
  fetch(`${gateway.baseUrl}${page}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: gateway.baseUrl },
    body: 'periods=2&lang=es',
    redirect: 'manual',
  });

describe("the subscriber page's pay form", () => {
  it('without a fresh rate: back to the page, which says so, and nothing made; then on to the invoice', async () => {
    const page = await subscriberPage();
    vi.spyOn(rateService('test'), 'quote').mockRejectedValue(new RateUnavailable('BTC', 'USD'));
    const before = await countRows(gateway.db);
    const refused = await payAhead(page);
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe(`${page}?error=rate&lang=es`);
    expect(await countRows(gateway.db)).toEqual(before);
    const shown = await (await fetch(`${gateway.baseUrl}${page}?error=rate&lang=es`)).text();
    expect(shown).toContain(LINK_MESSAGES.es.errors.rate);

    vi.restoreAllMocks();
    const paid = await payAhead(page);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toMatch(/^\/invoice\/[0-9a-f-]{36}\?lang=es$/);
  });
});
