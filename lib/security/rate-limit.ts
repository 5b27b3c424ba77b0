import 'server-only';
import { processSlot } from '../process';

/**
 * The gateway's one rate limiter: a token bucket per key in this process's memory. A bucket holds
 * `capacity` requests and refills at `perSecond`, so a key may burst to its capacity and then keeps
 * to the rate. The merchant API limits each API key with it (lib/api/rate-limit.ts), payment links
 * the invoices they make, per link, per client address and gateway-wide (lib/links). Each server
 * process keeps its own buckets: behind N servers a key gets up to N times the limit.
 */
export interface RateLimit {
  /** The most requests at once (a full bucket). */
  capacity: number;
  /** Requests the bucket regains per second. */
  perSecond: number;
}

/** `count` requests per minute, all of which may come at once. */
export function perMinute(count: number): RateLimit {
  return { capacity: count, perSecond: count / 60 };
}

interface Bucket {
  tokens: number;
  at: number;
  limit: RateLimit;
}

const MAX_BUCKETS = 10_000;

/**
 * Takes one request from `key`'s budget (only looks, with `peek`); answers 0 when allowed, else
 * the whole seconds to wait. A limit with no capacity or no rate allows everything.
 */
export function rateLimitWait(
  key: string,
  limit: RateLimit,
  { peek = false, now = performance.now() }: { peek?: boolean; now?: number } = {},
): number {
  if (limit.capacity <= 0 || limit.perSecond <= 0) return 0;
  const buckets = processSlot('rateBuckets', () => new Map<string, Bucket>());
  const bucket = buckets.get(key) ?? { tokens: limit.capacity, at: now, limit };
  bucket.limit = limit;
  bucket.tokens = Math.min(limit.capacity, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond);
  bucket.at = now;
  if (!buckets.has(key)) {
    if (buckets.size >= MAX_BUCKETS) forgetFullBuckets(buckets, now);
    buckets.set(key, bucket);
  }
  if (bucket.tokens >= 1) {
    if (!peek) bucket.tokens -= 1;
    return 0;
  }
  return Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond));
}

/**
 * Takes one request from each key's budget, or from none: the longest wait when one of them is
 * spent. A request refused by one limit must not use up the others.
 */
export function rateLimitWaitAll(
  limits: readonly (readonly [key: string, limit: RateLimit])[],
  { now = performance.now() }: { now?: number } = {},
): number {
  const wait = Math.max(0, ...limits.map(([key, limit]) => rateLimitWait(key, limit, { peek: true, now })));
  if (wait > 0) return wait;
  for (const [key, limit] of limits) rateLimitWait(key, limit, { now });
  return 0;
}

/** A bucket that has refilled completely is the same as no bucket. */
function forgetFullBuckets(buckets: Map<string, Bucket>, now: number): void {
  for (const [key, b] of buckets)
    if (b.tokens + ((now - b.at) / 1000) * b.limit.perSecond >= b.limit.capacity) buckets.delete(key);
}
