import 'server-only';
import type { Queryable } from '../db';
import type { ApiKey } from '../merchants';
import { isUuid, type OrderStatus } from '../protocol';
import { ORDER_PAYMENT_COLUMNS, type OrderPayment, type OrderRow } from './rows';
import { NotFound } from '../errors';

export { evaluateOrder, isLateTransfer, type Evaluation, type ObservedTransfer, type SettledRole, type TransferRole } from './lifecycle';
export { makeOrder, type Caller, type OrderRequest } from './make';
export { decimalsOf, paymentLink, serializeOrder, serializeOrderDetails } from './serialize';
export * from './errors';
export type { OrderPayment, OrderRow, PaymentRow } from './rows';

/** One order of the caller with its payments; another merchant's or mode's order is not found. */
export async function getOrder(db: Queryable, key: ApiKey, orderId: string): Promise<{ order: OrderRow; payments: OrderPayment[] }> {
  if (!isUuid(orderId)) throw new NotFound('Order', orderId);
  const [order] = await db.query<OrderRow>('select * from orders where id = $1 and merchant_id = $2 and mode = $3', [
    orderId, key.merchantId, key.mode,
  ]);
  if (!order) throw new NotFound('Order', orderId);
  return { order, payments: await orderPayments(db, orderId) };
}

const ORDER_PAYMENTS = `select ${ORDER_PAYMENT_COLUMNS.join(', ')} from payments where order_id = $1 order by created_at, id`;

/** The payments of an order, oldest first, as its answers show them. */
export function orderPayments(db: Queryable, orderId: string): Promise<OrderPayment[]> {
  return db.query<OrderPayment>(ORDER_PAYMENTS, [orderId]);
}

const PAYMENTS_OF_ORDERS = `select order_id, ${ORDER_PAYMENT_COLUMNS.join(', ')} from payments where order_id = any($1::uuid[]) order by created_at, id`;

/** `orderPayments` of many orders in one statement, by order id (an order without payments has none). */
export async function paymentsOfOrders(db: Queryable, orderIds: readonly string[]): Promise<Map<string, OrderPayment[]>> {
  const byOrder = new Map<string, OrderPayment[]>();
  if (orderIds.length === 0) return byOrder;
  for (const { order_id: orderId, ...payment } of await db.query<OrderPayment & { order_id: string }>(PAYMENTS_OF_ORDERS, [orderIds])) {
    const list = byOrder.get(orderId);
    if (list) list.push(payment);
    else byOrder.set(orderId, [payment]);
  }
  return byOrder;
}

/** The caller's orders, newest first, optionally filtered by status. */
export async function listOrders(
  db: Queryable,
  key: ApiKey,
  filter: { status?: OrderStatus[]; limit: number; offset: number },
): Promise<{ orders: OrderRow[]; total: number }> {
  const statuses = filter.status && filter.status.length > 0 ? filter.status : null;
  const rows = await db.query<OrderRow & { total: number }>(
    `select *, count(*) over ()::int as total from orders
      where merchant_id = $1 and mode = $2 and ($3::text[] is null or status = any($3::text[]))
      order by created_at desc, id desc limit $4 offset $5`,
    [key.merchantId, key.mode, statuses, filter.limit, filter.offset],
  );
  const total = rows[0]?.total ?? (filter.offset > 0 ? await countOrders(db, key, statuses) : 0);
  return { orders: rows.map(({ total: _total, ...row }) => row), total };
}

async function countOrders(db: Queryable, key: ApiKey, statuses: string[] | null): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from orders where merchant_id = $1 and mode = $2 and ($3::text[] is null or status = any($3::text[]))`,
    [key.merchantId, key.mode, statuses],
  );
  return row!.n;
}
