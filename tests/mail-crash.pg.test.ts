/**
 * Mail survives a crash of `npm run worker` (SIGKILL), as docs/mail.md says: the outbox row is
 * committed with the status change, so a mailer killed before the send leaves a message the next
 * one sends; a mailer killed once the SMTP server has the message and before its record leaves a message
 * sent again when its lease ends, with the same Message-ID (at least once). A real SMTP server on
 * 127.0.0.1 decides when it answers. PostgreSQL only (a worker process beside the test needs a
 * shared database).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import { createOrder, network } from './support/chain';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink';
import { killAllWorkers, openSharedTestDatabase, startWorker, waitFor } from './support/worker-process';

const LTC = network('litecoin');
/** The SMTP password the worker is given: it must appear in no log line. */
const SMTP_PASSWORD = 'smtp-secret-password-7f3a';

let db: Database;
let url: string;
let merchant: TestMerchant;
let sink: SmtpSink;

beforeAll(async () => {
  ({ db, url } = await openSharedTestDatabase());
  merchant = await createTestMerchant(db, 'Crash Shop');
  sink = await startSmtpSink();
});
afterEach(async () => {
  await killAllWorkers();
  sink.answer(() => 'accept');
  sink.onAccepted(null);
});
afterAll(async () => {
  await killAllWorkers();
  await sink?.close();
  await db?.close();
});

/** The worker's mail settings: the test's SMTP server, test mode sent, a short timeout (so a short lease). */
function mailWorker(name: string) {
  return startWorker(url, name, {
    SMTP_URL: sink.url.replace('smtp://', `smtp://mailer:${SMTP_PASSWORD}@`),
    MAIL_FROM: 'payments@shop.example',
    MAIL_TEST_MODE: 'send',
    MAIL_TIMEOUT_MS: '1000',
    MAIL_POLL_MS: '50',
    APP_SECRET: process.env.APP_SECRET!,
  });
}

/** An order with a payer's address, paid in full and confirmed on the sandbox ledger (the worker settles it). */
async function paidOrder(payerEmail: string): Promise<string> {
  const order = await createOrder(db, merchant.test, {
    currency: 'LTC',
    network: 'litecoin',
    amount: '0.2',
    payerEmail,
  });
  await broadcast(db, { network: LTC, to: order.address, currency: 'LTC', amount: 20_000_000n });
  await mine(db, LTC, 2);
  return order.id;
}

async function mailOf(orderId: string) {
  const [row] = await db.query<{ id: string; state: string; attempts: number }>(
    'select id, state, attempts from mail_messages where order_id = $1',
    [orderId],
  );
  return row;
}

describe('mail across a worker crash', () => {
  it(
    'SIGKILL while the message is with the SMTP server, before its 250: sent after the restart',
    { timeout: 120_000 },
    async () => {
      let held = false;
      sink.answer(
        (raw) =>
          new Promise((resolve) => {
            if (!raw.includes('held@example.com')) return resolve('accept');
            held = true; // never answered: the worker dies first
            setTimeout(() => resolve('temporary'), 30_000);
          }),
      );
      const orderId = await paidOrder('held@example.com');
      const first = mailWorker('mail-crash-a');
      await waitFor(
        'the message to reach the server',
        60_000,
        () => held,
        () => first.output(),
      );
      first.signal('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(sink.received.filter((m) => m.envelopeTo.includes('held@example.com'))).toHaveLength(0);
      expect(await mailOf(orderId)).toMatchObject({ state: 'pending', attempts: 1 }); // committed with the change

      sink.answer(() => 'accept');
      const second = mailWorker('mail-crash-b');
      await waitFor(
        'sent after the restart',
        60_000,
        async () => (await mailOf(orderId))?.state === 'sent',
        () => second.output(),
      );
      const { id } = (await mailOf(orderId))!;
      const copies = sink.received.filter((m) => m.envelopeTo.includes('held@example.com'));
      expect(copies.map((m) => m.headers.get('message-id'))).toEqual([`<${id}@shop.example>`]);
    },
  );

  it(
    'SIGKILL once the server has the message, before the record: sent again with the same Message-ID',
    { timeout: 120_000 },
    async () => {
      const orderId = await paidOrder('twice@example.com');
      const first = mailWorker('mail-crash-c');
      sink.onAccepted(async (mail) => {
        if (!mail.envelopeTo.includes('twice@example.com')) return;
        first.signal('SIGKILL');
        await first.exited; // the 250 goes out to a dead socket
      });
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      sink.onAccepted(null);
      expect(await mailOf(orderId)).toMatchObject({ state: 'pending', attempts: 1 }); // the 250 was never recorded

      const second = mailWorker('mail-crash-d');
      await waitFor(
        'sent again after the restart',
        60_000,
        async () => (await mailOf(orderId))?.state === 'sent',
        () => second.output(),
      );
      const { id } = (await mailOf(orderId))!;
      const copies = sink.received.filter((m) => m.envelopeTo.includes('twice@example.com'));
      expect(copies.map((m) => m.headers.get('message-id'))).toEqual([`<${id}@shop.example>`, `<${id}@shop.example>`]);
      // No secret in any log line: the SMTP URL's credentials, the unsubscribe links, the recipient.
      for (const output of [first.output(), second.output()]) {
        expect(output).not.toContain(SMTP_PASSWORD);
        expect(output).not.toContain('/mail/unsubscribe/');
        expect(output).not.toContain('twice@example.com');
      }
    },
  );
});
