import 'server-only';
import { formatDecimal } from '../money';
import type { Subscription, SubscriptionPlan } from '../protocol';
import { creditPeriods, periodAt, periodStart } from './rules';
import { factsOf, type SubscriptionPlanRow, type SubscriptionWithPlan } from './store';

/** The plan object of subscriptions/* (lib/protocol subscriptionPlanResponse). */
export function serializePlan(plan: SubscriptionPlanRow): SubscriptionPlan {
  return {
    id: plan.id,
    name: plan.name,
    currency: plan.currency,
    amount: formatDecimal({ value: BigInt(plan.amount), scale: plan.price_decimals }),
    interval: plan.interval,
    intervalCount: plan.interval_count,
    trialDays: plan.trial_days,
    reminderDays: plan.reminder_days,
    graceDays: plan.grace_days,
    currencies: plan.currencies,
    active: plan.active,
    createdAt: plan.created_at.toISOString(),
  };
}

/** The subscription object of subscriptions/* and of `subscription.*` events, at `now` (its clock). */
export function serializeSubscription(row: SubscriptionWithPlan, now: Date): Subscription {
  const facts = factsOf(row);
  const k = periodAt(facts.anchor, facts.period, now);
  const current = row.status !== 'canceled' && k >= 0;
  return {
    id: row.id,
    planId: row.plan_id,
    email: row.email,
    customerId: row.customer_id,
    language: row.language,
    status: row.status,
    cycle: row.cycle,
    period: current ? k : null,
    currentPeriodStart: current ? periodStart(facts.anchor, facts.period, k).toISOString() : null,
    currentPeriodEnd: current ? periodStart(facts.anchor, facts.period, k + 1).toISOString() : null,
    paidPeriods: row.covered,
    paidUntil: row.covered > 0 ? periodStart(facts.anchor, facts.period, row.covered).toISOString() : null,
    creditPeriods: row.status === 'canceled' ? 0 : creditPeriods(facts, now),
    trialEnd: row.cycle === 0 && row.trial_days > 0 ? row.anchor.toISOString() : null,
    openInvoiceId: row.open_invoice_id,
    canceledAt: row.canceled_at?.toISOString() ?? null,
    cancelReason: row.cancel_reason,
    startedAt: row.started_at.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}
