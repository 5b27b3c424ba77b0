import 'server-only';
import type { Queryable } from '../db';

/**
 * Sign-in attempts are limited per account and per client address (table sign_in_throttle, so
 * several web servers share the counts). After `threshold` failures in a row the key is locked
 * for 30 s, doubling with every further failure up to an hour; while locked, no password is
 * checked at all (the right one is refused too), so guessing gains nothing from waiting less.
 * A success clears the account's count; failures older than an hour are forgotten.
 */
export const ACCOUNT_THRESHOLD = 5;
/** Higher: one office or one NAT may hold many people who mistype. */
export const ADDRESS_THRESHOLD = 50;
const FIRST_LOCK_MS = 30_000;
const MAX_LOCK_MS = 3_600_000;
const WINDOW_MS = 3_600_000;

/** How long a key is locked after its `failures`-th failure in a row (0: not locked). */
export function lockDelayMs(failures: number, threshold: number): number {
  if (failures < threshold) return 0;
  return Math.min(FIRST_LOCK_MS * 2 ** Math.min(failures - threshold, 20), MAX_LOCK_MS);
}

/** Whole seconds until `until`, at least 1: what "Try again in N s." says. */
export function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

export interface ThrottleKey {
  key: string;
  threshold: number;
}

export function throttleKeys(email: string, ip: string | null | undefined): ThrottleKey[] {
  const keys = [{ key: `account:${email}`, threshold: ACCOUNT_THRESHOLD }];
  if (ip) keys.push({ key: `address:${ip}`, threshold: ADDRESS_THRESHOLD });
  return keys;
}

/** The latest time one of `keys` is locked until, if one is locked now. */
export async function lockedUntil(db: Queryable, keys: ThrottleKey[], now: Date): Promise<Date | undefined> {
  const [row] = await db.query<{ until: Date | null }>('select max(locked_until) as until from sign_in_throttle where key = any($1) and locked_until > $2', [keys.map((k) => k.key), now]);
  return row?.until ?? undefined;
}

/** Counts a failure on each key; answers the time the attempt locked a key until, if it did. */
export async function recordFailure(db: Queryable, keys: ThrottleKey[], now: Date): Promise<Date | undefined> {
  let latest: Date | undefined;
  for (const { key, threshold } of keys) {
    // A count whose window has passed (and that is not locked) starts again at one.
    const [row] = await db.query<{ failures: number }>(
      `insert into sign_in_throttle (key, failures, window_started_at) values ($1, 1, $2)
       on conflict (key) do update set
         failures = case when sign_in_throttle.window_started_at < $3 and coalesce(sign_in_throttle.locked_until <= $2, true) then 1 else sign_in_throttle.failures + 1 end,
         window_started_at = case when sign_in_throttle.window_started_at < $3 and coalesce(sign_in_throttle.locked_until <= $2, true) then $2 else sign_in_throttle.window_started_at end
       returning failures`,
      [key, now, new Date(now.getTime() - WINDOW_MS)],
    );
    const delay = lockDelayMs(row!.failures, threshold);
    if (delay > 0) {
      const until = new Date(now.getTime() + delay);
      await db.query('update sign_in_throttle set locked_until = $2 where key = $1', [key, until]);
      if (!latest || until > latest) latest = until;
    }
  }
  return latest;
}

/** A right password (and code): the account's count starts again; the address's stays. */
export async function recordSuccess(db: Queryable, email: string): Promise<void> {
  await db.query('delete from sign_in_throttle where key = $1', [`account:${email}`]);
}
