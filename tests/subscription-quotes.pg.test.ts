/**
 * A subscription's invoice is priced at rates quoted before its row lock is taken
 * (lib/subscriptions/quotes.ts): while the rate sources are asked, another connection can lock
 * the subscription at once (`for update nowait`). And the renewal pass skips a subscription
 * another transaction holds, unless told to wait (a test clock's move). PostgreSQL only: it takes
 * two connections.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '@/lib/db/client';
import { createSubscriptionPlanRequest, createSubscriptionRequest } from '@/lib/protocol';
import { rateService } from '@/lib/rates';
import {
  createPlan,
  createSubscription,
  getSubscription,
  moveTestClock,
  runRenewals,
  startSubscriberInvoice,
  withInvoiceQuotes,
} from '@/lib/subscriptions';
import { openTestDatabase } from './support/database';
import { waitFor } from './support/worker-process';
import { createTestMerchant, type TestMerchant } from './support/merchants';

const DAY = 86_400_000;
let db: Database;
let merchant: TestMerchant;
const scope = () => ({ merchantId: merchant.merchantId, mode: 'test' as const });

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db, 'Quote Club');
});
afterAll(async () => {
  vi.restoreAllMocks();
  await db?.close();
});

/** Whether the subscription's row is locked by another transaction right now (never waits). */
function isLocked(id: string): Promise<boolean> {
  return db
    .transaction((tx) => tx.query('select id from subscriptions where id = $1 for update nowait', [id]))
    .then(
      () => false,
      (error: { code?: string }) => {
        if (error.code === '55P03') return true; // lock_not_available
        throw error;
      },
    );
}

/** Watches the test mode's rate service: for each quote, whether the subscription was locked meanwhile. */
function watchQuotes(id: string): boolean[] {
  const rates = rateService('test');
  const quote = rates.quote.bind(rates);
  const lockedWhileQuoting: boolean[] = [];
  vi.spyOn(rates, 'quote').mockImplementation(async (from, to) => {
    lockedWhileQuoting.push(await isLocked(id));
    return quote(from, to);
  });
  return lockedWhileQuoting;
}

describe("a subscription's invoice rates", () => {
  it('are quoted with no lock held on the subscription: the renewal pass and the subscriber page', async () => {
    const plan = await createPlan(
      db,
      scope(),
      createSubscriptionPlanRequest.parse({
        name: 'Coffee club',
        currency: 'USD',
        amount: '9.99',
        interval: 'month',
        trialDays: 5,
        reminderDays: 1,
        currencies: [{ currency: 'LTC' }],
      }),
    );
    const sub = await withInvoiceQuotes((quotes) =>
      db.transaction((tx) =>
        createSubscription(
          tx,
          scope(),
          createSubscriptionRequest.parse({ planId: plan.id, email: 'quote@example.com', language: 'en' }),
          quotes,
        ),
      ),
    );
    expect(sub.status).toBe('trialing');
    const lockedWhileQuoting = watchQuotes(sub.id);

    // The first period's invoice, made by the pass a day before the trial ends.
    await moveTestClock(db, merchant.merchantId, 'test', 4 * DAY);
    expect(await runRenewals(db, { scope: scope() })).toMatchObject({ changed: 1 });
    const renewed = await getSubscription(db, scope(), sub.id);
    expect(renewed.open_invoice_id).not.toBeNull();
    const [invoice] = await db.query<{ amount: string; quote_rates: Record<string, string> }>(
      'select amount, quote_rates from invoices where id = $1',
      [renewed.open_invoice_id],
    );
    expect(invoice).toMatchObject({ amount: '999', quote_rates: { LTC: expect.any(String) } });
    expect(lockedWhileQuoting).toEqual([false]);

    // Three periods ahead from the subscriber's page.
    const ahead = await withInvoiceQuotes((quotes) =>
      db.transaction((tx) => startSubscriberInvoice(tx, sub.id, 3, quotes)),
    );
    const [prepay] = await db.query<{ amount: string }>('select amount from invoices where id = $1', [ahead]);
    expect(prepay!.amount).toBe('2997');
    expect(lockedWhileQuoting).toEqual([false, false]);
  });
});

describe('the renewal pass and a held subscription', () => {
  it("skips it in the worker's pass; a test clock's move waits for it, so its page shows what the move made due", async () => {
    const own = { merchantId: (await createTestMerchant(db, 'Lock Club')).merchantId, mode: 'test' as const };
    const plan = await createPlan(
      db,
      own,
      createSubscriptionPlanRequest.parse({
        name: 'Tea club',
        currency: 'USD',
        amount: '5',
        interval: 'month',
        trialDays: 5,
        currencies: [{ currency: 'LTC' }],
      }),
    );
    const sub = await withInvoiceQuotes((quotes) =>
      db.transaction((tx) =>
        createSubscription(
          tx,
          own,
          createSubscriptionRequest.parse({ planId: plan.id, email: 'tea@example.com', language: 'en' }),
          quotes,
        ),
      ),
    );
    await moveTestClock(db, own.merchantId, 'test', 4 * DAY);
    // Another pass (the worker's) holds the subscription until released.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const holder = db.transaction(async (tx) => {
      await tx.query('select id from subscriptions where id = $1 for update', [sub.id]);
      held();
      await released;
    });
    await holding;
    let move: ReturnType<typeof runRenewals> | undefined;
    try {
      expect(await runRenewals(db, { scope: own })).toEqual({ visited: 1, changed: 0 });
      move = runRenewals(db, { scope: own, wait: true });
      await waitFor('the move to wait for the held subscription', 30_000, async () => {
        const waiting = await db.query(
          "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        );
        return waiting.length > 0;
      });
    } finally {
      release();
      await holder;
    }
    expect(await move).toEqual({ visited: 1, changed: 1 });
    expect((await getSubscription(db, own, sub.id)).open_invoice_id).not.toBeNull();
  });
});
