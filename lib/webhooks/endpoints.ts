import 'server-only';
/**
 * Webhook endpoints (docs/decisions/050): URLs a merchant configures, through the API
 * (`webhook-endpoints/*`) or the dashboard, that receive the events of the types they name, each
 * signed with a secret of its own. The secret is answered when it is made (create, roll) and never
 * again: it is stored encrypted like the API keys. Every function is scoped to one merchant and
 * mode: another's endpoint is not found.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { base58 } from '@scure/base';
import {
  bare,
  columnsOf,
  insertValues,
  param,
  placeholders,
  sql,
  statement,
  webhookEndpoints,
  webhookEvents,
  type Queryable,
  type RowOf,
} from '../db';
import { DomainError, NotFound } from '../errors';
import { encryptSecret, type MerchantScope } from '../merchants';
import {
  isUuid,
  TEST_EVENT_TYPE,
  type Endpoint,
  type EndpointDelivery,
  type EventSubscription,
  type RequestOf,
} from '../protocol';
import { attemptsOf } from './deliveries';
import { NOTIFY_DISPATCHERS } from './outbox';

/** Endpoints per merchant and mode: each event is one delivery per endpoint, so the fan-out is bounded. */
export const MAX_ENDPOINTS = 16;

/** The merchant has MAX_ENDPOINTS endpoints of this mode already. */
export class TooManyEndpoints extends DomainError<'TooManyEndpoints'> {
  constructor() {
    super(
      'TooManyEndpoints',
      `At most ${MAX_ENDPOINTS} webhook endpoints per mode: delete one first, or subscribe an existing one to more event types.`,
      [{ path: 'url', message: `the mode has ${MAX_ENDPOINTS} endpoints already` }],
    );
  }
}

/** A new signing secret, `whsec_` and 32 random bytes (base58): receivers use the whole string as the HMAC key. */
function newSecret(): string {
  return `whsec_${base58.encode(randomBytes(32))}`;
}

const ENDPOINT_COLUMNS = [
  'id',
  'url',
  'description',
  'event_types',
  'status',
  'disabled_reason',
  'failing_since',
  'previous_secret_expires_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof RowOf<typeof webhookEndpoints>)[];
type EndpointRow = Pick<RowOf<typeof webhookEndpoints>, (typeof ENDPOINT_COLUMNS)[number]>;
const RETURNED = columnsOf(webhookEndpoints, ENDPOINT_COLUMNS);

/** The endpoint as the API answers it (and the dashboard shows it). */
export function serializeEndpoint(row: EndpointRow, now = new Date()): Endpoint {
  const overlap = row.previous_secret_expires_at && row.previous_secret_expires_at > now;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types as EventSubscription[],
    status: row.status,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since?.toISOString() ?? null,
    previousSecretExpiresAt: overlap ? row.previous_secret_expires_at!.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const IN_SCOPE = sql`${webhookEndpoints.merchantId} = ${param('merchantId')} and ${webhookEndpoints.mode} = ${param('mode')} and ${webhookEndpoints.deletedAt} is null`;

const NEW = placeholders(['merchantId', 'mode', 'url', 'description', 'eventTypes', 'status', 'secretCiphertext']);
const NEW_INSERT = insertValues([
  [webhookEndpoints.merchantId, NEW.merchantId],
  [webhookEndpoints.mode, NEW.mode],
  [webhookEndpoints.url, NEW.url],
  [webhookEndpoints.description, NEW.description],
  [webhookEndpoints.eventTypes, sql`${NEW.eventTypes}::text[]`],
  [webhookEndpoints.status, NEW.status],
  [webhookEndpoints.secretCiphertext, NEW.secretCiphertext],
]);
// The count and the insert in one statement; two creations at once may both pass it, which only
// lets the bound be passed by one.
const CREATE = statement<EndpointRow, Record<keyof typeof NEW, unknown>>(
  sql`insert into ${webhookEndpoints} (${NEW_INSERT.columns}) select ${NEW_INSERT.values}
   where (select count(*) from ${webhookEndpoints} where ${webhookEndpoints.merchantId} = ${NEW.merchantId} and ${webhookEndpoints.mode} = ${NEW.mode}
          and ${webhookEndpoints.deletedAt} is null) < ${sql.raw(String(MAX_ENDPOINTS))}
   returning ${RETURNED}`,
);

/** A new endpoint with its signing secret (answered this once). */
export async function createEndpoint(
  db: Queryable,
  scope: MerchantScope,
  input: RequestOf<'webhook-endpoints/create'>,
): Promise<{ endpoint: Endpoint; secret: string }> {
  const secret = newSecret();
  const [row] = await CREATE.run(db, {
    merchantId: scope.merchantId,
    mode: scope.mode,
    url: input.url,
    description: input.description ?? null,
    eventTypes: [...input.eventTypes],
    status: input.status,
    secretCiphertext: encryptSecret(secret),
  });
  if (!row) throw new TooManyEndpoints();
  return { endpoint: serializeEndpoint(row), secret };
}

const LIST = statement<EndpointRow, MerchantScope>(
  sql`select ${RETURNED} from ${webhookEndpoints} where ${IN_SCOPE} order by ${webhookEndpoints.createdAt}, ${webhookEndpoints.id}`,
);

export async function listEndpoints(db: Queryable, scope: MerchantScope): Promise<Endpoint[]> {
  return (await LIST.run(db, scope)).map((row) => serializeEndpoint(row));
}

const GET = statement<EndpointRow, MerchantScope & { id: string }>(
  sql`select ${RETURNED} from ${webhookEndpoints} where ${webhookEndpoints.id} = ${param('id')} and ${IN_SCOPE}`,
);

/** One of the scope's endpoints, or NotFound. */
export async function getEndpoint(db: Queryable, scope: MerchantScope, id: string): Promise<Endpoint> {
  const [row] = isUuid(id) ? await GET.run(db, { ...scope, id }) : [];
  if (!row) throw new NotFound('Webhook endpoint', id);
  return serializeEndpoint(row);
}

// Each field given changes; `enabled` also forgets the failures that disabled it.
const UPDATE = statement<
  EndpointRow,
  MerchantScope & {
    id: string;
    url: string | null;
    description: string | null;
    setDescription: boolean;
    eventTypes: string[] | null;
    status: string | null;
  }
>(
  sql`update ${webhookEndpoints} set
      ${bare(webhookEndpoints.url)} = coalesce(${param('url')}::text, ${webhookEndpoints.url}),
      ${bare(webhookEndpoints.description)} = case when ${param('setDescription')}::boolean then ${param('description')}::text else ${webhookEndpoints.description} end,
      ${bare(webhookEndpoints.eventTypes)} = coalesce(${param('eventTypes')}::text[], ${webhookEndpoints.eventTypes}),
      ${bare(webhookEndpoints.status)} = coalesce(${param('status')}::text, ${webhookEndpoints.status}),
      ${bare(webhookEndpoints.failingSince)} = case when ${param('status')}::text = 'enabled' then null else ${webhookEndpoints.failingSince} end,
      ${bare(webhookEndpoints.disabledReason)} = case when ${param('status')}::text is null then ${webhookEndpoints.disabledReason} else null end,
      ${bare(webhookEndpoints.updatedAt)} = now()
    where ${webhookEndpoints.id} = ${param('id')} and ${IN_SCOPE}
    returning ${RETURNED}`,
);

export async function updateEndpoint(
  db: Queryable,
  scope: MerchantScope,
  input: Pick<RequestOf<'webhook-endpoints/update'>, 'id'> & Partial<RequestOf<'webhook-endpoints/update'>>,
): Promise<Endpoint> {
  const [row] = isUuid(input.id)
    ? await UPDATE.run(db, {
        ...scope,
        id: input.id,
        url: input.url ?? null,
        description: input.description ?? null,
        setDescription: input.description !== undefined,
        eventTypes: input.eventTypes ? [...input.eventTypes] : null,
        status: input.status ?? null,
      })
    : [];
  if (!row) throw new NotFound('Webhook endpoint', input.id);
  return serializeEndpoint(row);
}

const DELETE = statement<Pick<EndpointRow, 'id'>, MerchantScope & { id: string }>(
  sql`update ${webhookEndpoints} set ${bare(webhookEndpoints.deletedAt)} = now(), ${bare(webhookEndpoints.updatedAt)} = now()
   where ${webhookEndpoints.id} = ${param('id')} and ${IN_SCOPE} returning ${bare(webhookEndpoints.id)}`,
);

/** Deletes an endpoint: it receives nothing more (deliveries waiting for it are refused). */
export async function deleteEndpoint(
  db: Queryable,
  scope: MerchantScope,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const [row] = isUuid(id) ? await DELETE.run(db, { ...scope, id }) : [];
  if (!row) throw new NotFound('Webhook endpoint', id);
  return { id: row.id, deleted: true };
}

const HOUR_MS = 60 * 60 * 1000;
const ROLL = statement<
  EndpointRow,
  MerchantScope & { id: string; secretCiphertext: string; previousUntil: Date | null }
>(
  sql`update ${webhookEndpoints} set
      ${bare(webhookEndpoints.previousSecretCiphertext)} = case when ${param('previousUntil')}::timestamptz is null then null else ${webhookEndpoints.secretCiphertext} end,
      ${bare(webhookEndpoints.previousSecretExpiresAt)} = ${param('previousUntil')}::timestamptz,
      ${bare(webhookEndpoints.secretCiphertext)} = ${param('secretCiphertext')},
      ${bare(webhookEndpoints.updatedAt)} = now()
    where ${webhookEndpoints.id} = ${param('id')} and ${IN_SCOPE}
    returning ${RETURNED}`,
);

/**
 * A new signing secret (answered this once). For `overlapHours` the old secret signs beside it
 * (two `v1=` in `x-webhook-signature`), so that receivers can switch without missing a delivery;
 * 0 drops the old one at once. A secret rolled during an overlap replaces the old secret, which
 * then stops signing.
 */
export async function rollEndpointSecret(
  db: Queryable,
  scope: MerchantScope,
  id: string,
  overlapHours: number,
  now = new Date(),
): Promise<{ endpoint: Endpoint; secret: string }> {
  const secret = newSecret();
  const previousUntil = overlapHours > 0 ? new Date(now.getTime() + overlapHours * HOUR_MS) : null;
  const [row] = isUuid(id)
    ? await ROLL.run(db, { ...scope, id, secretCiphertext: encryptSecret(secret), previousUntil })
    : [];
  if (!row) throw new NotFound('Webhook endpoint', id);
  return { endpoint: serializeEndpoint(row, now), secret };
}

const TEST = placeholders(['id', 'endpointId', 'merchantId', 'mode', 'url', 'body']);
const TEST_INSERT = insertValues([
  [webhookEvents.id, TEST.id],
  [webhookEvents.eventType, sql`${TEST_EVENT_TYPE}`],
  [webhookEvents.endpointId, TEST.endpointId],
  [webhookEvents.merchantId, TEST.merchantId],
  [webhookEvents.mode, TEST.mode],
  [webhookEvents.kind, sql`'endpoint'`],
  [webhookEvents.url, TEST.url],
  [webhookEvents.body, TEST.body],
]);
const SEND_TEST = statement<{ id: string }, Record<keyof typeof TEST, unknown>>(sql`with added as (
    insert into ${webhookEvents} (${TEST_INSERT.columns}) values (${TEST_INSERT.values}) returning ${bare(webhookEvents.id)}
  )
  select id, ${NOTIFY_DISPATCHERS} from added`);

/**
 * "Send test event": a delivery of a `webhook_endpoint.test` event to the endpoint now, signed and
 * retried like any other (it is not in the event feed). Answers the delivery.
 */
export async function sendTestEvent(db: Queryable, scope: MerchantScope, id: string): Promise<EndpointDelivery> {
  const endpoint = await getEndpoint(db, scope, id);
  const deliveryId = randomUUID();
  const body = JSON.stringify({
    id: deliveryId,
    type: TEST_EVENT_TYPE,
    createdAt: new Date().toISOString(),
    data: {
      endpointId: endpoint.id,
      message: 'A test event from the gateway: if you can read this, deliveries arrive.',
    },
  });
  await SEND_TEST.run(db, { id: deliveryId, endpointId: endpoint.id, ...scope, url: endpoint.url, body });
  const [delivery] = (await listEndpointDeliveries(db, scope, { id: endpoint.id, limit: 1 })).deliveries;
  return delivery!;
}

const DELIVERY_COLUMNS = [
  'id',
  'endpoint_id',
  'event_id',
  'event_type',
  'url',
  'state',
  'attempts',
  'next_attempt_at',
  'delivered_at',
  'created_at',
] as const satisfies readonly (keyof RowOf<typeof webhookEvents>)[];
type DeliveryRow = Pick<RowOf<typeof webhookEvents>, (typeof DELIVERY_COLUMNS)[number]>;

// Newest first, keyset on (created_at, id) from the delivery `before` names; both filters optional.
const DELIVERIES = statement<
  DeliveryRow,
  MerchantScope & {
    endpointId: string;
    eventType: string | null;
    state: string | null;
    before: string | null;
    limit: number;
  }
>(
  sql`select ${columnsOf(webhookEvents, DELIVERY_COLUMNS)} from ${webhookEvents}
   where ${webhookEvents.endpointId} = ${param('endpointId')} and ${webhookEvents.merchantId} = ${param('merchantId')} and ${webhookEvents.mode} = ${param('mode')}
     and (${param('eventType')}::text is null or ${webhookEvents.eventType} = ${param('eventType')})
     and (${param('state')}::text is null or ${webhookEvents.state} = ${param('state')})
     and (${param('before')}::uuid is null or (${webhookEvents.createdAt}, ${webhookEvents.id}) <
          (select b.created_at, b.id from ${webhookEvents} b where b.id = ${param('before')}::uuid))
   order by ${webhookEvents.createdAt} desc, ${webhookEvents.id} desc limit ${param('limit')}`,
);

/** The endpoint's deliveries, newest first, with every attempt; filtered by event type and state. */
export async function listEndpointDeliveries(
  db: Queryable,
  scope: MerchantScope,
  query: Pick<RequestOf<'webhook-endpoints/deliveries'>, 'id' | 'limit'> &
    Partial<Pick<RequestOf<'webhook-endpoints/deliveries'>, 'eventType' | 'state' | 'before'>>,
): Promise<{ deliveries: EndpointDelivery[]; hasMore: boolean }> {
  await getEndpoint(db, scope, query.id);
  if (query.before !== undefined && !isUuid(query.before)) return { deliveries: [], hasMore: false };
  const rows = await DELIVERIES.run(db, {
    ...scope,
    endpointId: query.id,
    eventType: query.eventType ?? null,
    state: query.state ?? null,
    before: query.before ?? null,
    limit: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const attempts = await attemptsOf(
    db,
    page.map((row) => row.id),
  );
  return {
    deliveries: page.map((row) => ({
      id: row.id,
      endpointId: row.endpoint_id!,
      eventId: row.event_id,
      eventType: row.event_type ?? TEST_EVENT_TYPE,
      url: row.url,
      state: row.state,
      attempts: row.attempts,
      nextAttemptAt: row.state === 'pending' ? row.next_attempt_at.toISOString() : null,
      deliveredAt: row.delivered_at?.toISOString() ?? null,
      createdAt: row.created_at.toISOString(),
      log: attempts.get(row.id) ?? [],
    })),
    hasMore: rows.length > query.limit,
  };
}
