/**
 * The ways a refund may be paid now, decided in one place (docs/decisions/116): by a plan the
 * signer signs (decision 081), or from any wallet and completed by its transaction id ("Sent by
 * hand", decision 092; "Send with wallet" is one of those, decision 098). A refund is paid once: a
 * refund an open plan pays (prepared, or its transaction seen and not yet confirmed, failed or
 * stale) is paid by that plan only, and one recorded as sent by hand is no longer ready, so it
 * gets no plan. The order page offers what this allows, and lib/refunds' plan and completion
 * refuse, in their own transaction, what it refuses.
 */
import type { ChainFamily } from '../catalog';
import type { RefundApproval, RefundState } from '../protocol';

/** What decides how a refund may be paid. */
export interface RefundPayFacts {
  state: RefundState;
  approval: RefundApproval;
  /** The address the payer confirmed; null while none is. */
  address: string | null;
  /** The refund's open plan (lib/payouts), null when it has none. */
  openPlanId: string | null;
}

/** `plan`: a plan for the signer; `by_hand`: any wallet, completed by its transaction id. */
export type RefundPayWay = 'plan' | 'by_hand';

const NOT_YET: Record<RefundPayWay, string> = {
  plan: 'sent: it is sent once the payer confirmed an address',
  by_hand: 'completed: it is completed once the payer confirmed an address',
};

/** Why `refund` cannot be paid `way` now (lib/refunds' RefundStateConflict says it); null when it can. */
export function refundPayRefusal(refund: RefundPayFacts, way: RefundPayWay): string | null {
  if (refund.state !== 'ready' || !refund.address)
    return `a refund that is ${refund.state.replace('_', ' ')} cannot be ${NOT_YET[way]}`;
  if (refund.approval === 'required')
    return "this refund is above the owner's threshold: a second person must approve it first";
  if (refund.openPlanId)
    return way === 'plan'
      ? `an open plan pays this refund already: ${refund.openPlanId}`
      : `plan ${refund.openPlanId} pays this refund: it is paid by that plan only; cancel the refund (its plan is discarded) before paying it another way`;
  return null;
}

/**
 * A plan's fee rate (base units per virtual byte) means something on the Bitcoin family only: an
 * EVM refund plan's treasury pays the gas at the node's prices, a Solana one the network's fee.
 */
export function takesPlanFeeRate(family: ChainFamily | undefined): boolean {
  return family === 'utxo';
}

/** What the order page offers a refund: a plan (with a fee rate to give, or none), "Sent by hand" and "Send with wallet". */
export interface RefundPayWays {
  plan: boolean;
  feeRate: boolean;
  byHand: boolean;
}

/** What the order page offers for `refund` on a network of `family`. */
export function refundPayWays(refund: RefundPayFacts, family: ChainFamily | undefined): RefundPayWays {
  const plan = refundPayRefusal(refund, 'plan') === null;
  return { plan, feeRate: plan && takesPlanFeeRate(family), byHand: refundPayRefusal(refund, 'by_hand') === null };
}
