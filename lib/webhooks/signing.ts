import 'server-only';
/**
 * Webhook signatures (SPEC "Webhooks"): the same HMAC the merchant's requests carry, so a merchant
 * verifies webhooks with the code that signs its requests, plus a timestamped signature for
 * receivers that want to refuse replays.
 *
 * - `x-api-signature`: lower-case hex HMAC-SHA256 of the raw body, keyed with the private key's
 *   UTF-8 bytes.
 * - `x-webhook-timestamp`: unix seconds when this attempt was signed.
 * - `x-webhook-signature`: `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`.
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

export function webhookHeaders(input: SignedHeadersInput): Record<string, string> {
  const timestamp = Math.floor((input.now ?? new Date()).getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'cryptogate-webhooks/1',
    'x-api-public-key': input.publicKey,
    'x-api-signature': hmacHex(input.secret, input.body),
    'x-webhook-id': input.eventId,
    'x-webhook-attempt': String(input.attempt),
    'x-webhook-timestamp': String(timestamp),
    'x-webhook-signature': `t=${timestamp},v1=${hmacHex(input.secret, `${timestamp}.${input.body}`)}`,
  };
}
