import 'server-only';
/**
 * The merchant's decision on a mispaid order from the dashboard (docs/decisions/069, 091): accept
 * what arrived as settling it, leave it as it is, or refund what arrived (one refund per payment,
 * the fee deducted, its claim link mailed to the payer or shown to the team). Each is a settlement
 * with its `order.resolved` event, written in one transaction with the refunds; the caller audits
 * it. Where the order stands (`mispaymentStanding`) is the one rule of what may be decided.
 */
import { bare, orders, param, sql, statement, type Database } from '../db';
import { NotFound } from '../errors';
import { isUuid, type OrderResolution } from '../protocol';
import { writeRefund, type MadeRefund } from '../refunds';
import { NothingToDecide, PaymentBeingRefunded } from './errors';
import { MISPAID_ORDER_COLUMNS, WITH_REMAINDER, type MispaidOrder } from './facts';
import { arrivedPayments } from './payer-refund';
import { recordResolution } from './resolve';
import { decideFrom, type MerchantDecision } from './rules';
import { standingOf } from './standing';

const LOCK_OWN = statement<MispaidOrder, { id: string; merchantId: string; mode: string }>(
  sql`select ${MISPAID_ORDER_COLUMNS} from ${orders} ${WITH_REMAINDER}
   where ${orders.id} = ${param('id')} and ${orders.merchantId} = ${param('merchantId')} and ${orders.mode} = ${param('mode')}
   for update of ${orders}`,
);

/**
 * Closes the settled order's open remainder: its deadline becomes the decision (the transaction's
 * instant), so a transfer first seen later is a late orphan deposit of it, never a second payment
 * of a settled order. A payment already seen by then still counts, as for any order; the sweeper
 * then ends it like any order past its deadline (SPEC "Order lifecycle": once the watcher has
 * scanned past it), `expired` or `partial` with its own event and error webhook.
 */
const CLOSE_REMAINDER = statement<unknown, { id: string }>(
  sql`update ${orders} set ${bare(orders.expiresAt)} = least(${orders.expiresAt}, now()), ${bare(orders.updatedAt)} = now()
   where ${orders.id} = ${param('id')} and ${orders.status} = 'pending'`,
);

// The remainder is locked before its original, as the watcher locks them (it settles the remainder,
// then the original it pays): the other order would let a decision and a payment deadlock. A
// payment settling the remainder then commits first (the decision finds the original settled or
// the remainder final) or judges by the cut deadline.
const LOCK_REMAINDER = statement<{ id: string }, { originalId: string }>(
  sql`select ${orders.id} from ${orders} where ${orders.remainderOf} = ${param('originalId')} for update`,
);

/** A decision recorded: the settlement, and for a refund the refunds made (their claim links, for the team to share). */
export interface DecidedMispayment {
  resolution: OrderResolution;
  refunds: MadeRefund[];
}

/**
 * Records the merchant's decision on its order; NotFound for another's, NothingToDecide when it
 * waits for none, PaymentBeingRefunded when a refund of what arrived is under way. Nothing is
 * written by a refusal.
 */
export async function decideMispayment(
  db: Database,
  scope: { merchantId: string; mode: 'live' | 'test'; userId: string },
  orderId: string,
  decision: MerchantDecision,
  now: Date = new Date(),
): Promise<DecidedMispayment> {
  if (!isUuid(orderId)) throw new NotFound('Order', orderId);
  return db.transaction(async (tx) => {
    await LOCK_REMAINDER.run(tx, { originalId: orderId });
    const [order] = await LOCK_OWN.run(tx, { id: orderId, merchantId: scope.merchantId, mode: scope.mode });
    if (!order) throw new NotFound('Order', orderId);
    const outcome = decideFrom(standingOf(order), decision);
    if ('refused' in outcome)
      throw outcome.refused === 'PaymentBeingRefunded'
        ? new PaymentBeingRefunded(orderId, order.refunded_by ?? 'team')
        : new NothingToDecide(orderId);
    const made: MadeRefund[] = [];
    if (outcome.settles === 'refunded') {
      const owner = { merchantId: scope.merchantId, mode: scope.mode };
      for (const { target, left } of await arrivedPayments(tx, order, owner)) {
        if (left === 0n) continue;
        // The payer gets what arrived less the network fee, as for the payer's own refunds (docs/decisions/082).
        made.push(
          await writeRefund(tx, owner, {
            target,
            amount: left,
            createdBy: `user:${scope.userId}`,
            feeFromRefund: true,
            now,
          }),
        );
      }
    }
    const resolution = await recordResolution(tx, order, {
      kind: outcome.settles,
      decidedBy: 'merchant',
      userId: scope.userId,
    });
    if (!resolution) throw new NothingToDecide(orderId);
    if (order.rest_id !== null && order.rest_status === 'pending') await CLOSE_REMAINDER.run(tx, { id: order.rest_id });
    return { resolution, refunds: made };
  });
}
