import 'server-only';
/**
 * The dispatcher's statements on the outbox: the claim of due rows and the record of finished
 * attempts. Safe with any number of dispatchers on one database:
 *
 * - A claim locks due rows `FOR UPDATE SKIP LOCKED` (two dispatchers never take the same row) and
 *   moves `next_attempt_at` to the end of a lease longer than an attempt can last. A dispatcher
 *   that dies mid-attempt thus leaves rows that become due again by themselves when the lease
 *   ends: delivered at least once, never lost.
 * - The attempt is recorded and the row rescheduled in one statement, only if this dispatcher
 *   still holds the lease.
 * - Both carry several rows where they can (docs/decisions/040): on the embedded database, one
 *   thread shared with the watcher, a statement per webhook was what queued them.
 */
import {
  alias,
  apiKeys,
  bare,
  columnsOf,
  mailMessages,
  param,
  sql,
  statement,
  unnest,
  users,
  webhookAttempts,
  webhookEndpoints,
  webhookEvents,
  type Database,
  type RowOf,
} from '../db';
import { FEED_HORIZON } from '../events';
import { SIGNING_KEY_COLUMNS, signingKeysFromJson, type SigningKeyRow } from '../merchants';
import type { AttemptResult } from './http';
import type { NextState } from './schedule';

/** Due rows a claim looks at (in the due index's order) to choose from, per merchant. */
const CLAIM_SCAN = 500;

/** The outbox columns a claim answers (and `lease_owner`, which a claim always sets). */
const CLAIMED_COLUMNS = [
  'id',
  'event_id',
  'event_type',
  'endpoint_id',
  'api_key_id',
  'order_id',
  'merchant_id',
  'mode',
  'kind',
  'url',
  'body',
  'attempts',
  'schedule_base',
  'lease_owner',
] as const satisfies readonly (keyof RowOf<typeof webhookEvents>)[];

type EndpointRow = RowOf<typeof webhookEndpoints>;
/** What a claim answers of a delivery's endpoint (all null for an object's own webhook). */
export type ClaimedEndpoint = {
  endpoint_status: EndpointRow['status'] | null;
  endpoint_deleted_at: EndpointRow['deleted_at'];
} & { [K in 'secret_ciphertext' | 'previous_secret_ciphertext' | 'previous_secret_expires_at']: EndpointRow[K] | null };

/**
 * A claimed outbox row: an endpoint's delivery with its endpoint's secrets (`url` is the
 * endpoint's URL now), or an object's own webhook with the keys of its merchant and mode that its
 * signing key is chosen from (lib/merchants, `signingKeyFor`).
 */
export type ClaimedRow = Pick<RowOf<typeof webhookEvents>, Exclude<(typeof CLAIMED_COLUMNS)[number], 'lease_owner'>> & {
  lease_owner: string;
} & ClaimedEndpoint & { keys: SigningKeyRow[] };

// Only what transactions older than every running one of this database wrote: the event feed's
// horizon (lib/events/horizon.ts), so that a receiver never holds an event id the feed has not reached.
const DUE = statement<Pick<RowOf<typeof webhookEvents>, 'id' | 'merchant_id'>, { saturated: string[]; limit: number }>(
  sql`select ${columnsOf(webhookEvents, ['id', 'merchant_id'])} from ${webhookEvents}
    where ${webhookEvents.state} = 'pending' and ${webhookEvents.nextAttemptAt} <= now() and ${webhookEvents.merchantId} <> all(${param('saturated')}::uuid[])
      and ${webhookEvents.txId} < ${FEED_HORIZON}
    order by ${webhookEvents.nextAttemptAt} limit ${param('limit')}`,
);

const ep = alias(webhookEndpoints, 'ep');

// `due`, `claimed` and `k` are the statement's own (no schema object names their columns). The keys
// an object's own webhook is signed with are read in the same statement, as JSON.
const CLAIM = statement<
  Omit<ClaimedRow, 'keys'> & { keys: unknown },
  { ids: string[]; owner: string; leaseMs: number }
>(sql`with due as (
    select ${webhookEvents.id} from ${webhookEvents}
     where ${webhookEvents.id} = any(${param('ids')}::uuid[]) and ${webhookEvents.state} = 'pending' and ${webhookEvents.nextAttemptAt} <= now()
     for update skip locked
  ), claimed as (
    update ${webhookEvents}
       set ${bare(webhookEvents.attempts)} = ${webhookEvents.attempts} + 1, ${bare(webhookEvents.leaseOwner)} = ${param('owner')} || '/' || gen_random_uuid(),
           ${bare(webhookEvents.leaseExpiresAt)} = now() + ${param('leaseMs')} * interval '1 millisecond',
           ${bare(webhookEvents.nextAttemptAt)} = now() + ${param('leaseMs')} * interval '1 millisecond',
           ${bare(webhookEvents.updatedAt)} = now()
      from due where ${webhookEvents.id} = due.id
    returning ${columnsOf(webhookEvents, CLAIMED_COLUMNS)}
  )
  select ${sql.raw(
    CLAIMED_COLUMNS.filter((name) => name !== 'url')
      .map((name) => `c.${name}`)
      .join(', '),
  )},
         coalesce(${ep.url}, c.url) as url, ${ep.status} as endpoint_status, ${ep.deletedAt} as endpoint_deleted_at,
         ${columnsOf(ep, ['secret_ciphertext', 'previous_secret_ciphertext', 'previous_secret_expires_at'])},
         case when c.endpoint_id is null then (
           select coalesce(json_agg(k), '[]'::json) from (
             select ${columnsOf(apiKeys, SIGNING_KEY_COLUMNS)} from ${apiKeys} where ${apiKeys.merchantId} = c.merchant_id and ${apiKeys.mode} = c.mode
           ) k
         ) end as keys
    from claimed c left join ${webhookEndpoints} ep on ${ep.id} = c.endpoint_id`);

/**
 * Claims up to `limit` due rows, at most `perMerchant` in flight per merchant counting `busy`
 * (this process's attempts in flight per merchant). Two short statements rather than one clever
 * one: a read of the first due rows of merchants with room left, the choice per merchant here,
 * then the claim of exactly those rows (`FOR UPDATE SKIP LOCKED`: a row another dispatcher took
 * meanwhile is skipped) with their endpoints' secrets, or the keys of their merchant and mode.
 */
export async function claimDue(
  db: Database,
  owner: string,
  limit: number,
  leaseMs: number,
  perMerchant: number,
  busy: ReadonlyMap<string, number> = new Map(),
): Promise<ClaimedRow[]> {
  const saturated = [...busy].filter(([, n]) => n >= perMerchant).map(([id]) => id);
  const due = await DUE.run(db, { saturated, limit: Math.min(CLAIM_SCAN, limit * perMerchant) });
  const room = new Map<string, number>();
  const chosen: string[] = [];
  for (const row of due) {
    const left = room.get(row.merchant_id) ?? perMerchant - (busy.get(row.merchant_id) ?? 0);
    if (left <= 0) continue;
    room.set(row.merchant_id, left - 1);
    chosen.push(row.id);
    if (chosen.length === limit) break;
  }
  if (chosen.length === 0) return [];
  const claimed = await CLAIM.run(db, { ids: chosen, owner, leaseMs });
  return claimed.map((row) => ({ ...row, keys: signingKeysFromJson(row.keys) }));
}

/** A finished attempt, waiting to be recorded. */
export interface FinishedAttempt {
  row: ClaimedRow;
  startedAt: Date;
  result: AttemptResult;
  next: NextState;
  /** False when it was refused before sending: no key signs it, or its endpoint takes nothing now. */
  sent: boolean;
}

/** One finished attempt per row: the event's lease and next state, and the attempt's record. */
const RESULTS = unnest('t', {
  id: webhookEvents.id,
  endpoint_id: webhookEvents.endpointId,
  lease_owner: webhookEvents.leaseOwner,
  state: webhookEvents.state,
  delay_ms: 'bigint',
  attempt: webhookAttempts.attempt,
  started_at: 'timestamptz',
  latency_ms: webhookAttempts.latencyMs,
  status_code: webhookAttempts.statusCode,
  outcome: webhookAttempts.outcome,
  error: webhookAttempts.error,
  response_excerpt: webhookAttempts.responseExcerpt,
});
const RECORDED = [
  webhookAttempts.eventId,
  webhookAttempts.attempt,
  webhookAttempts.startedAt,
  webhookAttempts.latencyMs,
  webhookAttempts.statusCode,
  webhookAttempts.outcome,
  webhookAttempts.error,
  webhookAttempts.responseExcerpt,
];
/** Every delivery to an endpoint failed for this long: its owners and admins are mailed, once per incident. */
export const WEBHOOKS_FAILING_MAIL_AFTER_MS = 3_600_000;

const mm = mailMessages;
// The row lib/mail renders as `webhooks-failing` (lib/mail/team.ts): one per endpoint, incident
// (its `failing_since`) and recipient, by its event key; the detail names the endpoint and the incident.
const INCIDENT = sql.raw(`to_char(h.failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

// `input`, `tally` and their columns are the statement's own: the rows of RESULTS, and per endpoint.
const RECORD_ATTEMPTS = statement<
  Pick<RowOf<typeof webhookEndpoints>, 'id' | 'merchant_id' | 'url' | 'disabled_reason'>,
  Record<string, unknown> & { disableAfterMs: number; mailAfterMs: number }
>(sql`with input as (
    select * from ${RESULTS.from}
  ), moved as (
    update ${webhookEvents}
       set ${bare(webhookEvents.state)} = i.state,
           ${bare(webhookEvents.nextAttemptAt)} = case when i.delay_ms is null then ${webhookEvents.nextAttemptAt} else now() + i.delay_ms * interval '1 millisecond' end,
           ${bare(webhookEvents.leaseOwner)} = null, ${bare(webhookEvents.leaseExpiresAt)} = null, ${bare(webhookEvents.updatedAt)} = now(),
           ${bare(webhookEvents.deliveredAt)} = case when i.state = 'delivered' then now() else ${webhookEvents.deliveredAt} end
      from input i
     where ${webhookEvents.id} = i.id and ${webhookEvents.leaseOwner} = i.lease_owner
     returning ${webhookEvents.id}
  ), tally as (
    select i.endpoint_id, bool_or(i.outcome = 'delivered') as delivered, min(i.started_at) as first_at, max(i.started_at) as last_at
      from input i join moved m on m.id = i.id where i.endpoint_id is not null group by i.endpoint_id
  ), failing as (
    select t.*, coalesce(${ep.failingSince}, t.first_at) as since from tally t join ${webhookEndpoints} ep on ${ep.id} = t.endpoint_id
  ), health as (
    update ${webhookEndpoints} set
           ${bare(webhookEndpoints.failingSince)} = case when f.delivered then null else f.since end,
           ${bare(webhookEndpoints.status)} = case when not f.delivered and f.since <= f.last_at - ${param('disableAfterMs')} * interval '1 millisecond' then 'disabled' else ${webhookEndpoints.status} end,
           ${bare(webhookEndpoints.disabledReason)} = case when not f.delivered and f.since <= f.last_at - ${param('disableAfterMs')} * interval '1 millisecond'
             then 'Every delivery failed from ' || to_char(f.since at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC to ' || to_char(f.last_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') || ' UTC.'
             else ${webhookEndpoints.disabledReason} end,
           ${bare(webhookEndpoints.updatedAt)} = now()
      from failing f
     where ${webhookEndpoints.id} = f.endpoint_id and ${webhookEndpoints.status} = 'enabled' and ${webhookEndpoints.deletedAt} is null
     returning ${columnsOf(webhookEndpoints, ['id', 'merchant_id', 'url', 'status', 'disabled_reason', 'failing_since'])}
  ), alerted as (
    insert into ${mm} (${sql.join([mm.id, mm.merchantId, mm.mode, mm.kind, mm.eventKey, mm.recipient, mm.detail].map(bare), sql`, `)})
    select gen_random_uuid(), h.merchant_id, 'live', 'webhooks-failing',
           'webhooks-failing/' || h.id || '/' || ${INCIDENT} || '/' || ${users.id}, ${users.email},
           jsonb_build_object('endpointId', h.id::text, 'failingSince', ${INCIDENT})
      from health h join failing f on f.endpoint_id = h.id
      join ${users} on ${users.merchantId} = h.merchant_id and ${users.role} in ('owner', 'admin') and ${users.disabledAt} is null
     where h.failing_since <= f.last_at - ${param('mailAfterMs')} * interval '1 millisecond'
    on conflict (${bare(mm.eventKey)}) do nothing
  ), recorded as (
    insert into ${webhookAttempts} (${sql.join(RECORDED.map(bare), sql`, `)})
    select id, attempt, started_at, latency_ms, status_code, outcome, error, response_excerpt from input
  )
  select id, merchant_id, url, disabled_reason from health where status = 'disabled'`);

/** An endpoint the gateway disabled: every delivery to it failed for WEBHOOK_ENDPOINT_DISABLE_DAYS. */
export type DisabledEndpoint = Pick<RowOf<typeof webhookEndpoints>, 'id' | 'merchant_id' | 'url' | 'disabled_reason'>;

/**
 * Records attempts and moves their rows on, all in one statement (attempts that end together are
 * written together); a row only if its lease is still the one this dispatcher took. An endpoint's
 * failures are tallied on it: a delivery clears `failing_since`; an endpoint whose deliveries all
 * failed for an hour gets its owners and admins mailed (once per incident, in this statement, so
 * with the attempt that shows it); one whose deliveries all failed for `disableAfterMs` (by the
 * attempts' own clock) is disabled. Answers those disabled now.
 */
export async function recordAttempts(
  db: Database,
  finished: readonly FinishedAttempt[],
  disableAfterMs: number,
): Promise<DisabledEndpoint[]> {
  return RECORD_ATTEMPTS.run(db, {
    disableAfterMs,
    mailAfterMs: WEBHOOKS_FAILING_MAIL_AFTER_MS,
    ...RESULTS.values(
      finished.map((f) => ({
        id: f.row.id,
        // An endpoint's own refusal (paused, disabled, deleted) says nothing of its health.
        endpoint_id:
          f.row.endpoint_id !== null && f.row.endpoint_status === 'enabled' && !f.row.endpoint_deleted_at
            ? f.row.endpoint_id
            : null,
        lease_owner: f.row.lease_owner,
        state: f.next.state,
        delay_ms: f.next.delayMs,
        attempt: f.row.attempts,
        started_at: f.startedAt,
        latency_ms: f.result.latencyMs,
        status_code: f.result.statusCode,
        outcome: f.result.outcome,
        error: f.result.error,
        response_excerpt: f.result.responseExcerpt,
      })),
    ),
  });
}
