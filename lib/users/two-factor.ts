import 'server-only';
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import {
  bare,
  columnsOf,
  insertValues,
  param,
  placeholders,
  sql,
  statement,
  userRecoveryCodes,
  users,
  type Database,
  type Queryable,
  type RowOf,
} from '../db';
import { appSecret, decryptSecret, encryptSecret } from '../merchants';
import { recordAudit } from './audit';
import { AccountError } from './errors';
import type { Client } from './sign-in';

/**
 * TOTP second factor (RFC 6238 through otpauth: SHA-1, 6 digits, 30 s, what every authenticator
 * app reads from a QR code). A code is accepted one step either side of now (clock drift) and
 * each step once (`users.totp_last_step`, moved forward by a conditional update, so a code seen
 * over a shoulder or replayed at the same moment does not sign in again). The secret is stored
 * encrypted like the API keys; recovery codes only as a keyed hash.
 */
export const PERIOD_SECONDS = 30;
const ISSUER = 'Crypto gateway';
export const RECOVERY_CODE_COUNT = 10;

function totp(secret: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
  });
}

/**
 * The time step a `code` of `secret` belongs to, within one step of `now`, when it is later than
 * `lastStep` (the last one accepted); undefined otherwise.
 */
export function acceptedStep(secret: string, code: string, lastStep: number | null, now: Date): number | undefined {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totp(secret).validate({ token, timestamp: now.getTime(), window: 1 });
  if (delta === null) return undefined;
  const step = Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
  return lastStep !== null && step <= lastStep ? undefined : step;
}

/** A recovery code as shown: 10 characters of a-z and 2-7 in two groups (`abcde-fghij`). */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b & 31]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** The stored form of a recovery code: HMAC-SHA256 under a key from APP_SECRET, so a copy of the table alone tests no guess. */
function recoveryHash(code: string): string {
  const key = Buffer.from(hkdfSync('sha256', appSecret(), 'gateway/recovery-codes', 'hmac-sha256', 32));
  return createHmac('sha256', key)
    .update(code.toLowerCase().replace(/[^a-z2-7]/g, ''), 'utf8')
    .digest('hex');
}

export function looksLikeRecoveryCode(code: string): boolean {
  return /^[a-z2-7]{5}-?[a-z2-7]{5}$/i.test(code.trim());
}

export const TWO_FACTOR_COLUMNS = [
  'id',
  'email',
  'merchant_id',
  'totp_secret_ciphertext',
  'totp_enabled_at',
  'totp_last_step',
] as const;
export type TwoFactorRow = Pick<RowOf<typeof users>, (typeof TWO_FACTOR_COLUMNS)[number]>;
const TWO_FACTOR_ROW = statement<TwoFactorRow, { id: string }>(
  sql`select ${columnsOf(users, TWO_FACTOR_COLUMNS)} from ${users} where ${users.id} = ${param('id')}`,
);

export async function twoFactorRow(db: Queryable, userId: string): Promise<TwoFactorRow> {
  const [row] = await TWO_FACTOR_ROW.run(db, { id: userId });
  if (!row) throw new AccountError('No such user.');
  return row;
}

export interface Enrolment {
  /** Base32, for typing into an app by hand. */
  secret: string;
  /** otpauth:// URI, the QR code's content. */
  uri: string;
}

const SET_PENDING_SECRET = statement<unknown, { id: string; ciphertext: string }>(
  sql`update ${users} set ${bare(users.totpSecretCiphertext)} = ${param('ciphertext')}, ${bare(users.updatedAt)} = now()
   where ${users.id} = ${param('id')} and ${users.totpEnabledAt} is null`,
);

/**
 * The secret being enrolled: the pending one (shown again until confirmed), or a new one kept
 * encrypted. Only the enrolment screen shows it; after confirmation nothing shows it again.
 */
export async function enrolment(db: Queryable, userId: string): Promise<Enrolment> {
  const row = await twoFactorRow(db, userId);
  if (row.totp_enabled_at) throw new AccountError('Two-factor is already on.');
  let secret = row.totp_secret_ciphertext ? decryptSecret(row.totp_secret_ciphertext) : undefined;
  if (!secret) {
    secret = new Secret({ size: 20 }).base32;
    await SET_PENDING_SECRET.run(db, { id: userId, ciphertext: encryptSecret(secret) });
  }
  return { secret, uri: totp(secret, row.email).toString() };
}

const ENABLE_TWO_FACTOR = statement<Pick<RowOf<typeof users>, 'id'>, { id: string; now: Date; step: number }>(
  sql`update ${users} set ${bare(users.totpEnabledAt)} = ${param('now')}, ${bare(users.totpLastStep)} = ${param('step')}, ${bare(users.updatedAt)} = ${param('now')}
   where ${users.id} = ${param('id')} and ${users.totpEnabledAt} is null returning ${bare(users.id)}`,
);
const DELETE_RECOVERY_CODES = statement<unknown, { userId: string }>(
  sql`delete from ${userRecoveryCodes} where ${userRecoveryCodes.userId} = ${param('userId')}`,
);
const RECOVERY_CODE = placeholders(['userId', 'codeHash', 'now']);
const RECOVERY_CODE_INSERT = insertValues([
  [userRecoveryCodes.userId, RECOVERY_CODE.userId],
  [userRecoveryCodes.codeHash, RECOVERY_CODE.codeHash],
  [userRecoveryCodes.createdAt, RECOVERY_CODE.now],
]);
const INSERT_RECOVERY_CODE = statement<unknown, { userId: string; codeHash: string; now: Date }>(
  sql`insert into ${userRecoveryCodes} (${RECOVERY_CODE_INSERT.columns}) values (${RECOVERY_CODE_INSERT.values})`,
);

/** Turns two-factor on with a first code of the pending secret; answers the recovery codes (shown once). */
export async function confirmEnrolment(
  db: Database,
  userId: string,
  code: string,
  client: Client = {},
  now = new Date(),
): Promise<string[]> {
  const row = await twoFactorRow(db, userId);
  if (row.totp_enabled_at) throw new AccountError('Two-factor is already on.');
  if (!row.totp_secret_ciphertext) throw new AccountError('Start the set-up again: no secret is pending.');
  const step = acceptedStep(decryptSecret(row.totp_secret_ciphertext), code, null, now);
  if (step === undefined)
    throw new AccountError(
      'That code is not right: check the time on your device and type the code your app shows now.',
    );
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.transaction(async (tx) => {
    const updated = await ENABLE_TWO_FACTOR.run(tx, { id: userId, now, step });
    if (updated.length === 0) throw new AccountError('Two-factor is already on.');
    await DELETE_RECOVERY_CODES.run(tx, { userId });
    for (const c of codes) await INSERT_RECOVERY_CODE.run(tx, { userId, codeHash: recoveryHash(c), now });
    await recordAudit(tx, {
      merchantId: row.merchant_id,
      userId,
      actor: row.email,
      action: 'two-factor.enable',
      ip: client.ip,
    });
  });
  return codes;
}

const SPEND_RECOVERY_CODE = statement<
  Pick<RowOf<typeof userRecoveryCodes>, 'code_hash'>,
  { userId: string; codeHash: string; now: Date }
>(
  sql`update ${userRecoveryCodes} set ${bare(userRecoveryCodes.usedAt)} = ${param('now')}
   where ${userRecoveryCodes.userId} = ${param('userId')} and ${userRecoveryCodes.codeHash} = ${param('codeHash')} and ${userRecoveryCodes.usedAt} is null
   returning ${bare(userRecoveryCodes.codeHash)}`,
);
// Conditional: of two requests with the same code at once, one moves the step and the other finds it moved.
const MOVE_STEP = statement<Pick<RowOf<typeof users>, 'id'>, { id: string; step: number }>(
  sql`update ${users} set ${bare(users.totpLastStep)} = ${param('step')}
   where ${users.id} = ${param('id')} and (${users.totpLastStep} is null or ${users.totpLastStep} < ${param('step')}) returning ${bare(users.id)}`,
);

/**
 * Checks a code (TOTP or a recovery code) of a user with two-factor on and spends it: the TOTP
 * step moves forward, a recovery code is marked used. Answers which factor it was when right.
 */
export async function spendCode(
  db: Queryable,
  row: TwoFactorRow,
  code: string,
  now: Date,
): Promise<'totp' | 'recovery' | undefined> {
  if (!row.totp_enabled_at || !row.totp_secret_ciphertext) return undefined;
  if (looksLikeRecoveryCode(code)) {
    const used = await SPEND_RECOVERY_CODE.run(db, { userId: row.id, codeHash: recoveryHash(code), now });
    return used.length > 0 ? 'recovery' : undefined;
  }
  const last = row.totp_last_step === null ? null : Number(row.totp_last_step);
  const step = acceptedStep(decryptSecret(row.totp_secret_ciphertext), code, last, now);
  if (step === undefined) return undefined;
  const moved = await MOVE_STEP.run(db, { id: row.id, step });
  return moved.length > 0 ? 'totp' : undefined;
}

const CLEAR_TWO_FACTOR = statement<unknown, { id: string; now: Date }>(
  sql`update ${users} set ${bare(users.totpSecretCiphertext)} = null, ${bare(users.totpEnabledAt)} = null, ${bare(users.totpLastStep)} = null, ${bare(users.updatedAt)} = ${param('now')}
   where ${users.id} = ${param('id')}`,
);

/** Turns two-factor off, with a current code (or a recovery code) as proof. */
export async function disableTwoFactor(
  db: Database,
  userId: string,
  code: string,
  client: Client = {},
  now = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await twoFactorRow(tx, userId);
    if (!row.totp_enabled_at) throw new AccountError('Two-factor is not on.');
    if (!(await spendCode(tx, row, code, now))) throw new AccountError('That code is not right.');
    await CLEAR_TWO_FACTOR.run(tx, { id: userId, now });
    await DELETE_RECOVERY_CODES.run(tx, { userId });
    await recordAudit(tx, {
      merchantId: row.merchant_id,
      userId,
      actor: row.email,
      action: 'two-factor.disable',
      ip: client.ip,
    });
  });
}

const UNUSED_RECOVERY_CODES = statement<{ n: number }, { userId: string }>(
  sql`select count(*)::int as n from ${userRecoveryCodes} where ${userRecoveryCodes.userId} = ${param('userId')} and ${userRecoveryCodes.usedAt} is null`,
);

/** Recovery codes still unused, for the account page. */
export async function unusedRecoveryCodes(db: Queryable, userId: string): Promise<number> {
  const [row] = await UNUSED_RECOVERY_CODES.run(db, { userId });
  return row!.n;
}
