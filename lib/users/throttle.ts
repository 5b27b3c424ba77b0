import 'server-only';
import { bare, param, signInThrottle, sql, statement, type Queryable, type RowOf } from '../db';
import { clientKey } from '../security';

/**
 * Sign-in limits (docs/decisions/049), in table sign_in_throttle so that several web servers share
 * them. None of them lets a stranger keep a user out:
 *
 * - **Locks per client**: after `threshold` failures in a row, a key is locked for 30 s, doubling
 *   with every further failure up to an hour; while locked, nothing is checked (the right password
 *   is refused too). The keys: a client on an account (5), a client on every account (50: one
 *   office or NAT holds many people who mistype), and a device that signed in to the account
 *   before (5), whose attempts are counted on that key alone. A client is an IPv4 address or an
 *   IPv6 /64 (lib/security clientKey), as TRUSTED_PROXIES make it known.
 * - **An account's budget** of password checks from devices it has not signed in from: 10 at
 *   once, then one per 40 s, so at most 100 an hour (a GCRA over `budget_spent_until`). A check is
 *   spent before the password is looked at; without one, the attempt is answered "try again in
 *   N s" (N at most 40) and counts nowhere: a slow-down of the account as a whole, never a lock.
 *   A right second-factor code, given with the password, is checked first and opens the password
 *   check without the budget.
 *
 * Failures older than an hour are forgotten; a success clears the key of the client (or device)
 * that succeeded, and nothing else: the budget refills with time alone.
 */
export const ACCOUNT_CLIENT_THRESHOLD = 5;
export const CLIENT_THRESHOLD = 50;
export const DEVICE_THRESHOLD = 5;
/** Password checks an account may have at once, before the spacing applies. */
export const BUDGET_BURST = 10;
/** Then one check per this long: 10 + 3600 / 40 = 100 checks in any hour. */
export const BUDGET_SPACING_MS = 40_000;
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

/** The lock keys of an attempt on `email`: its known device's alone, or its client's on the account and on every account. */
export function lockKeys(email: string, who: { ip?: string | null; deviceHash?: string }): ThrottleKey[] {
  if (who.deviceHash) return [{ key: `device:${who.deviceHash}|${email}`, threshold: DEVICE_THRESHOLD }];
  const client = clientKey(who.ip);
  return [
    { key: `account-client:${email}|${client}`, threshold: ACCOUNT_CLIENT_THRESHOLD },
    { key: `client:${client}`, threshold: CLIENT_THRESHOLD },
  ];
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

const CLEAR_KEYS = statement<unknown, { keys: string[] }>(
  sql`delete from ${signInThrottle} where ${signInThrottle.key} = any(${param('keys')})`,
);

/** A right password (and code): the count of the client (or device) that succeeded starts again; the others' stay. */
export async function recordSuccess(db: Queryable, email: string, who: { ip?: string | null; deviceHash?: string }) {
  // The first key is the client's own on this account, or the device's; the client's key over every account stays.
  await CLEAR_KEYS.run(db, { keys: [lockKeys(email, who)[0]!.key] });
}

const budgetKey = (email: string) => `budget:${email}`;
const BUDGET_DEPTH_MS = (BUDGET_BURST - 1) * BUDGET_SPACING_MS;
const SPENT = sql`greatest(coalesce(${signInThrottle.budgetSpentUntil}, ${param('now')}), ${param('now')})`;
// Taken only while at least one check is left: spent no further than BUDGET_DEPTH_MS ahead of now.
const TAKE_CHECK = statement<unknown, { key: string; now: Date; next: Date; latest: Date; spacing: string }>(
  sql`insert into ${signInThrottle} (${bare(signInThrottle.key)}, ${bare(signInThrottle.budgetSpentUntil)}) values (${param('key')}, ${param('next')})
       on conflict (${bare(signInThrottle.key)}) do update set ${bare(signInThrottle.budgetSpentUntil)} = ${SPENT} + ${param('spacing')}::interval
       where coalesce(${signInThrottle.budgetSpentUntil}, ${param('now')}) <= ${param('latest')}
       returning 1`,
);
const SPEND_CHECK = statement<unknown, { key: string; now: Date; next: Date; spacing: string }>(
  sql`insert into ${signInThrottle} (${bare(signInThrottle.key)}, ${bare(signInThrottle.budgetSpentUntil)}) values (${param('key')}, ${param('next')})
       on conflict (${bare(signInThrottle.key)}) do update set ${bare(signInThrottle.budgetSpentUntil)} = ${SPENT} + ${param('spacing')}::interval`,
);
const BUDGET_SPENT_UNTIL = statement<Pick<RowOf<typeof signInThrottle>, 'budget_spent_until'>, { key: string }>(
  sql`select ${signInThrottle.budgetSpentUntil} from ${signInThrottle} where ${signInThrottle.key} = ${param('key')}`,
);

function budgetParams(email: string, now: Date) {
  return {
    key: budgetKey(email),
    now,
    next: new Date(now.getTime() + BUDGET_SPACING_MS),
    spacing: `${BUDGET_SPACING_MS} milliseconds`,
  };
}

/**
 * Takes one password check from `email`'s budget, in one statement (two servers never take the
 * last check both). Answers undefined when taken, else the time the next check frees up.
 */
export async function takeCheck(db: Queryable, email: string, now: Date): Promise<Date | undefined> {
  const params = budgetParams(email, now);
  const taken = await TAKE_CHECK.run(db, { ...params, latest: new Date(now.getTime() + BUDGET_DEPTH_MS) });
  if (taken.length > 0) return undefined;
  const [row] = await BUDGET_SPENT_UNTIL.run(db, { key: params.key });
  return new Date(row!.budget_spent_until!.getTime() - BUDGET_DEPTH_MS);
}

/** A password check made without the budget (a right code came first) and failed: spent all the same. */
export async function spendCheck(db: Queryable, email: string, now: Date): Promise<void> {
  await SPEND_CHECK.run(db, budgetParams(email, now));
}

const PRUNE = statement<unknown, { windowStart: Date; now: Date }>(
  sql`delete from ${signInThrottle} where ${signInThrottle.windowStartedAt} < ${param('windowStart')}
        and coalesce(${signInThrottle.lockedUntil} <= ${param('now')}, true) and coalesce(${signInThrottle.budgetSpentUntil} <= ${param('now')}, true)`,
);

/** Forgets keys with nothing left to say (housekeeping): a stranger's guesses at many addresses leave rows behind. */
export async function pruneThrottle(db: Queryable, now = new Date()): Promise<void> {
  await PRUNE.run(db, { windowStart: new Date(now.getTime() - WINDOW_MS), now });
}
