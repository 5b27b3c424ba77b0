import 'server-only';
/**
 * Keeps each invoice's status on the state machine (./lifecycle) inside the transactions that move
 * it: the watcher's settling of the invoice's order (lib/watcher/settle.ts calls `followOrders`
 * with the order rows locked) and the sweep of invoices whose time ran out with no order running.
 * A final status writes the invoice's event and webhook in the same transaction.
 */
import { bare, invoices, orders, param, sql, statement, type Database, type Queryable } from '../db';
import type { OrderRow } from '../orders';
import { FINAL_INVOICE_STATUSES, type InvoiceStatus, type OrderStatus } from '../protocol';
import { publishInvoiceEvent } from '../webhooks';
import { invoiceStatus } from './lifecycle';
import type { InvoiceRow } from './rows';
import { invoiceWebhookBody, serializeInvoice } from './serialize';

export interface InvoiceStatusChange {
  invoiceId: string;
  from: InvoiceStatus;
  to: InvoiceStatus;
}

const SET_STATUS = statement<InvoiceRow, { id: string; status: InvoiceStatus }>(
  sql`update ${invoices} set ${bare(invoices.status)} = ${param('status')}, ${bare(invoices.updatedAt)} = now() where ${invoices.id} = ${param('id')} returning *`,
);
const ORDER = statement<OrderRow, { id: string }>(sql`select * from ${orders} where ${orders.id} = ${param('id')}`);

async function applyStatus(
  tx: Queryable,
  invoice: InvoiceRow,
  status: InvoiceStatus,
): Promise<InvoiceStatusChange | null> {
  if (status === invoice.status) return null;
  const [updated] = await SET_STATUS.run(tx, { id: invoice.id, status });
  if (FINAL_INVOICE_STATUSES.has(status)) {
    const [order] = invoice.order_id ? await ORDER.run(tx, { id: invoice.order_id }) : [];
    const final = { invoice: updated!, order: order ?? null };
    await publishInvoiceEvent(tx, {
      invoiceId: invoice.id,
      orderId: invoice.order_id,
      merchantId: invoice.merchant_id,
      mode: invoice.mode,
      status,
      url: invoice.webhook_url,
      apiKeyId: invoice.api_key_id,
      data: JSON.stringify(serializeInvoice(final)),
      bodyOf: (eventId) => invoiceWebhookBody(final, eventId),
    });
  }
  return { invoiceId: invoice.id, from: invoice.status, to: status };
}

/** An order of an invoice as its settling left it, with whether a payment of it was seen. */
export interface FollowedOrder {
  order: { id: string; invoice_id: string | null; status: OrderStatus };
  paymentSeen: boolean;
}

const LOCK_FOLLOWING = statement<InvoiceRow, { ids: string[]; orderIds: string[] }>(
  sql`select * from ${invoices} where ${invoices.id} = any(${param('ids')}::uuid[]) and ${invoices.orderId} = any(${param('orderIds')}::uuid[])
   order by ${invoices.id} for update`,
);

/**
 * After orders of invoices were evaluated (their rows locked by the caller): each invoice follows
 * its order, if the order is still the invoice's latest choice (an abandoned choice moves
 * nothing). The invoices are locked with one statement, in a fixed order; those whose status
 * moves are written one by one (few: most settlings move no invoice). `now` is the time the
 * orders were judged at, so that an order expired on chain time expires its invoice on the same
 * clock.
 */
export async function followOrders(
  tx: Queryable,
  followed: readonly FollowedOrder[],
  now: Date,
): Promise<(InvoiceStatusChange & { orderId: string })[]> {
  const invoiceIds = [...new Set(followed.flatMap(({ order }) => (order.invoice_id ? [order.invoice_id] : [])))];
  if (invoiceIds.length === 0) return [];
  // Several orders of one invoice may settle together (a choice abandoned for another coin).
  const byOrder = new Map(followed.map((f) => [f.order.id, f]));
  const locked = await LOCK_FOLLOWING.run(tx, { ids: invoiceIds, orderIds: [...byOrder.keys()] });
  const changes: (InvoiceStatusChange & { orderId: string })[] = [];
  for (const invoice of locked) {
    const { order, paymentSeen } = byOrder.get(invoice.order_id!)!;
    if (order.invoice_id !== invoice.id || FINAL_INVOICE_STATUSES.has(invoice.status)) continue;
    const change = await applyStatus(
      tx,
      invoice,
      invoiceStatus({ expiresAt: invoice.expires_at, order: { status: order.status, paymentSeen } }, now),
    );
    if (change) changes.push({ ...change, orderId: order.id });
  }
  return changes;
}

const SWEEP_BATCH = 500;
const DUE = statement<{ id: string }, { now: Date }>(
  sql`select ${invoices.id} from ${invoices} where ${invoices.status} = 'CREATED' and ${invoices.expiresAt} <= ${param('now')}
   order by ${invoices.expiresAt} limit ${sql.raw(String(SWEEP_BATCH))}`,
);
const LOCK_CREATED = statement<InvoiceRow, { id: string }>(
  sql`select * from ${invoices} where ${invoices.id} = ${param('id')} and ${invoices.status} = 'CREATED' for update`,
);

/**
 * Expires the invoices whose time ran out with no order running (no coin chosen, or the chosen
 * coin's order expired unpaid). An invoice with a running order expires with that order, on its
 * network's chain time: a payment made in time may sit in a block not read yet.
 */
export async function sweepInvoices(db: Database, now = new Date()): Promise<InvoiceStatusChange[]> {
  const due = await DUE.run(db, { now });
  const changes: InvoiceStatusChange[] = [];
  for (const { id } of due) {
    const change = await db.transaction(async (tx) => {
      const [invoice] = await LOCK_CREATED.run(tx, { id });
      return invoice
        ? applyStatus(tx, invoice, invoiceStatus({ expiresAt: invoice.expires_at, order: null }, now))
        : null;
    });
    if (change) changes.push(change);
  }
  return changes;
}
