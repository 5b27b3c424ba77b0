import 'server-only';
/**
 * A subscription's changes, each in one transaction with its events, webhooks and mails
 * (lib/events, lib/webhooks, lib/mail): made, renewed by the worker's pass, paid, canceled,
 * reactivated. The rules are ./rules' pure functions; this file applies them under the
 * subscription's row lock, and the unique key of a period's renewal invoice (subscription, cycle,
 * period) makes a second invoice for one period fail rather than happen (docs/decisions/067).
 * An invoice's rates are quoted before the lock is taken (./quotes): no network call under it.
 */
import { randomUUID } from 'node:crypto';
import {
  bare,
  insertValues,
  invoices,
  param,
  placeholders,
  sql,
  statement,
  subscriptionInvoices,
  subscriptions,
  subscriptionTestClocks,
  subscriptionTokens,
  type Database,
  type Queryable,
} from '../db';
import type { NewEvent } from '../events';
import { log } from '../log';
import { INVOICE_LIFETIME_MINUTES, type CreateSubscriptionRequest, type EventType, type Mode } from '../protocol';
import { makeLinkInvoice } from '../invoices';
import { enqueueSubscriberMail, SUBSCRIBER_LINK_DAYS, subscriberLinkToken, type SubscriberMailKind } from '../mail';
import { tokenHash } from '../security';
import { publishEvents } from '../webhooks';
import { subscriptionNow } from './clock';
import { InvoiceQuotes, withInvoiceQuotes } from './quotes';
import { nextDueAt, periodStart, priceOfPeriods, renewalDue } from './rules';
import { serializeSubscription } from './serialize';
import {
  factsOf,
  insertSubscription,
  SUBSCRIPTION_BY_ID,
  type SubscriptionScope,
  type SubscriptionWithPlan,
} from './store';
import type { SubscriptionCancelReason, SubscriptionInvoiceKind, SubscriptionStatus } from '../protocol';

const DAY_MS = 86_400_000;

const LOCK_OR_SKIP = statement<{ id: string }, { id: string }>(
  sql`select ${subscriptions.id} from ${subscriptions} where ${subscriptions.id} = ${param('id')} for update skip locked`,
);
const LOCK = statement<{ id: string }, { id: string }>(
  sql`select ${subscriptions.id} from ${subscriptions} where ${subscriptions.id} = ${param('id')} for update`,
);
const si = subscriptionInvoices;
/** The subscription's paid invoices whose periods it has not counted yet, oldest first. */
const PAID_UNCREDITED = statement<{ invoice_id: string; periods: number }, { id: string }>(
  sql`select ${si.invoiceId}, ${si.periods} from ${si} join ${invoices} on ${invoices.id} = ${si.invoiceId}
   where ${si.subscriptionId} = ${param('id')} and ${si.creditedAt} is null and ${invoices.status} in ('PROCESSED', 'OVERPAID')
   order by ${si.createdAt}, ${si.invoiceId} for update of ${sql.raw('"subscription_invoices"')}`,
);
const MARK_CREDITED = statement<unknown, { ids: string[] }>(
  sql`update ${si} set ${bare(si.creditedAt)} = now() where ${si.invoiceId} = any(${param('ids')}::uuid[])`,
);
const $inv = placeholders(['invoice_id', 'subscription_id', 'kind', 'cycle', 'period', 'period_start', 'periods']);
const INVOICE_COLUMNS = insertValues([
  [si.invoiceId, $inv.invoice_id],
  [si.subscriptionId, $inv.subscription_id],
  [si.kind, $inv.kind],
  [si.cycle, sql`${$inv.cycle}::int`],
  [si.period, sql`${$inv.period}::int`],
  [si.periodStart, sql`${$inv.period_start}::timestamptz`],
  [si.periods, sql`${$inv.periods}::int`],
]);
// No `on conflict`: under the row lock a second renewal of one period is a bug, and failing rolls it back.
const INSERT_SUBSCRIPTION_INVOICE = statement<unknown, Record<keyof typeof $inv, unknown>>(
  sql`insert into ${si} (${INVOICE_COLUMNS.columns}) values (${INVOICE_COLUMNS.values})`,
);
const UPDATE_STATE = statement<
  unknown,
  {
    id: string;
    status: SubscriptionStatus;
    cycle: number;
    anchor: Date;
    covered: number;
    renewed: number;
    invoiced: number;
    canceledAt: Date | null;
    cancelReason: SubscriptionCancelReason | null;
    dueAt: Date | null;
  }
>(
  sql`update ${subscriptions} set ${bare(subscriptions.status)} = ${param('status')}, ${bare(subscriptions.cycle)} = ${param('cycle')}::int,
     ${bare(subscriptions.anchor)} = ${param('anchor')}::timestamptz, ${bare(subscriptions.covered)} = ${param('covered')}::int,
     ${bare(subscriptions.renewed)} = ${param('renewed')}::int, ${bare(subscriptions.invoiced)} = ${param('invoiced')}::int,
     ${bare(subscriptions.canceledAt)} = ${param('canceledAt')}::timestamptz, ${bare(subscriptions.cancelReason)} = ${param('cancelReason')},
     ${bare(subscriptions.dueAt)} = ${param('dueAt')}::timestamptz, ${bare(subscriptions.updatedAt)} = now()
   where ${subscriptions.id} = ${param('id')}`,
);
const INSERT_TOKEN = statement<
  unknown,
  { hash: string; subscriptionId: string; purpose: 'page' | 'cancel'; expiresAt: Date }
>(
  sql`insert into ${subscriptionTokens} (${bare(subscriptionTokens.tokenHash)}, ${bare(subscriptionTokens.subscriptionId)}, ${bare(subscriptionTokens.purpose)}, ${bare(subscriptionTokens.expiresAt)})
   values (${param('hash')}, ${param('subscriptionId')}, ${param('purpose')}, ${param('expiresAt')}::timestamptz)`,
);
const clocks = subscriptionTestClocks;
/**
 * The subscriptions a pass at `real` has work for: those whose `due_at` (on their clock: real time
 * plus, in test mode, the merchant's test-clock offset) has come, and those with a paid invoice
 * not counted yet (a payment is the one change `due_at` cannot foresee). The first bound is the
 * index's (no offset is negative, so the largest bounds them all); the second is each row's own.
 */
const DUE_SUBSCRIPTIONS = statement<{ id: string }, { merchantId: string | null; mode: Mode | null; real: Date }>(
  sql`select ${subscriptions.id} from ${subscriptions}
   where (${param('merchantId')}::uuid is null or (${subscriptions.merchantId} = ${param('merchantId')}::uuid and ${subscriptions.mode} = ${param('mode')}))
     and ${subscriptions.dueAt} <= ${param('real')}::timestamptz
           + (select coalesce(max(${clocks.offsetMs}), 0) from ${clocks})::double precision * interval '1 millisecond'
     and ${subscriptions.dueAt} <= ${param('real')}::timestamptz
           + coalesce((select ${clocks.offsetMs} from ${clocks} where ${clocks.merchantId} = ${subscriptions.merchantId}
                        and ${subscriptions.mode} = 'test'), 0)::double precision * interval '1 millisecond'
   union
   select ${si.subscriptionId} from ${si} join ${invoices} on ${invoices.id} = ${si.invoiceId}
    join ${subscriptions} on ${subscriptions.id} = ${si.subscriptionId}
   where ${si.creditedAt} is null and ${invoices.status} in ('PROCESSED', 'OVERPAID')
     and (${param('merchantId')}::uuid is null or (${subscriptions.merchantId} = ${param('merchantId')}::uuid and ${subscriptions.mode} = ${param('mode')}))
   order by 1`,
);

/** Equal values of a row's field (dates by their instant). */
function same(a: unknown, b: unknown): boolean {
  return a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
}

type State = Pick<
  SubscriptionWithPlan,
  'status' | 'cycle' | 'anchor' | 'covered' | 'renewed' | 'invoiced' | 'canceled_at' | 'cancel_reason'
>;

/** What a change writes besides the row: events (in order) and mails. */
interface Pending {
  events: { type: EventType; dedupeKey: string }[];
  mails: { kind: SubscriberMailKind; eventKey: string }[];
}

/** Makes one of the subscription's invoices (inside `tx`, at a rate quoted before) and records it. */
async function makeSubscriptionInvoice(
  tx: Queryable,
  row: SubscriptionWithPlan,
  quotes: InvoiceQuotes,
  what: {
    kind: SubscriptionInvoiceKind;
    cycle: number;
    periods: number;
    period: number | null;
    periodStart: Date | null;
  },
): Promise<string> {
  const currencies = row.currencies?.map((c) => ({ currency: c.currency, networks: c.networks }));
  const invoice = await makeLinkInvoice(tx, {
    linkId: null,
    soldBy: null,
    merchantId: row.merchant_id,
    mode: row.mode,
    currency: row.currency,
    amount: priceOfPeriods(BigInt(row.amount), what.periods),
    description: what.periods > 1 ? `${row.plan_name} × ${what.periods}` : row.plan_name,
    items: [{ name: row.plan_name, quantity: what.periods, price: BigInt(row.amount) }],
    webhookUrl: null,
    returnUrl: null,
    currencies,
    // The longest an invoice lives (real time); a later one is made from the subscriber's page.
    lifetime: INVOICE_LIFETIME_MINUTES.max,
    quote: quotes.for({ mode: row.mode, currency: row.currency, currencies }),
  });
  await INSERT_SUBSCRIPTION_INVOICE.run(tx, {
    invoice_id: invoice.id,
    subscription_id: row.id,
    kind: what.kind,
    cycle: what.cycle,
    period: what.period,
    period_start: what.periodStart,
    periods: what.periods,
  });
  return invoice.id;
}

/**
 * Brings one subscription up to `real` (plus its test clock) under its row lock: counts paid
 * invoices (a canceled subscription paid again is reactivated in a new cycle), then applies the
 * rules (periods started, the renewal invoice due, the status), then `intent` (a cancellation,
 * which makes no renewal invoice: the subscription is ending). Writes the row, its events and
 * mails in `tx`; answers whether anything changed (false when another worker holds the row, with
 * `skipLocked`). An invoice to make without its quote in `quotes` throws QuoteNeeded (./quotes).
 */
async function advance(
  tx: Queryable,
  id: string,
  real: Date,
  options: { skipLocked: boolean; quotes: InvoiceQuotes; cancel?: SubscriptionCancelReason },
): Promise<boolean> {
  const [locked] = await (options.skipLocked ? LOCK_OR_SKIP : LOCK).run(tx, { id });
  if (!locked) return false;
  const [row] = await SUBSCRIPTION_BY_ID.run(tx, { id });
  const now = await subscriptionNow(tx, row!.merchant_id, row!.mode, real);
  const state: State = {
    status: row!.status,
    cycle: row!.cycle,
    anchor: row!.anchor,
    covered: row!.covered,
    renewed: row!.renewed,
    invoiced: row!.invoiced,
    canceled_at: row!.canceled_at,
    cancel_reason: row!.cancel_reason,
  };
  const pending: Pending = { events: [], mails: [] };
  const event = (type: EventType, key: string) => pending.events.push({ type, dedupeKey: `${type}:${key}` });

  const paid = await PAID_UNCREDITED.run(tx, { id });
  for (const invoice of paid) {
    if (state.status === 'canceled') {
      Object.assign(state, {
        status: 'active',
        cycle: state.cycle + 1,
        anchor: now,
        covered: invoice.periods,
        renewed: 0,
        invoiced: 0,
        canceled_at: null,
        cancel_reason: null,
      } satisfies Partial<State>);
      event('subscription.reactivated', `${id}:${state.cycle}`);
    } else {
      state.covered += invoice.periods;
      event('subscription.paid', invoice.invoice_id);
    }
  }
  if (paid.length > 0) await MARK_CREDITED.run(tx, { ids: paid.map((p) => p.invoice_id) });

  const facts = factsOf({ ...row!, ...state });
  const due = renewalDue(facts, now);
  for (const k of due.renewedPeriods) event('subscription.renewed', `${id}:${state.cycle}:${k}`);
  if (due.renewedPeriods.length > 0) state.renewed = due.renewedPeriods.at(-1)! + 1;
  if (due.invoicePeriod !== null && !options.cancel) {
    const invoiceId = await makeSubscriptionInvoice(tx, row!, options.quotes, {
      kind: 'renewal',
      cycle: state.cycle,
      periods: 1,
      period: due.invoicePeriod,
      periodStart: periodStart(facts.anchor, facts.period, due.invoicePeriod),
    });
    state.invoiced = due.invoicePeriod + 1;
    event('subscription.invoice_created', invoiceId);
    pending.mails.push({ kind: 'subscription-invoice', eventKey: `subscription/${invoiceId}/invoice` });
  }
  const unpaidKey = `${id}:${state.cycle}:${state.covered}`;
  if (due.status !== state.status) {
    if (due.status === 'past_due') {
      event('subscription.past_due', unpaidKey);
      pending.mails.push({ kind: 'subscription-past-due', eventKey: `subscription/${unpaidKey}/past-due` });
    }
    if (due.status === 'canceled') Object.assign(state, { canceled_at: now, cancel_reason: 'unpaid' });
    state.status = due.status;
  }
  if (options.cancel && state.status !== 'canceled')
    Object.assign(state, {
      status: 'canceled',
      canceled_at: now,
      cancel_reason: options.cancel,
    } satisfies Partial<State>);
  if (state.status === 'canceled' && row!.status !== 'canceled') {
    event('subscription.canceled', `${id}:${state.cycle}`);
    pending.mails.push({ kind: 'subscription-canceled', eventKey: `subscription/${id}:${state.cycle}/canceled` });
  }

  const dueAt = nextDueAt(factsOf({ ...row!, ...state }), now);
  const changed =
    (Object.keys(state) as (keyof State)[]).some((key) => !same(state[key], row![key])) || !same(dueAt, row!.due_at);
  if (!changed && pending.events.length === 0) return false;
  await UPDATE_STATE.run(tx, {
    id,
    status: state.status,
    cycle: state.cycle,
    anchor: state.anchor,
    covered: state.covered,
    renewed: state.renewed,
    invoiced: state.invoiced,
    canceledAt: state.canceled_at,
    cancelReason: state.cancel_reason,
    dueAt,
  });
  await announce(tx, id, now, real, pending);
  return true;
}

/** Records the events (the subscription as it is now, after the change) and writes the mails with their page links. */
async function announce(tx: Queryable, id: string, now: Date, real: Date, pending: Pending): Promise<void> {
  const [after] = await SUBSCRIPTION_BY_ID.run(tx, { id });
  const data = JSON.stringify(serializeSubscription(after!, now));
  const events: NewEvent[] = pending.events.map(({ type, dedupeKey }) => ({
    id: randomUUID(),
    merchantId: after!.merchant_id,
    mode: after!.mode,
    type,
    objectId: id,
    dedupeKey,
    data,
    createdAt: real,
  }));
  await publishEvents(tx, events);
  for (const mail of pending.mails) {
    const mailId = randomUUID();
    if (await enqueueSubscriberMail(tx, { id: mailId, kind: mail.kind, eventKey: mail.eventKey, subscriptionId: id }))
      await INSERT_TOKEN.run(tx, {
        hash: tokenHash(subscriberLinkToken(mailId)),
        subscriptionId: id,
        purpose: 'page',
        // The link's days are real days: a test clock moves periods, not how long a mail's link works.
        expiresAt: new Date(real.getTime() + SUBSCRIBER_LINK_DAYS * DAY_MS),
      });
  }
}

/**
 * Makes a subscription inside `tx` (with the API request's nonce, or the dashboard's audit):
 * its `subscription.created` event and welcome mail, then what is due at once (the first invoice
 * when there is no trial, or a trial shorter than the invoice's notice), its rates from `quotes`
 * (run it inside `withInvoiceQuotes`).
 */
export async function createSubscription(
  tx: Queryable,
  scope: SubscriptionScope,
  input: CreateSubscriptionRequest,
  quotes: InvoiceQuotes,
  real = new Date(),
): Promise<SubscriptionWithPlan> {
  const now = await subscriptionNow(tx, scope.merchantId, scope.mode, real);
  const { id } = await insertSubscription(tx, scope, input, now);
  await announce(tx, id, now, real, {
    events: [{ type: 'subscription.created', dedupeKey: `subscription.created:${id}` }],
    mails: [{ kind: 'subscription-started', eventKey: `subscription/${id}/started` }],
  });
  await advance(tx, id, real, { skipLocked: false, quotes });
  const [row] = await SUBSCRIPTION_BY_ID.run(tx, { id });
  return row!;
}

/**
 * Brings one subscription up to date in its own transaction (the worker's pass; skipped while
 * another holds it, unless `wait`: then after it); a renewal invoice's rates are quoted before the
 * transaction (./quotes).
 */
export function renewSubscription(db: Database, id: string, real = new Date(), wait = false): Promise<boolean> {
  return withInvoiceQuotes((quotes) => db.transaction((tx) => advance(tx, id, real, { skipLocked: !wait, quotes })));
}

/** The quotes of a change that makes no invoice: asked for one, it throws QuoteNeeded, which is a bug there. */
const NO_QUOTES = new InvoiceQuotes();

/**
 * Cancels a subscription inside `tx` (idempotent: a canceled one stays as it is), counting its
 * paid invoices first. It makes no invoice, so it needs no quote.
 */
export async function cancelSubscription(
  tx: Queryable,
  id: string,
  reason: Exclude<SubscriptionCancelReason, 'unpaid'>,
  real = new Date(),
): Promise<void> {
  await advance(tx, id, real, { skipLocked: false, cancel: reason, quotes: NO_QUOTES });
}

/**
 * The renewal pass (the worker's, and a test clock's move): every subscription that has something
 * due (its `due_at` has come, or a paid invoice waits to be counted), of one merchant and mode or
 * of all, each in its own transaction. Answers how many it took up (a row lock each) and how many
 * changed. A failing subscription is logged (or given to `onError`) and the others go on: one
 * subscription's trouble (a rate unavailable for its invoice) holds no other back, and the next
 * pass tries it again.
 */
export async function runRenewals(
  db: Database,
  options: {
    real?: Date;
    scope?: SubscriptionScope;
    /**
     * Wait for a subscription another pass holds instead of skipping it (a test clock's move, whose
     * page must show what the move made due: the worker's pass may hold a row at that moment).
     */
    wait?: boolean;
    onError?: (id: string, error: unknown) => void;
  } = {},
): Promise<{ visited: number; changed: number }> {
  const ids = await DUE_SUBSCRIPTIONS.run(db, {
    merchantId: options.scope?.merchantId ?? null,
    mode: options.scope?.mode ?? null,
    real: options.real ?? new Date(),
  });
  let changed = 0;
  for (const { id } of ids) {
    try {
      if (await renewSubscription(db, id, options.real, options.wait)) changed++;
    } catch (error) {
      if (options.onError) options.onError(id, error);
      else log.warn('subscription renewal failed', { id, error: (error as Error)?.message });
    }
  }
  return { visited: ids.length, changed };
}

/**
 * An invoice the subscriber asks for on their page, inside `tx`: `periods` periods ahead (prepaid
 * credit), or, for a canceled subscription, one period that reactivates it. Paid, it is counted by
 * the next pass. Answers the invoice's id. Its rates come from `quotes`: run it inside
 * `withInvoiceQuotes`, which quotes before the row lock.
 */
export async function startSubscriberInvoice(
  tx: Queryable,
  id: string,
  periods: number,
  quotes: InvoiceQuotes,
  real = new Date(),
): Promise<string> {
  await advance(tx, id, real, { skipLocked: false, quotes });
  const [row] = await SUBSCRIPTION_BY_ID.run(tx, { id });
  const canceled = row!.status === 'canceled';
  const invoiceId = await makeSubscriptionInvoice(tx, row!, quotes, {
    kind: canceled ? 'reactivation' : 'prepay',
    cycle: row!.cycle,
    periods: canceled ? 1 : periods,
    period: null,
    periodStart: null,
  });
  const now = await subscriptionNow(tx, row!.merchant_id, row!.mode, real);
  await announce(tx, id, now, real, {
    events: [{ type: 'subscription.invoice_created', dedupeKey: `subscription.invoice_created:${invoiceId}` }],
    mails: [],
  });
  return invoiceId;
}
