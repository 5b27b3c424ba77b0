import 'server-only';
/**
 * The outbox: a change's event (lib/events) and its webhooks are written in the caller's
 * transaction, the one that makes the change. All commit or none does, so a status change is never
 * without its event and webhooks, and a rolled-back change sends nothing. The commit also wakes the
 * dispatchers (NOTIFY is delivered on commit only).
 *
 * An event is delivered to the object's own URL when it has one (the seed's per-order webhooks and
 * an invoice's `webhookURL`: their body keeps the seed's shape and carries the event id as its id),
 * and to every webhook endpoint of the merchant and mode that subscribes to its type (the body is
 * the event itself).
 */
import { randomUUID } from 'node:crypto';
import {
  alias,
  bare,
  chainTransfers,
  deposits,
  events,
  orders,
  param,
  sql,
  statement,
  unnest,
  webhookEndpoints,
  webhookEvents,
  type Queryable,
} from '../db';
import { DEPOSIT_ROWS, serializeDeposit, type DepositRow } from '../deposits';
import { eventJson, eventTypeOfInvoice, eventTypeOfOrder, recordEvents, type NewEvent } from '../events';
import { isLateTransfer, paymentsOfOrders, serializeOrderDetails, type OrderRow } from '../orders';
import type { InvoiceStatus, Mode, OrderResolution, OrderStatus, WebhookKind } from '../protocol';
import { webhookBody, webhookKindOf } from './payload';

export const WEBHOOK_CHANNEL = 'webhook_due';

/** Wakes the dispatchers when the transaction commits (NOTIFY is delivered on commit only). */
export const NOTIFY_DISPATCHERS = sql.raw(`pg_notify('${WEBHOOK_CHANNEL}', '')`);

/** An event with the object's own webhook, when the object has a URL for it. */
interface Publication {
  event: NewEvent;
  own: {
    kind: WebhookKind;
    url: string;
    /** The seed-shaped body, with the event id as its id. */
    body: string;
    orderId: string | null;
    invoiceId: string | null;
    orderStatus: OrderStatus | null;
    invoiceStatus: InvoiceStatus | null;
    /** The key that made the object: it signs the webhook (docs/decisions/048). */
    apiKeyId: string | null;
  } | null;
}

/** A delivery written: its id (for the object's own webhook, the event's), kind and URL. */
export interface EnqueuedWebhook {
  id: string;
  kind: WebhookKind;
  url: string;
}

const PUBLISHED = unnest('p', {
  id: webhookEvents.id,
  event_type: webhookEvents.eventType,
  merchant_id: webhookEvents.merchantId,
  mode: webhookEvents.mode,
  envelope: 'text',
  kind: webhookEvents.kind,
  url: 'text',
  body: 'text',
  order_id: webhookEvents.orderId,
  invoice_id: webhookEvents.invoiceId,
  order_status: webhookEvents.orderStatus,
  invoice_status: webhookEvents.invoiceStatus,
  api_key_id: webhookEvents.apiKeyId,
});
const p = PUBLISHED.ref;
const we = webhookEvents;
const ep = alias(webhookEndpoints, 'ep');
/**
 * The deliveries of recorded events, one statement: the object's own (its id the event's) and one
 * per endpoint that subscribes to the event's type.
 */
const ENQUEUE = statement<EnqueuedWebhook>(sql`with own as (
    insert into ${we} (${sql.join([we.id, we.eventId, we.eventType, we.apiKeyId, we.orderId, we.invoiceId, we.merchantId, we.mode, we.kind, we.orderStatus, we.invoiceStatus, we.url, we.body].map(bare), sql`, `)})
    select ${p.id}, ${p.id}, ${p.event_type}, ${p.api_key_id}, ${p.order_id}, ${p.invoice_id}, ${p.merchant_id}, ${p.mode}, ${p.kind}, ${p.order_status}, ${p.invoice_status}, ${p.url}, ${p.body}
      from ${PUBLISHED.from} where ${p.url} is not null
    on conflict do nothing
    returning ${we.id}, ${we.kind}, ${we.url}
  ), fanned as (
    insert into ${we} (${sql.join([we.id, we.eventId, we.eventType, we.endpointId, we.merchantId, we.mode, we.kind, we.url, we.body].map(bare), sql`, `)})
    select gen_random_uuid(), ${p.id}, ${p.event_type}, ${ep.id}, ${p.merchant_id}, ${p.mode}, 'endpoint', ${ep.url}, ${p.envelope}
      from ${PUBLISHED.from} join ${webhookEndpoints} ep on ${ep.merchantId} = ${p.merchant_id} and ${ep.mode} = ${p.mode}
       and ${ep.status} = 'enabled' and ${ep.deletedAt} is null and (${p.event_type} = any(${ep.eventTypes}) or '*' = any(${ep.eventTypes}))
    on conflict do nothing
    returning ${we.id}, ${we.kind}, ${we.url}
  )
  select id, kind, url, ${NOTIFY_DISPATCHERS} from own union all select id, kind, url, ${NOTIFY_DISPATCHERS} from fanned`);

/** Records the events and writes their deliveries; a change already recorded writes nothing again. */
async function publish(tx: Queryable, publications: readonly Publication[]): Promise<EnqueuedWebhook[]> {
  const recorded = new Set(
    (
      await recordEvents(
        tx,
        publications.map((p) => p.event),
      )
    ).map((e) => e.id),
  );
  const fresh = publications.filter((publication) => recorded.has(publication.event.id));
  if (fresh.length === 0) return [];
  return ENQUEUE.run(
    tx,
    PUBLISHED.values(
      fresh.map(({ event, own }) => ({
        id: event.id,
        event_type: event.type,
        merchant_id: event.merchantId,
        mode: event.mode,
        envelope: eventJson(event),
        kind: own?.kind ?? null,
        url: own?.url ?? null,
        body: own?.body ?? null,
        order_id: own?.orderId ?? null,
        invoice_id: own?.invoiceId ?? null,
        order_status: own?.orderStatus ?? null,
        invoice_status: own?.invoiceStatus ?? null,
        api_key_id: own?.apiKeyId ?? null,
      })),
    ),
  );
}

/**
 * Events of objects that have no webhook URL of their own (refunds, subscriptions), inside `tx`, the
 * transaction of their change: recorded, and delivered to the endpoints that subscribe to their types.
 */
export async function publishEvents(tx: Queryable, list: readonly NewEvent[]): Promise<EnqueuedWebhook[]> {
  return publish(
    tx,
    list.map((event) => ({ event, own: null })),
  );
}

const ORDERS = statement<OrderRow, { ids: string[] }>(
  sql`select * from ${orders} where ${orders.id} = any(${param('ids')}::uuid[])`,
);

/**
 * The events of the orders' current (final) statuses, inside `tx` (the settling of a block writes
 * all of its orders' with a few statements, whatever their number), with each order's own webhook
 * when it has the URL for its outcome. Answers the deliveries written.
 */
export async function publishOrderEvents(tx: Queryable, orderIds: readonly string[]): Promise<EnqueuedWebhook[]> {
  if (orderIds.length === 0) return [];
  const final = (await ORDERS.run(tx, { ids: [...orderIds] })).filter((order) => eventTypeOfOrder(order.status));
  if (final.length === 0) return [];
  const payments = await paymentsOfOrders(
    tx,
    final.map((order) => order.id),
  );
  const now = new Date();
  return publish(
    tx,
    final.map((order): Publication => {
      const id = randomUUID();
      const details = serializeOrderDetails(order, payments.get(order.id) ?? []);
      const kind = webhookKindOf(order.status)!;
      const url = kind === 'success' ? order.success_webhook : order.error_webhook;
      return {
        event: {
          id,
          merchantId: order.merchant_id,
          mode: order.mode,
          type: eventTypeOfOrder(order.status)!,
          objectId: order.id,
          data: JSON.stringify(details),
          createdAt: now,
        },
        own: url
          ? {
              kind,
              url,
              body: webhookBody(details, id),
              orderId: order.id,
              invoiceId: null,
              orderStatus: order.status,
              invoiceStatus: null,
              apiKeyId: order.api_key_id,
            }
          : null,
      };
    }),
  );
}

/**
 * The `order.resolved` event of an order's settlement (lib/mispayments), inside the transaction
 * that records the settlement: to the event feed and the webhook endpoints only. The order's own
 * seed-shaped webhooks are about its status, which does not change (docs/decisions/069).
 */
export async function publishResolutionEvent(
  tx: Queryable,
  resolution: { merchantId: string; mode: Mode; data: OrderResolution },
): Promise<EnqueuedWebhook[]> {
  return publish(tx, [
    {
      event: {
        id: randomUUID(),
        merchantId: resolution.merchantId,
        mode: resolution.mode,
        type: 'order.resolved',
        objectId: resolution.data.orderId,
        data: JSON.stringify(resolution.data),
        createdAt: new Date(resolution.data.createdAt),
      },
      own: null,
    },
  ]);
}

/** An invoice whose status just became final. */
export interface FinalInvoice {
  invoiceId: string;
  /** The order of its chosen coin (null when none was chosen). */
  orderId: string | null;
  merchantId: string;
  mode: Mode;
  status: InvoiceStatus;
  /** Its `webhookURL`, if it has one. */
  url: string | null;
  /** The key that made it. */
  apiKeyId: string | null;
  /** The invoice as get-invoice answers it (JSON text). */
  data: string;
  /** Its own webhook's body, which carries the event id (`webhookId`). */
  bodyOf: (eventId: string) => string;
}

/**
 * An invoice's event inside `tx`, the transaction that made its status final, with its own webhook
 * when it has a URL. An invoice becomes final once: a second call writes nothing and answers null.
 */
export async function publishInvoiceEvent(tx: Queryable, invoice: FinalInvoice): Promise<EnqueuedWebhook | null> {
  const type = eventTypeOfInvoice(invoice.status);
  if (!type) return null;
  const id = randomUUID();
  const [own] = await publish(tx, [
    {
      event: {
        id,
        merchantId: invoice.merchantId,
        mode: invoice.mode,
        type,
        objectId: invoice.invoiceId,
        data: invoice.data,
        createdAt: new Date(),
      },
      own: invoice.url
        ? {
            kind: 'invoice',
            url: invoice.url,
            body: invoice.bodyOf(id),
            orderId: invoice.orderId,
            invoiceId: invoice.invoiceId,
            orderStatus: null,
            invoiceStatus: invoice.status,
            apiKeyId: invoice.apiKeyId,
          }
        : null,
    },
  ]);
  return own?.kind === 'invoice' ? own : null;
}

/** A deposit's transfer, as the watcher names it. */
export interface TransferKey {
  network: string;
  mode: string;
  tx_hash: string;
  output_index: number;
}

const d = alias(deposits, 'd');
const t = alias(chainTransfers, 't');
const KEYS = unnest('k', {
  network: deposits.network,
  mode: deposits.mode,
  in_tx_hash: deposits.inTxHash,
  in_output_index: deposits.inOutputIndex,
});
/** The confirmed deposits of these transfers that have no `deposit.received` event yet, with when their transfer was first seen. */
const CONFIRMED_WITHOUT_EVENT = statement<DepositRow & { first_seen_at: Date | null }>(
  sql`select x.*, ${t.firstSeenAt} from (${DEPOSIT_ROWS}
      join ${KEYS.from} on ${d.network} = ${KEYS.ref.network} and ${d.mode} = ${KEYS.ref.mode}
       and ${d.inTxHash} = ${KEYS.ref.in_tx_hash} and ${d.inOutputIndex} = ${KEYS.ref.in_output_index}
     where ${d.status} = 'PROCESSED'
       and not exists (select 1 from ${events} where ${events.dedupeKey} = 'deposit.received:' || ${d.id})) x
    left join ${chainTransfers} t on ${t.network} = x.network and ${t.mode} = x.mode and ${t.txHash} = x.in_tx_hash and ${t.outputIndex} = x.in_output_index`,
);

/**
 * The events of deposits that the settling of these transfers confirmed, inside its transaction:
 * `deposit.received` for each, and `order.paid_late` for a late payment of an expired or underpaid
 * order (the transfer of its coin that reached its address after the deadline).
 */
export async function publishDepositEvents(
  tx: Queryable,
  transfers: readonly TransferKey[],
): Promise<EnqueuedWebhook[]> {
  if (transfers.length === 0) return [];
  const confirmed = await CONFIRMED_WITHOUT_EVENT.run(
    tx,
    KEYS.values(
      transfers.map((k) => ({
        network: k.network,
        mode: k.mode,
        in_tx_hash: k.tx_hash,
        in_output_index: k.output_index,
      })),
    ),
  );
  if (confirmed.length === 0) return [];
  const now = new Date();
  const publications: Publication[] = confirmed.map((deposit) => ({
    event: {
      id: randomUUID(),
      merchantId: deposit.merchant_id,
      mode: deposit.mode,
      type: 'deposit.received',
      objectId: deposit.id,
      data: JSON.stringify(serializeDeposit(deposit)),
      createdAt: now,
    },
    own: null,
  }));
  const ofOrders = confirmed.filter((deposit) => deposit.order_id !== null && deposit.first_seen_at !== null);
  if (ofOrders.length > 0) {
    const byId = new Map(
      (await ORDERS.run(tx, { ids: [...new Set(ofOrders.map((x) => x.order_id!))] })).map((o) => [o.id, o]),
    );
    const late = ofOrders.filter((deposit) => {
      const order = byId.get(deposit.order_id!)!;
      return (
        (order.status === 'expired' || order.status === 'partial') &&
        isLateTransfer(
          { status: order.status, currency: order.currency, expiresAt: order.expires_at },
          { currency: deposit.currency, firstSeenAt: deposit.first_seen_at! },
        )
      );
    });
    const payments =
      late.length > 0
        ? await paymentsOfOrders(
            tx,
            late.map((x) => x.order_id!),
          )
        : new Map();
    for (const deposit of late) {
      const order = byId.get(deposit.order_id!)!;
      publications.push({
        event: {
          id: randomUUID(),
          merchantId: order.merchant_id,
          mode: order.mode,
          type: 'order.paid_late',
          objectId: order.id,
          // One per late transfer: an order may be paid late more than once.
          dedupeKey: `order.paid_late:${deposit.id}`,
          data: JSON.stringify(serializeOrderDetails(order, payments.get(order.id) ?? [])),
          createdAt: now,
        },
        own: null,
      });
    }
  }
  return publish(tx, publications);
}
