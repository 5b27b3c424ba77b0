/**
 * "Forgot password" on the embedded database (docs/decisions/065): a known and an unknown address
 * run the same statements (counted, not timed); the mailer delivers the known one's link, which
 * sets a new password once, ends the user's sessions and expires after an hour (the clock moved
 * through `now`); the link is in no log line and not on the team's Mail page; requests are
 * throttled per address. The browser test of the same path is e2e/forgot-password.spec.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { setLogLevel } from '@/lib/log';
import { listMail, mailerOptions, startMailer, type Mailer } from '@/lib/mail';
import {
  completeSetUp,
  createUser,
  openSession,
  readSession,
  requestPasswordReset,
  signIn,
  type User,
} from '@/lib/users';
import { openTestDatabase } from './support/database';
import { createTestMerchant } from './support/merchants';
import { recording } from './support/recording';
import { waitFor } from './support/worker-process';

let db: Database;
let merchantId: string;
let mailer: Mailer;
const PASSWORD = 'a-long-enough-passphrase';
const NEW_PASSWORD = 'another-long-passphrase';
let counter = 0;
const fresh = () => `reset${++counter}@shop.example`;
const logged: string[] = [];
const writes = { out: process.stdout.write, err: process.stderr.write };

beforeAll(async () => {
  // Every log line of the run, to search for links.
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      logged.push(String(chunk));
      return original(chunk, ...rest);
    }) as typeof stream.write;
  }
  db = await openTestDatabase();
  merchantId = (await createTestMerchant(db, 'Reset shop')).merchantId;
  mailer = startMailer(db, mailerOptions({ smtp: null, pollMs: 50 }));
  // Every level (after the configuration, parsed by now, handed the tests' LOG_LEVEL, silent, to lib/log).
  setLogLevel('debug');
});
afterAll(async () => {
  process.stdout.write = writes.out;
  process.stderr.write = writes.err;
  setLogLevel('silent');
  await mailer?.stop();
  await db?.close();
});

async function user(): Promise<User> {
  return (await createUser(db, { merchant: merchantId, email: fresh(), role: 'viewer', password: PASSWORD })).user;
}

type ResetMail = { id: string; state: string; text_body: string | null };
async function resetMails(recipient: string): Promise<ResetMail[]> {
  return db.query<ResetMail>(
    `select id, state, text_body from mail_messages where kind = 'password-reset' and recipient = $1 order by created_at`,
    [recipient],
  );
}

/** The link's token, from the message as the mailer rendered it. */
async function mailedToken(recipient: string): Promise<string> {
  let text = '';
  await waitFor('the reset mail sent', 10_000, async () => {
    const [mail] = (await resetMails(recipient)).filter((m) => m.state === 'sent');
    text = mail?.text_body ?? '';
    return text !== '';
  });
  const token = /\/dashboard\/set-up\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  expect(token, text).toBeDefined();
  return token!;
}

describe('forgot password', () => {
  it('runs the same statements for a known and an unknown address, and mails only the known one', async () => {
    const known = await user();
    const unknown = fresh();
    const ranKnown: string[] = [];
    const ranUnknown: string[] = [];
    const now = new Date();
    await requestPasswordReset(recording(db, ranKnown), known.email, { ip: '192.0.2.10' }, now);
    await requestPasswordReset(recording(db, ranUnknown), unknown, { ip: '192.0.2.10' }, now);
    expect(ranKnown.length).toBeGreaterThan(0);
    expect(ranUnknown).toEqual(ranKnown);
    expect(await resetMails(known.email)).toHaveLength(1);
    expect(await resetMails(unknown)).toHaveLength(0);
    const [links] = await db.query<{ n: number }>(
      `select count(*)::int as n from user_tokens where purpose = 'reset' and user_id = $1`,
      [known.id],
    );
    expect(links!.n).toBe(1);
  });

  it('mails a link that sets a new password once and ends the other sessions', async () => {
    const u = await user();
    const other = await openSession(db, u.id, 'signed-in');
    await requestPasswordReset(db, u.email, { ip: '192.0.2.11' });
    const token = await mailedToken(u.email);
    expect(await completeSetUp(db, token, NEW_PASSWORD)).toBeDefined();
    expect(await readSession(db, other.token)).toBeUndefined();
    expect((await signIn(db, { email: u.email, password: NEW_PASSWORD }, { ip: '192.0.2.11' })).kind).toBe('signed-in');
    await expect(completeSetUp(db, token, 'yet-another-passphrase')).rejects.toThrow(/not valid/);
    // Neither the link nor its token is in any log line, nor on the team's Mail page.
    expect(logged.join('').includes(token)).toBe(false);
    const page = await listMail(db, { merchantId, mode: 'live' });
    expect(page.some((mail) => mail.kind === 'password-reset')).toBe(false);
  });

  it('refuses the link an hour after it was asked for', async () => {
    const u = await user();
    const asked = new Date();
    await requestPasswordReset(db, u.email, { ip: '192.0.2.12' }, asked);
    const token = await mailedToken(u.email);
    const later = new Date(asked.getTime() + 3_600_000);
    await expect(completeSetUp(db, token, NEW_PASSWORD, {}, later)).rejects.toThrow(/expired/);
    expect(await completeSetUp(db, token, NEW_PASSWORD, {}, new Date(later.getTime() - 1))).toBeDefined();
  });

  it('writes nothing past three requests an hour for one address, or twenty from one client', async () => {
    const u = await user();
    const t0 = new Date();
    for (let i = 0; i < 6; i++) await requestPasswordReset(db, u.email, { ip: `198.51.100.${i}` }, t0);
    expect(await resetMails(u.email)).toHaveLength(3);
    const addresses: User[] = [];
    for (let i = 0; i < 22; i++) addresses.push(await user());
    for (const a of addresses) await requestPasswordReset(db, a.email, { ip: '203.0.113.7' }, t0);
    const mailed = await Promise.all(addresses.map(async (a) => (await resetMails(a.email)).length));
    expect(mailed.reduce((sum, n) => sum + n, 0)).toBe(20);
  });
});
