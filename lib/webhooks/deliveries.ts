import 'server-only';
/**
 * The delivery log as merchants and operators read it, and re-sending an event. Merchant calls
 * pass their scope (merchant and mode): another merchant's or mode's events are not found.
 */
import {
  bare,
  columnsOf,
  param,
  sql,
  statement,
  webhookAttempts,
  webhookEvents,
  type Queryable,
  type RowOf,
} from '../db';
import type { WebhookAttempt, WebhookEvent, WebhookVerbose } from '../protocol';
import { NOTIFY_DISPATCHERS } from './outbox';
import type { MerchantScope } from '../merchants';

const EVENT_COLUMNS = [
  'id',
  'order_id',
  'invoice_id',
  'kind',
  'order_status',
  'invoice_status',
  'url',
  'state',
  'attempts',
  'next_attempt_at',
  'delivered_at',
  'created_at',
] as const satisfies readonly (keyof RowOf<typeof webhookEvents>)[];
type EventRow = Pick<RowOf<typeof webhookEvents>, (typeof EVENT_COLUMNS)[number]>;

const ATTEMPT_COLUMNS = [
  'event_id',
  'attempt',
  'started_at',
  'latency_ms',
  'status_code',
  'outcome',
  'error',
  'response_excerpt',
] as const satisfies readonly (keyof RowOf<typeof webhookAttempts>)[];
type AttemptRow = Pick<RowOf<typeof webhookAttempts>, (typeof ATTEMPT_COLUMNS)[number]>;

const ATTEMPTS = statement<AttemptRow, { ids: string[] }>(sql`select ${columnsOf(webhookAttempts, ATTEMPT_COLUMNS)}
  from ${webhookAttempts} where ${webhookAttempts.eventId} = any(${param('ids')}::uuid[]) order by ${webhookAttempts.eventId}, ${webhookAttempts.id}`);

/** A call's scope, or none (the operator's): `merchantId` null reads every merchant's events. */
type Scope = { merchantId: string | null; mode: string | null };
const IN_SCOPE = sql`(${param('merchantId')}::uuid is null or (${webhookEvents.merchantId} = ${param('merchantId')} and ${webhookEvents.mode} = ${param('mode')}))`;
const scopeOf = (scope?: MerchantScope): Scope => ({
  merchantId: scope?.merchantId ?? null,
  mode: scope?.mode ?? null,
});

const ORDER_EVENTS = statement<
  EventRow,
  Scope & { orderId: string }
>(sql`select ${columnsOf(webhookEvents, EVENT_COLUMNS)} from ${webhookEvents}
  where ${webhookEvents.orderId} = ${param('orderId')} and ${IN_SCOPE} order by ${webhookEvents.createdAt}, ${webhookEvents.id}`);
const EVENT = statement<EventRow, Scope & { id: string }>(
  sql`select ${columnsOf(webhookEvents, EVENT_COLUMNS)} from ${webhookEvents} where ${webhookEvents.id} = ${param('id')} and ${IN_SCOPE}`,
);
const EVENT_WITH_BODY = statement<
  EventRow & Pick<RowOf<typeof webhookEvents>, 'body' | 'updated_at'>,
  MerchantScope & { id: string }
>(
  sql`select ${columnsOf(webhookEvents, [...EVENT_COLUMNS, 'body', 'updated_at'])} from ${webhookEvents}
    where ${webhookEvents.id} = ${param('id')} and ${webhookEvents.merchantId} = ${param('merchantId')} and ${webhookEvents.mode} = ${param('mode')}`,
);
const EVENT_OWNER = statement<Pick<RowOf<typeof webhookEvents>, 'merchant_id' | 'mode'>, { id: string }>(
  sql`select ${columnsOf(webhookEvents, ['merchant_id', 'mode'])} from ${webhookEvents} where ${webhookEvents.id} = ${param('id')}`,
);
const RESEND = statement<unknown, Scope & { id: string }>(sql`with rearmed as (
    update ${webhookEvents}
       set ${bare(webhookEvents.state)} = 'pending', ${bare(webhookEvents.scheduleBase)} = ${webhookEvents.attempts}, ${bare(webhookEvents.nextAttemptAt)} = now(),
           ${bare(webhookEvents.updatedAt)} = now()
     where ${webhookEvents.id} = ${param('id')} and ${IN_SCOPE}
       and not (${webhookEvents.leaseOwner} is not null and ${webhookEvents.leaseExpiresAt} > now())
     returning ${bare(webhookEvents.id)}
  )
  select id, ${NOTIFY_DISPATCHERS} from rearmed`);

/** Every attempt of each delivery, oldest first, by delivery id. */
export async function attemptsOf(db: Queryable, ids: readonly string[]): Promise<Map<string, WebhookAttempt[]>> {
  const byDelivery = new Map<string, WebhookAttempt[]>();
  if (ids.length === 0) return byDelivery;
  for (const a of await ATTEMPTS.run(db, { ids: [...ids] })) {
    const list = byDelivery.get(a.event_id) ?? [];
    list.push({
      attempt: a.attempt,
      at: a.started_at.toISOString(),
      statusCode: a.status_code,
      latencyMs: a.latency_ms,
      outcome: a.outcome,
      error: a.error,
      responseExcerpt: a.response_excerpt,
    });
    byDelivery.set(a.event_id, list);
  }
  return byDelivery;
}

async function withLog(db: Queryable, events: EventRow[]): Promise<WebhookEvent[]> {
  if (events.length === 0) return [];
  const attempts = await attemptsOf(
    db,
    events.map((e) => e.id),
  );
  return events.map((e): WebhookEvent => ({
    id: e.id,
    orderId: e.order_id,
    invoiceId: e.invoice_id,
    kind: e.kind,
    orderStatus: e.order_status,
    invoiceStatus: e.invoice_status,
    url: e.url,
    state: e.state,
    attempts: e.attempts,
    nextAttemptAt: e.state === 'pending' ? e.next_attempt_at.toISOString() : null,
    deliveredAt: e.delivered_at?.toISOString() ?? null,
    createdAt: e.created_at.toISOString(),
    log: attempts.get(e.id) ?? [],
  }));
}

/** The webhook events of an order with every attempt, oldest first. */
export async function listOrderDeliveries(
  db: Queryable,
  orderId: string,
  scope?: MerchantScope,
): Promise<WebhookEvent[]> {
  const events = await ORDER_EVENTS.run(db, { orderId, ...scopeOf(scope) });
  return withLog(db, events);
}

export async function getDelivery(
  db: Queryable,
  eventId: string,
  scope?: MerchantScope,
): Promise<WebhookEvent | undefined> {
  const events = await EVENT.run(db, { id: eventId, ...scopeOf(scope) });
  return (await withLog(db, events))[0];
}

/**
 * Sends an event again, now, with the same id and body (whatever its state: a merchant may have
 * lost a delivered one), restarting the retry schedule. An event being attempted right now is
 * left to that attempt. Answers the event, or undefined when it is not found (in the scope).
 */
export async function resendWebhook(
  db: Queryable,
  eventId: string,
  scope?: MerchantScope,
): Promise<WebhookEvent | undefined> {
  await RESEND.run(db, { id: eventId, ...scopeOf(scope) });
  return getDelivery(db, eventId, scope);
}

/** Whose event it is (merchant and mode), for the operator's audit entry; undefined when there is none. */
export async function webhookEventOwner(db: Queryable, eventId: string): Promise<MerchantScope | undefined> {
  const [row] = await EVENT_OWNER.run(db, { id: eventId });
  return row && { merchantId: row.merchant_id, mode: row.mode };
}

/** The event with the exact body it sends; undefined when it is not found (in the scope). */
async function eventWithBody(
  db: Queryable,
  eventId: string,
  scope: MerchantScope,
): Promise<{ event: WebhookEvent; body: string; updatedAt: Date } | undefined> {
  const [row] = await EVENT_WITH_BODY.run(db, { id: eventId, merchantId: scope.merchantId, mode: scope.mode });
  if (!row) return undefined;
  const [event] = await withLog(db, [row]);
  return { event: event!, body: row.body, updatedAt: row.updated_at };
}

/** webhooks/get: the body the event sends (parsed), as the receiver got it. */
export async function getWebhookBody(db: Queryable, eventId: string, scope: MerchantScope): Promise<unknown> {
  const found = await eventWithBody(db, eventId, scope);
  return found && (JSON.parse(found.body) as unknown);
}

/**
 * webhooks/get-verbose: the event in the field names of the API we follow, with its delivery log.
 * `fields`, when given, keeps only the fields it names.
 */
export async function getWebhookVerbose(
  db: Queryable,
  eventId: string,
  scope: MerchantScope,
  fields?: readonly string[],
): Promise<WebhookVerbose | undefined> {
  const found = await eventWithBody(db, eventId, scope);
  if (!found) return undefined;
  const { event, body, updatedAt } = found;
  const last = event.log.at(-1);
  const verbose: Required<WebhookVerbose> = {
    id: event.id,
    event: event.kind === 'invoice' ? 'INVOICE' : 'ORDER',
    eventId: (event.kind === 'invoice' ? event.invoiceId : event.orderId) ?? event.id,
    requestUrl: event.url,
    requestBody: body,
    responseStatus: last ? (last.outcome === 'delivered' ? 'SUCCESS' : 'ERROR') : null,
    responseCode: last?.statusCode ?? null,
    responseBody: last?.responseExcerpt ?? null,
    sentAt: last?.at ?? null,
    state: event.state,
    attempts: event.attempts,
    log: event.log,
    createdAt: event.createdAt,
    updatedAt: updatedAt.toISOString(),
  };
  if (!fields || fields.length === 0) return verbose;
  return Object.fromEntries(Object.entries(verbose).filter(([name]) => fields.includes(name)));
}
