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
import type { Database } from '../db';
import type { AttemptResult } from './http';
import type { NextState } from './schedule';
import type { Mode } from '../protocol';

/** Due rows a claim looks at (in the due index's order) to choose from, per merchant. */
const CLAIM_SCAN = 500;

/** A claimed outbox row with the merchant's current key of its mode. */
export interface ClaimedRow {
  id: string;
  order_id: string | null;
  merchant_id: string;
  mode: Mode;
  url: string;
  body: string;
  attempts: number;
  schedule_base: number;
  lease_owner: string;
  public_key: string | null;
  secret_ciphertext: string | null;
}

/**
 * Claims up to `limit` due rows, at most `perMerchant` in flight per merchant counting `busy`
 * (this process's attempts in flight per merchant). Two short statements rather than one clever
 * one: a read of the first due rows of merchants with room left, the choice per merchant here,
 * then the claim of exactly those rows (`FOR UPDATE SKIP LOCKED`: a row another dispatcher took
 * meanwhile is skipped) with the merchant's current key of the row's mode.
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
  const due = await db.query<{ id: string; merchant_id: string }>(
    `select id, merchant_id from webhook_events
      where state = 'pending' and next_attempt_at <= now() and merchant_id <> all($1::uuid[])
      order by next_attempt_at limit $2`,
    [saturated, Math.min(CLAIM_SCAN, limit * perMerchant)],
  );
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
  return db.query<ClaimedRow>(
    `with due as (
       select id from webhook_events
        where id = any($1::uuid[]) and state = 'pending' and next_attempt_at <= now()
        for update skip locked
     ), claimed as (
       update webhook_events e
          set attempts = e.attempts + 1, lease_owner = $2 || '/' || gen_random_uuid(),
              lease_expires_at = now() + $3 * interval '1 millisecond', next_attempt_at = now() + $3 * interval '1 millisecond',
              updated_at = now()
         from due where e.id = due.id
       returning e.id, e.order_id, e.merchant_id, e.mode, e.url, e.body, e.attempts, e.schedule_base, e.lease_owner
     )
     select c.*, k.public_key, k.secret_ciphertext from claimed c
       left join lateral (
         select public_key, secret_ciphertext from api_keys
          where merchant_id = c.merchant_id and mode = c.mode and revoked_at is null
          order by created_at desc limit 1
       ) k on true`,
    [chosen, owner, leaseMs],
  );
}

/** A finished attempt, waiting to be recorded. */
export interface FinishedAttempt {
  row: ClaimedRow;
  startedAt: Date;
  result: AttemptResult;
  next: NextState;
}

/**
 * Records attempts and moves their rows on, all in one statement (attempts that end together are
 * written together); a row only if its lease is still the one this dispatcher took.
 */
export async function recordAttempts(db: Database, finished: readonly FinishedAttempt[]): Promise<void> {
  const column = <T>(pick: (f: FinishedAttempt) => T) => finished.map(pick);
  await db.query(
    `with input as (
       select * from unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::int[], $6::timestamptz[], $7::int[], $8::int[],
                            $9::text[], $10::text[], $11::text[])
         as t(id, lease_owner, state, delay_ms, attempt, started_at, latency_ms, status_code, outcome, error, excerpt)
     ), moved as (
       update webhook_events e
          set state = i.state,
              next_attempt_at = case when i.delay_ms is null then e.next_attempt_at else now() + i.delay_ms * interval '1 millisecond' end,
              lease_owner = null, lease_expires_at = null, updated_at = now(),
              delivered_at = case when i.state = 'delivered' then now() else e.delivered_at end
         from input i
        where e.id = i.id and e.lease_owner = i.lease_owner
        returning e.id
     )
     insert into webhook_attempts (event_id, attempt, started_at, latency_ms, status_code, outcome, error, response_excerpt)
     select id, attempt, started_at, latency_ms, status_code, outcome, error, excerpt from input`,
    [
      column((f) => f.row.id), column((f) => f.row.lease_owner), column((f) => f.next.state), column((f) => f.next.delayMs),
      column((f) => f.row.attempts), column((f) => f.startedAt), column((f) => f.result.latencyMs), column((f) => f.result.statusCode),
      column((f) => f.result.outcome), column((f) => f.result.error), column((f) => f.result.responseExcerpt),
    ],
  );
}
