/**
 * Team mail on the embedded database (docs/decisions/074), delivered by the mailer to the catcher:
 * - invitations answer and write alike whether or not the address has an account at another
 *   merchant (issue 34 item 5): the same statements, the same answer, the same team page; only the
 *   mail differs, chosen when it is sent (a link to accept, or an offer to join without one);
 * - the accepted link creates the user in the team, once; a withdrawn one stops working;
 * - a sign-in from a browser the account had not used mails the user, a known browser does not;
 * - no link in any log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { setLogLevel } from '@/lib/log';
import { listMail, mailerOptions, startMailer, type Mailer } from '@/lib/mail';
import {
  completeSetUp,
  createUser,
  inviteTeammate,
  listInvitations,
  listUsers,
  signIn,
  withdrawInvitation,
  type User,
} from '@/lib/users';
import { openTestDatabase } from './support/database';
import { createTestMerchant } from './support/merchants';
import { recording } from './support/recording';
import { waitFor } from './support/worker-process';

let db: Database;
let merchantId: string;
let otherMerchantId: string;
let owner: User;
let mailer: Mailer;
const PASSWORD = 'a-long-enough-passphrase';
let counter = 0;
const fresh = () => `team${++counter}@shop.example`;
const logged: string[] = [];
const writes = { out: process.stdout.write, err: process.stderr.write };

beforeAll(async () => {
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream);
    stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      logged.push(String(chunk));
      return original(chunk, ...rest);
    }) as typeof stream.write;
  }
  db = await openTestDatabase();
  merchantId = (await createTestMerchant(db, 'Team shop')).merchantId;
  otherMerchantId = (await createTestMerchant(db, 'Other shop')).merchantId;
  owner = (await createUser(db, { merchant: merchantId, email: fresh(), role: 'owner', password: PASSWORD })).user;
  mailer = startMailer(db, mailerOptions({ smtp: null, pollMs: 50 }));
  setLogLevel('debug');
});
afterAll(async () => {
  process.stdout.write = writes.out;
  process.stderr.write = writes.err;
  setLogLevel('silent');
  await mailer?.stop();
  await db?.close();
});

type SentMail = { id: string; subject: string; text_body: string; html_body: string };
/** The messages of `kind` to `recipient` once the mailer sent them (`count` of them). */
async function sentMails(kind: string, recipient: string, count = 1): Promise<SentMail[]> {
  let rows: SentMail[] = [];
  await waitFor(`${count} ${kind} mail(s) to ${recipient} sent`, 10_000, async () => {
    rows = await db.query<SentMail>(
      `select id, subject, text_body, html_body from mail_messages
        where kind = $1 and recipient = $2 and state = 'sent' order by created_at`,
      [kind, recipient],
    );
    return rows.length >= count;
  });
  return rows;
}

async function mailCount(kind: string, recipient: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from mail_messages where kind = $1 and recipient = $2`,
    [kind, recipient],
  );
  return row!.n;
}

const linkToken = (text: string) => /\/dashboard\/set-up\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];

describe('invitations', () => {
  it('answer and write alike for a new address and one with an account at another merchant', async () => {
    const elsewhere = (
      await createUser(db, { merchant: otherMerchantId, email: fresh(), role: 'owner', password: PASSWORD })
    ).user;
    const unknown = fresh();
    const ranNew: string[] = [];
    const ranElsewhere: string[] = [];
    const now = new Date();
    const toNew = await inviteTeammate(
      recording(db, ranNew),
      { merchantId, email: unknown, role: 'viewer', invitedBy: owner.id },
      now,
    );
    const toElsewhere = await inviteTeammate(
      recording(db, ranElsewhere),
      { merchantId, email: elsewhere.email, role: 'viewer', invitedBy: owner.id },
      now,
    );
    expect(ranNew.length).toBeGreaterThan(0);
    expect(ranElsewhere).toEqual(ranNew);
    // The same answer, but for the address itself and the invitation's own id and link.
    const shape = (answer: typeof toNew) => ({
      role: answer.invitation.role,
      expiresAt: answer.invitation.expiresAt,
      link: answer.link && { expiresAt: answer.link.expiresAt, url: answer.link.url.replace(/[^/]+$/, 'TOKEN') },
    });
    expect(shape(toElsewhere)).toEqual(shape(toNew));
    const listed = await listInvitations(db, merchantId);
    expect(listed.map((i) => i.email)).toEqual(expect.arrayContaining([unknown, elsewhere.email]));
    // The team still has one member: no user was made for either address.
    expect((await listUsers(db, merchantId)).map((u) => u.email)).toEqual([owner.email]);

    // Only the mails differ: a link to accept for the new address, an offer to join for the other.
    const [newMail] = await sentMails('invitation', unknown);
    const token = linkToken(newMail!.text_body);
    expect(token).toBeDefined();
    expect(newMail!.text_body).toContain('Team shop');
    expect(newMail!.html_body).toContain(`/dashboard/set-up/${token}`);
    const [elsewhereMail] = await sentMails('invitation', elsewhere.email);
    expect(linkToken(elsewhereMail!.text_body)).toBeUndefined();
    expect(elsewhereMail!.text_body).toContain('already has a dashboard account');
    expect(elsewhereMail!.text_body).toContain(owner.email);
    expect(elsewhereMail!.subject).toBe(newMail!.subject);

    // The new address accepts: a user of the team with the invited role, signed in; the link works once.
    expect(await completeSetUp(db, token!, PASSWORD)).toBeDefined();
    const joined = (await listUsers(db, merchantId)).find((u) => u.email === unknown);
    expect(joined).toMatchObject({ role: 'viewer', hasPassword: true });
    await expect(completeSetUp(db, token!, PASSWORD)).rejects.toThrow(/not valid/);
    expect((await listInvitations(db, merchantId)).map((i) => i.email)).not.toContain(unknown);

    // No link, nor its token, in any log line; team mail never on the merchant's Mail page.
    expect(logged.join('').includes(token!)).toBe(false);
    const page = await listMail(db, { merchantId, mode: 'live' });
    expect(page.some((mail) => mail.kind === 'invitation')).toBe(false);
  });

  it('refuses only a member of the same team, which the inviter sees anyway', async () => {
    await expect(inviteTeammate(db, { merchantId, email: owner.email, role: 'admin' })).rejects.toThrow(
      /already in your team/,
    );
  });

  it('stops a withdrawn invitation link from working', async () => {
    const address = fresh();
    const { invitation, link } = await inviteTeammate(db, { merchantId, email: address, role: 'admin' });
    expect(link).toBeDefined();
    await withdrawInvitation(db, merchantId, invitation.id);
    await expect(withdrawInvitation(db, otherMerchantId, invitation.id)).rejects.toThrow(/No such invitation/);
    const token = link!.url.split('/').pop()!;
    await expect(completeSetUp(db, token, PASSWORD)).rejects.toThrow(/not valid/);
  });
});

describe('sign-in from a new device', () => {
  it('mails the user once per browser it had not used', async () => {
    const u = (await createUser(db, { merchant: merchantId, email: fresh(), role: 'viewer', password: PASSWORD })).user;
    const first = await signIn(db, { email: u.email, password: PASSWORD }, { ip: '192.0.2.40', userAgent: 'Test/1' });
    expect(first.kind).toBe('signed-in');
    const [mail] = await sentMails('new-device', u.email);
    expect(mail!.text_body).toContain('192.0.2.40');
    expect(mail!.text_body).toContain('Test/1');
    const device = first.kind === 'signed-in' ? first.device.token : undefined;
    // The same browser again: no mail.
    expect((await signIn(db, { email: u.email, password: PASSWORD }, { ip: '192.0.2.40', device })).kind).toBe(
      'signed-in',
    );
    // Another browser, naming itself with a control and a line separator: a second mail, the name on one line.
    const odd = { ip: '192.0.2.41', userAgent: 'Odd\u0007\u2028Browser' };
    expect((await signIn(db, { email: u.email, password: PASSWORD }, odd)).kind).toBe('signed-in');
    const [, second] = await sentMails('new-device', u.email, 2);
    expect(second!.text_body).toContain('Browser: Odd Browser');
    expect(await mailCount('new-device', u.email)).toBe(2);
    expect(logged.join('').includes(device!)).toBe(false);
  });
});
