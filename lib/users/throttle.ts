import 'server-only';
import { bare, param, signInThrottle, sql, statement, type Queryable, type RowOf } from '../db';

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

const LOCKED_UNTIL = statement<{ until: RowOf<typeof signInThrottle>['locked_until'] }, { keys: string[]; now: Date }>(
  sql`select max(${signInThrottle.lockedUntil}) as until from ${signInThrottle} where ${signInThrottle.key} = any(${param('keys')}) and ${signInThrottle.lockedUntil} > ${param('now')}`,
);

/** The latest time one of `keys` is locked until, if one is locked now. */
export async function lockedUntil(db: Queryable, keys: ThrottleKey[], now: Date): Promise<Date | undefined> {
  const [row] = await LOCKED_UNTIL.run(db, { keys: keys.map((k) => k.key), now });
  return row?.until ?? undefined;
}

// A count whose window has passed (and that is not locked) starts again at one.
const WINDOW_PASSED = sql`${signInThrottle.windowStartedAt} < ${param('windowStart')} and coalesce(${signInThrottle.lockedUntil} <= ${param('now')}, true)`;
const COUNT_FAILURE = statement<
  Pick<RowOf<typeof signInThrottle>, 'failures'>,
  { key: string; now: Date; windowStart: Date }
>(
  sql`insert into ${signInThrottle} (${bare(signInThrottle.key)}, ${bare(signInThrottle.failures)}, ${bare(signInThrottle.windowStartedAt)}) values (${param('key')}, 1, ${param('now')})
       on conflict (${bare(signInThrottle.key)}) do update set
         ${bare(signInThrottle.failures)} = case when ${WINDOW_PASSED} then 1 else ${signInThrottle.failures} + 1 end,
         ${bare(signInThrottle.windowStartedAt)} = case when ${WINDOW_PASSED} then ${param('now')} else ${signInThrottle.windowStartedAt} end
       returning ${bare(signInThrottle.failures)}`,
);
const LOCK_KEY = statement<unknown, { key: string; until: Date }>(
  sql`update ${signInThrottle} set ${bare(signInThrottle.lockedUntil)} = ${param('until')} where ${signInThrottle.key} = ${param('key')}`,
);

/** Counts a failure on each key; answers the time the attempt locked a key until, if it did. */
export async function recordFailure(db: Queryable, keys: ThrottleKey[], now: Date): Promise<Date | undefined> {
  let latest: Date | undefined;
  for (const { key, threshold } of keys) {
    const [row] = await COUNT_FAILURE.run(db, { key, now, windowStart: new Date(now.getTime() - WINDOW_MS) });
    const delay = lockDelayMs(row!.failures, threshold);
    if (delay > 0) {
      const until = new Date(now.getTime() + delay);
      await LOCK_KEY.run(db, { key, until });
      if (!latest || until > latest) latest = until;
    }
  }
  return latest;
}

const CLEAR_KEY = statement<unknown, { key: string }>(
  sql`delete from ${signInThrottle} where ${signInThrottle.key} = ${param('key')}`,
);

/** A right password (and code): the account's count starts again; the address's stays. */
export async function recordSuccess(db: Queryable, email: string): Promise<void> {
  await CLEAR_KEY.run(db, { key: `account:${email}` });
}
