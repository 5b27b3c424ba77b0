import 'server-only';
import { config } from '../config';
import {
  bare,
  columnsOf,
  insertValues,
  merchants,
  param,
  placeholders,
  sql,
  statement,
  userSessions,
  users,
  type Queryable,
  type RowOf,
} from '../db';
import type { Role } from './permissions';
import { isTokenShaped, newToken, tokenHash } from '../security';
import type { Mode } from '../protocol';

export const SESSION_COOKIE = 'cg_session';

/** Between a right password and a right code, the session may only finish signing in, for this long. */
const SECOND_FACTOR_MS = 5 * 60_000;
/**
 * `last_seen_at` is written at most this often per session (not a database write per page view):
 * a tenth of the idle timeout, and at most once a minute. A session used just after a write is
 * recorded as seen up to this much earlier, so it ends between 90% and 100% of the idle timeout
 * after its last use; a fixed minute ended a one-minute session used every 20 s (issue 34).
 */
export function touchEveryMs(policy: SessionPolicy): number {
  return Math.min(60_000, policy.idleMs / 10);
}

export type SessionStage = RowOf<typeof userSessions>['stage'];

export interface DashboardSession {
  tokenHash: string;
  userId: string;
  email: string;
  role: Role;
  merchantId: string;
  merchantName: string;
  /** The test/live switch, kept in the session row. */
  mode: Mode;
  twoFactorEnabled: boolean;
  /** The merchant requires two-factor for owners and this owner has none yet: only enrolment is open. */
  mustEnrolTwoFactor: boolean;
}

/** How long sessions last; from the configuration unless a test says otherwise. */
export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

export function sessionPolicy(): SessionPolicy {
  const cfg = config();
  return { idleMs: cfg.dashboardSessionIdleMs, maxMs: cfg.dashboardSessionMaxMs };
}

export interface NewSession {
  token: string;
  tokenHash: string;
  expiresAt: Date;
}

const REVOKE_SESSION = statement<unknown, { tokenHash: string; now: Date }>(
  sql`update ${userSessions} set ${bare(userSessions.revokedAt)} = ${param('now')} where ${userSessions.tokenHash} = ${param('tokenHash')} and ${userSessions.revokedAt} is null`,
);

const NEW_SESSION = placeholders(['tokenHash', 'userId', 'stage', 'now', 'expiresAt', 'ip', 'userAgent']);
const NEW_SESSION_INSERT = insertValues([
  [userSessions.tokenHash, NEW_SESSION.tokenHash],
  [userSessions.userId, NEW_SESSION.userId],
  [userSessions.stage, NEW_SESSION.stage],
  [userSessions.createdAt, NEW_SESSION.now],
  [userSessions.lastSeenAt, NEW_SESSION.now],
  [userSessions.expiresAt, NEW_SESSION.expiresAt],
  [userSessions.ip, NEW_SESSION.ip],
  [userSessions.userAgent, NEW_SESSION.userAgent],
]);
const INSERT_SESSION = statement<unknown, Record<keyof typeof NEW_SESSION, unknown>>(
  sql`insert into ${userSessions} (${NEW_SESSION_INSERT.columns}) values (${NEW_SESSION_INSERT.values})`,
);

/**
 * Opens a session for `userId` at `stage` with a new random token (the cookie's value; only its
 * hash is stored). `replacing` is the token hash of a session this one follows (the second-factor
 * step before it): that row is revoked, so every stage of a sign-in carries a new token.
 */
export async function openSession(
  db: Queryable,
  userId: string,
  stage: SessionStage,
  client: { ip?: string | null; userAgent?: string | null } = {},
  options: { replacing?: string; now?: Date; policy?: SessionPolicy } = {},
): Promise<NewSession> {
  const now = options.now ?? new Date();
  const policy = options.policy ?? sessionPolicy();
  const token = newToken();
  const hash = tokenHash(token);
  const expiresAt = new Date(
    now.getTime() + (stage === 'second-factor' ? Math.min(SECOND_FACTOR_MS, policy.maxMs) : policy.maxMs),
  );
  if (options.replacing) await REVOKE_SESSION.run(db, { tokenHash: options.replacing, now });
  await INSERT_SESSION.run(db, {
    tokenHash: hash,
    userId,
    stage,
    now,
    expiresAt,
    ip: client.ip ?? null,
    userAgent: client.userAgent?.slice(0, 512) ?? null,
  });
  return { token, tokenHash: hash, expiresAt };
}

type SessionRow = Pick<RowOf<typeof userSessions>, 'token_hash' | 'user_id' | 'mode' | 'last_seen_at'> &
  Pick<RowOf<typeof users>, 'email' | 'role' | 'merchant_id'> & {
    merchant_name: RowOf<typeof merchants>['name'];
    two_factor: boolean;
  } & Pick<RowOf<typeof merchants>, 'require_two_factor'>;

const SESSION = statement<SessionRow, { tokenHash: string; stage: SessionStage; now: Date; seenAfter: Date }>(
  sql`select ${columnsOf(userSessions, ['token_hash', 'user_id', 'mode', 'last_seen_at'])}, ${columnsOf(users, ['email', 'role', 'merchant_id'])},
            ${merchants.name} as merchant_name, ${users.totpEnabledAt} is not null as two_factor, ${merchants.requireTwoFactor}
       from ${userSessions}
       join ${users} on ${users.id} = ${userSessions.userId}
       join ${merchants} on ${merchants.id} = ${users.merchantId}
      where ${userSessions.tokenHash} = ${param('tokenHash')} and ${userSessions.stage} = ${param('stage')} and ${userSessions.revokedAt} is null
        and ${userSessions.expiresAt} > ${param('now')} and ${userSessions.lastSeenAt} > ${param('seenAfter')} and ${users.disabledAt} is null`,
);
const TOUCH_SESSION = statement<unknown, { tokenHash: string; now: Date }>(
  sql`update ${userSessions} set ${bare(userSessions.lastSeenAt)} = ${param('now')} where ${userSessions.tokenHash} = ${param('tokenHash')} and ${userSessions.lastSeenAt} < ${param('now')}`,
);

/**
 * The session `token` opens at `stage`, or undefined when there is none: unknown or malformed
 * token, revoked, past its absolute expiry, idle for longer than the idle timeout, or its user
 * disabled. A signed-in session seen again is touched (at most every touchEveryMs), which moves its idle expiry.
 */
export async function readSession(
  db: Queryable,
  token: string,
  options: { stage?: SessionStage; now?: Date; policy?: SessionPolicy } = {},
): Promise<DashboardSession | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const now = options.now ?? new Date();
  const policy = options.policy ?? sessionPolicy();
  const stage = options.stage ?? 'signed-in';
  const [row] = await SESSION.run(db, {
    tokenHash: tokenHash(token),
    stage,
    now,
    seenAfter: new Date(now.getTime() - policy.idleMs),
  });
  if (!row) return undefined;
  if (stage === 'signed-in' && now.getTime() - row.last_seen_at.getTime() >= touchEveryMs(policy)) {
    await TOUCH_SESSION.run(db, { tokenHash: row.token_hash, now });
  }
  return {
    tokenHash: row.token_hash,
    userId: row.user_id,
    email: row.email,
    role: row.role,
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    mode: row.mode,
    twoFactorEnabled: row.two_factor,
    mustEnrolTwoFactor: row.require_two_factor && row.role === 'owner' && !row.two_factor,
  };
}

const SET_SESSION_MODE = statement<unknown, { tokenHash: string; mode: Mode }>(
  sql`update ${userSessions} set ${bare(userSessions.mode)} = ${param('mode')} where ${userSessions.tokenHash} = ${param('tokenHash')}`,
);

export async function setSessionMode(
  db: Queryable,
  session: Pick<DashboardSession, 'tokenHash'>,
  mode: Mode,
): Promise<void> {
  await SET_SESSION_MODE.run(db, { tokenHash: session.tokenHash, mode });
}

/** Sign out: this session only. */
export async function revokeSession(db: Queryable, hash: string, now = new Date()): Promise<void> {
  await REVOKE_SESSION.run(db, { tokenHash: hash, now });
}

const REVOKE_USER_SESSIONS = statement<Pick<RowOf<typeof userSessions>, 'token_hash'>, { userId: string; now: Date }>(
  sql`update ${userSessions} set ${bare(userSessions.revokedAt)} = ${param('now')}
   where ${userSessions.userId} = ${param('userId')} and ${userSessions.revokedAt} is null returning ${bare(userSessions.tokenHash)}`,
);

/** Sign out everywhere (and what disabling a user or changing a password does): every session of the user. */
export async function revokeUserSessions(db: Queryable, userId: string, now = new Date()): Promise<number> {
  const rows = await REVOKE_USER_SESSIONS.run(db, { userId, now });
  return rows.length;
}

/** The cookie's attributes: HttpOnly, SameSite=Lax, only sent to the dashboard, Secure behind https, gone with the session. */
export function sessionCookie(session: Pick<NewSession, 'token' | 'expiresAt'>) {
  return {
    name: SESSION_COOKIE,
    value: session.token,
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/dashboard',
    secure: config().publicBaseUrl.startsWith('https:'),
    expires: session.expiresAt,
  };
}
