import { describe, expect, it } from 'vitest';
import { denyListScreen } from '../risk';
import {
  evaluateOrder,
  isLateTransfer,
  type Evaluation,
  type LifecycleContext,
  type ObservedTransfer,
  type OrderFacts,
  type SettledRole,
  type TransferRole,
} from './lifecycle';
import { FINAL_STATUSES, type OrderStatus } from '../protocol';

const EXPIRES_AT = new Date('2030-01-01T12:00:00.000Z');
const AMOUNT = 100_000_000n; // 1 BTC in satoshis

/** `seconds` relative to the order's expiry. */
function at(seconds: number): Date {
  return new Date(EXPIRES_AT.getTime() + seconds * 1000);
}

function order(overrides: Partial<OrderFacts> = {}): OrderFacts {
  return {
    status: 'pending',
    currency: 'BTC',
    amount: AMOUNT,
    threshold: AMOUNT,
    expiresAt: EXPIRES_AT,
    checkRisks: false,
    ...overrides,
  };
}

function transfer(tx: string, overrides: Partial<ObservedTransfer> = {}): ObservedTransfer {
  return {
    id: `bitcoin:${tx}:0`,
    currency: 'BTC',
    amount: AMOUNT,
    sender: 'bc1qpayer',
    firstSeenAt: at(-600),
    confirmations: 2,
    dropped: false,
    ...overrides,
  };
}

/** Before expiry, with the watcher caught up to now. */
function ctx(overrides: Partial<LifecycleContext> = {}): LifecycleContext {
  return { now: at(-60), requiredConfirmations: 2, scannedPastExpiry: false, ...overrides };
}

/** After expiry, with the watcher past it: the order can be decided. */
const AFTER_EXPIRY = ctx({ now: at(600), scannedPastExpiry: true });

function roles(entries: Record<string, TransferRole>): Map<string, TransferRole> {
  return new Map(Object.entries(entries).map(([tx, role]) => [`bitcoin:${tx}:0`, role]));
}

/** What the caller persists when an order becomes final, to pass back on later evaluations. */
function settledOf(evaluation: Evaluation): Map<string, SettledRole> {
  const settled = new Map<string, SettledRole>();
  for (const [id, role] of evaluation.roles) if (role === 'counted' || role === 'rejected') settled.set(id, role);
  return settled;
}

/** Re-evaluates as the caller would after storing `evaluation`. */
function reevaluate(
  facts: OrderFacts,
  evaluation: Evaluation,
  transfers: ObservedTransfer[],
  context = ctx(),
): Evaluation {
  return evaluateOrder({ ...facts, status: evaluation.status, settled: settledOf(evaluation) }, transfers, context);
}

describe('evaluateOrder: completing an order', () => {
  it('processes an exact payment', () => {
    const result = evaluateOrder(order(), [transfer('a')], ctx());
    expect(result).toEqual({
      status: 'processed',
      received: AMOUNT,
      message: null,
      roles: roles({ a: 'counted' }),
      alerts: [],
    });
  });

  it('processes a payment within tolerance (threshold below the amount)', () => {
    const facts = order({ threshold: 99_500_000n });
    const result = evaluateOrder(facts, [transfer('a', { amount: 99_500_000n })], ctx());
    expect(result.status).toBe('processed');
    expect(result.received).toBe(99_500_000n);
    expect(result.roles).toEqual(roles({ a: 'counted' }));
  });

  it('processes two partial payments summing to the amount, not before the second counts', () => {
    const first = transfer('a', { amount: 40_000_000n, firstSeenAt: at(-900) });
    const second = transfer('b', { amount: 60_000_000n, firstSeenAt: at(-300) });

    const afterFirst = evaluateOrder(order(), [first], ctx());
    expect(afterFirst.status).toBe('pending');
    expect(afterFirst.received).toBe(40_000_000n);
    expect(afterFirst.roles).toEqual(roles({ a: 'counted' }));

    const afterBoth = evaluateOrder(order(), [first, second], ctx());
    expect(afterBoth.status).toBe('processed');
    expect(afterBoth.received).toBe(AMOUNT);
    expect(afterBoth.roles).toEqual(roles({ a: 'counted', b: 'counted' }));
  });

  it('marks more than the amount as overpaid, down to one base unit', () => {
    const result = evaluateOrder(order(), [transfer('a', { amount: AMOUNT + 1n })], ctx());
    expect(result.status).toBe('overpaid');
    expect(result.received).toBe(AMOUNT + 1n);
    expect(result.roles).toEqual(roles({ a: 'counted' }));
  });

  it('overpays when a second payment crosses the amount on the way to the threshold', () => {
    const result = evaluateOrder(
      order(),
      [transfer('a', { amount: 60_000_000n, firstSeenAt: at(-900) }), transfer('b', { amount: 60_000_000n })],
      ctx(),
    );
    expect(result.status).toBe('overpaid');
    expect(result.received).toBe(120_000_000n);
    expect(result.roles).toEqual(roles({ a: 'counted', b: 'counted' }));
  });

  it('keeps an order one base unit short of the threshold pending, and decides it partial at expiry', () => {
    const facts = order({ threshold: 99_500_000n });
    const short = [transfer('a', { amount: 99_499_999n })];

    const before = evaluateOrder(facts, short, ctx());
    expect(before.status).toBe('pending');
    expect(before.received).toBe(99_499_999n);
    expect(before.roles).toEqual(roles({ a: 'counted' }));

    expect(evaluateOrder(facts, short, AFTER_EXPIRY).status).toBe('partial');
  });

  it('completes as soon as the threshold is reached, without waiting for expiry', () => {
    const result = evaluateOrder(order(), [transfer('a', { firstSeenAt: at(-3600) })], ctx({ now: at(-3000) }));
    expect(result.status).toBe('processed');
    expect(result.received).toBe(AMOUNT);
  });
});

describe('evaluateOrder: confirmations', () => {
  it('shows an unconfirmed payment as detected and does not count it', () => {
    const result = evaluateOrder(order(), [transfer('a', { confirmations: 1 })], ctx());
    expect(result.status).toBe('pending');
    expect(result.received).toBe(0n);
    expect(result.roles).toEqual(roles({ a: 'detected' }));
  });

  it('counts a payment seen before expiry and confirmed after it', () => {
    const seen = transfer('a', { firstSeenAt: at(-30), confirmations: 0 });

    const waiting = evaluateOrder(order(), [seen], AFTER_EXPIRY);
    expect(waiting.status).toBe('pending');
    expect(waiting.received).toBe(0n);
    expect(waiting.roles).toEqual(roles({ a: 'detected' }));

    const confirmed = evaluateOrder(
      order(),
      [{ ...seen, confirmations: 2 }],
      ctx({ now: at(1200), scannedPastExpiry: true }),
    );
    expect(confirmed.status).toBe('processed');
    expect(confirmed.received).toBe(AMOUNT);
    expect(confirmed.roles).toEqual(roles({ a: 'counted' }));
  });

  it('does not decide partial while another in-time payment is still confirming', () => {
    const transfers = [
      transfer('a', { amount: 30_000_000n, firstSeenAt: at(-900) }),
      transfer('b', { amount: 70_000_000n, confirmations: 1 }),
    ];

    const waiting = evaluateOrder(order(), transfers, AFTER_EXPIRY);
    expect(waiting.status).toBe('pending');
    expect(waiting.received).toBe(30_000_000n);
    expect(waiting.roles).toEqual(roles({ a: 'counted', b: 'detected' }));
  });
});

describe('evaluateOrder: expiry', () => {
  it('expires an order that received nothing', () => {
    const result = evaluateOrder(order(), [], AFTER_EXPIRY);
    expect(result).toEqual({ status: 'expired', received: 0n, message: null, roles: new Map(), alerts: [] });
  });

  it('decides an underpaid order partial at expiry', () => {
    const result = evaluateOrder(order(), [transfer('a', { amount: 40_000_000n })], AFTER_EXPIRY);
    expect(result.status).toBe('partial');
    expect(result.received).toBe(40_000_000n);
    expect(result.roles).toEqual(roles({ a: 'counted' }));
  });

  it('decides nothing while the watcher has not scanned past expiry', () => {
    const lagging = ctx({ now: at(86_400), scannedPastExpiry: false });

    const nothing = evaluateOrder(order(), [], lagging);
    expect(nothing.status).toBe('pending');
    expect(nothing.received).toBe(0n);

    const some = evaluateOrder(order(), [transfer('a', { amount: 40_000_000n })], lagging);
    expect(some.status).toBe('pending');
    expect(some.received).toBe(40_000_000n);
    expect(some.roles).toEqual(roles({ a: 'counted' }));

    // The watcher catches up and finds the rest, paid in time.
    const paid = evaluateOrder(
      order(),
      [transfer('a', { amount: 40_000_000n }), transfer('b', { amount: 60_000_000n, firstSeenAt: at(-1) })],
      ctx({ now: at(86_460), scannedPastExpiry: true }),
    );
    expect(paid.status).toBe('processed');
    expect(paid.received).toBe(AMOUNT);
  });

  it('decides nothing before expiresAt even if the watcher reports past it', () => {
    const result = evaluateOrder(order(), [], ctx({ now: EXPIRES_AT, scannedPastExpiry: true }));
    expect(result.status).toBe('pending');
  });

  it('counts a payment first seen exactly at expiresAt, and not one a millisecond later', () => {
    const onTime = evaluateOrder(order(), [transfer('a', { firstSeenAt: EXPIRES_AT })], AFTER_EXPIRY);
    expect(onTime.status).toBe('processed');
    expect(onTime.received).toBe(AMOUNT);
    expect(onTime.roles).toEqual(roles({ a: 'counted' }));

    const late = evaluateOrder(
      order(),
      [transfer('a', { firstSeenAt: new Date(EXPIRES_AT.getTime() + 1) })],
      AFTER_EXPIRY,
    );
    expect(late.status).toBe('expired');
    expect(late.received).toBe(0n);
    expect(late.roles).toEqual(roles({ a: 'orphan' }));
  });
});

describe('evaluateOrder: orphans', () => {
  it('makes a payment first seen after expiry an orphan, and the order expires', () => {
    const late = transfer('a', { firstSeenAt: at(30) });

    const lagging = evaluateOrder(order(), [late], ctx({ now: at(60) }));
    expect(lagging.status).toBe('pending');
    expect(lagging.roles).toEqual(roles({ a: 'orphan' }));

    const decided = evaluateOrder(order(), [late], AFTER_EXPIRY);
    expect(decided.status).toBe('expired');
    expect(decided.received).toBe(0n);
    expect(decided.roles).toEqual(roles({ a: 'orphan' }));
  });

  it('makes a second payment after the order was processed an orphan', () => {
    const first = transfer('a', { firstSeenAt: at(-900) });
    const processed = evaluateOrder(order(), [first], ctx());
    expect(processed.status).toBe('processed');

    const second = transfer('b', { firstSeenAt: at(-300), confirmations: 0 });
    const later = reevaluate(order(), processed, [first, second]);
    expect(later.status).toBe('processed');
    expect(later.received).toBe(AMOUNT);
    expect(later.roles).toEqual(roles({ a: 'counted', b: 'orphan' }));

    const confirmed = reevaluate(order(), processed, [first, { ...second, confirmations: 6 }]);
    expect(confirmed.status).toBe('processed');
    expect(confirmed.received).toBe(AMOUNT);
    expect(confirmed.roles).toEqual(roles({ a: 'counted', b: 'orphan' }));
  });

  it('makes a payment after the completing one an orphan when both are evaluated at once', () => {
    const result = evaluateOrder(
      order(),
      [transfer('a', { firstSeenAt: at(-900) }), transfer('b', { firstSeenAt: at(-300) })],
      ctx(),
    );
    expect(result.status).toBe('processed');
    expect(result.received).toBe(AMOUNT);
    expect(result.roles).toEqual(roles({ a: 'counted', b: 'orphan' }));
  });

  it('makes a payment still confirming when the order completed an orphan', () => {
    const result = evaluateOrder(
      order(),
      [transfer('a', { firstSeenAt: at(-900), confirmations: 1 }), transfer('b', { firstSeenAt: at(-300) })],
      ctx(),
    );
    expect(result.status).toBe('processed');
    expect(result.received).toBe(AMOUNT);
    expect(result.roles).toEqual(roles({ a: 'orphan', b: 'counted' }));
  });

  it("makes another currency sent to the order's address an orphan", () => {
    const usdt = transfer('a', { currency: 'USDT', amount: AMOUNT });

    const pending = evaluateOrder(order(), [usdt], ctx());
    expect(pending.status).toBe('pending');
    expect(pending.received).toBe(0n);
    expect(pending.roles).toEqual(roles({ a: 'orphan' }));

    const decided = evaluateOrder(order(), [usdt], AFTER_EXPIRY);
    expect(decided.status).toBe('expired');
    expect(decided.roles).toEqual(roles({ a: 'orphan' }));
  });
});

describe('evaluateOrder: risk screening', () => {
  const screen = denyListScreen(['bc1qsanctioned']);
  const flagged = async (overrides: Partial<ObservedTransfer> = {}): Promise<ObservedTransfer> => {
    const observed = transfer('a', { sender: 'bc1qsanctioned', ...overrides });
    return { ...observed, risk: await screen.screen(observed) };
  };

  it('moves the order to error with the reason when checkRisks is on', async () => {
    const result = evaluateOrder(order({ checkRisks: true }), [await flagged()], ctx());
    expect(result.status).toBe('error');
    expect(result.message).toBe('Sender bc1qsanctioned is on the deny list.');
    expect(result.received).toBe(0n);
    expect(result.roles).toEqual(roles({ a: 'rejected' }));
  });

  it('processes the same payment when checkRisks is off', async () => {
    const result = evaluateOrder(order({ checkRisks: false }), [await flagged()], ctx());
    expect(result.status).toBe('processed');
    expect(result.message).toBeNull();
    expect(result.received).toBe(AMOUNT);
    expect(result.roles).toEqual(roles({ a: 'counted' }));
  });

  it('rejects a flagged payment only once it is confirmed', async () => {
    const result = evaluateOrder(order({ checkRisks: true }), [await flagged({ confirmations: 1 })], ctx());
    expect(result.status).toBe('pending');
    expect(result.message).toBeNull();
    expect(result.roles).toEqual(roles({ a: 'detected' }));
  });

  it('does not count an unscreened payment when checkRisks is on', () => {
    const result = evaluateOrder(order({ checkRisks: true }), [transfer('a')], AFTER_EXPIRY);
    expect(result.status).toBe('pending');
    expect(result.received).toBe(0n);
    expect(result.roles).toEqual(roles({ a: 'detected' }));
  });

  it('counts a clean screened payment when checkRisks is on', async () => {
    const observed = transfer('a', { sender: 'bc1qclean' });
    const result = evaluateOrder(
      order({ checkRisks: true }),
      [{ ...observed, risk: await screen.screen(observed) }],
      ctx(),
    );
    expect(result.status).toBe('processed');
    expect(result.roles).toEqual(roles({ a: 'counted' }));
  });

  it('uses a default message when the provider gives no reason, and keeps earlier counted payments', () => {
    const result = evaluateOrder(
      order({ checkRisks: true }),
      [
        transfer('a', { amount: 40_000_000n, firstSeenAt: at(-900), risk: { flagged: false } }),
        transfer('b', { amount: 10_000_000n, firstSeenAt: at(-600), risk: { flagged: true } }),
        transfer('c', { amount: 50_000_000n, firstSeenAt: at(-300), risk: { flagged: false } }),
      ],
      ctx(),
    );
    expect(result.status).toBe('error');
    expect(result.message).toBe('Payment flagged by risk screening.');
    expect(result.received).toBe(40_000_000n);
    expect(result.roles).toEqual(roles({ a: 'counted', b: 'rejected', c: 'orphan' }));
  });

  it('never screens an unknown sender clean: it waits while confirming, and once confirmed the order goes to error', async () => {
    const unknown = transfer('a', { sender: null });
    // What a deny list answers about nobody: nothing against it.
    const screened = { ...unknown, risk: await screen.screen(unknown) };
    expect(screened.risk).toEqual({ flagged: false });

    const confirming = evaluateOrder(order({ checkRisks: true }), [{ ...screened, confirmations: 1 }], ctx());
    expect(confirming.status).toBe('pending');
    expect(confirming.roles).toEqual(roles({ a: 'detected' }));

    const confirmed = evaluateOrder(order({ checkRisks: true }), [screened], ctx());
    expect(confirmed.status).toBe('error');
    expect(confirmed.message).toBe(
      "The chain did not name this payment's sender, so risk screening could not check it.",
    );
    expect(confirmed.received).toBe(0n);
    expect(confirmed.roles).toEqual(roles({ a: 'rejected' }));

    // Without checkRisks nobody asked for screening: the payment counts.
    expect(evaluateOrder(order(), [unknown], ctx()).status).toBe('processed');
  });

  it('ignores a flagged sender of an orphan', () => {
    const result = evaluateOrder(
      order({ checkRisks: true }),
      [transfer('a', { currency: 'USDT', risk: { flagged: true } })],
      ctx(),
    );
    expect(result.status).toBe('pending');
    expect(result.roles).toEqual(roles({ a: 'orphan' }));
  });
});

describe('evaluateOrder: dropped transfers', () => {
  it('un-counts a payment dropped before the order is final; the order stays pending, then expires', () => {
    const counted = transfer('a', { amount: 40_000_000n });
    expect(evaluateOrder(order(), [counted], ctx()).received).toBe(40_000_000n);

    const dropped = { ...counted, dropped: true };
    const pending = evaluateOrder(order(), [dropped], ctx());
    expect(pending.status).toBe('pending');
    expect(pending.received).toBe(0n);
    expect(pending.roles).toEqual(roles({ a: 'reversed' }));
    expect(pending.alerts).toEqual([]);

    const expired = evaluateOrder(order(), [dropped], AFTER_EXPIRY);
    expect(expired.status).toBe('expired');
    expect(expired.received).toBe(0n);
  });

  it('no longer waits for a detected payment that dropped', () => {
    const result = evaluateOrder(order(), [transfer('a', { confirmations: 0, dropped: true })], AFTER_EXPIRY);
    expect(result.status).toBe('expired');
  });

  it('ignores a dropped orphan', () => {
    const result = evaluateOrder(order(), [transfer('a', { currency: 'USDT', dropped: true })], ctx());
    expect(result.roles).toEqual(roles({ a: 'ignored' }));
  });

  it('never moves a final order for a dropped counted payment, but reverses it with an alert', () => {
    const paid = [
      transfer('a', { amount: 40_000_000n, firstSeenAt: at(-900) }),
      transfer('b', { amount: 60_000_000n }),
    ];
    const processed = evaluateOrder(order(), paid, ctx());
    expect(processed.status).toBe('processed');

    const result = reevaluate(order(), processed, [paid[0]!, { ...paid[1]!, dropped: true }], AFTER_EXPIRY);
    expect(result.status).toBe('processed');
    expect(result.received).toBe(AMOUNT);
    expect(result.roles).toEqual(roles({ a: 'counted', b: 'reversed' }));
    expect(result.alerts).toHaveLength(1);
    expect(result.alerts[0]).toContain('bitcoin:b:0');
  });

  it('ignores a dropped orphan of a final order without an alert', () => {
    const facts = order({ status: 'processed', settled: new Map([['bitcoin:a:0', 'counted']]) });
    const result = evaluateOrder(facts, [transfer('a'), transfer('b', { dropped: true })], ctx());
    expect(result.status).toBe('processed');
    expect(result.roles).toEqual(roles({ a: 'counted', b: 'ignored' }));
    expect(result.alerts).toEqual([]);
  });
});

describe('evaluateOrder: determinism', () => {
  const transfers = [
    transfer('c', { amount: 30_000_000n, firstSeenAt: at(-300) }),
    transfer('a', { amount: 50_000_000n, firstSeenAt: at(-900) }),
    transfer('e', { currency: 'USDT', firstSeenAt: at(-800) }),
    // Same sighting time as `c`: the id breaks the tie.
    transfer('b', { amount: 30_000_000n, firstSeenAt: at(-300) }),
    transfer('d', { amount: 10_000_000n, firstSeenAt: at(-100) }),
  ];

  function permutations<T>(items: T[]): T[][] {
    if (items.length <= 1) return [items];
    return items.flatMap((item, i) =>
      permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
    );
  }

  it('does not depend on the order of the transfers', () => {
    const expected = evaluateOrder(order(), transfers, ctx());
    expect(expected.status).toBe('overpaid');
    expect(expected.received).toBe(110_000_000n);
    expect(expected.roles).toEqual(roles({ a: 'counted', e: 'orphan', b: 'counted', c: 'counted', d: 'orphan' }));
    expect([...expected.roles.keys()]).toEqual(['a', 'e', 'b', 'c', 'd'].map((tx) => `bitcoin:${tx}:0`));
    for (const permutation of permutations(transfers)) {
      expect(evaluateOrder(order(), permutation, ctx())).toEqual(expected);
    }
  });

  it('breaks a tie of sightings by id: of two full payments seen at once, the first by id completes the order', () => {
    const tied = ['b', 'a', 'c'].map((tx) => transfer(tx, { firstSeenAt: at(-300) }));
    for (const permutation of permutations(tied)) {
      const result = evaluateOrder(order(), permutation, ctx());
      expect(result.status).toBe('processed');
      expect([...result.roles]).toEqual([...roles({ a: 'counted', b: 'orphan', c: 'orphan' })]);
    }
  });

  it('answers the same evaluation twice, and again once the result is stored', () => {
    const first = evaluateOrder(order(), transfers, ctx());
    expect(evaluateOrder(order(), transfers, ctx())).toEqual(first);
    expect(reevaluate(order(), first, transfers)).toEqual(first);
  });

  it('refuses the same transfer twice rather than counting it twice', () => {
    expect(() =>
      evaluateOrder(order(), [transfer('a', { amount: 50_000_000n }), transfer('a', { amount: 50_000_000n })], ctx()),
    ).toThrow('bitcoin:a:0');
  });
});

describe('evaluateOrder: final statuses', () => {
  const finals = [...FINAL_STATUSES] as OrderStatus[];

  it.each(finals)('never moves a %s order', (status) => {
    const facts = order({ status, settled: new Map([['bitcoin:a:0', 'counted']]) });
    const transfers = [
      transfer('a', { amount: 40_000_000n, firstSeenAt: at(-900) }),
      transfer('b', { amount: 60_000_000n, sender: 'bc1qsanctioned', risk: { flagged: true, reason: 'flagged' } }),
      transfer('c', { firstSeenAt: at(30) }),
    ];
    for (const context of [ctx(), AFTER_EXPIRY]) {
      for (const checkRisks of [false, true]) {
        const result = evaluateOrder({ ...facts, checkRisks }, transfers, context);
        expect(result.status).toBe(status);
        expect(result.received).toBe(40_000_000n);
        expect(result.message).toBeNull();
        expect(result.roles).toEqual(roles({ a: 'counted', b: 'orphan', c: 'orphan' }));
      }
    }
  });

  it('keeps the rejected payment of an error order rejected', () => {
    const flagged = transfer('a', { risk: { flagged: true, reason: 'sanctioned' } });
    const error = evaluateOrder(order({ checkRisks: true }), [flagged], ctx());
    expect(error.status).toBe('error');

    const later = reevaluate(order({ checkRisks: true }), error, [
      flagged,
      transfer('b', { risk: { flagged: false } }),
    ]);
    expect(later.status).toBe('error');
    expect(later.received).toBe(0n);
    expect(later.roles).toEqual(roles({ a: 'rejected', b: 'orphan' }));
  });

  it('counts nothing for a final order given no settled transfers', () => {
    const transfers = [transfer('a'), transfer('b', { currency: 'USDT', dropped: true })];
    for (const status of finals) {
      const result = evaluateOrder(order({ status }), transfers, AFTER_EXPIRY);
      expect(result).toEqual({
        status,
        received: 0n,
        message: null,
        roles: roles({ a: 'orphan', b: 'ignored' }),
        alerts: [],
      });
    }
  });

  it('treats an expired order as final even if an in-time payment surfaces later', () => {
    const expired = evaluateOrder(order(), [], AFTER_EXPIRY);
    const result = reevaluate(order(), expired, [transfer('a', { firstSeenAt: at(-10) })], AFTER_EXPIRY);
    expect(result.status).toBe('expired');
    expect(result.received).toBe(0n);
    expect(result.roles).toEqual(roles({ a: 'orphan' }));
  });
});

describe('isLateTransfer: a transfer that is not a payment of the order, shown as late on the payment page', () => {
  const statuses = ['pending', ...FINAL_STATUSES] as OrderStatus[];

  it('is never late in another currency', () => {
    for (const status of statuses) {
      for (const firstSeenAt of [at(-600), at(600)]) {
        expect(isLateTransfer(order({ status }), transfer('a', { currency: 'USDT', firstSeenAt })), status).toBe(false);
      }
    }
  });

  it("is late in the order's currency when first seen after the deadline, not at it", () => {
    for (const status of statuses) {
      expect(
        isLateTransfer(order({ status }), transfer('a', { firstSeenAt: new Date(EXPIRES_AT.getTime() + 1) })),
        status,
      ).toBe(true);
      expect(isLateTransfer(order({ status }), transfer('a', { firstSeenAt: at(3600) })), status).toBe(true);
    }
    for (const status of ['pending', 'processed', 'overpaid', 'error'] as const) {
      expect(isLateTransfer(order({ status }), transfer('a', { firstSeenAt: EXPIRES_AT })), status).toBe(false);
      expect(isLateTransfer(order({ status }), transfer('a', { firstSeenAt: at(-600) })), status).toBe(false);
    }
  });

  it("is always late in the order's currency once the order ended unpaid or underpaid, whenever first seen", () => {
    for (const status of ['expired', 'partial'] as const) {
      for (const firstSeenAt of [at(-3600), EXPIRES_AT, at(600)]) {
        expect(isLateTransfer(order({ status }), transfer('a', { firstSeenAt })), status).toBe(true);
      }
    }
  });
});
