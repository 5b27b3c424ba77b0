import 'server-only';
import { config } from '../config';
import type { Queryable, RowOf, merchants, userSessions, users } from '../db';
import type { Role } from './permissions';
import { isTokenShaped, newToken, tokenHash } from './tokens';
import type { Mode } from '../protocol';

export const SESSION_COOKIE = 'cg_session';

/** Between a right password and a right code, the session may only finish signing in, for this long. */
const SECOND_FACTOR_MS = 5 * 60_000;
/** `last_seen_at` is written at most this often per session: not a database write per page view. */
const TOUCH_EVERY_MS = 60_000;

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
  const expiresAt = new Date(now.getTime() + (stage === 'second-factor' ? Math.min(SECOND_FACTOR_MS, policy.maxMs) : policy.maxMs));
  if (options.replacing) await db.query('update user_sessions set revoked_at = $2 where token_hash = $1 and revoked_at is null', [options.replacing, now]);
  await db.query(
    `insert into user_sessions (token_hash, user_id, stage, created_at, last_seen_at, expires_at, ip, user_agent)
     values ($1, $2, $3, $4, $4, $5, $6, $7)`,
    [hash, userId, stage, now, expiresAt, client.ip ?? null, client.userAgent?.slice(0, 512) ?? null],
  );
  return { token, tokenHash: hash, expiresAt };
}

type SessionRow = Pick<RowOf<typeof userSessions>, 'token_hash' | 'user_id' | 'mode' | 'last_seen_at'> &
  Pick<RowOf<typeof users>, 'email' | 'role' | 'merchant_id'> & { merchant_name: RowOf<typeof merchants>['name']; two_factor: boolean; require_two_factor: boolean };

/**
 * The session `token` opens at `stage`, or undefined when there is none: unknown or malformed
 * token, revoked, past its absolute expiry, idle for longer than the idle timeout, or its user
 * disabled. A signed-in session seen again is touched (at most once a minute), which moves its idle expiry.
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
  const [row] = await db.query<SessionRow>(
    `select s.token_hash, s.user_id, s.mode, s.last_seen_at, u.email, u.role, u.merchant_id,
            m.name as merchant_name, u.totp_enabled_at is not null as two_factor, m.require_two_factor
       from user_sessions s
       join users u on u.id = s.user_id
       join merchants m on m.id = u.merchant_id
      where s.token_hash = $1 and s.stage = $2 and s.revoked_at is null
        and s.expires_at > $3 and s.last_seen_at > $4 and u.disabled_at is null`,
    [tokenHash(token), stage, now, new Date(now.getTime() - policy.idleMs)],
  );
  if (!row) return undefined;
  if (stage === 'signed-in' && now.getTime() - row.last_seen_at.getTime() >= TOUCH_EVERY_MS) {
    await db.query('update user_sessions set last_seen_at = $2 where token_hash = $1 and last_seen_at < $2', [row.token_hash, now]);
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

export async function setSessionMode(db: Queryable, session: Pick<DashboardSession, 'tokenHash'>, mode: Mode): Promise<void> {
  await db.query('update user_sessions set mode = $2 where token_hash = $1', [session.tokenHash, mode]);
}

/** Sign out: this session only. */
export async function revokeSession(db: Queryable, hash: string, now = new Date()): Promise<void> {
  await db.query('update user_sessions set revoked_at = $2 where token_hash = $1 and revoked_at is null', [hash, now]);
}

/** Sign out everywhere (and what disabling a user or changing a password does): every session of the user. */
export async function revokeUserSessions(db: Queryable, userId: string, now = new Date()): Promise<number> {
  const rows = await db.query('update user_sessions set revoked_at = $2 where user_id = $1 and revoked_at is null returning token_hash', [userId, now]);
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
