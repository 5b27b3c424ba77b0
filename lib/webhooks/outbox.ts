import 'server-only';
/**
 * The outbox: a webhook is written in the caller's transaction, the one that changes the order's
 * status. Both commit or neither does, so a status change is never without its webhook and a
 * rolled-back change never sends one. The commit also wakes the dispatchers (NOTIFY is delivered
 * on commit only).
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db';
import { orderPayments, type OrderRow } from '../orders';
import type { InvoiceStatus, WebhookKind } from '../protocol';
import { webhookBody, webhookKindOf } from './payload';

export const WEBHOOK_CHANNEL = 'webhook_due';

export interface EnqueuedWebhook {
  id: string;
  kind: WebhookKind;
  url: string;
}

/**
 * Writes the webhook that the order's current (final) status calls for, inside `tx`, if the
 * order has a URL for it. Answers it, or null (not final, no URL, or already written).
 */
export async function enqueueOrderWebhook(tx: Queryable, orderId: string): Promise<EnqueuedWebhook | null> {
  const [order] = await tx.query<OrderRow>('select * from orders where id = $1', [orderId]);
  if (!order) return null;
  const kind = webhookKindOf(order.status);
  const url = kind === 'success' ? order.success_webhook : kind === 'error' ? order.error_webhook : null;
  if (!kind || !url) return null;
  const payments = await orderPayments(tx, orderId);
  const id = randomUUID();
  const [row] = await tx.query<{ id: string }>(
    `with added as (
       insert into webhook_events (id, order_id, merchant_id, mode, kind, order_status, url, body)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (order_id, kind) do nothing
       returning id
     )
     select id, pg_notify('${WEBHOOK_CHANNEL}', '') from added`,
    [id, order.id, order.merchant_id, order.mode, kind, order.status, url, webhookBody(order, payments, id)],
  );
  return row ? { id, kind, url } : null;
}

/** An invoice's webhook: which invoice, the order of its chosen coin, and the final status it reports. */
export interface InvoiceWebhook {
  invoiceId: string;
  orderId: string | null;
  merchantId: string;
  mode: 'test' | 'live';
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
