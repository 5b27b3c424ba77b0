/**
 * The team's daily summary (docs/decisions/074), on the embedded database: off by default; on, one
 * mail per owner and admin of the merchant per day, whoever writes it and however often (the
 * mailer's clock moved, not waited for); its numbers are the overview's day counts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { mailerOptions, startMailer, type Mailer } from '@/lib/mail';
import { updateMailSettings } from '@/lib/merchants';
import { createUser } from '@/lib/users';
import { openTestDatabase } from './support/database';
import { createTestMerchant } from './support/merchants';
import { waitFor } from './support/worker-process';

let db: Database;
const mailers: Mailer[] = [];

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await Promise.all(mailers.map((m) => m.stop()));
  await db?.close();
});

async function team(name: string) {
  const { merchantId } = await createTestMerchant(db, name);
  const emails: Record<string, string> = {};
  for (const role of ['owner', 'admin', 'viewer'] as const) {
    emails[role] = `${role}@${name.toLowerCase().replace(/\W/g, '')}.example`;
    // Without a password (no hash to compute): a team member all the same.
    await createUser(db, { merchant: merchantId, email: emails[role], role });
  }
  return { merchantId, emails };
}

type Summary = { recipient: string; state: string; subject: string | null; text_body: string | null };
const summaries = (merchantId: string) =>
  db.query<Summary>(
    `select recipient, state, subject, text_body from mail_messages where kind = 'daily-summary' and merchant_id = $1 order by recipient`,
    [merchantId],
  );

it('mails owners and admins of a merchant that turned it on, once a day, with the day counts', async () => {
  const on = await team('Summary shop');
  const off = await team('Quiet shop');
  await updateMailSettings(db, on.merchantId, { senderName: null, replyTo: null, off: [], dailySummary: true });
  // The overview's counts of the day before, as written once its orders were final.
  await db.query(
    `insert into order_day_counts (merchant_id, mode, day, counts) values ($1, 'live', '2026-11-26T00:00:00Z', '{"processed": 3, "expired": 1}')`,
    [on.merchantId],
  );
  let now = new Date('2026-11-27T00:05:00Z');
  // Two mailers, as two processes would run: still one mail per recipient.
  for (let i = 0; i < 2; i++)
    mailers.push(startMailer(db, mailerOptions({ smtp: null, pollMs: 25, clock: () => now })));
  await waitFor('the summaries sent', 10_000, async () => {
    const rows = await summaries(on.merchantId);
    return rows.length === 2 && rows.every((r) => r.state === 'sent');
  });
  const sent = await summaries(on.merchantId);
  expect(sent.map((r) => r.recipient)).toEqual([on.emails.admin, on.emails.owner]);
  expect(sent[0]!.subject).toBe('Summary shop: 4 orders on 2026-11-26');
  expect(sent[0]!.text_body).toContain('Orders processed: 3');
  expect(sent[0]!.text_body).toContain('Orders expired: 1');
  expect(await summaries(off.merchantId)).toEqual([]);
  // The next day: one more each, and still none for the merchant that left it off.
  now = new Date('2026-11-28T00:05:00Z');
  await waitFor('the next day’s summaries', 10_000, async () => (await summaries(on.merchantId)).length === 4);
  expect(await summaries(off.merchantId)).toEqual([]);
});
