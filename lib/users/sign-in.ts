import 'server-only';
import { columnsOf, param, sql, statement, users, type Database, type RowOf } from '../db';
import { spendLink } from './accounts';
import { recordAudit } from './audit';
import { dummyHash, PASSWORD_MAX_LENGTH, verifyPassword } from './passwords';
import { openSession, type NewSession } from './sessions';
import { lockedUntil, recordFailure, recordSuccess, secondsUntil, throttleKeys } from './throttle';

export interface Client {
  ip?: string | null;
  userAgent?: string | null;
}

export type SignInResult =
  | { kind: 'signed-in'; session: NewSession }
  /** The password was right; the session may only finish signing in with a code. */
  | { kind: 'second-factor'; session: NewSession }
  | { kind: 'refused'; message: string };

export const WRONG_CREDENTIALS = 'Wrong e-mail address or password.';

export function tooManyAttempts(until: Date, now: Date): string {
  return `Too many attempts. Try again in ${secondsUntil(until, now)} s.`;
}

const USER_SIGNING_IN = statement<
  Pick<RowOf<typeof users>, 'id' | 'merchant_id' | 'password_hash'> & { disabled: boolean; two_factor: boolean },
  { email: string }
>(
  sql`select ${columnsOf(users, ['id', 'merchant_id', 'password_hash'])}, ${users.disabledAt} is not null as disabled, ${users.totpEnabledAt} is not null as two_factor
        from ${users} where ${users.email} = ${param('email')}`,
);

/**
 * The password step of a sign-in. The answer says the same for an unknown address, a disabled
 * user, a user without a password yet and a wrong password (and takes as long: a hash is
 * verified every time), so it does not tell which addresses have accounts.
 */
export async function signIn(
  db: Database,
  input: { email: string; password: string },
  client: Client = {},
  now = new Date(),
): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const keys = throttleKeys(email, client.ip);
  const locked = await lockedUntil(db, keys, now);
  if (locked) return { kind: 'refused', message: tooManyAttempts(locked, now) };

  const [user] = await USER_SIGNING_IN.run(db, { email });
  const usable = user && !user.disabled && user.password_hash !== null;
  const hash = usable ? user.password_hash! : await dummyHash();
  const right = input.password.length <= PASSWORD_MAX_LENGTH && (await verifyPassword(input.password, hash)) && usable;
  if (!right) {
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
  if (user.two_factor) {
    return { kind: 'second-factor', session: await openSession(db, user.id, 'second-factor', client, { now }) };
  }
  await recordSuccess(db, email);
  await recordAudit(db, {
    merchantId: user.merchant_id,
    userId: user.id,
    actor: email,
    action: 'sign-in.success',
    ip: client.ip,
  });
  return { kind: 'signed-in', session: await openSession(db, user.id, 'signed-in', client, { now }) };
}

/**
 * The set-up page: chooses the password of a one-time link and spends the link; answers a new
 * signed-in session, or none for a user with two-factor (who signs in again, with a code).
 */
export async function completeSetUp(
  db: Database,
  token: string,
  password: string,
  client: Client = {},
  now = new Date(),
): Promise<NewSession | undefined> {
  const link = await spendLink(db, token, password, now);
  await recordAudit(db, {
    merchantId: link.merchantId,
    userId: link.userId,
    actor: link.email,
    action: 'user.password-set',
    detail: { via: link.purpose },
    ip: client.ip,
  });
  if (link.twoFactorEnabled) return undefined;
  return openSession(db, link.userId, 'signed-in', client, { now });
}
