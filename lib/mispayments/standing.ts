/**
 * Where an order's mispayment stands, from the facts one statement reads of it (./facts): the
 * pure rules of ./rules applied to a row, the one home for the dashboard, the decisions, the
 * watcher's settlements and the payer's page.
 */
import type { MispaidOrder } from './facts';
import { mispaymentStanding, payerRestStanding, type MispaymentStanding, type PayerRestStanding } from './rules';

type StandingFacts = Pick<
  MispaidOrder,
  'status' | 'amount' | 'received' | 'late' | 'resolution_kind' | 'remainder_of' | 'refunded_by'
>;

/** Where the order's mispayment stands for the merchant (./rules `mispaymentStanding`), from its facts. */
export function standingOf(order: StandingFacts): MispaymentStanding {
  return mispaymentStanding({
    status: order.status,
    amount: BigInt(order.amount),
    arrived: BigInt(order.received) + BigInt(order.late),
    isRemainder: order.remainder_of !== null,
    settled: order.resolution_kind !== null,
    refunding: order.refunded_by !== null,
  });
}

/**
 * An order waits for a decision: it ended expired or underpaid, at least the minimum arrived (dust
 * waits for nothing), nothing settled it, and no refund of it is under way.
 */
export function waitsForDecision(order: StandingFacts): boolean {
  return standingOf(order) === 'waiting';
}

/** What the payer's page shows of "pay the rest" for this order (./rules `payerRestStanding`). */
export function payerRestStandingOf(
  order: StandingFacts & Pick<MispaidOrder, 'refund_address_given'>,
): PayerRestStanding {
  return payerRestStanding(standingOf(order), order.refund_address_given);
}
