import 'server-only';
import { z } from 'zod';
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
  users,
  userSessions,
  userTokens,
  type Database,
  type Queryable,
  type RowOf,
} from '../db';
import { findMerchantByName } from '../merchants';
import { AccountError } from './errors';
import { hashPassword, passwordProblem, verifyPassword } from './passwords';
import { ROLES, type Role } from './permissions';
import { revokeUserSessions } from './sessions';
import { isTokenShaped, newToken, tokenHash } from '../security';
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

const USER_COLUMNS = sql`${columnsOf(users, ['id', 'merchant_id'])}, ${merchants.name} as merchant_name, ${columnsOf(users, ['email', 'role', 'created_at'])},
  ${users.passwordHash} is not null as has_password, ${users.totpEnabledAt} is not null as two_factor, ${users.disabledAt} is not null as disabled`;
const USERS = sql`${users} join ${merchants} on ${merchants.id} = ${users.merchantId}`;
const USER_BY_EMAIL = statement<UserRow, { email: string }>(
  sql`select ${USER_COLUMNS} from ${USERS} where ${users.email} = ${param('email')}`,
);
const USER_OF_MERCHANT = statement<UserRow, { id: string; merchantId: string }>(
  sql`select ${USER_COLUMNS} from ${USERS} where ${users.id} = ${param('id')} and ${users.merchantId} = ${param('merchantId')}`,
);
const USERS_ORDER = sql`order by ${merchants.createdAt}, ${users.createdAt}, ${users.email}`;
const ALL_USERS = statement<UserRow>(sql`select ${USER_COLUMNS} from ${USERS} ${USERS_ORDER}`);
const USERS_OF_MERCHANT = statement<UserRow, { merchantId: string }>(
  sql`select ${USER_COLUMNS} from ${USERS} where ${users.merchantId} = ${param('merchantId')} ${USERS_ORDER}`,
);

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

const MERCHANT_BY_ID = statement<Pick<RowOf<typeof merchants>, 'id' | 'name'>, { id: string }>(
  sql`select ${columnsOf(merchants, ['id', 'name'])} from ${merchants} where ${merchants.id} = ${param('id')}`,
);

async function merchantNamed(db: Queryable, nameOrId: string): Promise<{ id: string; name: string }> {
  if (isUuid(nameOrId)) {
    const [row] = await MERCHANT_BY_ID.run(db, { id: nameOrId });
    if (row) return row;
  }
  const merchant = await findMerchantByName(db, nameOrId);
  if (!merchant) throw new AccountError(`No merchant named "${nameOrId}" (npm run keys -- list shows them).`);
  return merchant;
}

export async function findUserByEmail(db: Queryable, address: string): Promise<User | undefined> {
  const [row] = await USER_BY_EMAIL.run(db, { email: address.trim().toLowerCase() });
  return row && userOf(row);
}

export async function findUser(db: Queryable, merchantId: string, userId: string): Promise<User | undefined> {
  if (!isUuid(userId)) return undefined;
  const [row] = await USER_OF_MERCHANT.run(db, { id: userId, merchantId });
  return row && userOf(row);
}

/** Every user of the gateway (the CLI), or of one merchant (its team page), oldest first. */
export async function listUsers(db: Queryable, merchantId?: string): Promise<User[]> {
  const rows = merchantId ? await USERS_OF_MERCHANT.run(db, { merchantId }) : await ALL_USERS.run(db, {});
  return rows.map(userOf);
}

const LINK = placeholders(['tokenHash', 'userId', 'purpose', 'expiresAt', 'now']);
const LINK_INSERT = insertValues([
  [userTokens.tokenHash, LINK.tokenHash],
  [userTokens.userId, LINK.userId],
  [userTokens.purpose, LINK.purpose],
  [userTokens.expiresAt, LINK.expiresAt],
  [userTokens.createdAt, LINK.now],
]);
const INSERT_LINK = statement<
  unknown,
  { tokenHash: string; userId: string; purpose: LinkPurpose; expiresAt: Date; now: Date }
>(sql`insert into ${userTokens} (${LINK_INSERT.columns}) values (${LINK_INSERT.values})`);

/** A new one-time link for `userId`; only its hash is kept. */
export async function issueLink(
  db: Queryable,
  userId: string,
  purpose: LinkPurpose,
  now = new Date(),
): Promise<OneTimeLink> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS);
  await INSERT_LINK.run(db, { tokenHash: tokenHash(token), userId, purpose, expiresAt, now });
  return { url: linkUrl(token), expiresAt };
}

export interface CreateUserInput {
  /** The merchant's name or id. */
  merchant: string;
  email: string;
  role: Role;
  /** Without one, the user gets a one-time set-up link to choose it (the team page invites through ./invitations). */
  password?: string;
}

const NEW_USER = placeholders(['merchantId', 'email', 'role', 'passwordHash', 'now']);
const NEW_USER_INSERT = insertValues([
  [users.merchantId, NEW_USER.merchantId],
  [users.email, NEW_USER.email],
  [users.role, NEW_USER.role],
  [users.passwordHash, NEW_USER.passwordHash],
  [users.createdAt, NEW_USER.now],
  [users.updatedAt, NEW_USER.now],
]);
const INSERT_USER = statement<
  Pick<RowOf<typeof users>, 'id'>,
  { merchantId: string; email: string; role: Role; passwordHash: string | null; now: Date }
>(
  sql`insert into ${users} (${NEW_USER_INSERT.columns}) values (${NEW_USER_INSERT.values})
       on conflict (${bare(users.email)}) do nothing returning ${bare(users.id)}`,
);

/** Creates a user of a merchant; answers it, and its one-time link when no password was given. */
export async function createUser(
  db: Database,
  input: CreateUserInput,
  now = new Date(),
): Promise<{ user: User; link?: OneTimeLink }> {
  const address = normaliseEmail(input.email);
  if (!isRole(input.role)) throw new AccountError(`The role must be one of ${ROLES.join(', ')}.`);
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password, address);
    if (problem) throw new AccountError(problem);
  }
  const hash = input.password === undefined ? null : await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const merchant = await merchantNamed(tx, input.merchant);
    const [row] = await INSERT_USER.run(tx, {
      merchantId: merchant.id,
      email: address,
      role: input.role,
      passwordHash: hash,
      now,
    });
    if (!row) throw new AccountError(`There is already a user ${address}.`);
    const link = hash === null ? await issueLink(tx, row.id, 'set-up', now) : undefined;
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

const SET_PASSWORD = statement<unknown, { id: string; passwordHash: string; now: Date }>(
  sql`update ${users} set ${bare(users.passwordHash)} = ${param('passwordHash')}, ${bare(users.updatedAt)} = ${param('now')} where ${users.id} = ${param('id')}`,
);

/**
 * Sets a new password (`password`), or, without one, answers a one-time link to choose it. Either
 * way the user's sessions end: a reset follows a lost or leaked password.
 */
export async function resetPassword(
  db: Database,
  address: string,
  password?: string,
  now = new Date(),
): Promise<{ user: User; link?: OneTimeLink }> {
  const user = await requireUser(db, address);
  if (password !== undefined) {
    const problem = passwordProblem(password, user.email);
    if (problem) throw new AccountError(problem);
  }
  const hash = password === undefined ? undefined : await hashPassword(password);
  return db.transaction(async (tx) => {
    await revokeUserSessions(tx, user.id, now);
    if (hash === undefined) return { user, link: await issueLink(tx, user.id, 'reset', now) };
    await SET_PASSWORD.run(tx, { id: user.id, passwordHash: hash, now });
    return { user: { ...user, hasPassword: true } };
  });
}

const PASSWORD_HASH = statement<Pick<RowOf<typeof users>, 'password_hash'>, { id: string }>(
  sql`select ${users.passwordHash} from ${users} where ${users.id} = ${param('id')}`,
);
const REVOKE_OTHER_SESSIONS = statement<unknown, { userId: string; keepTokenHash: string; now: Date }>(
  sql`update ${userSessions} set ${bare(userSessions.revokedAt)} = ${param('now')}
   where ${userSessions.userId} = ${param('userId')} and ${userSessions.tokenHash} <> ${param('keepTokenHash')} and ${userSessions.revokedAt} is null`,
);

/**
 * The account page's password change: the current password first, then the new one; the user's
 * other sessions end (the session `keepTokenHash` stays).
 */
export async function changePassword(
  db: Database,
  user: { userId: string; email: string; tokenHash: string },
  current: string,
  password: string,
  now = new Date(),
): Promise<void> {
  const [row] = await PASSWORD_HASH.run(db, { id: user.userId });
  if (!row?.password_hash || !(await verifyPassword(current, row.password_hash)))
    throw new AccountError('The current password is not right.');
  const problem = passwordProblem(password, user.email);
  if (problem) throw new AccountError(problem);
  const hash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await SET_PASSWORD.run(tx, { id: user.userId, passwordHash: hash, now });
    await REVOKE_OTHER_SESSIONS.run(tx, { userId: user.userId, keepTokenHash: user.tokenHash, now });
  });
}

/** Disables a user for good (CLI, team "remove"): no sign-in, every session ended, links void. */
export async function disableUserById(db: Database, userId: string, now = new Date()): Promise<void> {
  await db.transaction((tx) => disableIn(tx, userId, now));
}

const DISABLE_USER = statement<unknown, { id: string; now: Date }>(
  sql`update ${users} set ${bare(users.disabledAt)} = coalesce(${users.disabledAt}, ${param('now')}), ${bare(users.updatedAt)} = ${param('now')} where ${users.id} = ${param('id')}`,
);
const VOID_LINKS = statement<unknown, { userId: string; now: Date }>(
  sql`update ${userTokens} set ${bare(userTokens.usedAt)} = ${param('now')} where ${userTokens.userId} = ${param('userId')} and ${userTokens.usedAt} is null`,
);

async function disableIn(tx: Queryable, userId: string, now: Date): Promise<void> {
  await DISABLE_USER.run(tx, { id: userId, now });
  await VOID_LINKS.run(tx, { userId, now });
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

type LinkRow = Pick<RowOf<typeof userTokens>, 'user_id' | 'purpose'> &
  Pick<RowOf<typeof users>, 'email' | 'merchant_id'> & {
    merchant_name: RowOf<typeof merchants>['name'];
    two_factor: boolean;
  };
const LINK_BY_TOKEN = statement<LinkRow, { tokenHash: string; now: Date }>(
  sql`select ${userTokens.userId}, ${users.email}, ${users.merchantId}, ${merchants.name} as merchant_name, ${userTokens.purpose}, ${users.totpEnabledAt} is not null as two_factor
       from ${userTokens} join ${users} on ${users.id} = ${userTokens.userId} join ${merchants} on ${merchants.id} = ${users.merchantId}
      where ${userTokens.tokenHash} = ${param('tokenHash')} and ${userTokens.usedAt} is null and ${userTokens.expiresAt} > ${param('now')} and ${users.disabledAt} is null`,
);

/** What a one-time link is for, while it can still be used; undefined when unknown, used, expired or its user disabled. */
export async function readLink(db: Queryable, token: string, now = new Date()): Promise<LinkDetails | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const [row] = await LINK_BY_TOKEN.run(db, { tokenHash: tokenHash(token), now });
  return (
    row && {
      userId: row.user_id,
      email: row.email,
      merchantId: row.merchant_id,
      merchantName: row.merchant_name,
      purpose: row.purpose,
      twoFactorEnabled: row.two_factor,
    }
  );
}

const SPEND_LINK = statement<Pick<RowOf<typeof userTokens>, 'user_id'>, { tokenHash: string; now: Date }>(
  sql`update ${userTokens} set ${bare(userTokens.usedAt)} = ${param('now')}
   where ${userTokens.tokenHash} = ${param('tokenHash')} and ${userTokens.usedAt} is null and ${userTokens.expiresAt} > ${param('now')} returning ${bare(userTokens.userId)}`,
);

/**
 * Uses a one-time link: sets the password it was for and spends the link, once (a second use,
 * even at the same moment, finds it used). The user's other sessions end. Answers the user.
 */
export async function spendLink(db: Database, token: string, password: string, now = new Date()): Promise<LinkDetails> {
  const link = await readLink(db, token, now);
  if (!link)
    throw new AccountError(
      'This link is not valid: it was used already, has expired or was withdrawn. Ask for a new one.',
    );
  const problem = passwordProblem(password, link.email);
  if (problem) throw new AccountError(problem);
  const hash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const spent = await SPEND_LINK.run(tx, { tokenHash: tokenHash(token), now });
    if (spent.length === 0) throw new AccountError('This link was used already.');
    await SET_PASSWORD.run(tx, { id: link.userId, passwordHash: hash, now });
    await revokeUserSessions(tx, link.userId, now);
    return link;
  });
}

const SET_ROLE = statement<unknown, { id: string; role: Role; now: Date }>(
  sql`update ${users} set ${bare(users.role)} = ${param('role')}, ${bare(users.updatedAt)} = ${param('now')} where ${users.id} = ${param('id')}`,
);

/**
 * Changes a user's role within its merchant. The last active owner stays an owner: a merchant
 * without one could no longer manage its team.
 */
export async function changeRole(
  db: Database,
  merchantId: string,
  userId: string,
  role: Role,
  now = new Date(),
): Promise<User> {
  return db.transaction(async (tx) => {
    const user = await findUser(tx, merchantId, userId);
    if (!user || user.disabled) throw new AccountError('No such user in this team.');
    if (user.role === 'owner' && role !== 'owner') await keepAnOwner(tx, merchantId, userId);
    await SET_ROLE.run(tx, { id: userId, role, now });
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

const LOCK_OWNERS = statement<Pick<RowOf<typeof users>, 'id'>, { merchantId: string }>(
  sql`select ${users.id} from ${users} where ${users.merchantId} = ${param('merchantId')} and ${users.role} = 'owner' and ${users.disabledAt} is null for update`,
);

/** Refuses when `userId` is the merchant's only active owner; locks the owners' rows until the transaction ends. */
async function keepAnOwner(tx: Queryable, merchantId: string, userId: string): Promise<void> {
  const owners = await LOCK_OWNERS.run(tx, { merchantId });
  if (!owners.some((o) => o.id !== userId))
    throw new AccountError('This is the last owner: make someone else an owner first.');
}
