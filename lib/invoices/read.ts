import 'server-only';
import { invoices, orders, param, sql, statement, type Queryable } from '../db';
import type { ApiKey } from '../merchants';
import type { OrderRow } from '../orders';
import { isUuid, type InvoiceStatus } from '../protocol';
import { lineItemsOf } from './items';
import type { InvoiceRow, InvoiceWithOrder } from './rows';
import type { InvoiceLineItem } from './view';
import { NotFound } from '../errors';

const ORDERS_BY_ID = statement<OrderRow, { ids: string[] }>(
  sql`select * from ${orders} where ${orders.id} = any(${param('ids')}::uuid[])`,
);

/** The orders of `rows`' latest choices, by id. */
export async function withOrders(db: Queryable, rows: InvoiceRow[]): Promise<InvoiceWithOrder[]> {
  const ids = rows.flatMap((i) => (i.order_id ? [i.order_id] : []));
  const found = ids.length > 0 ? await ORDERS_BY_ID.run(db, { ids }) : [];
  const byId = new Map(found.map((o) => [o.id, o]));
  return rows.map((invoice) => ({ invoice, order: (invoice.order_id && byId.get(invoice.order_id)) || null }));
}

type Scoped = { merchantId: string; mode: string };

const INVOICE_OF_SCOPE = statement<InvoiceRow, Scoped & { id: string }>(
  sql`select * from ${invoices} where ${invoices.id} = ${param('id')} and ${invoices.merchantId} = ${param('merchantId')} and ${invoices.mode} = ${param('mode')}`,
);

/** One invoice of the caller with its order; another merchant's or mode's invoice is not found. */
export async function getInvoice(
  db: Queryable,
  key: Pick<ApiKey, 'merchantId' | 'mode'>,
  invoiceId: string,
): Promise<InvoiceWithOrder> {
  if (!isUuid(invoiceId)) throw new NotFound('Invoice', invoiceId);
  const rows = await INVOICE_OF_SCOPE.run(db, { id: invoiceId, merchantId: key.merchantId, mode: key.mode });
  if (!rows[0]) throw new NotFound('Invoice', invoiceId);
  return (await withOrders(db, rows))[0]!;
}

type Listing = Scoped & { statuses: string[] | null };

/** The caller's invoices matching the statuses (all when null). */
const LISTED = sql`${invoices.merchantId} = ${param('merchantId')} and ${invoices.mode} = ${param('mode')}
  and (${param('statuses')}::text[] is null or ${invoices.status} = any(${param('statuses')}::text[]))`;
const LIST_INVOICES = statement<InvoiceRow, Listing & { limit: number; offset: number }>(
  sql`select * from ${invoices} where ${LISTED} order by ${invoices.createdAt} desc, ${invoices.id} desc limit ${param('limit')} offset ${param('offset')}`,
);
const COUNT_INVOICES = statement<{ n: number }, Listing>(
  sql`select count(*)::int as n from ${invoices} where ${LISTED}`,
);

/** The caller's invoices, newest first, optionally filtered by status. */
export async function listInvoices(
  db: Queryable,
  key: Pick<ApiKey, 'merchantId' | 'mode'>,
  filter: { status?: InvoiceStatus[]; limit: number; offset: number },
): Promise<{ invoices: InvoiceWithOrder[]; total: number }> {
  const statuses = filter.status && filter.status.length > 0 ? filter.status : null;
  const listing = { merchantId: key.merchantId, mode: key.mode, statuses };
  const rows = await LIST_INVOICES.run(db, { ...listing, limit: filter.limit, offset: filter.offset });
  const [count] = await COUNT_INVOICES.run(db, listing);
  return { invoices: await withOrders(db, rows), total: count!.n };
}

const LINE_ITEMS = statement<Pick<InvoiceRow, 'items' | 'price_decimals'>, { id: string }>(
  sql`select ${invoices.items}, ${invoices.priceDecimals} from ${invoices} where ${invoices.id} = ${param('id')}`,
);

/** An invoice's line items as its documents show them (./items); none for an unknown invoice. Payer-safe. */
export async function invoiceLineItems(db: Queryable, invoiceId: string): Promise<InvoiceLineItem[]> {
  const [row] = await LINE_ITEMS.run(db, { id: invoiceId });
  return row ? lineItemsOf(row.items, row.price_decimals) : [];
}
