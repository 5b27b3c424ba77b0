import 'server-only';
/**
 * The merchant's decision on a mispaid order from the dashboard (docs/decisions/069): accept what
 * arrived as settling it, or leave it as it is. Either is a settlement with its `order.resolved`
 * event; the caller audits it. A refund is the third choice once refunds exist (issue 37).
 */
import { bare, orders, param, sql, statement, type Database } from '../db';
import { NotFound } from '../errors';
import { isUuid, type OrderResolution } from '../protocol';
import { NothingToDecide } from './errors';
import { MISPAID_ORDER_COLUMNS, WITH_REMAINDER, type MispaidOrder } from './facts';
import { recordResolution } from './resolve';

export type MerchantDecision = 'accept' | 'leave';

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

/** An order waits for a decision: it ended expired or underpaid, something arrived, and nothing settled it yet. */
export function waitsForDecision(
  order: Pick<MispaidOrder, 'status' | 'received' | 'late' | 'resolution_kind' | 'remainder_of'>,
): boolean {
  return (
    (order.status === 'expired' || order.status === 'partial') &&
    order.resolution_kind === null &&
    order.remainder_of === null &&
    BigInt(order.received) + BigInt(order.late) > 0n
  );
}

/** Records the merchant's decision on its order; NotFound for another's, NothingToDecide when it waits for none. */
export async function decideMispayment(
  db: Database,
  scope: { merchantId: string; mode: string; userId: string },
  orderId: string,
  decision: MerchantDecision,
): Promise<OrderResolution> {
  if (!isUuid(orderId)) throw new NotFound('Order', orderId);
  return db.transaction(async (tx) => {
    await LOCK_REMAINDER.run(tx, { originalId: orderId });
    const [order] = await LOCK_OWN.run(tx, { id: orderId, merchantId: scope.merchantId, mode: scope.mode });
    if (!order) throw new NotFound('Order', orderId);
    if (!waitsForDecision(order)) throw new NothingToDecide(orderId);
    const resolution = await recordResolution(tx, order, {
      kind: decision === 'accept' ? 'accepted' : 'left',
      decidedBy: 'merchant',
      userId: scope.userId,
    });
    if (!resolution) throw new NothingToDecide(orderId);
    if (order.rest_id !== null && order.rest_status === 'pending') await CLOSE_REMAINDER.run(tx, { id: order.rest_id });
    return resolution;
  });
}
