/**
 * A refund sent by hand whose transaction the node no longer finds (docs/decisions/129), as pure
 * rules: what the watcher's re-check counts as missing, and when the merchant may mark the refund
 * not sent. One node's mempool is not the network: a missing transaction is only recorded, and the
 * merchant, who knows their wallet, decides after a while.
 */
import type { RefundTransactionProblem } from './transfer-check';

/**
 * How long a transaction is missing before "Mark as not sent" is offered: an hour. A node that
 * restarted and lost its mempool, or a failover to a node that had not heard of the transaction
 * yet, finds it again within a few passes once a peer relays it, and six Bitcoin blocks (more of
 * the faster chains) have come and gone; a transaction still unseen after that was more likely
 * evicted, replaced or double-spent than delayed.
 */
export const MISSING_BEFORE_NOT_SENT_MS = 60 * 60 * 1000;

/**
 * Whether a re-check's refusal means the transaction is missing: the node does not find it, or it
 * no longer pays the refund (its address, tag or amount). A node that does not answer is no
 * refusal at all: nothing is recorded then.
 */
export function countsAsMissing(problem: RefundTransactionProblem): boolean {
  return problem === 'unknown' || problem === 'address' || problem === 'tag' || problem === 'amount';
}

/** Whether a refund whose transaction is missing since `missingSince` (null: found) may be marked not sent at `now`. */
export function mayMarkNotSent(missingSince: Date | null, now: Date): boolean {
  return missingSince !== null && now.getTime() - missingSince.getTime() >= MISSING_BEFORE_NOT_SENT_MS;
}
