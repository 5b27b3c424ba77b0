import 'server-only';
/**
 * Webhook signatures.
 *
 * An object's own webhook (the seed's per-order webhooks, an invoice's): the same HMAC the
 * merchant's requests carry, so a merchant verifies webhooks with the code that signs its
 * requests, plus a timestamped signature for receivers that want to refuse replays. The key is
 * chosen by lib/merchants (`signingKeyFor`, docs/decisions/048).
 * - `x-api-public-key`, `x-api-signature`: the key, and the lower-case hex HMAC-SHA256 of the raw
 *   body keyed with its private key's UTF-8 bytes.
 * - `x-webhook-timestamp`: unix seconds when this attempt was signed.
 * - `x-webhook-signature`: `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`.
 *
 * A webhook endpoint's delivery carries only the timestamped signature, made with the endpoint's
 * own secret (its UTF-8 bytes, `whsec_...` whole); while a rolled secret's overlap lasts, one `v1`
 * per secret, the new one first (as Stripe does): a receiver accepts the body when any matches.
 */
import { createHmac } from 'node:crypto';

export interface SignedHeadersInput {
  publicKey: string;
  /** The private key's UTF-8 bytes. */
  secret: Buffer;
  body: string;
  eventId: string;
  attempt: number;
  now?: Date;
}

export function hmacHex(secret: Buffer | string, data: string): string {
  return createHmac('sha256', secret).update(data, 'utf8').digest('hex');
}

function common(eventId: string, attempt: number, timestamp: number): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'cryptogate-webhooks/1',
    'x-webhook-id': eventId,
    'x-webhook-attempt': String(attempt),
    'x-webhook-timestamp': String(timestamp),
  };
}

const secondsOf = (now: Date | undefined) => Math.floor((now ?? new Date()).getTime() / 1000);

export function webhookHeaders(input: SignedHeadersInput): Record<string, string> {
  const timestamp = secondsOf(input.now);
  return {
    ...common(input.eventId, input.attempt, timestamp),
    'x-api-public-key': input.publicKey,
    'x-api-signature': hmacHex(input.secret, input.body),
    'x-webhook-signature': `t=${timestamp},v1=${hmacHex(input.secret, `${timestamp}.${input.body}`)}`,
  };
}

/** A webhook endpoint's delivery: the timestamped signature with each of `secrets` (the current one first). */
export function endpointHeaders(input: {
  secrets: readonly string[];
  body: string;
  eventId: string;
  attempt: number;
  now?: Date;
}): Record<string, string> {
  const timestamp = secondsOf(input.now);
  const signatures = input.secrets.map((secret) => `v1=${hmacHex(secret, `${timestamp}.${input.body}`)}`);
  return {
    ...common(input.eventId, input.attempt, timestamp),
    'x-webhook-signature': [`t=${timestamp}`, ...signatures].join(','),
  };
}
