/**
 * The rules of mispayments (docs/decisions/069) as pure functions: what is left for a remainder
 * order to ask, and whether the merchant's late-payment rule takes a late payment as settling the
 * order. Amounts are base units (bigint), rates and percentages exact decimals: never a float.
 */
import type { Decimal, Percent } from '../money';
import type { OrderStatus } from '../protocol';

/**
 * A remainder smaller than this share of the order's amount (per mille) is not worth an order: a
 * payer who sent 99.95 % has paid, and a remainder of a few base units would cost more in network
 * fees than it asks (and could be farmed for addresses). The merchant settles such an order from
 * the dashboard. 10 ‰ = 1 %.
 */
export const REMAINDER_MINIMUM_PER_MILLE = 10n;

/** What an order received in its coin: its counted payments and its confirmed late payments (orphan deposits of its coin). */
export interface ReceivedFacts {
  status: OrderStatus;
  amount: bigint;
  /** Counted payments (`orders.received`). */
  received: bigint;
  /** Confirmed transfers of the order's coin after its deadline (never counted by the order). */
  late: bigint;
}

/** The least a remainder may ask: REMAINDER_MINIMUM_PER_MILLE of the amount, rounded up, at least one base unit. */
export function remainderMinimum(amount: bigint): bigint {
  const minimum = (amount * REMAINDER_MINIMUM_PER_MILLE + 999n) / 1000n;
  return minimum > 0n ? minimum : 1n;
}

/**
 * What a remainder order of this order asks, or null when it offers none: only an order that ended
 * underpaid (`partial`), or `expired` with a late payment, when what arrived reaches the minimum
 * (docs/decisions/091: dust sent to an order's address is no start of a payment, and opens no
 * address), and only when at least the minimum is left.
 */
export function remainderAmount(order: ReceivedFacts): bigint | null {
  const total = order.received + order.late;
  const eligible = order.status === 'partial' || order.status === 'expired';
  if (!eligible || total < remainderMinimum(order.amount)) return null;
  const left = order.amount - total;
  return left >= remainderMinimum(order.amount) ? left : null;
}

/**
 * The least excess of an overpaid order its payer may claim (docs/decisions/091): the merchant's own
 * share of the amount (`percent`, rounded up), never below the minimum against dust
 * (`remainderMinimum`); the minimum alone when the merchant set none.
 */
export function excessClaimMinimum(amount: bigint, percent: Percent | null): bigint {
  const minimum = remainderMinimum(amount);
  if (percent === null) return minimum;
  const hundred = 100n * 10n ** BigInt(percent.scale);
  const own = (amount * percent.value + hundred - 1n) / hundred;
  return own > minimum ? own : minimum;
}

/** What a payer may ask back on the payment page (docs/decisions/082): what an underpaid order received, or an overpaid order's excess. */
export type PayerRefundKind = 'sent' | 'excess';

/**
 * What a payer-started refund of this kind asks, or null when the order offers none: "get back
 * what I sent" on a `partial` order (its counted payments), "claim the excess" on an `overpaid`
 * one (received less the amount); never less than the remainder's minimum (1 % of the amount), so
 * that dust cannot be farmed into refunds whose fees cost more than they return, and an excess never
 * less than the merchant's own threshold for claims (`excessClaimMinimum`). `left`: what is not
 * refunded yet of the order.
 */
export function payerRefundAmount(
  kind: PayerRefundKind,
  order: { status: OrderStatus; amount: bigint; received: bigint; excessClaimPercent: Percent | null },
  left: bigint,
): bigint | null {
  const asked =
    kind === 'sent' && order.status === 'partial'
      ? order.received
      : kind === 'excess' && order.status === 'overpaid'
        ? order.received - order.amount
        : 0n;
  const amount = asked < left ? asked : left;
  const least =
    kind === 'excess' ? excessClaimMinimum(order.amount, order.excessClaimPercent) : remainderMinimum(order.amount);
  return amount > 0n && amount >= least ? amount : null;
}

/**
 * What the payment page offers its payer to ask back (docs/decisions/088), from the order's own
 * facts only: an unsettled `partial` order offers "get back what I sent" (its counted payments),
 * an `expired` one paid late and not taken by the merchant's rule the same for its confirmed late
 * payments (`late`), an unsettled `overpaid` one "claim the excess" when the excess reaches the
 * merchant's threshold; each when it reaches the minimum. Refunds already made are not read on
 * purpose: the page would otherwise show who asked (and that the order has an e-mail address);
 * asking again answers alike (`requestPayerRefund`).
 */
export function payerRefundOffer(order: {
  status: OrderStatus;
  amount: bigint;
  received: bigint;
  late: bigint;
  settled: boolean;
  excessClaimPercent: Percent | null;
}): { kind: PayerRefundKind; amount: bigint } | null {
  if (order.settled) return null;
  if (order.status === 'expired') {
    const late = lateRefundAmount(order.amount, order.late);
    return late === null ? null : { kind: 'sent', amount: late };
  }
  const kind: PayerRefundKind | null =
    order.status === 'partial' ? 'sent' : order.status === 'overpaid' ? 'excess' : null;
  if (!kind) return null;
  const amount = payerRefundAmount(kind, order, order.received);
  return amount === null ? null : { kind, amount };
}

/**
 * Where a final order's mispayment stands for the merchant (docs/decisions/069, 091, 102):
 * - `none`: nothing to decide: not expired or underpaid, a remainder order, or what arrived (in
 *   time and late) is below the minimum (`remainderMinimum`, 1 % of the amount): dust is no start
 *   of a payment, and flagging it would let anyone fill the merchant's list for a few base units;
 * - `waiting`: something arrived and nothing settled it: the merchant may accept, leave or refund;
 * - `refunding`: a refund of what arrived is under way or done (asked by the payer, or made by the
 *   team), not canceled or failed: accepting it now would keep money that goes back; canceling the
 *   refund makes the order wait again;
 * - `settled`: its settlement is recorded (remainder paid, the rule, or a decision), once.
 */
export type MispaymentStanding = 'none' | 'waiting' | 'refunding' | 'settled';

export interface MispaymentFacts {
  status: OrderStatus;
  /** The order's amount, base units. */
  amount: bigint;
  /** What the order counted and its confirmed late payments, base units. */
  arrived: bigint;
  /** The order is the remainder of another (its original is the one that is settled). */
  isRemainder: boolean;
  settled: boolean;
  /** A refund of the order's payments or late payments holds an amount (not canceled or failed). */
  refunding: boolean;
}

export function mispaymentStanding(order: MispaymentFacts): MispaymentStanding {
  if (order.settled) return 'settled';
  if (order.status !== 'expired' && order.status !== 'partial') return 'none';
  if (order.isRemainder || order.arrived < remainderMinimum(order.amount)) return 'none';
  return order.refunding ? 'refunding' : 'waiting';
}

/**
 * What the payer's page shows of "pay the rest" (docs/decisions/102), from where the order stands
 * (`mispaymentStanding`) and whether a refund of what arrived has its address given (the claim
 * was used: the refund is ready, being sent or sent):
 * - `offered`: the payer may open (or go on to) the remainder order, when something is left;
 * - `refunding`: what arrived goes back: paying the rest would move money twice, so the page says
 *   it is being refunded (never who asked) and offers no remainder;
 * - `settled`: the order's settlement is recorded;
 * - `none`: nothing to show.
 * A refund still awaiting its address changes nothing here: the page answers a payer's ask alike
 * whether or not the order has an e-mail address (docs/decisions/088), and paying the rest then
 * cancels that refund (`resolvePaidRemainders`).
 */
export type PayerRestStanding = 'offered' | 'refunding' | 'settled' | 'none';

export function payerRestStanding(standing: MispaymentStanding, refundAddressGiven: boolean): PayerRestStanding {
  if (standing === 'settled') return 'settled';
  if (standing === 'refunding') return refundAddressGiven ? 'refunding' : 'offered';
  return standing === 'waiting' ? 'offered' : 'none';
}

/** The merchant's decision on the order page: accept what arrived, leave it as it is, or refund it (fee deducted). */
export type MerchantDecision = 'accept' | 'leave' | 'refund';
/** The settlement a decision records (`order_resolutions.kind`). */
export type DecidedKind = 'accepted' | 'left' | 'refunded';

/**
 * What the merchant's decision does from a standing: the settlement it records, or the refusal
 * (`NothingToDecide`: none or settled already; `PaymentBeingRefunded`: a refund of it is under way).
 */
export function decideFrom(
  standing: MispaymentStanding,
  decision: MerchantDecision,
): { settles: DecidedKind } | { refused: 'NothingToDecide' | 'PaymentBeingRefunded' } {
  if (standing === 'refunding') return { refused: 'PaymentBeingRefunded' };
  if (standing !== 'waiting') return { refused: 'NothingToDecide' };
  return { settles: decision === 'accept' ? 'accepted' : decision === 'leave' ? 'left' : 'refunded' };
}

/**
 * "Get back what I sent" on an order that expired and was paid late (issue 38: a late payment the
 * merchant's rule did not take): what its late payments left to refund, `left`, when at least the
 * minimum; null otherwise.
 */
export function lateRefundAmount(amount: bigint, left: bigint): bigint | null {
  return left > 0n && left >= remainderMinimum(amount) ? left : null;
}

/** The merchant's late-payment rule (dashboard settings). `minutes` 0 switches it off. */
export interface LateRule {
  minutes: number;
  /** The price may have moved strictly less than this, in percent. */
  rateMovePercent: Decimal;
}

export interface LatePayment {
  expiresAt: Date;
  /** When the last of the late payments that complete the order was first seen. */
  firstSeenAt: Date;
  /** What the order and its late payments received, and the least that completes it. */
  total: bigint;
  threshold: bigint;
  /**
   * The price of one coin when the order was made, and now (an invoice's order); null for an
   * order priced in its coin (make-order), whose price cannot move.
   */
  quotedRate: Decimal | null;
  currentRate: Decimal | null;
}

/** Why the rule took or left a late payment (the dashboard shows it; the resolution records acceptance). */
export type LateVerdict = 'accepted' | 'rule-off' | 'short' | 'too-late' | 'rate-moved' | 'rate-unknown';

/**
 * Whether the rule takes late payments as settling the order: the rule is on, they bring the order
 * to its threshold, the last arrived within `minutes` after the deadline (inclusive), and the price
 * moved strictly less than `rateMovePercent` since the quote (a quote without a current price is
 * left to the merchant).
 */
export function judgeLatePayment(rule: LateRule, payment: LatePayment): LateVerdict {
  if (rule.minutes <= 0) return 'rule-off';
  if (payment.total < payment.threshold) return 'short';
  const lateBy = payment.firstSeenAt.getTime() - payment.expiresAt.getTime();
  if (lateBy > rule.minutes * 60_000) return 'too-late';
  if (payment.quotedRate === null) return 'accepted';
  if (payment.currentRate === null) return 'rate-unknown';
  return movedLessThan(payment.quotedRate, payment.currentRate, rule.rateMovePercent) ? 'accepted' : 'rate-moved';
}

/** |current − quoted| < quoted × percent / 100, exactly (both sides scaled to whole numbers). */
export function movedLessThan(quoted: Decimal, current: Decimal, percent: Decimal): boolean {
  const scale = Math.max(quoted.scale, current.scale);
  const at = (d: Decimal) => d.value * 10n ** BigInt(scale - d.scale);
  const q = at(quoted);
  const c = at(current);
  const difference = c > q ? c - q : q - c;
  return difference * 100n * 10n ** BigInt(percent.scale) < q * percent.value;
}

/**
 * What is left of an invoice's order, in base units of its coin, asked again at the current price:
 * the price currency's value of `left` at the quote the payer accepted, at today's price of the coin
 * = ceil(left × quoted / current), exactly, rounded up like every quote (lib/money `coinUnitsFor`):
 * the payer is never asked a fraction of a base unit less than what is left of the price.
 */
export function requotedRemainder(left: bigint, quoted: Decimal, current: Decimal): bigint {
  if (current.value === 0n) throw new RangeError('the current price must be positive');
  const numerator = left * quoted.value * 10n ** BigInt(current.scale);
  const denominator = current.value * 10n ** BigInt(quoted.scale);
  return (numerator + denominator - 1n) / denominator;
}
