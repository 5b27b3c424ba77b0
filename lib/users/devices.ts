import 'server-only';
import { config } from '../config';
import { bare, insertValues, param, placeholders, sql, statement, userDevices, users, type Queryable } from '../db';
import { isTokenShaped, newToken, tokenHash } from '../security';

/**
 * Devices that signed in before (OWASP's "device cookies"): a browser that completed a sign-in to
 * a user holds a random token in the `cg_device` cookie, and its later attempts on that account are
 * limited on their own (lib/users/throttle.ts), apart from the strangers who may be guessing. The
 * token opens nothing by itself: the password (and code) are still asked for.
 */
export const DEVICE_COOKIE = 'cg_device';
/** A device is known for this long after its last sign-in. */
export const DEVICE_LIFETIME_MS = 180 * 86_400_000;

export interface RememberedDevice {
  token: string;
  expiresAt: Date;
}

const KNOWN_DEVICE = statement<{ known: number }, { tokenHash: string; email: string; since: Date }>(
  sql`select 1 as known from ${userDevices} join ${users} on ${users.id} = ${userDevices.userId}
       where ${userDevices.tokenHash} = ${param('tokenHash')} and ${users.email} = ${param('email')} and ${userDevices.lastSignedInAt} > ${param('since')}
       limit 1`,
);

/** The hash of `token` when it is a device that signed in to an account of `email` within its lifetime. */
export async function knownDevice(
  db: Queryable,
  token: string | null | undefined,
  email: string,
  now: Date,
): Promise<string | undefined> {
  if (!token || !isTokenShaped(token)) return undefined;
  const hash = tokenHash(token);
  const [row] = await KNOWN_DEVICE.run(db, {
    tokenHash: hash,
    email,
    since: new Date(now.getTime() - DEVICE_LIFETIME_MS),
  });
  return row ? hash : undefined;
}

const DEVICE = placeholders(['tokenHash', 'userId', 'now']);
const DEVICE_INSERT = insertValues([
  [userDevices.tokenHash, DEVICE.tokenHash],
  [userDevices.userId, DEVICE.userId],
  [userDevices.createdAt, DEVICE.now],
  [userDevices.lastSignedInAt, DEVICE.now],
]);
const REMEMBER_DEVICE = statement<unknown, { tokenHash: string; userId: string; now: Date }>(
  sql`insert into ${userDevices} (${DEVICE_INSERT.columns}) values (${DEVICE_INSERT.values})
       on conflict (${bare(userDevices.tokenHash)}, ${bare(userDevices.userId)}) do update set ${bare(userDevices.lastSignedInAt)} = excluded.${bare(userDevices.lastSignedInAt)}`,
);

/**
 * After a complete sign-in of `userId`: the browser's device token (kept when it has one, so that
 * one browser is one device for every account it signs in to) is known for this user from now.
 */
export async function rememberDevice(
  db: Queryable,
  userId: string,
  token: string | null | undefined,
  now: Date,
): Promise<RememberedDevice> {
  const kept = token && isTokenShaped(token) ? token : newToken();
  await REMEMBER_DEVICE.run(db, { tokenHash: tokenHash(kept), userId, now });
  return { token: kept, expiresAt: new Date(now.getTime() + DEVICE_LIFETIME_MS) };
}

const FORGET_OLD_DEVICES = statement<unknown, { since: Date }>(
  sql`delete from ${userDevices} where ${userDevices.lastSignedInAt} <= ${param('since')}`,
);

/** Housekeeping: devices past their lifetime. */
export async function pruneDevices(db: Queryable, now = new Date()): Promise<void> {
  await FORGET_OLD_DEVICES.run(db, { since: new Date(now.getTime() - DEVICE_LIFETIME_MS) });
}

/** The device cookie's attributes: like the session's, but lasting the device's lifetime. */
export function deviceCookie(device: RememberedDevice) {
  return {
    name: DEVICE_COOKIE,
    value: device.token,
    httpOnly: true,
    sameSite: 'lax' as const,
    path: '/dashboard',
    secure: config().publicBaseUrl.startsWith('https:'),
    expires: device.expiresAt,
  };
}
