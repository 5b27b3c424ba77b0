import 'server-only';
/**
 * The outbox: a webhook is written in the caller's transaction, the one that changes the order's
 * status. Both commit or neither does, so a status change is never without its webhook and a
 * rolled-back change never sends one. The commit also wakes the dispatchers (NOTIFY is delivered
 * on commit only).
 */
import { randomUUID } from 'node:crypto';
import { unnestRows, type Queryable } from '../db';
import { paymentsOfOrders, type OrderRow } from '../orders';
import type { InvoiceStatus, WebhookKind, Mode } from '../protocol';
import { webhookBody, webhookKindOf } from './payload';

export const WEBHOOK_CHANNEL = 'webhook_due';

export interface EnqueuedWebhook {
  id: string;
  kind: WebhookKind;
  url: string;
}

const ORDER_EVENTS = unnestRows('e', {
  id: 'uuid', order_id: 'uuid', merchant_id: 'uuid', mode: 'text', kind: 'text', order_status: 'text', url: 'text', body: 'text',
});

/**
 * Writes the webhooks that the orders' current (final) statuses call for, inside `tx`, for those
 * orders that have a URL for theirs: the settling of a block writes all of its orders' webhooks
 * with three statements, whatever their number. Answers the webhooks written (not those of an
 * order that is not final, has no URL, or had its webhook written already).
 */
export async function enqueueOrderWebhooks(tx: Queryable, orderIds: readonly string[]): Promise<EnqueuedWebhook[]> {
  if (orderIds.length === 0) return [];
  const due = (await tx.query<OrderRow>('select * from orders where id = any($1::uuid[])', [orderIds])).flatMap((order) => {
    const kind = webhookKindOf(order.status);
    const url = kind === 'success' ? order.success_webhook : kind === 'error' ? order.error_webhook : null;
    return kind && url ? [{ order, kind, url }] : [];
  });
  if (due.length === 0) return [];
  const payments = await paymentsOfOrders(tx, due.map(({ order }) => order.id));
  const events = due.map(({ order, kind, url }) => {
    const id = randomUUID();
    return {
      id, order_id: order.id, merchant_id: order.merchant_id, mode: order.mode, kind, order_status: order.status, url,
      body: webhookBody(order, payments.get(order.id) ?? [], id),
    };
  });
  const added = await tx.query<{ id: string }>(
    `with added as (
       insert into webhook_events (${ORDER_EVENTS.columns})
       select ${ORDER_EVENTS.columns} from ${ORDER_EVENTS.from}
       on conflict (order_id, kind) do nothing
       returning id
     )
     select id, pg_notify('${WEBHOOK_CHANNEL}', '') from added`,
    ORDER_EVENTS.values(events),
  );
  const written = new Set(added.map((row) => row.id));
  return events.filter((event) => written.has(event.id)).map(({ id, kind, url }) => ({ id, kind, url }));
}

/** An invoice's webhook: which invoice, the order of its chosen coin, and the final status it reports. */
export interface InvoiceWebhook {
  invoiceId: string;
  orderId: string | null;
  merchantId: string;
  mode: Mode;
  status: InvoiceStatus;
  url: string;
}

/**
 * Writes an invoice's webhook inside `tx`, the transaction that made its status final; `bodyOf`
 * writes the body, which carries the event id. An invoice becomes final once: a second call
 * writes nothing and answers null.
 */
export async function enqueueInvoiceWebhook(tx: Queryable, webhook: InvoiceWebhook, bodyOf: (eventId: string) => string): Promise<EnqueuedWebhook | null> {
  const id = randomUUID();
  const [row] = await tx.query<{ id: string }>(
    `with added as (
       insert into webhook_events (id, order_id, invoice_id, merchant_id, mode, kind, invoice_status, url, body)
       values ($1, $2, $3, $4, $5, 'invoice', $6, $7, $8)
       on conflict (invoice_id) do nothing
       returning id
     )
     select id, pg_notify('${WEBHOOK_CHANNEL}', '') from added`,
    [id, webhook.orderId, webhook.invoiceId, webhook.merchantId, webhook.mode, webhook.status, webhook.url, bodyOf(id)],
  );
  return row ? { id, kind: 'invoice', url: webhook.url } : null;
}
