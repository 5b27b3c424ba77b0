import 'server-only';
import { randomUUID } from 'node:crypto';
import { bare, param, sql, statement, users, userTokens, type Database, type Queryable } from '../db';
import { enqueueResetMail, PASSWORD_RESET_LIFETIME_MS, teamLinkToken } from '../mail';
import { clientKey, tokenHash } from '../security';
import { lockedUntil, recordFailure, type ThrottleKey } from './throttle';

/** Requests for one address in an hour before the next ones are dropped (30 s, doubling, as sign-in locks). */
export const RESET_ADDRESS_THRESHOLD = 3;
/** Requests from one client (IPv4 address or IPv6 /64) over every address. */
export const RESET_CLIENT_THRESHOLD = 20;

/** The throttle keys of a "forgot password" request: the address asked for, and the client asking. */
export function resetKeys(email: string, ip: string | null | undefined): ThrottleKey[] {
  return [
    { key: `reset:${email}`, threshold: RESET_ADDRESS_THRESHOLD },
    { key: `reset-client:${clientKey(ip)}`, threshold: RESET_CLIENT_THRESHOLD },
  ];
}

const ADD_RESET_LINK = statement<unknown, { tokenHash: string; email: string; expiresAt: Date; now: Date }>(
  sql`insert into ${userTokens} (${sql.join([userTokens.tokenHash, userTokens.userId, userTokens.purpose, userTokens.expiresAt, userTokens.createdAt].map(bare), sql`, `)})
      select ${param('tokenHash')}, ${users.id}, 'reset', ${param('expiresAt')}, ${param('now')}
        from ${users} where ${users.email} = ${param('email')} and ${users.disabledAt} is null`,
);

/**
 * "Forgot password?" (docs/decisions/065): mails the address a link to choose a new password, an
 * hour long and single-use, when it has an active account. Answers nothing: the page says the same
 * for every address. A known and an unknown address run the same statements with the same
 * parameters' shapes (the link's and the message's rows are written by `insert ... select` from
 * the account, which an unknown address does not find), so the time taken does not tell them
 * apart. Throttled per address and per client: a throttled request writes nothing and still
 * answers alike.
 */
export async function requestPasswordReset(
  db: Database,
  address: string,
  client: { ip?: string | null } = {},
  now = new Date(),
): Promise<void> {
  const email = address.trim().toLowerCase();
  const keys = resetKeys(email, client.ip);
  if (await lockedUntil(db, keys, now)) return;
  await db.transaction(async (tx) => {
    await recordFailure(tx, keys, now);
    await writeResetMail(tx, email, now);
  });
}

async function writeResetMail(tx: Queryable, email: string, now: Date): Promise<void> {
  const mailId = randomUUID();
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_LIFETIME_MS);
  await ADD_RESET_LINK.run(tx, { tokenHash: tokenHash(teamLinkToken(mailId)), email, expiresAt, now });
  await enqueueResetMail(tx, { id: mailId, recipient: email });
}
