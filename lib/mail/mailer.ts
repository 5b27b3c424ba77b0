import 'server-only';
/**
 * The mailer: claims due outbox rows, renders and sends them, records each attempt and reschedules
 * what failed (./schedule). Safe with any number of mailers on one database (row leases, ./claims):
 * sent at least once, never lost. A crash after the SMTP server's 250 and before the record sends
 * the message again when its lease ends, with the same Message-ID (SMTP cannot promise exactly
 * once; docs/decisions/053).
 *
 * At most MAIL_CONCURRENCY messages are in flight per process, each cut at MAIL_TIMEOUT_MS, on a
 * timer and connections of its own: a slow SMTP server holds the mailer's slots, never the
 * watcher's or the API's. Woken by the outbox's NOTIFY and by a poll every MAIL_POLL_MS.
 *
 * On its first pass of each UTC day (by `clock`) it also writes the day before's team summaries
 * (./team `enqueueDailySummaries`): idempotent, so every mailer may do it.
 */
import { config } from '../config';
import type { Database } from '../db';
import { log } from '../log';
import { RETRY_DELAYS_MS, RETRY_JITTER } from '../webhooks';
import { claimDueMail, recordMailAttempt, type ClaimedMail, type MailAttempt } from './claims';
import { MAIL_CHANNEL } from './outbox';
import { headerList, renderMail, Unsendable } from './render';
import { nextMailState, outcomeOfError } from './schedule';
import { enqueueDailySummaries, summaryDay } from './team';
import { smtpTransport, transportFor, type MailTransport } from './transport';

const SECOND = 1000;

export interface MailerOptions {
  concurrency: number;
  pollMs: number;
  timeoutMs: number;
  /** Longer than any attempt: a row is not claimed again while it may still be sending. */
  leaseMs: number;
  owner: string;
  retryDelaysMs: readonly number[];
  jitter: number;
  /** null: every message goes to the catcher. */
  smtp: MailTransport | null;
  /** Test mode's messages go to `smtp` too (MAIL_TEST_MODE=send). */
  sendTestMode: boolean;
  /** The time that says which day's summaries are due; tests move it. */
  clock: () => Date;
}

export function mailerOptions(overrides: Partial<MailerOptions> = {}): MailerOptions {
  const cfg = config();
  const timeoutMs = overrides.timeoutMs ?? cfg.mailTimeoutMs;
  return {
    concurrency: cfg.mailConcurrency,
    pollMs: cfg.mailPollMs,
    timeoutMs,
    leaseMs: timeoutMs + 5 * SECOND,
    owner: `pid-${process.pid}`,
    retryDelaysMs: RETRY_DELAYS_MS,
    jitter: RETRY_JITTER,
    smtp: 'smtp' in overrides || !cfg.smtpUrl ? null : smtpTransport(cfg.smtpUrl, timeoutMs),
    sendTestMode: cfg.mailSendTestMode,
    clock: () => new Date(),
    ...overrides,
  };
}

export interface Mailer {
  wake(): void;
  /** Stops claiming and waits for the messages in flight. */
  stop(): Promise<void>;
}

export function startMailer(db: Database, options: MailerOptions = mailerOptions()): Mailer {
  const inFlight = new Set<Promise<void>>();
  let pass: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const attempt = async (mail: ClaimedMail): Promise<void> => {
    const result = await sendOne(db, mail, options);
    if (!(await recordMailAttempt(db, mail, result)))
      log.warn('mail attempt not recorded: its lease had ended', { mailId: mail.id });
    log.info('mail attempt', {
      mailId: mail.id,
      kind: mail.kind,
      attempt: mail.attempts,
      state: result.next.state,
      transport: result.transport,
      error: result.error,
    });
  };

  let summarised: string | undefined;
  const summarise = async () => {
    const day = summaryDay(options.clock());
    if (day === summarised) return;
    await enqueueDailySummaries(db, day);
    summarised = day;
  };

  const fill = async () => {
    while (!stopped) {
      const room = options.concurrency - inFlight.size;
      if (room <= 0) return;
      const claimed = await claimDueMail(db, options.owner, room, options.leaseMs);
      for (const mail of claimed) {
        const running: Promise<void> = attempt(mail)
          .catch((error) =>
            log.error('mail attempt failed unexpectedly (retried when its lease ends)', { mailId: mail.id, error }),
          )
          .finally(() => {
            inFlight.delete(running);
            wake();
          });
        inFlight.add(running);
      }
      if (claimed.length < room) return;
    }
  };

  function wake(): void {
    if (stopped) return;
    if (pass) {
      again = true;
      return;
    }
    pass = new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        await summarise();
        do {
          again = false;
          await fill();
        } while (again && !stopped);
      })
      .catch((error) => log.error('mail claim failed', { error }))
      .finally(() => {
        pass = undefined;
      });
  }

  const poll = setInterval(wake, options.pollMs).unref();
  db.listen(MAIL_CHANNEL, wake, wake).catch((error) =>
    log.error('mail notifications unavailable; polling only', { error }),
  );
  wake();
  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(poll);
      await pass;
      await Promise.all(inFlight);
      options.smtp?.close();
    },
  };
}

/** One attempt: render, send (or catch), and what the row becomes. */
async function sendOne(db: Database, mail: ClaimedMail, options: MailerOptions): Promise<MailAttempt> {
  const schedule = { retryDelaysMs: options.retryDelaysMs, jitter: options.jitter };
  const failed = (outcome: 'temporary' | 'permanent', error: string): MailAttempt => ({
    next: nextMailState(outcome, mail.attempts, schedule),
    transport: null,
    subject: null,
    headers: null,
    text: null,
    html: null,
    error,
  });
  let rendered;
  try {
    rendered = await renderMail(db, mail);
  } catch (error) {
    if (error instanceof Unsendable) return failed('permanent', error.message);
    throw error;
  }
  const transport = transportFor(mail.mode, options.smtp, options.sendTestMode);
  if (transport === 'smtp') {
    try {
      await withTimeout(options.smtp!.send(rendered), options.timeoutMs);
    } catch (error) {
      return failed(outcomeOfError(error), smtpError(error));
    }
  }
  return {
    next: nextMailState('sent', mail.attempts, schedule),
    transport,
    subject: rendered.subject,
    headers: headerList(rendered),
    text: rendered.text,
    html: rendered.html,
    error: null,
  };
}

/** The SMTP server's answer or the connection's error, bounded; nodemailer's messages carry no credentials. */
function smtpError(error: unknown): string {
  const response = (error as { response?: unknown } | null)?.response;
  const text = typeof response === 'string' ? response : error instanceof Error ? error.message : String(error);
  return text.slice(0, 300);
}

class SendTimeout extends Error {
  override name = 'SendTimeout';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SendTimeout(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
