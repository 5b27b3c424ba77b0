/**
 * What follows a mail's attempt. Pure (the randomness is a parameter): unit-tested in
 * schedule.test.ts. The delays are the webhooks' (lib/webhooks RETRY_DELAYS_MS, about 10 s to a
 * day, three days in all): one schedule for everything the gateway delivers.
 */
export type MailAttemptOutcome =
  /** The SMTP server answered 250 (or the catcher kept the message). */
  | 'sent'
  /** A 4xx answer, a timeout, a connection that failed: worth another try. */
  | 'temporary'
  /** A 5xx answer (no such mailbox, refused as spam) or no valid recipient: another try would get the same. */
  | 'permanent';

export type MailNextState =
  { state: 'sent' | 'refused' | 'failed'; delayMs: null } | { state: 'pending'; delayMs: number };

export function nextMailState(
  outcome: MailAttemptOutcome,
  attempts: number,
  schedule: { retryDelaysMs: readonly number[]; jitter: number },
  random = Math.random,
): MailNextState {
  if (outcome === 'sent') return { state: 'sent', delayMs: null };
  if (outcome === 'permanent') return { state: 'refused', delayMs: null };
  const delay = schedule.retryDelaysMs[attempts - 1];
  if (delay === undefined) return { state: 'failed', delayMs: null };
  return { state: 'pending', delayMs: Math.max(0, Math.round(delay * (1 + schedule.jitter * (2 * random() - 1)))) };
}

/** The SMTP reply code of an error nodemailer raised, if the server gave one. */
export function outcomeOfError(error: unknown): Exclude<MailAttemptOutcome, 'sent'> {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600 ? 'permanent' : 'temporary';
}
