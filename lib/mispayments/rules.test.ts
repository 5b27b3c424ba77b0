import { describe, expect, it } from 'vitest';
import { parseDecimal, parsePercent, type Decimal } from '../money';
import {
  decideFrom,
  excessClaimMinimum,
  judgeLatePayment,
  mispaymentStanding,
  movedLessThan,
  payerRefundAmount,
  payerRefundOffer,
  payerRestStanding,
  lateRefundAmount,
  remainderAmount,
  remainderMinimum,
  requotedRemainder,
  type LatePayment,
  type MerchantDecision,
  type MispaymentFacts,
  type MispaymentStanding,
  type PayerRestStanding,
} from './rules';

const d = (text: string): Decimal => parseDecimal(text)!;

describe('remainderAmount', () => {
  const order = { status: 'partial' as const, amount: 100_000n, received: 40_000n, late: 0n };

  it('asks what an underpaid order has left', () => {
    expect(remainderAmount(order)).toBe(60_000n);
  });

  it('counts confirmed late payments of the coin as received', () => {
    expect(remainderAmount({ ...order, late: 10_000n })).toBe(50_000n);
    expect(remainderAmount({ ...order, status: 'expired', received: 0n, late: 30_000n })).toBe(70_000n);
  });

  it('offers none for an expired order without a late payment, nor for a paid, pending or refused one', () => {
    expect(remainderAmount({ ...order, status: 'expired', received: 0n })).toBeNull();
    for (const status of ['pending', 'processed', 'overpaid', 'error'] as const)
      expect(remainderAmount({ ...order, status })).toBeNull();
  });

  it('offers none below the minimum (1 % of the amount, rounded up), one at it', () => {
    expect(remainderMinimum(100_000n)).toBe(1_000n);
    expect(remainderMinimum(101n)).toBe(2n);
    expect(remainderMinimum(1n)).toBe(1n);
    expect(remainderAmount({ ...order, received: 99_000n })).toBe(1_000n);
    expect(remainderAmount({ ...order, received: 99_001n })).toBeNull();
    // Late payments beyond the amount leave nothing to ask.
    expect(remainderAmount({ ...order, late: 70_000n })).toBeNull();
  });

  it('offers none when what arrived is dust, below the minimum: dust opens no address', () => {
    expect(remainderAmount({ ...order, status: 'expired', received: 0n, late: 999n })).toBeNull();
    expect(remainderAmount({ ...order, status: 'expired', received: 0n, late: 1_000n })).toBe(99_000n);
    expect(remainderAmount({ ...order, received: 999n })).toBeNull();
    expect(remainderAmount({ ...order, received: 600n, late: 400n })).toBe(99_000n);
  });
});

describe('judgeLatePayment', () => {
  const expiresAt = new Date('2026-11-27T10:00:00.000Z');
  const payment: LatePayment = {
    expiresAt,
    firstSeenAt: new Date(expiresAt.getTime() + 30 * 60_000),
    total: 100n,
    threshold: 100n,
    quotedRate: d('2000'),
    currentRate: d('2000'),
  };
  const rule = { minutes: 30, rateMovePercent: d('2.5') };

  it('is off at 0 minutes', () => {
    expect(judgeLatePayment({ ...rule, minutes: 0 }, payment)).toBe('rule-off');
  });

  it('takes a payment exactly N minutes late, not a millisecond later', () => {
    expect(judgeLatePayment(rule, payment)).toBe('accepted');
    expect(judgeLatePayment(rule, { ...payment, firstSeenAt: new Date(payment.firstSeenAt.getTime() + 1) })).toBe(
      'too-late',
    );
  });

  it('leaves a total below the threshold', () => {
    expect(judgeLatePayment(rule, { ...payment, total: 99n })).toBe('short');
  });

  it('takes a move below X %, not one of exactly X %, either way', () => {
    expect(judgeLatePayment(rule, { ...payment, currentRate: d('2049.99') })).toBe('accepted');
    expect(judgeLatePayment(rule, { ...payment, currentRate: d('2050') })).toBe('rate-moved');
    expect(judgeLatePayment(rule, { ...payment, currentRate: d('1950.01') })).toBe('accepted');
    expect(judgeLatePayment(rule, { ...payment, currentRate: d('1950') })).toBe('rate-moved');
  });

  it('needs no rate for an order priced in its coin, and leaves a quote without a current price', () => {
    expect(judgeLatePayment(rule, { ...payment, quotedRate: null, currentRate: null })).toBe('accepted');
    expect(judgeLatePayment(rule, { ...payment, currentRate: null })).toBe('rate-unknown');
  });
});

describe('movedLessThan', () => {
  it('compares exactly across scales', () => {
    expect(movedLessThan(d('0.000012'), d('0.0000121'), d('1'))).toBe(true);
    expect(movedLessThan(d('0.000012'), d('0.00001212'), d('1'))).toBe(false);
    expect(movedLessThan(d('1'), d('1'), d('0'))).toBe(false);
  });
});

describe('requotedRemainder', () => {
  it('asks the price left at the current price, rounded up to a base unit', () => {
    // 0.5 coin left at 2000 = 1000 of the price; at 2500 that is 0.4 coin.
    expect(requotedRemainder(50_000_000n, d('2000'), d('2500'))).toBe(40_000_000n);
    // The price fell: more coin for the same price left.
    expect(requotedRemainder(50_000_000n, d('2000'), d('1000'))).toBe(100_000_000n);
    // 1 unit at 1 / 3: a third of a unit is asked as one whole unit.
    expect(requotedRemainder(1n, d('1'), d('3'))).toBe(1n);
    expect(requotedRemainder(10n, d('0.000012'), d('0.0000121'))).toBe(10n);
    expect(requotedRemainder(10n ** 30n, d('3.3'), d('1.1'))).toBe(3n * 10n ** 30n);
  });
});

describe("the payer's refund", () => {
  const order = (status: 'partial' | 'overpaid' | 'processed', received: bigint) => ({
    status,
    amount: 1000n,
    received,
    excessClaimPercent: null,
  });
  it('gives an underpaid order back what it received, an overpaid one its excess, within what is left', () => {
    expect(payerRefundAmount('sent', order('partial', 400n), 400n)).toBe(400n);
    expect(payerRefundAmount('sent', order('partial', 400n), 300n)).toBe(300n);
    expect(payerRefundAmount('excess', order('overpaid', 1500n), 1500n)).toBe(500n);
    expect(payerRefundAmount('excess', order('partial', 400n), 400n)).toBeNull();
    expect(payerRefundAmount('sent', order('overpaid', 1500n), 1500n)).toBeNull();
    expect(payerRefundAmount('sent', order('processed', 1000n), 1000n)).toBeNull();
  });
  it('asks at least the minimum (1 % of the amount)', () => {
    expect(payerRefundAmount('excess', order('overpaid', 1010n), 1010n)).toBe(10n);
    expect(payerRefundAmount('excess', order('overpaid', 1009n), 1009n)).toBeNull();
    expect(payerRefundAmount('sent', order('partial', 400n), 0n)).toBeNull();
  });
  it('the payment page offers the kind of its status, from the order alone, and nothing once settled', () => {
    const facts = (
      status: 'partial' | 'overpaid' | 'processed' | 'expired',
      received: bigint,
      settled = false,
      late = 0n,
    ) => ({
      ...order(status as 'partial', received),
      status,
      late,
      settled,
    });
    expect(payerRefundOffer(facts('partial', 400n))).toEqual({ kind: 'sent', amount: 400n });
    expect(payerRefundOffer(facts('overpaid', 1500n))).toEqual({ kind: 'excess', amount: 500n });
    expect(payerRefundOffer(facts('overpaid', 1010n))).toEqual({ kind: 'excess', amount: 10n });
    expect(payerRefundOffer(facts('overpaid', 1009n))).toBeNull();
    expect(payerRefundOffer(facts('partial', 9n))).toBeNull();
    expect(payerRefundOffer(facts('partial', 400n, true))).toBeNull();
    expect(payerRefundOffer(facts('processed', 1000n))).toBeNull();
    expect(payerRefundOffer(facts('expired', 0n))).toBeNull();
    // Paid late, outside the merchant's rule: the late payments, at least the minimum.
    expect(payerRefundOffer(facts('expired', 0n, false, 1000n))).toEqual({ kind: 'sent', amount: 1000n });
    expect(payerRefundOffer(facts('expired', 0n, false, 10n))).toEqual({ kind: 'sent', amount: 10n });
    expect(payerRefundOffer(facts('expired', 0n, false, 9n))).toBeNull();
    expect(payerRefundOffer(facts('expired', 0n, true, 1000n))).toBeNull();
    expect(lateRefundAmount(1000n, 0n)).toBeNull();
  });
});

describe("the merchant's threshold for excess claims (docs/decisions/091)", () => {
  const percent = (text: string) => parsePercent(text)!;
  const overpaid = (received: bigint, excessClaimPercent: string | null) => ({
    status: 'overpaid' as const,
    amount: 1000n,
    received,
    excessClaimPercent: excessClaimPercent === null ? null : percent(excessClaimPercent),
  });

  it('is the share of the amount the merchant set, rounded up, never below the minimum against dust', () => {
    expect(excessClaimMinimum(1000n, null)).toBe(10n);
    expect(excessClaimMinimum(1000n, percent('5'))).toBe(50n);
    expect(excessClaimMinimum(1000n, percent('2.55'))).toBe(26n);
    expect(excessClaimMinimum(1000n, percent('0.5'))).toBe(10n);
    expect(excessClaimMinimum(101n, percent('1.000001'))).toBe(2n);
  });

  it('offers and makes a claim at the threshold, none a base unit below; "get back what I sent" keeps the minimum', () => {
    expect(payerRefundAmount('excess', overpaid(1050n, '5'), 1050n)).toBe(50n);
    expect(payerRefundAmount('excess', overpaid(1049n, '5'), 1049n)).toBeNull();
    const offer = (received: bigint, threshold: string | null) => ({
      ...overpaid(received, threshold),
      late: 0n,
      settled: false,
    });
    expect(payerRefundOffer(offer(1050n, '5'))).toEqual({ kind: 'excess', amount: 50n });
    expect(payerRefundOffer(offer(1049n, '5'))).toBeNull();
    expect(payerRefundOffer(offer(1010n, null))).toEqual({ kind: 'excess', amount: 10n });
    const partial = { status: 'partial' as const, amount: 1000n, received: 10n, excessClaimPercent: percent('50') };
    expect(payerRefundAmount('sent', partial, 10n)).toBe(10n);
  });
});

describe("the merchant's decision, transition by transition (docs/decisions/091)", () => {
  const waiting: MispaymentFacts = {
    status: 'expired',
    amount: 500n,
    arrived: 5n,
    isRemainder: false,
    settled: false,
    refunding: false,
  };

  it('an expired or underpaid order that received something waits for a decision', () => {
    expect(mispaymentStanding(waiting)).toBe('waiting');
    expect(mispaymentStanding({ ...waiting, status: 'partial' })).toBe('waiting');
  });
  it('nothing to decide: nothing arrived, a remainder order, or an order that ended paid, pending or refused', () => {
    expect(mispaymentStanding({ ...waiting, arrived: 0n })).toBe('none');
    expect(mispaymentStanding({ ...waiting, isRemainder: true })).toBe('none');
    for (const status of ['pending', 'processed', 'overpaid', 'error'] as const)
      expect(mispaymentStanding({ ...waiting, status })).toBe('none');
  });
  it('dust waits for nothing: below the minimum (1 % of the amount, rounded up) arrived, nothing to decide', () => {
    expect(mispaymentStanding({ ...waiting, amount: 100_000n, arrived: 999n })).toBe('none');
    expect(mispaymentStanding({ ...waiting, amount: 100_000n, arrived: 1_000n })).toBe('waiting');
    expect(mispaymentStanding({ ...waiting, status: 'partial', amount: 100_001n, arrived: 1_000n })).toBe('none');
    expect(mispaymentStanding({ ...waiting, status: 'partial', amount: 100_001n, arrived: 1_001n })).toBe('waiting');
    // A payer's refund of dust cannot exist (the same minimum), a team's may: still nothing to decide.
    expect(mispaymentStanding({ ...waiting, amount: 100_000n, arrived: 999n, refunding: true })).toBe('none');
  });
  it('waiting → refunding when a refund of what arrived holds an amount (the payer asked, or the team refunded)', () => {
    expect(mispaymentStanding({ ...waiting, refunding: true })).toBe('refunding');
    expect(mispaymentStanding({ ...waiting, status: 'partial', refunding: true })).toBe('refunding');
  });
  it('refunding → waiting when that refund is canceled or fails (it holds nothing any more)', () => {
    expect(mispaymentStanding({ ...waiting, refunding: false })).toBe('waiting');
  });
  it('settled whatever else holds: a settlement is recorded once', () => {
    expect(mispaymentStanding({ ...waiting, settled: true })).toBe('settled');
    expect(mispaymentStanding({ ...waiting, settled: true, refunding: true })).toBe('settled');
  });

  const cases: [MispaymentStanding, MerchantDecision, ReturnType<typeof decideFrom>][] = [
    ['waiting', 'accept', { settles: 'accepted' }],
    ['waiting', 'leave', { settles: 'left' }],
    ['waiting', 'refund', { settles: 'refunded' }],
    ['refunding', 'accept', { refused: 'PaymentBeingRefunded' }],
    ['refunding', 'leave', { refused: 'PaymentBeingRefunded' }],
    ['refunding', 'refund', { refused: 'PaymentBeingRefunded' }],
    ['settled', 'accept', { refused: 'NothingToDecide' }],
    ['settled', 'leave', { refused: 'NothingToDecide' }],
    ['settled', 'refund', { refused: 'NothingToDecide' }],
    ['none', 'accept', { refused: 'NothingToDecide' }],
    ['none', 'leave', { refused: 'NothingToDecide' }],
    ['none', 'refund', { refused: 'NothingToDecide' }],
  ];
  it.each(cases)('%s + %s', (standing, decision, outcome) => {
    expect(decideFrom(standing, decision)).toEqual(outcome);
  });
});

describe('"pay the rest" on the payer\'s page, standing by standing (docs/decisions/102)', () => {
  const cases: [MispaymentStanding, boolean, PayerRestStanding][] = [
    ['waiting', false, 'offered'],
    // Asked, but nobody gave an address yet: the page answers alike (decision 088), the rest stays open.
    ['refunding', false, 'offered'],
    // The claim was used: the money goes back, paying the rest would move it twice.
    ['refunding', true, 'refunding'],
    ['settled', false, 'settled'],
    ['settled', true, 'settled'],
    ['none', false, 'none'],
  ];
  it.each(cases)('%s, an address given: %s → %s', (standing, addressGiven, shown) => {
    expect(payerRestStanding(standing, addressGiven)).toBe(shown);
  });
});
