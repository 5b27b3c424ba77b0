import 'server-only';
import type { Queryable } from '../db';
import type { ApiKey } from '../merchants';
import type { OrderRow } from '../orders';
import { isUuid, type InvoiceStatus } from '../protocol';
import type { InvoiceRow, InvoiceWithOrder } from './rows';
import { NotFound } from '../errors';

/** The orders of `invoices`' latest choices, by id. */
export async function withOrders(db: Queryable, invoices: InvoiceRow[]): Promise<InvoiceWithOrder[]> {
  const ids = invoices.flatMap((i) => (i.order_id ? [i.order_id] : []));
  const orders = ids.length > 0 ? await db.query<OrderRow>('select * from orders where id = any($1::uuid[])', [ids]) : [];
  const byId = new Map(orders.map((o) => [o.id, o]));
  return invoices.map((invoice) => ({ invoice, order: (invoice.order_id && byId.get(invoice.order_id)) || null }));
}

/** One invoice of the caller with its order; another merchant's or mode's invoice is not found. */
export async function getInvoice(db: Queryable, key: Pick<ApiKey, 'merchantId' | 'mode'>, invoiceId: string): Promise<InvoiceWithOrder> {
  if (!isUuid(invoiceId)) throw new NotFound('Invoice', invoiceId);
  const rows = await db.query<InvoiceRow>('select * from invoices where id = $1 and merchant_id = $2 and mode = $3', [invoiceId, key.merchantId, key.mode]);
  if (!rows[0]) throw new NotFound('Invoice', invoiceId);
  return (await withOrders(db, rows))[0]!;
}

/** The caller's invoices, newest first, optionally filtered by status. */
export async function listInvoices(
  db: Queryable,
  key: Pick<ApiKey, 'merchantId' | 'mode'>,
  filter: { status?: InvoiceStatus[]; limit: number; offset: number },
): Promise<{ invoices: InvoiceWithOrder[]; total: number }> {
  const statuses = filter.status && filter.status.length > 0 ? filter.status : null;
  const where = `merchant_id = $1 and mode = $2 and ($3::text[] is null or status = any($3::text[]))`;
  const rows = await db.query<InvoiceRow>(`select * from invoices where ${where} order by created_at desc, id desc limit $4 offset $5`, [
    key.merchantId, key.mode, statuses, filter.limit, filter.offset,
  ]);
  const [count] = await db.query<{ n: number }>(`select count(*)::int as n from invoices where ${where}`, [key.merchantId, key.mode, statuses]);
  return { invoices: await withOrders(db, rows), total: count!.n };
}
