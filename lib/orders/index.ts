import 'server-only';
import { columnsOf, orders, param, payments, sql, statement, type Queryable } from '../db';
import type { ApiKey } from '../merchants';
import { isUuid, type OrderStatus } from '../protocol';
import { ORDER_PAYMENT_COLUMNS, type OrderPayment, type OrderRow } from './rows';
import { NotFound } from '../errors';

export {
  evaluateOrder,
  isLateTransfer,
  type Evaluation,
  type ObservedTransfer,
  type SettledRole,
  type TransferRole,
} from './lifecycle';
export { makeOrder, type Caller, type OrderRequest } from './make';
export { decimalsOf, paymentLink, serializeOrder, serializeOrderDetails } from './serialize';
export * from './errors';
export type { OrderPayment, OrderRow, PaymentRow } from './rows';

type Scoped = { merchantId: string; mode: string };

const ORDER_OF_SCOPE = statement<OrderRow, Scoped & { id: string }>(
  sql`select * from ${orders} where ${orders.id} = ${param('id')} and ${orders.merchantId} = ${param('merchantId')} and ${orders.mode} = ${param('mode')}`,
);

/** One order of the caller with its payments; another merchant's or mode's order is not found. */
export async function getOrder(
  db: Queryable,
  key: ApiKey,
  orderId: string,
): Promise<{ order: OrderRow; payments: OrderPayment[] }> {
  if (!isUuid(orderId)) throw new NotFound('Order', orderId);
  const [order] = await ORDER_OF_SCOPE.run(db, { id: orderId, merchantId: key.merchantId, mode: key.mode });
  if (!order) throw new NotFound('Order', orderId);
  return { order, payments: await orderPayments(db, orderId) };
}

const ORDER_PAYMENTS = statement<OrderPayment, { orderId: string }>(
  sql`select ${columnsOf(payments, ORDER_PAYMENT_COLUMNS)} from ${payments} where ${payments.orderId} = ${param('orderId')} order by ${payments.createdAt}, ${payments.id}`,
);

/** The payments of an order, oldest first, as its answers show them. */
export function orderPayments(db: Queryable, orderId: string): Promise<OrderPayment[]> {
  return ORDER_PAYMENTS.run(db, { orderId });
}

const PAYMENTS_OF_ORDERS = statement<OrderPayment & { order_id: string }, { orderIds: string[] }>(
  sql`select ${payments.orderId}, ${columnsOf(payments, ORDER_PAYMENT_COLUMNS)} from ${payments}
   where ${payments.orderId} = any(${param('orderIds')}::uuid[]) order by ${payments.createdAt}, ${payments.id}`,
);

/** `orderPayments` of many orders in one statement, by order id (an order without payments has none). */
export async function paymentsOfOrders(
  db: Queryable,
  orderIds: readonly string[],
): Promise<Map<string, OrderPayment[]>> {
  const byOrder = new Map<string, OrderPayment[]>();
  if (orderIds.length === 0) return byOrder;
  for (const { order_id: orderId, ...payment } of await PAYMENTS_OF_ORDERS.run(db, { orderIds: [...orderIds] })) {
    const list = byOrder.get(orderId);
    if (list) list.push(payment);
    else byOrder.set(orderId, [payment]);
  }
  return byOrder;
}

type Listing = Scoped & { statuses: string[] | null };

/** The caller's orders matching the statuses (all when null). */
const LISTED = sql`${orders.merchantId} = ${param('merchantId')} and ${orders.mode} = ${param('mode')}
  and (${param('statuses')}::text[] is null or ${orders.status} = any(${param('statuses')}::text[]))`;

const LIST_ORDERS = statement<OrderRow & { total: number }, Listing & { limit: number; offset: number }>(
  sql`select *, count(*) over ()::int as total from ${orders}
   where ${LISTED}
   order by ${orders.createdAt} desc, ${orders.id} desc limit ${param('limit')} offset ${param('offset')}`,
);
const COUNT_ORDERS = statement<{ n: number }, Listing>(sql`select count(*)::int as n from ${orders} where ${LISTED}`);

/** The caller's orders, newest first, optionally filtered by status. */
export async function listOrders(
  db: Queryable,
  key: ApiKey,
  filter: { status?: OrderStatus[]; limit: number; offset: number },
): Promise<{ orders: OrderRow[]; total: number }> {
  const statuses = filter.status && filter.status.length > 0 ? filter.status : null;
  const rows = await LIST_ORDERS.run(db, {
    merchantId: key.merchantId,
    mode: key.mode,
    statuses,
    limit: filter.limit,
    offset: filter.offset,
  });
  const total = rows[0]?.total ?? (filter.offset > 0 ? await countOrders(db, key, statuses) : 0);
  return { orders: rows.map(({ total: _total, ...row }) => row), total };
}

async function countOrders(db: Queryable, key: ApiKey, statuses: string[] | null): Promise<number> {
  const [row] = await COUNT_ORDERS.run(db, { merchantId: key.merchantId, mode: key.mode, statuses });
  return row!.n;
}
