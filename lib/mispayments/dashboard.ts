import 'server-only';
/**
 * What the dashboard shows of orders' mispayments (docs/decisions/069, 091): whether each waits for
 * the merchant's decision (or no longer does, what arrived being refunded), its remainder order or
 * the order it is the rest of, and its settlement. One statement for a page of orders, scoped to
 * the merchant and mode.
 */
import { orderResolutions, orders, param, sql, statement, type Queryable, type RowOf } from '../db';
import { formatUnits } from '../money';
import { decimalsOf } from '../orders';
import { standingOf, waitsForDecision } from './standing';
import { MISPAID_ORDER_COLUMNS, WITH_REMAINDER, type MispaidOrder } from './facts';
import { remainderLeft } from './remainder';

export interface OrderMispayment {
  /** Expired or underpaid with something received, not settled, no refund of it under way: the orders list flags it, the order page offers the decision. */
  waiting: boolean;
  /** Who is refunding what arrived, while no settlement was recorded (the order page says why it no longer waits). */
  refundedBy: 'payer' | 'team' | null;
  /** What a remainder would ask (decimal), when the payer may still open one. */
  restLeft: string | null;
  rest: { orderId: string; status: string } | null;
  /** The order whose rest this order is. */
  remainderOf: string | null;
  /** What the order's late payments received in its coin (decimal; "0" when none). */
  late: string;
  settlement: {
    kind: RowOf<typeof orderResolutions>['kind'];
    decidedBy: RowOf<typeof orderResolutions>['decided_by'];
    totalReceived: string;
    at: Date;
  } | null;
}

type Row = MispaidOrder & {
  decided_by: RowOf<typeof orderResolutions>['decided_by'] | null;
  total_received: string | null;
  resolved_at: Date | null;
};

const OF_ORDERS = statement<Row, { ids: string[]; merchantId: string; mode: string }>(
  sql`select ${MISPAID_ORDER_COLUMNS}, ${orderResolutions.decidedBy}, ${orderResolutions.totalReceived}::text as total_received,
          ${orderResolutions.createdAt} as resolved_at
     from ${orders} ${WITH_REMAINDER}
     left join ${orderResolutions} on ${orderResolutions.orderId} = ${orders.id}
    where ${orders.id} = any(${param('ids')}::uuid[]) and ${orders.merchantId} = ${param('merchantId')} and ${orders.mode} = ${param('mode')}`,
);

/** The mispayment facts of the scope's orders, by id; an order with nothing to show is left out. */
export async function mispaymentsOf(
  db: Queryable,
  scope: { merchantId: string; mode: string },
  orderIds: readonly string[],
): Promise<Map<string, OrderMispayment>> {
  const byId = new Map<string, OrderMispayment>();
  if (orderIds.length === 0) return byId;
  for (const row of await OF_ORDERS.run(db, { ...scope, ids: [...orderIds] })) {
    const decimals = decimalsOf(row.network, row.currency);
    const left = remainderLeft(row);
    const facts: OrderMispayment = {
      waiting: waitsForDecision(row),
      refundedBy: standingOf(row) === 'refunding' ? row.refunded_by : null,
      restLeft: left === null || row.rest_id ? null : formatUnits(left, decimals),
      rest: row.rest_id ? { orderId: row.rest_id, status: row.rest_status! } : null,
      remainderOf: row.remainder_of,
      late: formatUnits(BigInt(row.late), decimals),
      settlement:
        row.resolution_kind === null
          ? null
          : {
              kind: row.resolution_kind,
              decidedBy: row.decided_by!,
              totalReceived: formatUnits(BigInt(row.total_received!), decimals),
              at: row.resolved_at!,
            },
    };
    if (facts.waiting || facts.refundedBy || facts.rest || facts.remainderOf || facts.settlement || facts.restLeft)
      byId.set(row.id, facts);
  }
  return byId;
}
