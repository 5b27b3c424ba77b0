import 'server-only';
import { z } from 'zod';
import { config } from '../config';
import type { Database, Queryable, RowOf, users } from '../db';
import { findMerchantByName } from '../merchants';
import { AccountError } from './errors';
import { hashPassword, passwordProblem, verifyPassword } from './passwords';
import { ROLES, type Role } from './permissions';
import { revokeUserSessions } from './sessions';
import { isTokenShaped, newToken, tokenHash } from './tokens';
import { isUuid } from '../protocol';

/** How long a one-time link (first owner's set-up, invite, password reset) may be used. */
export const LINK_LIFETIME_MS = 72 * 3_600_000;

export type LinkPurpose = 'set-up' | 'invite' | 'reset';

export interface User {
  id: string;
  merchantId: string;
  merchantName: string;
  email: string;
  role: Role;
  hasPassword: boolean;
  twoFactorEnabled: boolean;
  disabled: boolean;
  createdAt: Date;
}

export interface OneTimeLink {
  url: string;
  expiresAt: Date;
}

const email = z.email({ error: 'must be an e-mail address such as owner@shop.example' }).max(254);

/** The address as stored: trimmed, lower case; refused with a message when it is not one. */
export function normaliseEmail(value: string): string {
  const parsed = email.safeParse(value.trim().toLowerCase());
  if (!parsed.success) throw new AccountError(`"${value}" is not an e-mail address.`);
  return parsed.data;
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The link a one-time token opens: the set-up page on the public URL. */
export function linkUrl(token: string): string {
  return `${config().publicBaseUrl}/dashboard/set-up/${token}`;
}

type UserRow = Pick<RowOf<typeof users>, 'id' | 'merchant_id' | 'email' | 'role' | 'created_at'> & {
  merchant_name: string;
  has_password: boolean;
  two_factor: boolean;
  disabled: boolean;
};

const USER_COLUMNS = `u.id, u.merchant_id, m.name as merchant_name, u.email, u.role, u.created_at,
  u.password_hash is not null as has_password, u.totp_enabled_at is not null as two_factor, u.disabled_at is not null as disabled`;

function userOf(row: UserRow): User {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    merchantName: row.merchant_name,
    email: row.email,
    role: row.role,
    hasPassword: row.has_password,
    twoFactorEnabled: row.two_factor,
    disabled: row.disabled,
    createdAt: row.created_at,
  };
}

async function merchantNamed(db: Queryable, nameOrId: string): Promise<{ id: string; name: string }> {
  if (isUuid(nameOrId)) {
    const [row] = await db.query<{ id: string; name: string }>('select id, name from merchants where id = $1', [nameOrId]);
    if (row) return row;
  }
  const merchant = await findMerchantByName(db, nameOrId);
  if (!merchant) throw new AccountError(`No merchant named "${nameOrId}" (npm run keys -- list shows them).`);
  return merchant;
}

export async function findUserByEmail(db: Queryable, address: string): Promise<User | undefined> {
  const [row] = await db.query<UserRow>(`select ${USER_COLUMNS} from users u join merchants m on m.id = u.merchant_id where u.email = $1`, [address.trim().toLowerCase()]);
  return row && userOf(row);
}

export async function findUser(db: Queryable, merchantId: string, userId: string): Promise<User | undefined> {
  if (!isUuid(userId)) return undefined;
  const [row] = await db.query<UserRow>(`select ${USER_COLUMNS} from users u join merchants m on m.id = u.merchant_id where u.id = $1 and u.merchant_id = $2`, [userId, merchantId]);
  return row && userOf(row);
}

/** Every user of the gateway (the CLI), or of one merchant (its team page), oldest first. */
export async function listUsers(db: Queryable, merchantId?: string): Promise<User[]> {
  const rows = await db.query<UserRow>(
    `select ${USER_COLUMNS} from users u join merchants m on m.id = u.merchant_id
      ${merchantId ? 'where u.merchant_id = $1' : ''} order by m.created_at, u.created_at, u.email`,
    merchantId ? [merchantId] : [],
  );
  return rows.map(userOf);
}

/** A new one-time link for `userId`; only its hash is kept. */
export async function issueLink(db: Queryable, userId: string, purpose: LinkPurpose, now = new Date()): Promise<OneTimeLink> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS);
  await db.query('insert into user_tokens (token_hash, user_id, purpose, expires_at, created_at) values ($1, $2, $3, $4, $5)', [tokenHash(token), userId, purpose, expiresAt, now]);
  return { url: linkUrl(token), expiresAt };
}

export interface CreateUserInput {
  /** The merchant's name or id. */
  merchant: string;
  email: string;
  role: Role;
  /** Without one, the user gets a one-time link to choose it. */
  password?: string;
  /** What the link is for when there is no password: `set-up` (command line, first owner) or `invite` (team page). */
  purpose?: 'set-up' | 'invite';
}

/** Creates a user of a merchant; answers it, and its one-time link when no password was given. */
export async function createUser(db: Database, input: CreateUserInput, now = new Date()): Promise<{ user: User; link?: OneTimeLink }> {
  const address = normaliseEmail(input.email);
  if (!isRole(input.role)) throw new AccountError(`The role must be one of ${ROLES.join(', ')}.`);
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password, address);
    if (problem) throw new AccountError(problem);
  }
  const hash = input.password === undefined ? null : await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const merchant = await merchantNamed(tx, input.merchant);
    const [row] = await tx.query<{ id: string }>(
      `insert into users (merchant_id, email, role, password_hash, created_at, updated_at) values ($1, $2, $3, $4, $5, $5)
       on conflict (email) do nothing returning id`,
      [merchant.id, address, input.role, hash, now],
    );
    if (!row) throw new AccountError(`There is already a user ${address}.`);
    const link = hash === null ? await issueLink(tx, row.id, input.purpose ?? 'set-up', now) : undefined;
    const user = (await findUser(tx, merchant.id, row.id))!;
    return { user, link };
  });
}

/** A user by e-mail, for the CLI: refused with a message when there is none. */
async function requireUser(db: Queryable, address: string): Promise<User> {
  const user = await findUserByEmail(db, address);
  if (!user) throw new AccountError(`No user ${address.trim().toLowerCase()}.`);
  return user;
}

/**
 * Sets a new password (`password`), or, without one, answers a one-time link to choose it. Either
 * way the user's sessions end: a reset follows a lost or leaked password.
 */
export async function resetPassword(db: Database, address: string, password?: string, now = new Date()): Promise<{ user: User; link?: OneTimeLink }> {
  const user = await requireUser(db, address);
  if (password !== undefined) {
    const problem = passwordProblem(password, user.email);
    if (problem) throw new AccountError(problem);
  }
  const hash = password === undefined ? undefined : await hashPassword(password);
  return db.transaction(async (tx) => {
    await revokeUserSessions(tx, user.id, now);
    if (hash === undefined) return { user, link: await issueLink(tx, user.id, 'reset', now) };
    await tx.query('update users set password_hash = $2, updated_at = $3 where id = $1', [user.id, hash, now]);
    return { user: { ...user, hasPassword: true } };
  });
}

/**
 * The account page's password change: the current password first, then the new one; the user's
 * other sessions end (the session `keepTokenHash` stays).
 */
export async function changePassword(db: Database, user: { userId: string; email: string; tokenHash: string }, current: string, password: string, now = new Date()): Promise<void> {
  const [row] = await db.query<{ password_hash: string | null }>('select password_hash from users where id = $1', [user.userId]);
  if (!row?.password_hash || !(await verifyPassword(current, row.password_hash))) throw new AccountError('The current password is not right.');
  const problem = passwordProblem(password, user.email);
  if (problem) throw new AccountError(problem);
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await tx.query('update users set password_hash = $2, updated_at = $3 where id = $1', [user.userId, hash, now]);
    await tx.query('update user_sessions set revoked_at = $3 where user_id = $1 and token_hash <> $2 and revoked_at is null', [user.userId, user.tokenHash, now]);
  });
}

/** Disables a user for good (CLI, team "remove"): no sign-in, every session ended, links void. */
export async function disableUserById(db: Database, userId: string, now = new Date()): Promise<void> {
  await db.transaction((tx) => disableIn(tx, userId, now));
}

async function disableIn(tx: Queryable, userId: string, now: Date): Promise<void> {
  await tx.query('update users set disabled_at = coalesce(disabled_at, $2), updated_at = $2 where id = $1', [userId, now]);
  await tx.query('update user_tokens set used_at = $2 where user_id = $1 and used_at is null', [userId, now]);
  await revokeUserSessions(tx, userId, now);
}

export async function disableUser(db: Database, address: string, now = new Date()): Promise<User> {
  const user = await requireUser(db, address);
  await disableUserById(db, user.id, now);
  return { ...user, disabled: true };
}

export interface LinkDetails {
  userId: string;
  email: string;
  merchantId: string;
  merchantName: string;
  purpose: LinkPurpose;
  twoFactorEnabled: boolean;
}

/** What a one-time link is for, while it can still be used; undefined when unknown, used, expired or its user disabled. */
export async function readLink(db: Queryable, token: string, now = new Date()): Promise<LinkDetails | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const [row] = await db.query<{ user_id: string; email: string; merchant_id: string; merchant_name: string; purpose: LinkPurpose; two_factor: boolean }>(
    `select t.user_id, u.email, u.merchant_id, m.name as merchant_name, t.purpose, u.totp_enabled_at is not null as two_factor
       from user_tokens t join users u on u.id = t.user_id join merchants m on m.id = u.merchant_id
      where t.token_hash = $1 and t.used_at is null and t.expires_at > $2 and u.disabled_at is null`,
    [tokenHash(token), now],
  );
  return (
    row && { userId: row.user_id, email: row.email, merchantId: row.merchant_id, merchantName: row.merchant_name, purpose: row.purpose, twoFactorEnabled: row.two_factor }
  );
}

/**
 * Uses a one-time link: sets the password it was for and spends the link, once (a second use,
 * even at the same moment, finds it used). The user's other sessions end. Answers the user.
 */
export async function spendLink(db: Database, token: string, password: string, now = new Date()): Promise<LinkDetails> {
  const link = await readLink(db, token, now);
  if (!link) throw new AccountError('This link is not valid: it was used already, has expired or was withdrawn. Ask for a new one.');
  const problem = passwordProblem(password, link.email);
  if (problem) throw new AccountError(problem);
  const hash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const spent = await tx.query('update user_tokens set used_at = $2 where token_hash = $1 and used_at is null and expires_at > $2 returning user_id', [tokenHash(token), now]);
    if (spent.length === 0) throw new AccountError('This link was used already.');
    await tx.query('update users set password_hash = $2, updated_at = $3 where id = $1', [link.userId, hash, now]);
    await revokeUserSessions(tx, link.userId, now);
    return link;
  });
}

/**
 * Changes a user's role within its merchant. The last active owner stays an owner: a merchant
 * without one could no longer manage its team.
 */
export async function changeRole(db: Database, merchantId: string, userId: string, role: Role, now = new Date()): Promise<User> {
  return db.transaction(async (tx) => {
    const user = await findUser(tx, merchantId, userId);
    if (!user || user.disabled) throw new AccountError('No such user in this team.');
    if (user.role === 'owner' && role !== 'owner') await keepAnOwner(tx, merchantId, userId);
    await tx.query('update users set role = $2, updated_at = $3 where id = $1', [userId, role, now]);
    return { ...user, role };
  });
}

/** Removes a user from the team (disabled, sessions ended); never the last active owner. */
export async function removeUser(db: Database, merchantId: string, userId: string, now = new Date()): Promise<User> {
  return db.transaction(async (tx) => {
    const user = await findUser(tx, merchantId, userId);
    if (!user || user.disabled) throw new AccountError('No such user in this team.');
    if (user.role === 'owner') await keepAnOwner(tx, merchantId, userId);
    await disableIn(tx, userId, now);
    return { ...user, disabled: true };
  });
}

/** Refuses when `userId` is the merchant's only active owner; locks the owners' rows until the transaction ends. */
async function keepAnOwner(tx: Queryable, merchantId: string, userId: string): Promise<void> {
  const owners = await tx.query<{ id: string }>(`select id from users where merchant_id = $1 and role = 'owner' and disabled_at is null for update`, [merchantId]);
  if (!owners.some((o) => o.id !== userId)) throw new AccountError('This is the last owner: make someone else an owner first.');
}
