/**
 * Mail to payers (SPEC "Mail", docs/mail.md): orders paid, partly paid and expired through the
 * sandbox ledger and the watcher write their payer mail to the outbox in the settling's
 * transaction; the mailer sends it to a real SMTP server on 127.0.0.1 (the `smtp-server` package)
 * in the payer's language, retries what the server refused for now, and keeps what it sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import { config } from '@/lib/config';
import type { Database } from '@/lib/db/client';
import { mailerOptions, smtpTransport, startMailer, type Mailer } from '@/lib/mail';
import { rememberPayerLanguage } from '@/lib/pay';
import { after, createOrder, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { openTestDatabase } from './support/database';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { decodeWords, startSmtpSink, type SmtpSink } from './support/smtp-sink';
import { waitFor } from './support/worker-process';

let db: Database;
let merchant: TestMerchant;
let sink: SmtpSink;
let mailer: Mailer;

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db, 'Mug Shop');
  sink = await startSmtpSink();
  mailer = startMailer(
    db,
    mailerOptions({
      smtp: smtpTransport(sink.url, 2000),
      sendTestMode: true,
      retryDelaysMs: [50, 50, 50],
      jitter: 0,
      pollMs: 25,
      timeoutMs: 2000,
      leaseMs: 5000,
    }),
  );
});
afterAll(async () => {
  await mailer?.stop();
  await sink?.close();
  await db?.close();
});

interface MailRow {
  id: string;
  kind: string;
  state: string;
  attempts: number;
  recipient: string;
  transport: string | null;
  last_error: string | null;
}

function mailsOf(orderId: string): Promise<MailRow[]> {
  return db.query<MailRow>(
    'select id, kind, state, attempts, recipient, transport, last_error from mail_messages where order_id = $1 order by created_at, kind',
    [orderId],
  );
}

const receivedFor = (messageId: string) =>
  sink.received.find((m) => m.headers.get('message-id') === `<${messageId}@localhost.invalid>`);

describe('payer mail', () => {
  it('a whole flow: detected, paid with its receipt link, partly paid with "pay the rest", expired; none to strangers', async () => {
    const base = config().publicBaseUrl;
    const ltc = sandboxChain(db, 'litecoin');
    const doge = sandboxChain(db, 'dogecoin');

    // Detected, then paid, in English (no page seen: the default).
    const paid = await createOrder(db, merchant.test, {
      currency: 'LTC',
      network: 'litecoin',
      amount: '0.5',
      payerEmail: 'Payer.One@Example.com',
      description: 'Two mugs',
    });
    await broadcast(db, { network: network('litecoin'), to: paid.address, currency: 'LTC', amount: 50_000_000n });
    await watchOnce(db, ltc);
    expect((await mailsOf(paid.id)).map((m) => m.kind)).toEqual(['payment-detected']);
    await mine(db, network('litecoin'), 2);
    await watchOnce(db, ltc);
    expect((await orderRow(db, paid.id)).status).toBe('processed');

    // Partly paid, then expired, in Arabic (the page the payer saw).
    const partial = await createOrder(db, merchant.test, {
      currency: 'DOGE',
      network: 'dogecoin',
      amount: '10',
      payerEmail: 'payer.two@example.com',
    });
    await rememberPayerLanguage(db, partial.id, 'ar');
    await broadcast(db, { network: network('dogecoin'), to: partial.address, currency: 'DOGE', amount: 400_000_000n });
    await mine(db, network('dogecoin'), 2);
    await watchOnce(db, doge);
    await mine(db, network('dogecoin'), 1, after(partial.expires_at, 1));
    await watchOnce(db, doge, { now: after(partial.expires_at, 2) });
    expect((await orderRow(db, partial.id)).status).toBe('partial');

    // Strangers: an order nothing reached expires without mail; an order without an address gets none.
    const unpaid = await createOrder(db, merchant.test, {
      currency: 'LTC',
      network: 'litecoin',
      amount: '1',
      payerEmail: 'stranger@example.com',
    });
    await mine(db, network('litecoin'), 1, after(unpaid.expires_at, 1));
    await watchOnce(db, ltc, { now: after(unpaid.expires_at, 2) });
    expect((await orderRow(db, unpaid.id)).status).toBe('expired');
    expect(await mailsOf(unpaid.id)).toEqual([]);

    const rows = [...(await mailsOf(paid.id)), ...(await mailsOf(partial.id))];
    expect(rows.map((r) => r.kind)).toEqual(['payment-detected', 'payment-paid', 'payment-partial', 'payment-expired']);
    await waitFor('four messages', 10_000, () => sink.received.length >= 4);
    await waitFor('all recorded as sent', 5_000, async () =>
      [...(await mailsOf(paid.id)), ...(await mailsOf(partial.id))].every((r) => r.state === 'sent'),
    );
    expect(sink.received).toHaveLength(4);
    expect(sink.received.some((m) => m.envelopeTo.includes('stranger@example.com'))).toBe(false);

    const [detected, paidMail, partialMail, expired] = rows.map((r) => receivedFor(r.id)!);
    for (const [mail, to] of [
      [detected!, 'payer.one@example.com'],
      [paidMail!, 'payer.one@example.com'],
      [partialMail!, 'payer.two@example.com'],
      [expired!, 'payer.two@example.com'],
    ] as const) {
      expect(mail.envelopeTo).toEqual([to]);
      expect(mail.headers.get('to')).toBe(to);
      expect(mail.headers.get('list-unsubscribe')).toMatch(new RegExp(`^<${base}/mail/unsubscribe/[0-9a-f-]{36}>$`));
      expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
      expect(mail.html).not.toMatch(/<img[^>]+src="https?:/); // no tracking pixel, nothing remote
    }
    expect(decodeWords(detected!.headers.get('subject')!)).toBe('Mug Shop: Payment detected');
    expect(detected!.headers.get('content-language')).toBe('en');
    expect(decodeWords(paidMail!.headers.get('subject')!)).toBe('Mug Shop: Paid');
    expect(paidMail!.text).toContain(`View your receipt: ${base}/pay/${paid.id}?lang=en`);
    expect(paidMail!.text).toContain('Two mugs');

    expect(partialMail!.headers.get('content-language')).toBe('ar');
    expect(decodeWords(partialMail!.headers.get('subject')!)).toBe('Mug Shop: مدفوع جزئيًا');
    expect(partialMail!.text).toContain(`ادفع الباقي: ${base}/pay/${partial.id}?lang=ar`);
    expect(partialMail!.html).toContain('dir="rtl"');
    expect(decodeWords(expired!.headers.get('subject')!)).toMatch(/^Mug Shop: /);
    expect(expired!.text).toContain(`${base}/pay/${partial.id}?lang=ar`);
  });
});
