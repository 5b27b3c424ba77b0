import { describe, expect, it } from 'vitest';
import {
  creditPeriods,
  nextDueAt,
  periodAt,
  periodStart,
  priceOfPeriods,
  renewalDue,
  statusAt,
  type SubscriptionFacts,
} from './rules';

const at = (iso: string) => new Date(iso);
const DAY = 86_400_000;
const anchor = at('2026-01-31T10:00:00.000Z');
const monthly = { interval: 'month', count: 1 } as const;
/** A monthly plan, invoice 3 days ahead, 7 days of grace, after a trial (period 0 starts at the anchor). */
const facts = (over: Partial<SubscriptionFacts> = {}): SubscriptionFacts => ({
  status: 'trialing',
  anchor,
  trial: true,
  period: monthly,
  reminderDays: 3,
  graceDays: 7,
  covered: 0,
  renewed: 0,
  invoiced: 0,
  ...over,
});
const plus = (date: Date, days: number) => new Date(date.getTime() + days * DAY);

describe('periods', () => {
  it('steps calendar months from the anchor, keeping its day where the month has one', () => {
    expect(periodStart(anchor, monthly, 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(periodStart(anchor, monthly, 2).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(periodStart(anchor, { interval: 'year', count: 1 }, 1).toISOString()).toBe('2027-01-31T10:00:00.000Z');
    expect(periodStart(anchor, { interval: 'week', count: 2 }, 1).toISOString()).toBe('2026-02-14T10:00:00.000Z');
    expect(periodStart(anchor, { interval: 'day', count: 30 }, 2).toISOString()).toBe('2026-04-01T10:00:00.000Z');
  });

  it('finds the period of a moment: -1 before the anchor, k from its start to the next', () => {
    expect(periodAt(anchor, monthly, plus(anchor, -1))).toBe(-1);
    expect(periodAt(anchor, monthly, anchor)).toBe(0);
    expect(periodAt(anchor, monthly, at('2026-02-28T09:59:59.999Z'))).toBe(0);
    expect(periodAt(anchor, monthly, at('2026-02-28T10:00:00.000Z'))).toBe(1);
    expect(periodAt(anchor, monthly, at('2028-02-29T10:00:00.000Z'))).toBe(25);
  });

  it('prices n periods as n times the price, in integers', () => {
    expect(priceOfPeriods(999n, 3)).toBe(2997n);
    expect(priceOfPeriods(10n ** 40n, 12)).toBe(12n * 10n ** 40n);
    expect(() => priceOfPeriods(999n, 0)).toThrow(RangeError);
    expect(() => priceOfPeriods(999n, 1.5)).toThrow(RangeError);
  });
});

describe('status, transition by transition', () => {
  it('trialing until the anchor', () => {
    expect(statusAt(facts(), plus(anchor, -1))).toBe('trialing');
  });
  it('trialing -> active when the first period starts paid', () => {
    expect(statusAt(facts({ covered: 1 }), anchor)).toBe('active');
  });
  it('trialing -> past_due when the first period starts unpaid', () => {
    expect(statusAt(facts(), anchor)).toBe('past_due');
  });
  it('active -> past_due when a period starts unpaid', () => {
    const start1 = periodStart(anchor, monthly, 1);
    expect(statusAt(facts({ status: 'active', covered: 1 }), plus(start1, -0.001))).toBe('active');
    expect(statusAt(facts({ status: 'active', covered: 1 }), start1)).toBe('past_due');
  });
  it('past_due -> active once the period is paid', () => {
    expect(statusAt(facts({ status: 'past_due', covered: 2 }), periodStart(anchor, monthly, 1))).toBe('active');
  });
  it('past_due -> canceled at the end of the grace period', () => {
    const start1 = periodStart(anchor, monthly, 1);
    const f = facts({ status: 'past_due', covered: 1 });
    expect(statusAt(f, plus(start1, 6.99))).toBe('past_due');
    expect(statusAt(f, plus(start1, 7))).toBe('canceled');
  });
  it('canceled stays canceled, paid or not (a payment reactivates it, in a new cycle)', () => {
    expect(statusAt(facts({ status: 'canceled', covered: 5 }), anchor)).toBe('canceled');
  });
  it('a first period without a trial is active through its grace, then canceled unpaid', () => {
    const f = facts({ status: 'active', trial: false });
    expect(statusAt(f, plus(anchor, 6))).toBe('active');
    expect(statusAt(f, plus(anchor, 7))).toBe('canceled');
  });
});

describe('what a renewal pass does', () => {
  it('makes the first unpaid period its invoice reminderDays before it starts, once', () => {
    expect(renewalDue(facts(), plus(anchor, -3.01)).invoicePeriod).toBeNull();
    expect(renewalDue(facts(), plus(anchor, -3)).invoicePeriod).toBe(0);
    expect(renewalDue(facts({ invoiced: 1 }), plus(anchor, -3)).invoicePeriod).toBeNull();
  });
  it('draws on credit: periods paid ahead make no invoice; the first unpaid one does', () => {
    const f = facts({ status: 'active', covered: 3, renewed: 1, invoiced: 1 });
    expect(renewalDue(f, periodStart(anchor, monthly, 1)).invoicePeriod).toBeNull();
    // When a period paid ahead comes due (its reminder time), still none.
    expect(renewalDue(f, plus(periodStart(anchor, monthly, 2), -3)).invoicePeriod).toBeNull();
    expect(renewalDue(f, plus(periodStart(anchor, monthly, 3), -3)).invoicePeriod).toBe(3);
  });
  it('announces each paid period that started, in order, once', () => {
    const f = facts({ status: 'active', covered: 3, renewed: 1, invoiced: 1 });
    expect(renewalDue(f, periodStart(anchor, monthly, 2)).renewedPeriods).toEqual([1, 2]);
    expect(renewalDue({ ...f, renewed: 3 }, periodStart(anchor, monthly, 2)).renewedPeriods).toEqual([]);
    // An unpaid period is announced when it is paid, not when it starts.
    expect(renewalDue(facts({ status: 'past_due', covered: 1, renewed: 1 }), periodStart(anchor, monthly, 1))).toEqual({
      invoicePeriod: 1,
      renewedPeriods: [],
      status: 'past_due',
    });
  });
  it('does nothing more for a subscription canceled', () => {
    expect(renewalDue(facts({ status: 'canceled' }), plus(anchor, 100))).toEqual({
      invoicePeriod: null,
      renewedPeriods: [],
      status: 'canceled',
    });
  });
  it('counts credit beyond the current period', () => {
    expect(creditPeriods(facts({ covered: 3 }), plus(anchor, -1))).toBe(3);
    expect(creditPeriods(facts({ covered: 3 }), periodStart(anchor, monthly, 1))).toBe(1);
    expect(creditPeriods(facts({ covered: 1 }), periodStart(anchor, monthly, 4))).toBe(0);
  });
});

describe('the next instant a pass has work', () => {
  it('is the invoice reminder of a trial, then the trial end, then the grace end of the unpaid period', () => {
    // Trial ends at the anchor; its first invoice is issued 3 days before.
    const trialStart = plus(anchor, -14);
    expect(nextDueAt(facts(), trialStart)).toEqual(plus(anchor, -3));
    // Invoiced: the trial's end (the status becomes past due).
    expect(nextDueAt(facts({ invoiced: 1 }), plus(anchor, -3))).toEqual(anchor);
    // Past due and unpaid: canceled at the end of the grace.
    expect(nextDueAt(facts({ status: 'past_due', invoiced: 1 }), anchor)).toEqual(plus(anchor, 7));
  });

  it('is the next invoice reminder of a paid period, and the start of a prepaid period not yet announced', () => {
    const feb = periodStart(anchor, monthly, 1);
    expect(nextDueAt(facts({ status: 'active', covered: 1, renewed: 1, invoiced: 1 }), anchor)).toEqual(plus(feb, -3));
    // Period 1 paid ahead and invoiced: its start is announced (`subscription.renewed`).
    expect(nextDueAt(facts({ status: 'active', covered: 2, renewed: 1, invoiced: 2 }), anchor)).toEqual(feb);
    // Period 2 invoiced too: the start of that period (past due from then).
    const mar = periodStart(anchor, monthly, 2);
    expect(nextDueAt(facts({ status: 'active', covered: 2, renewed: 2, invoiced: 3 }), feb)).toEqual(mar);
  });

  it('is nothing for a canceled subscription (only a payment reactivates it)', () => {
    expect(nextDueAt(facts({ status: 'canceled' }), anchor)).toBeNull();
  });

  it('is never a moment at which the pass would do nothing, nor later than one at which it would act', () => {
    let state = facts({ status: 'active', trial: false, covered: 1, renewed: 1, invoiced: 1 });
    let now = anchor;
    for (let step = 0; step < 12; step++) {
      const due = nextDueAt(state, now)!;
      now = due;
      const before = renewalDue(state, new Date(due.getTime() - 1));
      expect(
        before.invoicePeriod === null && before.renewedPeriods.length === 0 && before.status === state.status,
      ).toBe(true);
      const pass = renewalDue(state, due);
      // Apply what the pass would, paying each invoice at once.
      state = {
        ...state,
        status: pass.status,
        invoiced: pass.invoicePeriod === null ? state.invoiced : pass.invoicePeriod + 1,
        covered: pass.invoicePeriod === null ? state.covered : pass.invoicePeriod + 1,
        renewed: pass.renewedPeriods.length > 0 ? pass.renewedPeriods.at(-1)! + 1 : state.renewed,
      };
    }
    expect(state.covered).toBeGreaterThan(4);
  });
});
