import 'server-only';
/**
 * Sending, apart from scheduling (as btcpayserver keeps WebhookSender apart from
 * WebhookNotificationManager): one attempt of a claimed row, signed and posted, and the state its
 * outcome leads to; then its metric and log line. What is sent when, and how many at once, is
 * the dispatcher's (dispatcher.ts, slots.ts, recorder.ts).
 */
import { log } from '../log';
import { decryptSecret, signingKeyFor } from '../merchants';
import { metrics } from '../metrics';
import type { ClaimedRow, FinishedAttempt } from './claims';
import { postWebhook, type AttemptResult } from './http';
import type { DispatcherOptions } from './options';
import { nextState } from './schedule';
import { endpointHeaders, webhookHeaders } from './signing';

/** The headers of an attempt at `now`, or why it cannot be sent (a refusal, final until re-sent). */
export function signAttempt(row: ClaimedRow, now: Date): { headers: Record<string, string> } | { refused: string } {
  if (row.endpoint_id !== null) {
    if (row.endpoint_deleted_at) return { refused: 'refused: the endpoint was deleted' };
    if (row.endpoint_status !== 'enabled')
      return { refused: `refused: the endpoint is ${row.endpoint_status ?? 'gone'}` };
    const secrets = [decryptSecret(row.secret_ciphertext!)];
    // A rolled secret signs beside the new one until its overlap ends.
    if (row.previous_secret_ciphertext && row.previous_secret_expires_at && row.previous_secret_expires_at > now)
      secrets.push(decryptSecret(row.previous_secret_ciphertext));
    return {
      headers: endpointHeaders({
        secrets,
        body: row.body,
        eventId: row.event_id ?? row.id,
        attempt: row.attempts,
        now,
      }),
    };
  }
  const choice = signingKeyFor(row.keys, row.api_key_id, now, row.mode);
  if ('refused' in choice) return choice;
  return {
    headers: webhookHeaders({
      publicKey: choice.key.public_key,
      secret: Buffer.from(decryptSecret(choice.key.secret_ciphertext), 'utf8'),
      body: row.body,
      eventId: row.id,
      attempt: row.attempts,
      now,
    }),
  };
}

/** One attempt of a claimed row (not recorded yet), signed at the dispatcher's clock, or refused. */
export async function sendAttempt(
  row: ClaimedRow,
  options: Pick<DispatcherOptions, 'timeoutMs' | 'policy' | 'retryDelaysMs' | 'jitter' | 'clock'>,
): Promise<FinishedAttempt> {
  const startedAt = options.clock();
  const signed = signAttempt(row, startedAt);
  const result: AttemptResult =
    'refused' in signed
      ? { outcome: 'refused', statusCode: null, latencyMs: 0, error: signed.refused, responseExcerpt: null }
      : await postWebhook(row.url, row.body, signed.headers, { timeoutMs: options.timeoutMs, policy: options.policy });
  return {
    row,
    startedAt,
    result,
    next: nextState(result.outcome, row.attempts - row.schedule_base, options),
    sent: !('refused' in signed),
  };
}

/** The metric and the log line of an attempt, once it is recorded. */
export function logAttempt({ row, result, next, sent }: FinishedAttempt): void {
  metrics().webhookAttempts.inc({ outcome: result.outcome });
  // The URL is the merchant's and may carry a token in its path or query: only its host is logged.
  const fields = {
    eventId: row.event_id ?? row.id,
    deliveryId: row.id,
    orderId: row.order_id,
    endpointId: row.endpoint_id,
    merchantId: row.merchant_id,
    host: hostOf(row.url),
    attempt: row.attempts,
    outcome: result.outcome,
    statusCode: result.statusCode,
    ms: result.latencyMs,
  };
  if (result.outcome === 'delivered') log.info('webhook delivered', fields);
  else if (!sent) log.warn('webhook not sent', { ...fields, reason: result.error });
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
