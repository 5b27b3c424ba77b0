/**
 * A subscription's rules as pure functions of (subscription, now): when its periods start, its
 * status, and what a renewal pass must do now (docs/subscriptions.md, docs/decisions/067).
 * Unit-tested transition by transition in rules.test.ts; the worker's pass (./renewals) applies
 * them and the database's unique keys make each action happen once.
 *
 * Periods are counted from the cycle's anchor (the trial's end, or the start): period k starts k
 * periods after it, months and years in calendar (UTC) steps from the anchor itself, so a period
 * that starts on the 31st keeps doing so where the month has one (no drift through February).
 */
import type { SubscriptionInterval, SubscriptionStatus } from '../protocol';

const DAY_MS = 86_400_000;

export interface Period {
  interval: SubscriptionInterval;
  count: number;
}

/** Days in a month of the UTC calendar (`month` 0-based, any integer: the year adjusts). */
function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The start of period `k` (k >= 0) counted from `anchor`. */
export function periodStart(anchor: Date, period: Period, k: number): Date {
  switch (period.interval) {
    case 'day':
      return new Date(anchor.getTime() + k * period.count * DAY_MS);
    case 'week':
      return new Date(anchor.getTime() + k * period.count * 7 * DAY_MS);
    case 'month':
    case 'year': {
      const months = k * period.count * (period.interval === 'year' ? 12 : 1);
      const year = anchor.getUTCFullYear();
      const month = anchor.getUTCMonth() + months;
      const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
      const start = new Date(anchor.getTime());
      start.setUTCFullYear(year, month, day);
      return start;
    }
  }
}

/** The period that `now` falls in (its start <= now < the next one's), or -1 before the anchor (the trial). */
export function periodAt(anchor: Date, period: Period, now: Date): number {
  if (now.getTime() < anchor.getTime()) return -1;
  // An estimate from the shortest length, then steps: months differ in length, so count exactly.
  const shortest = { day: 1, week: 7, month: 28, year: 365 }[period.interval] * period.count * DAY_MS;
  let k = Math.floor((now.getTime() - anchor.getTime()) / shortest);
  while (k > 0 && periodStart(anchor, period, k).getTime() > now.getTime()) k--;
  while (periodStart(anchor, period, k + 1).getTime() <= now.getTime()) k++;
  return k;
}

/** What the rules need of a subscription and its plan. */
export interface SubscriptionFacts {
  status: SubscriptionStatus;
  /** Start of period 0 of the current cycle. */
  anchor: Date;
  /** Whether the cycle began with a trial (period 0 then has its renewal invoice like any other). */
  trial: boolean;
  period: Period;
  reminderDays: number;
  graceDays: number;
  /** Periods of the cycle paid (from the first). */
  covered: number;
  /** Periods of the cycle whose start was announced (`subscription.renewed`). */
  renewed: number;
  /** Periods of the cycle whose renewal invoice was made. */
  invoiced: number;
}

/**
 * The status the rules give at `now`. A canceled subscription stays canceled (only a payment
 * reactivates it, ./renewals). Before the anchor: trialing. A paid current period: active. An
 * unpaid one: past due from its start, canceled `graceDays` after it; except the first period of
 * a cycle without a trial, which starts at once with its invoice: it stays active through the
 * grace (the subscriber has had no time to pay), then is canceled like any other.
 */
export function statusAt(facts: SubscriptionFacts, now: Date): SubscriptionStatus {
  if (facts.status === 'canceled') return 'canceled';
  const k = periodAt(facts.anchor, facts.period, now);
  if (k < 0) return 'trialing';
  if (facts.covered > k) return 'active';
  const unpaidStart = periodStart(facts.anchor, facts.period, facts.covered);
  if (now.getTime() >= unpaidStart.getTime() + facts.graceDays * DAY_MS) return 'canceled';
  if (facts.covered === 0 && !facts.trial) return 'active';
  return 'past_due';
}

/** What a renewal pass must do for one subscription at `now`. */
export interface RenewalDue {
  /** The period whose renewal invoice is due now (issued `reminderDays` before it starts), or null. */
  invoicePeriod: number | null;
  /** Paid periods that started since the last pass: `subscription.renewed` for each, in order. */
  renewedPeriods: number[];
  /** The status now; a change from `facts.status` is an event and, for past_due and canceled, a mail. */
  status: SubscriptionStatus;
}

export function renewalDue(facts: SubscriptionFacts, now: Date): RenewalDue {
  const status = statusAt(facts, now);
  if (status === 'canceled') return { invoicePeriod: null, renewedPeriods: [], status };
  const started = periodAt(facts.anchor, facts.period, now) + 1;
  const renewedPeriods: number[] = [];
  for (let k = facts.renewed; k < Math.min(started, facts.covered); k++) renewedPeriods.push(k);
  // Credit first: the first unpaid period is `covered`; periods paid ahead make no invoice.
  const unpaid = facts.covered;
  const issueAt = periodStart(facts.anchor, facts.period, unpaid).getTime() - facts.reminderDays * DAY_MS;
  const invoicePeriod = facts.invoiced <= unpaid && now.getTime() >= issueAt ? unpaid : null;
  return { invoicePeriod, renewedPeriods, status };
}

/** Periods paid beyond the current one (before the anchor, beyond none started). */
export function creditPeriods(facts: Pick<SubscriptionFacts, 'anchor' | 'period' | 'covered'>, now: Date): number {
  const started = periodAt(facts.anchor, facts.period, now) + 1;
  return Math.max(0, facts.covered - Math.max(started, 0));
}

/** The price of `periods` periods: an integer multiple of the plan's price, in its base units. */
export function priceOfPeriods(amount: bigint, periods: number): bigint {
  if (!Number.isInteger(periods) || periods < 1) throw new RangeError('periods must be a positive integer');
  return amount * BigInt(periods);
}

/** Whether a renewal pass at `at` would change anything: an invoice, a `subscription.renewed`, a status. */
function actionable(facts: SubscriptionFacts, at: Date): boolean {
  const due = renewalDue(facts, at);
  return due.invoicePeriod !== null || due.renewedPeriods.length > 0 || due.status !== facts.status;
}

/**
 * The next instant after `now` a renewal pass has work for the subscription as it stands after a
 * pass at `now` (stored as its
 * `due_at`, so a pass reads only the due ones): the earliest of its trial's end, the next renewal
 * invoice's issue (its reminder), the next paid period's start, its unpaid period's start and that
 * period's grace end, at which the rules would act. Null when only a payment can change it (a
 * canceled subscription). Each rule changes only at one of these instants, so none is missed.
 */
export function nextDueAt(facts: SubscriptionFacts, now: Date): Date | null {
  if (facts.status === 'canceled') return null;
  const start = (k: number) => periodStart(facts.anchor, facts.period, k);
  const unpaidStart = start(facts.covered);
  const candidates = [
    facts.anchor,
    new Date(unpaidStart.getTime() - facts.reminderDays * DAY_MS),
    start(facts.renewed),
    unpaidStart,
    new Date(unpaidStart.getTime() + facts.graceDays * DAY_MS),
  ].sort((a, b) => a.getTime() - b.getTime());
  return candidates.find((at) => at.getTime() > now.getTime() && actionable(facts, at)) ?? null;
}
