import 'server-only';
import { rateLimitWait as bucketWait } from '../security';

/**
 * Per-key rate limit (API_RATE_LIMIT requests per second, 0 = none), on the gateway's one rate
 * limiter (lib/security/rate-limit.ts), holding one second of requests. Only authenticated
 * requests count, so nobody can spend a merchant's budget with forged requests under its public
 * key; a key whose budget is spent is refused before its body is read (`peek`), which spends
 * nothing either.
 */
export function keyRateLimitWait(
  keyId: string,
  perSecond: number,
  options: { peek?: boolean; now?: number } = {},
): number {
  return bucketWait(`api-key:${keyId}`, { capacity: perSecond, perSecond }, options);
}
