/**
 * Mail to payers (SPEC "Mail", docs/mail.md): orders paid, partly paid and expired through the
 * sandbox ledger and the watcher write their payer mail to the outbox in the settling's
 * transaction; the mailer sends it to a real SMTP server on 127.0.0.1 (the `smtp-server` package)
 * in the payer's language, retries what the server refused for now, and keeps what it sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import { config } from '@/lib/config';
import { DEFAULT_EXPLORERS } from '@/lib/dashboard';
import type { Database } from '@/lib/db/client';
import {
  getMail,
  listMail,
  mailerOptions,
  smtpTransport,
  startMailer,
  unsubscribe,
  unsubscribeTarget,
  type Mailer,
} from '@/lib/mail';
import { updateBrand, updateMailSettings } from '@/lib/merchants';
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
      smtp: smtpTransport(sink.url, 10_000),
      sendTestMode: true,
      retryDelaysMs: [50, 50, 50],
      jitter: 0,
      pollMs: 25,
      timeoutMs: 10_000,
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
    await waitFor('four messages', 20_000, () => sink.received.length >= 4);
    await waitFor('all recorded as sent', 5_000, async () =>
      [...(await mailsOf(paid.id)), ...(await mailsOf(partial.id))].every((r) => r.state === 'sent'),
    );
    // At least once: a send slower than the timeout on a loaded machine is sent again, with its Message-ID.
    const ids = rows.map((r) => `<${r.id}@localhost.invalid>`);
    expect(new Set(sink.received.map((m) => m.headers.get('message-id')))).toEqual(new Set(ids));
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
    expect(paidMail!.text).toContain(`View your receipt: ${base}/pay/${paid.id}/receipt?lang=en`);
    expect(paidMail!.text).toContain('Two mugs');
    // A test-mode transaction is on no public chain: its id is shown, linked to no explorer.
    const [{ tx_hash: paidTx } = { tx_hash: '' }] = await db.query<{ tx_hash: string }>(
      'select tx_hash from payments where order_id = $1',
      [paid.id],
    );
    expect(paidMail!.html).toContain(paidTx);
    expect(paidMail!.html).not.toContain(DEFAULT_EXPLORERS.litecoin!.split('{tx}')[0]);

    expect(partialMail!.headers.get('content-language')).toBe('ar');
    expect(decodeWords(partialMail!.headers.get('subject')!)).toBe('Mug Shop: مدفوع جزئيًا');
    expect(partialMail!.text).toContain(`ادفع الباقي: ${base}/pay/${partial.id}?lang=ar`);
    expect(partialMail!.html).toContain('dir="rtl"');
    expect(decodeWords(expired!.headers.get('subject')!)).toMatch(/^Mug Shop: /);
    expect(expired!.text).toContain(`${base}/pay/${partial.id}?lang=ar`);
  });
});

/** An LTC order of `fields` paid in full and confirmed. */
async function paidOrder(fields: Record<string, unknown>) {
  const order = await createOrder(db, merchant.test, {
    currency: 'LTC',
    network: 'litecoin',
    amount: '0.1',
    ...fields,
  });
  await broadcast(db, { network: network('litecoin'), to: order.address, currency: 'LTC', amount: 10_000_000n });
  await mine(db, network('litecoin'), 2);
  await watchOnce(db, sandboxChain(db, 'litecoin'));
  expect((await orderRow(db, order.id)).status).toBe('processed');
  return order;
}

async function stateOf(orderId: string): Promise<MailRow> {
  const [row] = await mailsOf(orderId);
  return row!;
}

describe('delivery', () => {
  it('a temporary refusal (451) is retried with the same Message-ID; a permanent one (550) is not', async () => {
    let refusals = 0;
    sink.answer((raw) => (raw.includes('retry@example.com') && refusals++ === 0 ? 'temporary' : 'accept'));
    const retried = await paidOrder({ payerEmail: 'retry@example.com' });
    await waitFor('sent after a retry', 10_000, async () => (await stateOf(retried.id)).state === 'sent');
    expect(await stateOf(retried.id)).toMatchObject({ attempts: 2, last_error: null, transport: 'smtp' });
    const id = (await stateOf(retried.id)).id;
    expect(sink.received.filter((m) => m.headers.get('message-id') === `<${id}@localhost.invalid>`)).toHaveLength(1);

    sink.answer((raw) => (raw.includes('gone@example.com') ? 'permanent' : 'accept'));
    const refused = await paidOrder({ payerEmail: 'gone@example.com' });
    await waitFor('refused', 10_000, async () => (await stateOf(refused.id)).state === 'refused');
    expect((await stateOf(refused.id)).last_error).toContain('no such user');
    sink.answer(() => 'accept');
  });

  it("a WebP logo is attached as PNG, which Outlook's desktop client shows", async () => {
    // libwebp's smallest lossless image (1 × 1).
    const webp = 'data:image/webp;base64,UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==';
    await updateBrand(db, merchant.merchantId, { logo: webp, color: null });
    try {
      const order = await paidOrder({ payerEmail: 'outlook@example.com' });
      await waitFor('sent', 10_000, async () => (await stateOf(order.id)).state === 'sent');
      const mail = sink.received.find((m) => m.envelopeTo.includes('outlook@example.com'))!;
      expect(mail.html).toContain('src="cid:logo@cryptogate"');
      expect(mail.raw).toMatch(/^Content-Type: image\/png; name=logo\.png\r?$/m);
      expect(mail.raw).toMatch(/^Content-ID: <logo@cryptogate>\r?$/m);
      expect(mail.raw).not.toMatch(/image\/webp/);
    } finally {
      await updateBrand(db, merchant.merchantId, { logo: null, color: null });
    }
  });

  it('without SMTP the catcher keeps the message as it would arrive, headers and logo included', async () => {
    const catcher = startMailer(db, mailerOptions({ smtp: null, pollMs: 25 }));
    const logo =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    try {
      await mailer.stop(); // only the catcher runs meanwhile
      await updateBrand(db, merchant.merchantId, { logo, color: null });
      const order = await paidOrder({ payerEmail: 'caught@example.com' });
      await waitFor('caught', 10_000, async () => (await stateOf(order.id)).state === 'sent');
      const [row] = await db.query<{
        transport: string;
        subject: string;
        headers: [string, string][];
        html_body: string;
      }>('select transport, subject, headers, html_body from mail_messages where order_id = $1', [order.id]);
      expect(row).toMatchObject({ transport: 'catcher', subject: 'Mug Shop: Paid' });
      expect(row!.headers).toContainEqual(['To', 'caught@example.com']);
      expect(row!.html_body).toContain('<html lang="en" dir="ltr">');
      expect(sink.received.some((m) => m.envelopeTo.includes('caught@example.com'))).toBe(false);
      // The dashboard's Mail page: this merchant's and mode's messages only.
      const { id } = await stateOf(order.id);
      const scope = { merchantId: merchant.merchantId, mode: 'test' as const };
      expect((await listMail(db, scope)).map((m) => m.id)).toContain(id);
      const caught = (await getMail(db, scope, id))!;
      expect(caught).toMatchObject({ subject: 'Mug Shop: Paid', transport: 'catcher' });
      // Sent with the logo as an inline attachment (cid:); shown with it, as a mail client shows it.
      expect(row!.html_body).toContain('src="cid:logo@cryptogate"');
      expect(caught.html_body).toContain(`<img src="${logo}"`);
      const other = await createTestMerchant(db);
      expect(await getMail(db, { merchantId: other.merchantId, mode: 'test' }, id)).toBeNull();
      expect(await getMail(db, { ...scope, mode: 'live' }, id)).toBeNull();
      expect(await listMail(db, { merchantId: other.merchantId, mode: 'test' })).toEqual([]);
    } finally {
      await catcher.stop();
      await updateBrand(db, merchant.merchantId, { logo: null, color: null });
      mailer = startMailer(
        db,
        mailerOptions({
          smtp: smtpTransport(sink.url, 10_000),
          sendTestMode: true,
          retryDelaysMs: [50, 50, 50],
          jitter: 0,
          pollMs: 25,
        }),
      );
    }
  });
});

describe('header injection', () => {
  it("CRLF and look-alikes in the sender's name, the merchant's name and the description add no header", async () => {
    await db.query('update merchants set name = $2, mail_sender_name = $3 where id = $1', [
      merchant.merchantId,
      'Mug\r\nBcc: victim@example.com Shop',
      'Mugs\u2028Bcc\uff1a victim@example.com\u0085X',
    ]);
    try {
      const order = await paidOrder({
        payerEmail: 'inject@example.com',
        description: 'Two mugs\r\nBcc: victim@example.com',
      });
      await waitFor('sent', 10_000, async () => (await stateOf(order.id)).state === 'sent');
      const mail = sink.received.find((m) => m.envelopeTo.includes('inject@example.com'))!;
      expect(mail.envelopeTo).toEqual(['inject@example.com']);
      const head = mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n'));
      expect(head).not.toMatch(/^bcc:/im);
      expect(decodeWords(mail.headers.get('from')!)).toBe(
        '"Mugs Bcc: victim@example.com X" <gateway@localhost.invalid>',
      );
      expect(decodeWords(mail.headers.get('subject')!)).toBe('Mug Bcc: victim@example.com Shop: Paid');
    } finally {
      await db.query('update merchants set name = $2, mail_sender_name = null where id = $1', [
        merchant.merchantId,
        'Mug Shop',
      ]);
    }
  });

  it('a payer address with a line end (written past the API) is refused, never sent', async () => {
    const order = await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '0.1' });
    await db.query('update orders set payer_email = $2 where id = $1', [
      order.id,
      'payer@example.com\r\nBcc: victim@example.com',
    ]);
    await broadcast(db, { network: network('litecoin'), to: order.address, currency: 'LTC', amount: 10_000_000n });
    await mine(db, network('litecoin'), 2);
    await watchOnce(db, sandboxChain(db, 'litecoin'));
    await waitFor('refused', 10_000, async () => (await stateOf(order.id))?.state === 'refused');
    expect(sink.received.some((m) => m.raw.includes('victim@example.com') && m.envelopeTo.length !== 1)).toBe(false);
  });
});

describe('unsubscribe and the limit per recipient', () => {
  it('an unsubscribed payer gets no more mail from that merchant', async () => {
    const first = await paidOrder({ payerEmail: 'leaving@example.com' });
    const { id } = await stateOf(first.id);
    expect(await unsubscribeTarget(db, id)).toEqual({ merchantName: 'Mug Shop', language: 'en' });
    expect(await unsubscribe(db, id)).toBe(true);
    expect(await unsubscribe(db, '00000000-0000-4000-8000-000000000000')).toBe(false);
    const second = await paidOrder({ payerEmail: 'Leaving@Example.com' });
    expect(await mailsOf(second.id)).toEqual([]);
  });

  it('a recipient gets at most the hourly limit of messages', async () => {
    const limit = config().mailRecipientHourlyLimit;
    for (let i = 0; i < limit; i++)
      await db.query(
        `insert into mail_messages (id, merchant_id, mode, kind, event_key, recipient, state)
         values (gen_random_uuid(), $1, 'test', 'payment-paid', $2, 'busy@example.com', 'sent')`,
        [merchant.merchantId, `limit-test/${i}`],
      );
    const order = await paidOrder({ payerEmail: 'busy@example.com' });
    expect(await mailsOf(order.id)).toEqual([]);
  });
});

describe("the merchant's mail settings", () => {
  it('a kind switched off is not written; the reply-to and sender name reach the message', async () => {
    await updateMailSettings(db, merchant.merchantId, {
      senderName: 'Mugs & Co',
      replyTo: 'help@shop.example',
      off: ['payment-paid'],
      dailySummary: false,
    });
    try {
      const silent = await paidOrder({ payerEmail: 'quiet@example.com' });
      expect(await mailsOf(silent.id)).toEqual([]);
      await updateMailSettings(db, merchant.merchantId, {
        senderName: 'Mugs & Co',
        replyTo: 'help@shop.example',
        off: [],
        dailySummary: false,
      });
      const order = await paidOrder({ payerEmail: 'reply@example.com' });
      await waitFor('sent', 10_000, async () => (await stateOf(order.id)).state === 'sent');
      const mail = sink.received.find((m) => m.envelopeTo.includes('reply@example.com'))!;
      expect(mail.headers.get('reply-to')).toBe('help@shop.example');
      expect(decodeWords(mail.headers.get('from')!)).toBe('"Mugs & Co" <gateway@localhost.invalid>');
    } finally {
      await updateMailSettings(db, merchant.merchantId, {
        senderName: null,
        replyTo: null,
        off: [],
        dailySummary: false,
      });
    }
  });
});
