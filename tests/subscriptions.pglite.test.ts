/**
 * Subscriptions (docs/subscriptions.md) over a moved test clock, through the domain code, the
 * sandbox ledger and the watcher: a trial, a renewal paid, a renewal missed until past due and
 * then canceled after the grace period, a reactivation by paying, prepaid credit covering two
 * renewals with no invoice made or mailed for them. Every event in order, each as the OpenAPI
 * document's event schema says; every mail caught by the catcher, in two languages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import { listEvents } from '@/lib/events';
import { chooseCoin } from '@/lib/invoices';
import { mailerOptions, startMailer, type Mailer } from '@/lib/mail';
import { parseUnits } from '@/lib/money';
import { createSubscriptionPlanRequest, createSubscriptionRequest, eventResponse } from '@/lib/protocol';
import {
  askToCancel,
  confirmCancel,
  createPlan,
  createSubscription,
  getSubscription,
  moveTestClock,
  runRenewals,
  serializeSubscription,
  startSubscriberInvoice,
  subscriptionNow,
  serializePlan,
  subscriptionOfPageToken,
  updatePlan,
  withInvoiceQuotes,
} from '@/lib/subscriptions';
import { network, sandboxChain, watchOnce } from './support/chain';
import { openTestDatabase } from './support/database';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { waitFor } from './support/worker-process';
import { subscriberLinkToken } from '@/lib/mail';

const DAY = 86_400_000;
let db: Database;
let merchant: TestMerchant;
let mailer: Mailer;
const scope = () => ({ merchantId: merchant.merchantId, mode: 'test' as const });

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db, 'Club Café');
  // No SMTP: test mode's mail lands in the catcher (the dashboard's Mail page).
  mailer = startMailer(db, mailerOptions({ smtp: null, pollMs: 25 }));
});
afterAll(async () => {
  await mailer?.stop();
  await db?.close();
});

/** Moves the merchant's test clock and runs the renewal pass, as subscriptions/advance-test-clock does. */
async function advance(days: number): Promise<void> {
  await moveTestClock(db, merchant.merchantId, 'test', days * DAY);
  await runRenewals(db, { scope: scope() });
}

/** Pays an invoice in full on the sandbox ledger, confirmed, then runs the renewal pass. */
async function pay(invoiceId: string, ltc: string): Promise<void> {
  const order = await chooseCoin(db, invoiceId, { currency: 'LTC', network: 'litecoin' });
  const amount = parseUnits(ltc, 8);
  if (!amount.ok) throw new Error(ltc);
  await broadcast(db, { network: network('litecoin'), to: order.address!, currency: 'LTC', amount: amount.value });
  await mine(db, network('litecoin'), 2);
  await watchOnce(db, sandboxChain(db, 'litecoin'));
  await runRenewals(db, { scope: scope() });
}

async function current(id: string) {
  const row = await getSubscription(db, scope(), id);
  return serializeSubscription(row, await subscriptionNow(db, merchant.merchantId, 'test'));
}

const mailKinds = async (id: string) =>
  (
    await db.query<{ kind: string }>(
      'select kind from mail_messages where subscription_id = $1 order by created_at, kind',
      [id],
    )
  ).map((row) => row.kind);

describe('a subscription over three periods on a moved clock', () => {
  it('renews, goes past due, is canceled after the grace, is reactivated by paying and draws on credit', async () => {
    const plan = await createPlan(
      db,
      scope(),
      createSubscriptionPlanRequest.parse({
        name: 'Coffee club',
        currency: 'LTC',
        amount: '0.1',
        interval: 'month',
        trialDays: 14,
        reminderDays: 3,
        graceDays: 7,
      }),
    );
    const sub = await withInvoiceQuotes((quotes) =>
      db.transaction((tx) =>
        createSubscription(
          tx,
          scope(),
          createSubscriptionRequest.parse({ planId: plan.id, email: 'Ana@Example.com', language: 'es' }),
          quotes,
        ),
      ),
    );
    expect(sub.status).toBe('trialing');
    expect(sub.email).toBe('ana@example.com');

    // Period 0: its invoice 3 days before the trial ends; paid; the period starts paid.
    await advance(10);
    expect((await current(sub.id)).openInvoiceId).toBeNull();
    await advance(1);
    const first = await current(sub.id);
    expect(first.openInvoiceId).not.toBeNull();
    await advance(1); // a second pass makes no second invoice for the period
    expect((await current(sub.id)).openInvoiceId).toBe(first.openInvoiceId);
    await pay(first.openInvoiceId!, '0.1');
    expect(await current(sub.id)).toMatchObject({ status: 'trialing', paidPeriods: 1, creditPeriods: 1 });
    await advance(2);
    expect(await current(sub.id)).toMatchObject({ status: 'active', period: 0, creditPeriods: 0 });

    // Period 1: invoiced, missed: past due at its start, canceled 7 days later.
    const startOf1 = new Date((await current(sub.id)).currentPeriodEnd!);
    const daysTo = async (date: Date) =>
      (date.getTime() - (await subscriptionNow(db, merchant.merchantId, 'test')).getTime()) / DAY;
    await advance((await daysTo(startOf1)) - 3);
    expect((await current(sub.id)).openInvoiceId).not.toBeNull();
    await advance(3);
    expect((await current(sub.id)).status).toBe('past_due');
    await advance(6.9);
    expect((await current(sub.id)).status).toBe('past_due');
    await advance(0.1);
    expect(await current(sub.id)).toMatchObject({ status: 'canceled', cancelReason: 'unpaid', creditPeriods: 0 });

    // Reactivated by paying one period: a new cycle from the payment.
    const reactivation = await withInvoiceQuotes((quotes) =>
      db.transaction((tx) => startSubscriberInvoice(tx, sub.id, 1, quotes)),
    );
    await pay(reactivation, '0.1');
    expect(await current(sub.id)).toMatchObject({ status: 'active', cycle: 1, period: 0, paidPeriods: 1 });

    // Two periods paid ahead: one invoice for twice the price; the next two renewals make no invoice.
    const ahead = await withInvoiceQuotes((quotes) =>
      db.transaction((tx) => startSubscriberInvoice(tx, sub.id, 2, quotes)),
    );
    const [aheadRow] = await db.query<{ amount: string }>('select amount::text from invoices where id = $1', [ahead]);
    expect(aheadRow!.amount).toBe('20000000');
    await pay(ahead, '0.2');
    expect(await current(sub.id)).toMatchObject({ paidPeriods: 3, creditPeriods: 2 });
    const invoicesBefore = await db.query('select 1 from subscription_invoices where subscription_id = $1', [sub.id]);
    for (let period = 1; period <= 2; period++) {
      // Through the reminder time of the period paid ahead, then its start.
      await advance((await daysTo(new Date((await current(sub.id)).currentPeriodEnd!))) - 3);
      expect((await current(sub.id)).openInvoiceId).toBeNull();
      await advance(3.01);
      expect(await current(sub.id)).toMatchObject({ status: 'active', period, openInvoiceId: null });
    }
    const invoicesAfter = await db.query('select 1 from subscription_invoices where subscription_id = $1', [sub.id]);
    expect(invoicesAfter.length).toBe(invoicesBefore.length);
    // The credit used up, the next period is invoiced as usual.
    await advance((await daysTo(new Date((await current(sub.id)).currentPeriodEnd!))) - 3);
    expect((await current(sub.id)).openInvoiceId).not.toBeNull();

    // Every event in order, each as the OpenAPI document describes it.
    const { events } = await listEvents(db, scope(), { limit: 100 }, 30);
    const ours = events.filter((e) => e.data && (e.data as { id?: string }).id === sub.id);
    for (const event of ours) expect(() => eventResponse.parse(event)).not.toThrow();
    expect(ours.map((e) => e.type)).toEqual([
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

    // Every mail: no mail for the periods drawn from credit, none for invoices the subscriber asked for on the page.
    expect(await mailKinds(sub.id)).toEqual([
      'subscription-started',
      'subscription-invoice',
      'subscription-invoice',
      'subscription-past-due',
      'subscription-canceled',
      'subscription-invoice',
    ]);
    await waitFor('every mail caught', 20_000, async () => {
      const rows = await db.query<{ state: string }>('select state from mail_messages where subscription_id = $1', [
        sub.id,
      ]);
      return rows.every((row) => row.state === 'sent');
    });
    const caught = await db.query<{ subject: string; text_body: string; transport: string }>(
      'select subject, text_body, transport from mail_messages where subscription_id = $1 order by created_at, kind',
      [sub.id],
    );
    expect(caught.every((m) => m.transport === 'catcher')).toBe(true);
    expect(caught[0]!.subject).toContain('Tu suscripción a');
    expect(caught[3]!.subject).toContain('Tu pago de');
    expect(caught[1]!.text_body).toContain('/invoice/');
  });

  it("mails in the subscriber's language; the page link works many times, a cancel confirmation once", async () => {
    const plan = await createPlan(
      db,
      scope(),
      createSubscriptionPlanRequest.parse({ name: 'Tee', currency: 'LTC', amount: '0.05', interval: 'week' }),
    );
    const sub = await withInvoiceQuotes((quotes) =>
      db.transaction((tx) =>
        createSubscription(
          tx,
          scope(),
          createSubscriptionRequest.parse({ planId: plan.id, email: 'jo@example.com', language: 'de' }),
          quotes,
        ),
      ),
    );
    // No trial: the first invoice at once, and the subscription active through its grace.
    expect(sub.status).toBe('active');
    expect(await mailKinds(sub.id)).toEqual(['subscription-invoice', 'subscription-started']);
    const [started] = await db.query<{ id: string }>(
      "select id from mail_messages where subscription_id = $1 and kind = 'subscription-started'",
      [sub.id],
    );
    await waitFor('the mail caught', 20_000, async () => {
      const [row] = await db.query<{ subject: string | null }>('select subject from mail_messages where id = $1', [
        started!.id,
      ]);
      return row?.subject?.includes('Ihr Abonnement für') ?? false;
    });

    const token = subscriberLinkToken(started!.id);
    expect((await subscriptionOfPageToken(db, token))?.id).toBe(sub.id);
    expect((await subscriptionOfPageToken(db, token))?.id).toBe(sub.id);
    expect(await subscriptionOfPageToken(db, token, new Date(Date.now() + 31 * DAY))).toBeUndefined();
    // Another last character (a token ending in A, one in sixteen, would be itself with an A).
    const other = `${token.slice(0, -1)}${token.endsWith('A') ? 'E' : 'A'}`;
    expect(await subscriptionOfPageToken(db, other)).toBeUndefined();
    expect(await subscriptionOfPageToken(db, 'x\u0000y')).toBeUndefined();

    const confirmation = await askToCancel(db, sub.id);
    expect(await db.transaction((tx) => confirmCancel(tx, sub.id, confirmation))).toBe(true);
    expect(await db.transaction((tx) => confirmCancel(tx, sub.id, confirmation))).toBe(false);
    expect(await current(sub.id)).toMatchObject({ status: 'canceled', cancelReason: 'subscriber' });
    expect((await mailKinds(sub.id)).filter((k) => k === 'subscription-canceled')).toHaveLength(1);
  });

  it('a pass reads only the subscriptions due: none until the next reminder, then that one, once', async () => {
    const other = await createTestMerchant(db, 'Idle Club');
    const own = { merchantId: other.merchantId, mode: 'test' as const };
    const plan = await createPlan(
      db,
      own,
      createSubscriptionPlanRequest.parse({
        name: 'Tea',
        currency: 'LTC',
        amount: '0.1',
        interval: 'month',
        trialDays: 14,
        reminderDays: 3,
      }),
    );
    const sub = await withInvoiceQuotes((quotes) =>
      db.transaction((tx) =>
        createSubscription(
          tx,
          own,
          createSubscriptionRequest.parse({ planId: plan.id, email: 'idle@example.com', language: 'en' }),
          quotes,
        ),
      ),
    );
    // Due when its first invoice is: 3 days before the trial ends.
    expect(sub.due_at).toEqual(new Date(sub.anchor.getTime() - 3 * DAY));
    expect(await runRenewals(db, { scope: own })).toEqual({ visited: 0, changed: 0 });
    await moveTestClock(db, own.merchantId, 'test', 10 * DAY);
    expect(await runRenewals(db, { scope: own })).toEqual({ visited: 0, changed: 0 });
    await moveTestClock(db, own.merchantId, 'test', 1 * DAY);
    expect(await runRenewals(db, { scope: own })).toEqual({ visited: 1, changed: 1 });
    expect((await getSubscription(db, own, sub.id)).due_at).toEqual(sub.anchor);
    expect(await runRenewals(db, { scope: own })).toEqual({ visited: 0, changed: 0 });
  });

  it('a plan renamed and retired: no new subscriber; its subscribers renew on their terms under the new name', async () => {
    const plan = await createPlan(
      db,
      scope(),
      createSubscriptionPlanRequest.parse({ name: 'Beans', currency: 'LTC', amount: '0.2', interval: 'week' }),
    );
    const subscribe = (email: string) =>
      withInvoiceQuotes((quotes) =>
        db.transaction((tx) =>
          createSubscription(tx, scope(), createSubscriptionRequest.parse({ planId: plan.id, email }), quotes),
        ),
      );
    const sub = await subscribe('beans@example.com');
    const retired = await updatePlan(db, scope(), { id: plan.id, name: 'Beans (old blend)', active: false });
    expect(serializePlan(retired)).toMatchObject({ name: 'Beans (old blend)', amount: '0.2', active: false });
    await expect(subscribe('late@example.com')).rejects.toMatchObject({
      name: 'SubscriptionInvalid',
      details: [{ path: 'planId', message: 'names a plan that takes no new subscribers' }],
    });
    // Another merchant's plan is not found, and changes nothing.
    const stranger = await createTestMerchant(db, 'Stranger Club');
    await expect(
      updatePlan(db, { merchantId: stranger.merchantId, mode: 'test' }, { id: plan.id, active: true }),
    ).rejects.toMatchObject({ name: 'NotFound' });

    // The subscriber's next renewal: made as before, at the plan's price, under its new name.
    await pay((await current(sub.id)).openInvoiceId!, '0.2');
    await advance(7);
    const renewal = (await current(sub.id)).openInvoiceId;
    expect(renewal).not.toBeNull();
    const [invoice] = await db.query<{ amount: string; description: string }>(
      'select amount, description from invoices where id = $1',
      [renewal],
    );
    expect(invoice).toEqual({ amount: '20000000', description: 'Beans (old blend)' });

    // Opened again, it takes subscribers.
    await updatePlan(db, scope(), { id: plan.id, active: true });
    expect((await subscribe('again@example.com')).status).toBe('active');
  });
});
