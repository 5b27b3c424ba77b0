import 'server-only';
/**
 * Plans and subscriptions in the database: made by the API or the dashboard, read with their plan
 * and open invoice, listed newest first, canceled. Every read of a merchant's has its merchant and
 * mode in its `where`.
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
  subscriptionPlans,
  subscriptions,
  type Queryable,
  type RowOf,
} from '../db';
import { NotFound } from '../errors';
import { priceDecimalsOf, resolveOffers } from '../invoices';
import { maxWholeDigits, parseUnits } from '../money';
import { isLanguage } from '../pay/i18n';
import {
  isUuid,
  type CreateSubscriptionPlanRequest,
  type CreateSubscriptionRequest,
  type ErrorDetail,
  type Mode,
} from '../protocol';
import { priceableCurrencies, UnknownPriceCurrency } from '../rates';
import { SubscriptionInvalid } from './errors';
import type { SubscriptionFacts } from './rules';

export type SubscriptionPlanRow = RowOf<typeof subscriptionPlans>;
export type SubscriptionScope = { merchantId: string; mode: Mode };
/** A subscription with what its answers need of its plan, and its open invoice. */
export type SubscriptionWithPlan = RowOf<typeof subscriptions> &
  Pick<
    SubscriptionPlanRow,
    | 'currency'
    | 'amount'
    | 'price_decimals'
    | 'interval'
    | 'interval_count'
    | 'trial_days'
    | 'reminder_days'
    | 'grace_days'
    | 'currencies'
  > & { plan_name: string; open_invoice_id: string | null };

const $plan = placeholders([
  'id',
  'merchant_id',
  'mode',
  'name',
  'currency',
  'price_decimals',
  'amount',
  'interval',
  'interval_count',
  'trial_days',
  'reminder_days',
  'grace_days',
  'currencies',
]);
const PLAN_COLUMNS = insertValues([
  [subscriptionPlans.id, $plan.id],
  [subscriptionPlans.merchantId, $plan.merchant_id],
  [subscriptionPlans.mode, $plan.mode],
  [subscriptionPlans.name, $plan.name],
  [subscriptionPlans.currency, $plan.currency],
  [subscriptionPlans.priceDecimals, sql`${$plan.price_decimals}::int`],
  [subscriptionPlans.amount, sql`${$plan.amount}::numeric`],
  [subscriptionPlans.interval, $plan.interval],
  [subscriptionPlans.intervalCount, sql`${$plan.interval_count}::int`],
  [subscriptionPlans.trialDays, sql`${$plan.trial_days}::int`],
  [subscriptionPlans.reminderDays, sql`${$plan.reminder_days}::int`],
  [subscriptionPlans.graceDays, sql`${$plan.grace_days}::int`],
  [subscriptionPlans.currencies, sql`${$plan.currencies}::jsonb`],
]);
const INSERT_PLAN = statement<SubscriptionPlanRow, Record<keyof typeof $plan, unknown>>(
  sql`insert into ${subscriptionPlans} (${PLAN_COLUMNS.columns}) values (${PLAN_COLUMNS.values}) returning *`,
);
const PLAN_SCOPED = sql`${subscriptionPlans.merchantId} = ${param('merchantId')} and ${subscriptionPlans.mode} = ${param('mode')}`;
const PLAN_OF_SCOPE = statement<SubscriptionPlanRow, SubscriptionScope & { id: string }>(
  sql`select * from ${subscriptionPlans} where ${subscriptionPlans.id} = ${param('id')} and ${PLAN_SCOPED}`,
);
const LIST_PLANS = statement<SubscriptionPlanRow, SubscriptionScope & { limit: number; offset: number }>(
  sql`select * from ${subscriptionPlans} where ${PLAN_SCOPED}
   order by ${subscriptionPlans.createdAt} desc, ${subscriptionPlans.id} desc limit ${param('limit')} offset ${param('offset')}`,
);
const COUNT_PLANS = statement<{ n: number }, SubscriptionScope>(
  sql`select count(*)::int as n from ${subscriptionPlans} where ${PLAN_SCOPED}`,
);

/**
 * Makes a plan. Refused, writing nothing: a price currency without rates, a price more precise
 * than its currency (or too large), coins the mode cannot take.
 */
export async function createPlan(
  db: Queryable,
  scope: SubscriptionScope,
  input: CreateSubscriptionPlanRequest,
): Promise<SubscriptionPlanRow> {
  const currency = input.currency.toUpperCase();
  if (!priceableCurrencies().includes(currency)) throw new UnknownPriceCurrency(currency);
  resolveOffers(scope.mode, input.currencies); // a coin the mode cannot take: InvoiceCurrencyUnsupported, named
  const decimals = priceDecimalsOf(currency);
  const units = parseUnits(input.amount, decimals);
  if (!units.ok)
    throw new SubscriptionInvalid([
      {
        path: 'amount',
        message:
          units.error === 'range'
            ? `is too large for ${currency}: at most ${maxWholeDigits(decimals)} digits before the decimal point`
            : `must have at most ${decimals} decimal places for ${currency}`,
      },
    ]);
  const [row] = await INSERT_PLAN.run(db, {
    id: randomUUID(),
    merchant_id: scope.merchantId,
    mode: scope.mode,
    name: input.name,
    currency,
    price_decimals: decimals,
    amount: units.value.toString(),
    interval: input.interval,
    interval_count: input.intervalCount,
    trial_days: input.trialDays,
    reminder_days: input.reminderDays,
    grace_days: input.graceDays,
    currencies: input.currencies ? JSON.stringify(input.currencies) : null,
  });
  return row!;
}

const UPDATE_PLAN = statement<
  SubscriptionPlanRow,
  SubscriptionScope & { id: string; name: string | null; active: boolean | null }
>(
  sql`update ${subscriptionPlans} set ${bare(subscriptionPlans.name)} = coalesce(${param('name')}, ${subscriptionPlans.name}),
     ${bare(subscriptionPlans.active)} = coalesce(${param('active')}::boolean, ${subscriptionPlans.active})
   where ${subscriptionPlans.id} = ${param('id')} and ${PLAN_SCOPED} returning *`,
);

/**
 * Renames one of the caller's plans, retires it (`active` false: it takes no new subscriber) or
 * opens it again; answers the plan as it is now, or NotFound. Its terms are not touched: its
 * subscribers renew as before (docs/decisions/079).
 */
export async function updatePlan(
  db: Queryable,
  scope: SubscriptionScope,
  change: { id: string; name?: string; active?: boolean },
): Promise<SubscriptionPlanRow> {
  const [plan] = isUuid(change.id)
    ? await UPDATE_PLAN.run(db, { ...scope, id: change.id, name: change.name ?? null, active: change.active ?? null })
    : [];
  if (!plan) throw new NotFound('Subscription plan', change.id);
  return plan;
}

/** The caller's plans, newest first. */
export async function listPlans(
  db: Queryable,
  scope: SubscriptionScope,
  page: { limit: number; offset: number },
): Promise<{ plans: SubscriptionPlanRow[]; total: number }> {
  const plans = await LIST_PLANS.run(db, { ...scope, ...page });
  const [count] = await COUNT_PLANS.run(db, scope);
  return { plans, total: count!.n };
}

/**
 * A subscription's open invoice: the newest renewal or reactivation of its current cycle not yet
 * paid that can still be paid (periods paid ahead are the subscriber's own choice, not asked for).
 */
const OPEN_INVOICE = sql`(select ${subscriptionInvoices.invoiceId} from ${subscriptionInvoices}
    join ${invoices} on ${invoices.id} = ${subscriptionInvoices.invoiceId}
   where ${subscriptionInvoices.subscriptionId} = ${subscriptions.id} and ${subscriptionInvoices.creditedAt} is null
     and ${subscriptionInvoices.cycle} = ${subscriptions.cycle} and ${subscriptionInvoices.kind} <> 'prepay'
     and ${invoices.status} in ('CREATED', 'INIT')
   order by ${subscriptionInvoices.createdAt} desc limit 1) as open_invoice_id`;
const WITH_PLAN = sql`select ${subscriptions}.*, ${subscriptionPlans.name} as plan_name, ${subscriptionPlans.currency}, ${subscriptionPlans.amount},
    ${subscriptionPlans.priceDecimals}, ${subscriptionPlans.interval}, ${subscriptionPlans.intervalCount}, ${subscriptionPlans.trialDays},
    ${subscriptionPlans.reminderDays}, ${subscriptionPlans.graceDays}, ${subscriptionPlans.currencies}, ${OPEN_INVOICE}
  from ${subscriptions} join ${subscriptionPlans} on ${subscriptionPlans.id} = ${subscriptions.planId}`;
const SUB_SCOPED = sql`${subscriptions.merchantId} = ${param('merchantId')} and ${subscriptions.mode} = ${param('mode')}`;
const SUBSCRIPTION_OF_SCOPE = statement<SubscriptionWithPlan, SubscriptionScope & { id: string }>(
  sql`${WITH_PLAN} where ${subscriptions.id} = ${param('id')} and ${SUB_SCOPED}`,
);
/** A subscription by id alone: the worker's and the subscriber page's (its token named it). */
export const SUBSCRIPTION_BY_ID = statement<SubscriptionWithPlan, { id: string }>(
  sql`${WITH_PLAN} where ${subscriptions.id} = ${param('id')}`,
);
const LIST_SUBSCRIPTIONS = statement<
  SubscriptionWithPlan,
  SubscriptionScope & { planId: string | null; limit: number; offset: number }
>(
  sql`${WITH_PLAN} where ${SUB_SCOPED} and (${param('planId')}::uuid is null or ${subscriptions.planId} = ${param('planId')}::uuid)
   order by ${subscriptions.createdAt} desc, ${subscriptions.id} desc limit ${param('limit')} offset ${param('offset')}`,
);
const COUNT_SUBSCRIPTIONS = statement<{ n: number }, SubscriptionScope & { planId: string | null }>(
  sql`select count(*)::int as n from ${subscriptions} where ${SUB_SCOPED}
   and (${param('planId')}::uuid is null or ${subscriptions.planId} = ${param('planId')}::uuid)`,
);

const $sub = placeholders([
  'id',
  'merchant_id',
  'mode',
  'plan_id',
  'email',
  'customer_id',
  'language',
  'status',
  'anchor',
  'started_at',
]);
const SUB_COLUMNS = insertValues([
  [subscriptions.id, $sub.id],
  [subscriptions.merchantId, $sub.merchant_id],
  [subscriptions.mode, $sub.mode],
  [subscriptions.planId, $sub.plan_id],
  [subscriptions.email, $sub.email],
  [subscriptions.customerId, $sub.customer_id],
  [subscriptions.language, $sub.language],
  [subscriptions.status, $sub.status],
  [subscriptions.anchor, sql`${$sub.anchor}::timestamptz`],
  [subscriptions.startedAt, sql`${$sub.started_at}::timestamptz`],
]);
const INSERT_SUBSCRIPTION = statement<{ id: string }, Record<keyof typeof $sub, unknown>>(
  sql`insert into ${subscriptions} (${SUB_COLUMNS.columns}) values (${SUB_COLUMNS.values}) returning ${bare(subscriptions.id)}`,
);

/** One of the caller's plans, or NotFound (another merchant's or mode's too). */
export async function getPlan(db: Queryable, scope: SubscriptionScope, id: string): Promise<SubscriptionPlanRow> {
  const [plan] = isUuid(id) ? await PLAN_OF_SCOPE.run(db, { ...scope, id }) : [];
  if (!plan) throw new NotFound('Subscription plan', id);
  return plan;
}

/**
 * Writes a subscription of one of the caller's active plans, starting at `now` (the subscriptions'
 * clock): trialing until the trial's end, active otherwise. Its event, mail and first invoice are
 * the caller's (./lifecycle).
 */
export async function insertSubscription(
  db: Queryable,
  scope: SubscriptionScope,
  input: CreateSubscriptionRequest,
  now: Date,
): Promise<{ id: string; plan: SubscriptionPlanRow }> {
  const plan = await getPlan(db, scope, input.planId);
  const details: ErrorDetail[] = [];
  if (!plan.active) details.push({ path: 'planId', message: 'names a plan that takes no new subscribers' });
  if (!isLanguage(input.language))
    details.push({ path: 'language', message: 'must be one of the payment page languages (docs/languages.md)' });
  if (details.length > 0) throw new SubscriptionInvalid(details);
  const anchor = new Date(now.getTime() + plan.trial_days * 86_400_000);
  const [row] = await INSERT_SUBSCRIPTION.run(db, {
    id: randomUUID(),
    merchant_id: scope.merchantId,
    mode: scope.mode,
    plan_id: plan.id,
    email: input.email.toLowerCase(),
    customer_id: input.customerId ?? null,
    language: input.language,
    status: plan.trial_days > 0 ? 'trialing' : 'active',
    anchor,
    started_at: now,
  });
  return { id: row!.id, plan };
}

/** One of the caller's subscriptions; another merchant's or mode's is not found. */
export async function getSubscription(
  db: Queryable,
  scope: SubscriptionScope,
  id: string,
): Promise<SubscriptionWithPlan> {
  const [row] = isUuid(id) ? await SUBSCRIPTION_OF_SCOPE.run(db, { ...scope, id }) : [];
  if (!row) throw new NotFound('Subscription', id);
  return row;
}

/** The caller's subscriptions (of one plan, or all), newest first. */
export async function listSubscriptions(
  db: Queryable,
  scope: SubscriptionScope,
  query: { planId?: string; limit: number; offset: number },
): Promise<{ subscriptions: SubscriptionWithPlan[]; total: number }> {
  if (query.planId !== undefined && !isUuid(query.planId)) return { subscriptions: [], total: 0 };
  const planId = query.planId ?? null;
  const rows = await LIST_SUBSCRIPTIONS.run(db, { ...scope, planId, limit: query.limit, offset: query.offset });
  const [count] = await COUNT_SUBSCRIPTIONS.run(db, { ...scope, planId });
  return { subscriptions: rows, total: count!.n };
}

/** The rules' view of a subscription (./rules). */
export function factsOf(row: SubscriptionWithPlan): SubscriptionFacts {
  return {
    status: row.status,
    anchor: row.anchor,
    trial: row.cycle === 0 && row.trial_days > 0,
    period: { interval: row.interval, count: row.interval_count },
    reminderDays: row.reminder_days,
    graceDays: row.grace_days,
    covered: row.covered,
    renewed: row.renewed,
    invoiced: row.invoiced,
  };
}
