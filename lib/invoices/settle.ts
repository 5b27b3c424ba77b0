import 'server-only';
/**
 * Keeps each invoice on its state machine (./lifecycle) inside the transactions that move it: the
 * watcher's settling of any of its orders (lib/watcher/settle.ts calls `followOrders` with the
 * order rows locked) and the sweep of invoices whose time ran out with no order running. A final
 * status writes the invoice's webhook in the same transaction; an order whose money the invoice
 * does not keep is flagged for refund in its message.
 */
import {
  bare,
  invoices,
  orders,
  param,
  payments,
  sql,
  statement,
  type Database,
  type Queryable,
  type RowOf,
} from '../db';
import { log } from '../log';
import type { OrderRow } from '../orders';
import { FINAL_INVOICE_STATUSES, type InvoiceStatus } from '../protocol';
import { enqueueInvoiceWebhook } from '../webhooks';
import { evaluateInvoice, type InvoiceOrder } from './lifecycle';
import type { InvoiceRow } from './rows';
import { invoiceWebhookBody } from './serialize';

export interface InvoiceStatusChange {
  invoiceId: string;
  from: InvoiceStatus;
  to: InvoiceStatus;
}

type InvoiceOrderRow = Pick<RowOf<typeof orders>, 'id' | 'invoice_id' | 'status' | 'created_at'> & {
  payment_seen: boolean;
};
/** Every order of the invoices, with whether a payment of it was seen (settling wrote its `payments` rows first). */
const ORDERS_OF_INVOICES = statement<InvoiceOrderRow, { ids: string[] }>(
  sql`select ${orders.id}, ${orders.invoiceId}, ${orders.status}, ${orders.createdAt},
        exists (select 1 from ${payments} where ${payments.orderId} = ${orders.id} and ${payments.status} <> 'reversed') as payment_seen
   from ${orders} where ${orders.invoiceId} = any(${param('ids')}::uuid[])`,
);
const DECIDE = statement<InvoiceRow, { id: string; status: InvoiceStatus; orderId: string | null }>(
  sql`update ${invoices} set ${bare(invoices.status)} = ${param('status')}, ${bare(invoices.orderId)} = ${param('orderId')},
     ${bare(invoices.rate)} = case when ${invoices.orderId} is not distinct from ${param('orderId')} then ${invoices.rate}
                                   else ${invoices.orderRates} ->> ${param('orderId')}::text end,
     ${bare(invoices.updatedAt)} = now()
   where ${invoices.id} = ${param('id')} returning *`,
);
const ORDER = statement<OrderRow, { id: string }>(sql`select * from ${orders} where ${orders.id} = ${param('id')}`);
/**
 * Orders already locked by this transaction are its own; another's lock means that transaction
 * is settling the order and follows the invoice itself before it commits, flagging it then.
 */
const FLAG_FOR_REFUND = statement<Pick<OrderRow, 'id'>, { ids: string[]; message: string }>(
  sql`update ${orders} set ${bare(orders.message)} = ${param('message')}, ${bare(orders.updatedAt)} = now()
   where ${orders.id} in (select ${orders.id} from ${orders} where ${orders.id} = any(${param('ids')}::uuid[]) and ${orders.message} is null
                           for update skip locked)
   returning ${orders.id}`,
);

/** What an order whose money its invoice does not keep says to the merchant. */
function refundMessage(invoice: Pick<InvoiceRow, 'id' | 'status' | 'order_id'>): string {
  const decidedBy = invoice.order_id ? ` (order ${invoice.order_id})` : '';
  return `This payment is not part of invoice ${invoice.id}, which is ${invoice.status}${decidedBy}: refund it to the payer.`;
}

/**
 * Evaluates one locked invoice over its orders and writes what moved: its status and the order it
 * answers with (and that order's rate), its webhook once final, and the refund flags.
 */
async function follow(
  tx: Queryable,
  invoice: InvoiceRow,
  own: readonly InvoiceOrder[],
  now: Date,
): Promise<InvoiceStatusChange | null> {
  const evaluation = evaluateInvoice(
    { status: invoice.status, expiresAt: invoice.expires_at, orderId: invoice.order_id, orders: own },
    now,
  );
  let current = invoice;
  if (evaluation.status !== invoice.status || evaluation.orderId !== invoice.order_id) {
    current = (await DECIDE.run(tx, { id: invoice.id, status: evaluation.status, orderId: evaluation.orderId }))[0]!;
    if (FINAL_INVOICE_STATUSES.has(evaluation.status) && !FINAL_INVOICE_STATUSES.has(invoice.status)) {
      await enqueueWebhook(tx, current);
    }
  }
  if (evaluation.toRefund.length > 0) {
    const flagged = await FLAG_FOR_REFUND.run(tx, { ids: evaluation.toRefund, message: refundMessage(current) });
    for (const { id } of flagged)
      log.warn('payment to refund: its invoice was decided by another order', {
        invoiceId: invoice.id,
        orderId: id,
        decidedBy: current.order_id,
      });
  }
  return evaluation.status === invoice.status
    ? null
    : { invoiceId: invoice.id, from: invoice.status, to: evaluation.status };
}

async function enqueueWebhook(tx: Queryable, invoice: InvoiceRow): Promise<void> {
  if (!invoice.webhook_url) return;
  const [order] = invoice.order_id ? await ORDER.run(tx, { id: invoice.order_id }) : [];
  await enqueueInvoiceWebhook(
    tx,
    {
      invoiceId: invoice.id,
      orderId: invoice.order_id,
      merchantId: invoice.merchant_id,
      mode: invoice.mode,
      status: invoice.status,
      url: invoice.webhook_url,
    },
    (eventId) => invoiceWebhookBody({ invoice, order: order ?? null }, eventId),
  );
}

/** The orders of each invoice of `ids`, as the lifecycle takes them. */
async function ordersOf(tx: Queryable, ids: string[]): Promise<Map<string, InvoiceOrder[]>> {
  const byInvoice = new Map<string, InvoiceOrder[]>();
  for (const row of await ORDERS_OF_INVOICES.run(tx, { ids })) {
    const order = { id: row.id, status: row.status, paymentSeen: row.payment_seen, createdAt: row.created_at };
    const list = byInvoice.get(row.invoice_id!);
    if (list) list.push(order);
    else byInvoice.set(row.invoice_id!, [order]);
  }
  return byInvoice;
}

const LOCK_INVOICES = statement<InvoiceRow, { ids: string[] }>(
  sql`select * from ${invoices} where ${invoices.id} = any(${param('ids')}::uuid[]) order by ${invoices.id} for update`,
);

/**
 * After orders of invoices were settled (their rows locked and written by the caller): each of
 * their invoices follows every order it made. The invoices are locked with one statement, in a
 * fixed order, before their orders are read: every transaction that moves an order of an
 * invoice locks the invoice too, so what is read is what the others committed. Few invoices
 * move in a settling: they are written one by one. `now` is the time the orders were judged at,
 * so that an order expired on chain time expires its invoice on the same clock.
 */
export async function followOrders(
  tx: Queryable,
  invoiceIds: readonly string[],
  now: Date,
): Promise<InvoiceStatusChange[]> {
  if (invoiceIds.length === 0) return [];
  const locked = await LOCK_INVOICES.run(tx, { ids: [...new Set(invoiceIds)] });
  const byInvoice = await ordersOf(
    tx,
    locked.map((i) => i.id),
  );
  const changes: InvoiceStatusChange[] = [];
  for (const invoice of locked) {
    const change = await follow(tx, invoice, byInvoice.get(invoice.id) ?? [], now);
    if (change) changes.push(change);
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
 * Expires the invoices whose time ran out with no order running (no coin chosen, or every chosen
 * coin's order ran out unpaid). An invoice with a running order is decided with its orders, on
 * their network's chain time: a payment made in time may sit in a block not read yet.
 */
export async function sweepInvoices(db: Database, now = new Date()): Promise<InvoiceStatusChange[]> {
  const due = await DUE.run(db, { now });
  const changes: InvoiceStatusChange[] = [];
  for (const { id } of due) {
    const change = await db.transaction(async (tx) => {
      const [invoice] = await LOCK_CREATED.run(tx, { id });
      if (!invoice) return null;
      return follow(tx, invoice, (await ordersOf(tx, [id])).get(id) ?? [], now);
    });
    if (change) changes.push(change);
  }
  return changes;
}
