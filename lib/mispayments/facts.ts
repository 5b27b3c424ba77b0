import 'server-only';
/**
 * What settling an order's mispayment reads of it: the order, its confirmed late payments in its
 * coin (orphan deposits of the order: a final order never counts them), its remainder order, its
 * settlement, whether a refund of its money is under way (and has its address), and its merchant's threshold for excess
 * claims. One statement.
 */
import {
  alias,
  chainTransfers,
  deposits,
  invoices,
  merchants,
  orderResolutions,
  orders,
  param,
  refunds,
  sql,
  statement,
  type Queryable,
  type RowOf,
} from '../db';
import type { OrderRow } from '../orders';

export type MispaidOrder = OrderRow & {
  /** Sum of its confirmed deposits in its coin, base units. */
  late: string;
  /** When the last of them was first seen. */
  last_late_at: Date | null;
  rest_id: string | null;
  rest_status: OrderRow['status'] | null;
  rest_received: string | null;
  resolution_kind: RowOf<typeof orderResolutions>['kind'] | null;
  /** An invoice's order: the invoice's price currency and the rate the order was made at (price of one coin in it). */
  quote_currency: string | null;
  quote_rate: string | null;
  /**
   * Who made the refunds of the order's payments and late payments that hold an amount (not
   * canceled or failed): `payer` when one was asked on the payment page, else `team`; null for none.
   */
  refunded_by: 'payer' | 'team' | null;
  /** One of those refunds has its address given (ready, sent or confirmed): the money goes back (docs/decisions/102). */
  refund_address_given: boolean;
  /** The merchant's threshold for excess claims (numeric text, percent), null for the minimum alone. */
  excess_claim_percent: string | null;
};

const r = alias(orders, 'r');
const LATE = sql`from ${deposits} join ${chainTransfers} on ${chainTransfers.network} = ${deposits.network} and ${chainTransfers.mode} = ${deposits.mode}
   and ${chainTransfers.txHash} = ${deposits.inTxHash} and ${chainTransfers.outputIndex} = ${deposits.inOutputIndex}
  where ${deposits.orderId} = ${orders.id} and ${deposits.currency} = ${orders.currency} and ${deposits.status} = 'PROCESSED'`;
/** The columns of `MispaidOrder`, over `orders` (unaliased) in the statement's `from`. */
export const MISPAID_ORDER_COLUMNS = sql`${orders}.*,
  coalesce((select sum(${deposits.amount}) ${LATE}), 0)::text as late,
  (select max(${chainTransfers.firstSeenAt}) ${LATE}) as last_late_at,
  ${r.id} as rest_id, ${r.status} as rest_status, ${r.received}::text as rest_received,
  (select ${orderResolutions.kind} from ${orderResolutions} where ${orderResolutions.orderId} = ${orders.id}) as resolution_kind,
  (select ${invoices.currency} from ${invoices} where ${invoices.id} = ${orders.invoiceId}) as quote_currency,
  (select ${invoices.orderRates} ->> ${orders.id}::text from ${invoices} where ${invoices.id} = ${orders.invoiceId}) as quote_rate,
  (select case when bool_or(${refunds.createdBy} = 'payer') then 'payer' else 'team' end from ${refunds}
    where ${refunds.orderId} = ${orders.id} and ${refunds.state} not in ('canceled', 'failed') having count(*) > 0) as refunded_by,
  exists (select 1 from ${refunds} where ${refunds.orderId} = ${orders.id}
    and ${refunds.state} not in ('awaiting_address', 'canceled', 'failed')) as refund_address_given,
  (select ${merchants.excessClaimPercent}::text from ${merchants} where ${merchants.id} = ${orders.merchantId}) as excess_claim_percent`;
/** Joins each order's remainder (alias `r`) for `MISPAID_ORDER_COLUMNS`. */
export const WITH_REMAINDER = sql`left join ${orders} r on ${r.remainderOf} = ${orders.id}`;

const MISPAID_ORDER = statement<MispaidOrder, { id: string }>(
  sql`select ${MISPAID_ORDER_COLUMNS} from ${orders} ${WITH_REMAINDER} where ${orders.id} = ${param('id')}`,
);

/** The order with what settling its mispayment needs; undefined when there is none of that id. */
export async function mispaidOrder(db: Queryable, orderId: string): Promise<MispaidOrder | undefined> {
  const [row] = await MISPAID_ORDER.run(db, { id: orderId });
  return row;
}
