import 'server-only';
import { processSlot } from '../process';

/**
 * Per-key rate limit (API_RATE_LIMIT requests per second, 0 = none): a token bucket per key in
 * this process's memory, holding one second of requests, so a key may burst to the limit and
 * then keeps to the rate. Only authenticated requests count, so nobody can spend a merchant's
 * budget with forged requests under its public key; a key whose budget is spent is refused
 * before its body is read (`peek`), which spends nothing either. Each server process keeps its
 * own buckets: behind N servers a key gets up to N times the limit.
 */
interface Bucket {
  tokens: number;
  at: number;
}

const MAX_BUCKETS = 10_000;

/**
 * Takes one request from `keyId`'s budget (only looks, with `peek`); answers 0 when allowed,
 * else the seconds to wait.
 */
export function rateLimitWait(
  keyId: string,
  perSecond: number,
  { peek = false, now = performance.now() } = {},
): number {
  if (perSecond <= 0) return 0;
  const buckets = processSlot('api.rateBuckets', () => new Map<string, Bucket>());
  const bucket = buckets.get(keyId) ?? { tokens: perSecond, at: now };
  bucket.tokens = Math.min(perSecond, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
  bucket.at = now;
  if (!buckets.has(keyId)) {
    if (buckets.size >= MAX_BUCKETS) forgetFullBuckets(buckets, perSecond, now);
    buckets.set(keyId, bucket);
  }
  if (bucket.tokens >= 1) {
    if (!peek) bucket.tokens -= 1;
    return 0;
  }
  return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
}

/** A bucket that has refilled completely is the same as no bucket. */
function forgetFullBuckets(buckets: Map<string, Bucket>, perSecond: number, now: number): void {
  for (const [id, b] of buckets) if (b.tokens + ((now - b.at) / 1000) * perSecond >= perSecond) buckets.delete(id);
}
