import 'server-only';
/**
 * Sending, apart from scheduling (as btcpayserver keeps WebhookSender apart from
 * WebhookNotificationManager): one attempt of a claimed row, signed and posted, and the state its
 * outcome leads to; then its metric and log line. What is sent when, and how many at once, is
 * the dispatcher's (dispatcher.ts, slots.ts, recorder.ts).
 */
import { log } from '../log';
import { decryptSecret } from '../merchants';
import { metrics } from '../metrics';
import type { ClaimedRow, FinishedAttempt } from './claims';
import { postWebhook, type AttemptResult } from './http';
import type { DispatcherOptions } from './options';
import { nextState } from './schedule';
import { webhookHeaders } from './signing';

/** One attempt of a claimed row (not recorded yet): signed with the merchant's current key of the row's mode, or refused without one. */
export async function sendAttempt(
  row: ClaimedRow,
  options: Pick<DispatcherOptions, 'timeoutMs' | 'policy' | 'retryDelaysMs' | 'jitter'>,
): Promise<FinishedAttempt> {
  const startedAt = new Date();
  let result: AttemptResult;
  if (!row.public_key || !row.secret_ciphertext) {
    result = {
      outcome: 'refused',
      statusCode: null,
      latencyMs: 0,
      error: `refused: the merchant has no active ${row.mode} API key to sign with`,
      responseExcerpt: null,
    };
  } else {
    const secret = Buffer.from(decryptSecret(row.secret_ciphertext), 'utf8');
    const headers = webhookHeaders({
      publicKey: row.public_key,
      secret,
      body: row.body,
      eventId: row.id,
      attempt: row.attempts,
      now: startedAt,
    });
    result = await postWebhook(row.url, row.body, headers, { timeoutMs: options.timeoutMs, policy: options.policy });
  }
  return { row, startedAt, result, next: nextState(result.outcome, row.attempts - row.schedule_base, options) };
}

/** The metric and the log line of an attempt, once it is recorded. */
export function logAttempt({ row, result, next }: FinishedAttempt): void {
  metrics().webhookAttempts.inc({ outcome: result.outcome });
  // The URL is the merchant's and may carry a token in its path or query: only its host is logged.
  const fields = {
    eventId: row.id,
    orderId: row.order_id,
    merchantId: row.merchant_id,
    host: hostOf(row.url),
    attempt: row.attempts,
    outcome: result.outcome,
    statusCode: result.statusCode,
    ms: result.latencyMs,
  };
  if (result.outcome === 'delivered') log.info('webhook delivered', fields);
  else if (result.outcome === 'refused') log.warn('webhook target refused', { ...fields, reason: result.error });
  else
    log.warn('webhook attempt failed', { ...fields, reason: result.error, next: next.state, retryInMs: next.delayMs });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(invalid URL)';
  }
}
