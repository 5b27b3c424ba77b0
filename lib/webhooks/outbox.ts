import 'server-only';
/**
 * The outbox: a webhook is written in the caller's transaction, the one that changes the order's
 * status. Both commit or neither does, so a status change is never without its webhook and a
 * rolled-back change never sends one. The commit also wakes the dispatchers (NOTIFY is delivered
 * on commit only).
 */
import { randomUUID } from 'node:crypto';
import { bare, orders, param, placeholders, sql, statement, unnest, webhookEvents, type Queryable } from '../db';
import { paymentsOfOrders, type OrderRow } from '../orders';
import type { InvoiceStatus, WebhookKind, Mode } from '../protocol';
import { webhookBody, webhookKindOf } from './payload';

export const WEBHOOK_CHANNEL = 'webhook_due';

export interface EnqueuedWebhook {
  id: string;
  kind: WebhookKind;
  url: string;
}

/** Wakes the dispatchers when the transaction commits (NOTIFY is delivered on commit only). */
export const NOTIFY_DISPATCHERS = sql.raw(`pg_notify('${WEBHOOK_CHANNEL}', '')`);

const ORDERS = statement<OrderRow, { ids: string[] }>(
  sql`select * from ${orders} where ${orders.id} = any(${param('ids')}::uuid[])`,
);

const ORDER_EVENTS = unnest('e', {
  id: webhookEvents.id,
  order_id: webhookEvents.orderId,
  merchant_id: webhookEvents.merchantId,
  mode: webhookEvents.mode,
  kind: webhookEvents.kind,
  order_status: webhookEvents.orderStatus,
  url: webhookEvents.url,
  body: webhookEvents.body,
  api_key_id: webhookEvents.apiKeyId,
});
const ADD_ORDER_EVENTS = statement<{ id: string }>(sql`with added as (
    insert into ${webhookEvents} (${ORDER_EVENTS.names})
    select ${ORDER_EVENTS.names} from ${ORDER_EVENTS.from}
    on conflict (${bare(webhookEvents.orderId)}, ${bare(webhookEvents.kind)}) do nothing
    returning ${bare(webhookEvents.id)}
  )
  select id, ${NOTIFY_DISPATCHERS} from added`);

const INVOICE_EVENT = placeholders([
  'id',
  'order_id',
  'invoice_id',
  'merchant_id',
  'mode',
  'invoice_status',
  'url',
  'body',
  'api_key_id',
]);
const ADD_INVOICE_EVENT = statement<{ id: string }, Record<keyof typeof INVOICE_EVENT, unknown>>(sql`with added as (
    insert into ${webhookEvents} (${bare(webhookEvents.id)}, ${bare(webhookEvents.orderId)}, ${bare(webhookEvents.invoiceId)}, ${bare(webhookEvents.merchantId)},
      ${bare(webhookEvents.mode)}, ${bare(webhookEvents.kind)}, ${bare(webhookEvents.invoiceStatus)}, ${bare(webhookEvents.url)}, ${bare(webhookEvents.body)},
      ${bare(webhookEvents.apiKeyId)})
    values (${INVOICE_EVENT.id}, ${INVOICE_EVENT.order_id}, ${INVOICE_EVENT.invoice_id}, ${INVOICE_EVENT.merchant_id}, ${INVOICE_EVENT.mode}, 'invoice',
      ${INVOICE_EVENT.invoice_status}, ${INVOICE_EVENT.url}, ${INVOICE_EVENT.body}, ${INVOICE_EVENT.api_key_id}::uuid)
    on conflict (${bare(webhookEvents.invoiceId)}) do nothing
    returning ${bare(webhookEvents.id)}
  )
  select id, ${NOTIFY_DISPATCHERS} from added`);

/**
 * Writes the webhooks that the orders' current (final) statuses call for, inside `tx`, for those
 * orders that have a URL for theirs: the settling of a block writes all of its orders' webhooks
 * with three statements, whatever their number. Answers the webhooks written (not those of an
 * order that is not final, has no URL, or had its webhook written already).
 */
export async function enqueueOrderWebhooks(tx: Queryable, orderIds: readonly string[]): Promise<EnqueuedWebhook[]> {
  if (orderIds.length === 0) return [];
  const due = (await ORDERS.run(tx, { ids: [...orderIds] })).flatMap((order) => {
    const kind = webhookKindOf(order.status);
    const url = kind === 'success' ? order.success_webhook : kind === 'error' ? order.error_webhook : null;
    return kind && url ? [{ order, kind, url }] : [];
  });
  if (due.length === 0) return [];
  const payments = await paymentsOfOrders(
    tx,
    due.map(({ order }) => order.id),
  );
  const events = due.map(({ order, kind, url }) => {
    const id = randomUUID();
    return {
      id,
      order_id: order.id,
      merchant_id: order.merchant_id,
      mode: order.mode,
      kind,
      order_status: order.status,
      url,
      body: webhookBody(order, payments.get(order.id) ?? [], id),
      // The key that made the order signs its webhooks (docs/decisions/048).
      api_key_id: order.api_key_id,
    };
  });
  const added = await ADD_ORDER_EVENTS.run(tx, ORDER_EVENTS.values(events));
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
  /** The key that made the invoice: it signs the webhook (docs/decisions/048). */
  apiKeyId: string | null;
}

/**
 * Writes an invoice's webhook inside `tx`, the transaction that made its status final; `bodyOf`
 * writes the body, which carries the event id. An invoice becomes final once: a second call
 * writes nothing and answers null.
 */
export async function enqueueInvoiceWebhook(
  tx: Queryable,
  webhook: InvoiceWebhook,
  bodyOf: (eventId: string) => string,
): Promise<EnqueuedWebhook | null> {
  const id = randomUUID();
  const [row] = await ADD_INVOICE_EVENT.run(tx, {
    id,
    order_id: webhook.orderId,
    invoice_id: webhook.invoiceId,
    merchant_id: webhook.merchantId,
    mode: webhook.mode,
    invoice_status: webhook.status,
    url: webhook.url,
    body: bodyOf(id),
    api_key_id: webhook.apiKeyId,
  });
  return row ? { id, kind: 'invoice', url: webhook.url } : null;
}
