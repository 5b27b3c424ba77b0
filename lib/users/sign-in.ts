import 'server-only';
import { columnsOf, param, sql, statement, users, type Database, type Queryable, type RowOf } from '../db';
import { enqueueNewDeviceMail } from '../mail';
import { spendLink } from './accounts';
import { recordAudit } from './audit';
import { acceptInvitation, readInvitation } from './invitations';
import { knownDevice, rememberDevice, type RememberedDevice } from './devices';
import { dummyHash, PASSWORD_MAX_LENGTH, verifyPassword } from './passwords';
import { openSession, readSession, type NewSession } from './sessions';
import {
  lockedUntil,
  lockKeys,
  recordFailure,
  recordSuccess,
  secondsUntil,
  spendCheck,
  takeCheck,
  type ThrottleKey,
} from './throttle';
import { looksLikeRecoveryCode, spendCode, TWO_FACTOR_COLUMNS, twoFactorRow, type TwoFactorRow } from './two-factor';

export interface Client {
  ip?: string | null;
  userAgent?: string | null;
  /** The browser's `cg_device` cookie, if it has one (lib/users/devices.ts). */
  device?: string | null;
}

export type SignInResult =
  /** Signed in: the session, and the device token to keep (the browser is now known to this user). */
  | { kind: 'signed-in'; session: NewSession; device: RememberedDevice }
  /** The password was right; the session may only finish signing in with a code. */
  | { kind: 'second-factor'; session: NewSession }
  /** `askCode`: the account's budget for unknown devices is spent; a two-factor code given with the password opens it. */
  | { kind: 'refused'; message: string; askCode?: boolean };

export const WRONG_CREDENTIALS = 'Wrong e-mail address or password.';

export function tooManyAttempts(until: Date, now: Date): string {
  return `Too many attempts. Try again in ${secondsUntil(until, now)} s.`;
}

/** The answer while an account's budget is spent: the same for every address, known or not, with two-factor or not. */
export function slowedDown(freeAt: Date, now: Date): string {
  return `Many sign-ins to this account have failed. Try again in ${secondsUntil(freeAt, now)} s, or, if you use two-factor, sign in now with your password and a code.`;
}

type SigningInRow = TwoFactorRow &
  Pick<RowOf<typeof users>, 'password_hash'> & { disabled: boolean; two_factor: boolean };
const USER_SIGNING_IN = statement<SigningInRow, { email: string }>(
  sql`select ${columnsOf(users, TWO_FACTOR_COLUMNS)}, ${users.passwordHash}, ${users.disabledAt} is not null as disabled, ${users.totpEnabledAt} is not null as two_factor
        from ${users} where ${users.email} = ${param('email')}`,
);

/**
 * The password step of a sign-in (with the code too when the budget asks for it). The answer says
 * the same for an unknown address, a disabled user, a user without a password yet and a wrong
 * password (and takes as long: a hash is verified every time), so it does not tell which
 * addresses have accounts; the limits (lib/users/throttle.ts) count the address typed, whether it
 * has an account or not.
 */
export async function signIn(
  db: Database,
  input: { email: string; password: string; code?: string },
  client: Client = {},
  now = new Date(),
): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const deviceHash = await knownDevice(db, client.device, email, now);
  const who = { ip: client.ip, deviceHash };
  const keys = lockKeys(email, who);
  const locked = await lockedUntil(db, keys, now);
  if (locked) return { kind: 'refused', message: tooManyAttempts(locked, now) };

  // A device this account signed in from is limited on its own; any other spends the account's budget.
  const freeAt = deviceHash ? undefined : await takeCheck(db, email, now);
  // An attempt the budget refuses, without a code to check, needs no account: it is answered at once.
  const user = freeAt && !input.code ? undefined : (await USER_SIGNING_IN.run(db, { email }))[0];
  const usable = user && !user.disabled && user.password_hash !== null ? user : undefined;
  let factor: 'totp' | 'recovery' | undefined;
  if (freeAt) {
    // Only a right code (checked first, and spent) opens the password check now.
    factor = input.code && usable ? await spendCode(db, usable, input.code, now) : undefined;
    if (!factor) {
      // A wrong code counts like a wrong password; an attempt without one was checked against nothing.
      const until = input.code ? await recordFailure(db, keys, now) : undefined;
      return { kind: 'refused', message: until ? tooManyAttempts(until, now) : slowedDown(freeAt, now), askCode: true };
    }
  }

  const hash = usable ? usable.password_hash! : await dummyHash();
  const right = input.password.length <= PASSWORD_MAX_LENGTH && (await verifyPassword(input.password, hash)) && usable;
  if (!right) {
    if (factor) await spendCheck(db, email, now);
    const until = await recordFailure(db, keys, now);
    if (user)
      await recordAudit(db, {
        merchantId: user.merchant_id,
        userId: user.id,
        actor: email,
        action: 'sign-in.failure',
        detail: { reason: 'password' },
        ip: client.ip,
      });
    return { kind: 'refused', message: until ? tooManyAttempts(until, now) : WRONG_CREDENTIALS };
  }
  if (right.two_factor && !factor) {
    return { kind: 'second-factor', session: await openSession(db, right.id, 'second-factor', client, { now }) };
  }
  return signedIn(db, { userId: right.id, merchantId: right.merchant_id, email }, who, client, now, factor);
}

/**
 * A sign-in complete: the counts of the client (or device) that succeeded start again, audited, a
 * new session, the device known; a browser this account had not signed in from is mailed to the
 * user (docs/decisions/074), in the transaction that makes it known.
 */
async function signedIn(
  db: Database,
  user: { userId: string; merchantId: string; email: string },
  who: { ip?: string | null; deviceHash?: string },
  client: Client,
  now: Date,
  factor?: 'totp' | 'recovery',
  replacing?: string,
): Promise<Extract<SignInResult, { kind: 'signed-in' }>> {
  await recordSuccess(db, user.email, who);
  await recordAudit(db, {
    merchantId: user.merchantId,
    userId: user.userId,
    actor: user.email,
    action: 'sign-in.success',
    detail: factor ? { factor } : undefined,
    ip: client.ip,
  });
  const session = await openSession(db, user.userId, 'signed-in', client, { now, replacing });
  const device = await db.transaction(async (tx) => {
    if (!who.deviceHash)
      await enqueueNewDeviceMail(tx, user.userId, { at: now, ip: client.ip, userAgent: client.userAgent });
    return rememberDevice(tx, user.userId, client.device, now);
  });
  return { kind: 'signed-in', session, device };
}

/**
 * The code step of a sign-in: `token` is the second-factor session's cookie. A right code ends
 * that session and opens a signed-in one (a new token); wrong codes count like wrong passwords, on
 * the same keys.
 */
export async function completeSecondFactor(
  db: Database,
  token: string,
  code: string,
  client: Client = {},
  now = new Date(),
): Promise<Exclude<SignInResult, { kind: 'second-factor' }>> {
  const pending = await readSession(db, token, { stage: 'second-factor', now });
  if (!pending) return { kind: 'refused', message: 'Your sign-in has expired: enter your password again.' };
  const who = { ip: client.ip, deviceHash: await knownDevice(db, client.device, pending.email, now) };
  const keys: ThrottleKey[] = lockKeys(pending.email, who);
  const locked = await lockedUntil(db, keys, now);
  if (locked) return { kind: 'refused', message: tooManyAttempts(locked, now) };
  const factor = await spendCode(db, await twoFactorRow(db, pending.userId), code, now);
  if (!factor) {
    const until = await recordFailure(db, keys, now);
    await recordAudit(db, {
      merchantId: pending.merchantId,
      userId: pending.userId,
      actor: pending.email,
      action: 'sign-in.failure',
      detail: { reason: 'code' },
      ip: client.ip,
    });
    return { kind: 'refused', message: until ? tooManyAttempts(until, now) : 'That code is not right.' };
  }
  return signedIn(db, pending, who, client, now, factor, pending.tokenHash);
}

/**
 * A fresh second factor for a change that lets money move (granting an API key a money-out scope,
 * docs/decisions/048): a current authenticator code of a user with two-factor on, spent so that it
 * serves once, wrong codes counted like a sign-in's, on the same keys. Recovery codes do not count
 * here: they are for getting in when the authenticator is lost, not for granting. Answers why not,
 * or undefined.
 */
export async function confirmFreshSecondFactor(
  db: Queryable,
  user: { id: string; email: string },
  code: string,
  client: Client = {},
  now = new Date(),
): Promise<string | undefined> {
  const keys = lockKeys(user.email, { ip: client.ip });
  const locked = await lockedUntil(db, keys, now);
  if (locked) return tooManyAttempts(locked, now);
  const row = await twoFactorRow(db, user.id);
  if (!row.totp_enabled_at) return 'Turn on two-factor on your account page first.';
  if (looksLikeRecoveryCode(code) || (await spendCode(db, row, code, now)) !== 'totp') {
    const until = await recordFailure(db, keys, now);
    return until
      ? tooManyAttempts(until, now)
      : 'That code is not right: enter the current code of your authenticator app.';
  }
  return undefined;
}

/**
 * The set-up page: chooses the password of a one-time link (or of an invitation, which creates the
 * user) and spends the link; answers a new
 * signed-in session, or none for a user with two-factor (who signs in again, with a code).
 */
export async function completeSetUp(
  db: Database,
  token: string,
  password: string,
  client: Client = {},
  now = new Date(),
): Promise<{ session: NewSession; device: RememberedDevice } | undefined> {
  const invitation = await readInvitation(db, token, now);
  const link = invitation
    ? await acceptInvitation(db, invitation, password, now)
    : await spendLink(db, token, password, now);
  await recordAudit(db, {
    merchantId: link.merchantId,
    userId: link.userId,
    actor: link.email,
    action: 'user.password-set',
    detail: { via: link.purpose },
    ip: client.ip,
  });
  if (link.twoFactorEnabled) return undefined;
  const session = await openSession(db, link.userId, 'signed-in', client, { now });
  return { session, device: await rememberDevice(db, link.userId, client.device, now) };
}
