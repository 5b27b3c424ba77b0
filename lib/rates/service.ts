import 'server-only';
import { log } from '../log';
import { formatDecimal, parseDecimal, type Decimal } from '../money';
import { codesToFetch, priceableCurrencies, USD } from './currencies';
import { divide, median, roundHalfUp, withinPercent } from './decimal';
import { RateUnavailable, UnknownPriceCurrency } from './errors';
import type { RateSource } from './source';

/**
 * The rate service: prices from every source, combined per currency, kept in memory with the time
 * each was fetched, answered as cross rates through USD. docs/rates.md and
 * docs/decisions/025-exchange-rates.md say why each rule is so.
 */

export interface RateQuote {
  from: string;
  to: string;
  /** Price of ONE `from` in `to`, a canonical decimal string (at most 18 fractional digits, rounded half up). */
  rate: string;
  /** When the oldest price used was fetched. */
  asOf: Date;
  /** Names of the sources whose prices made it. */
  sources: string[];
}

export interface RateService {
  /** Price of one `from` in `to` (case-insensitive codes). Throws RateUnavailable / UnknownPriceCurrency. */
  quote(from: string, to: string): Promise<RateQuote>;
  /** Cache statistics since start: hits = answered from a fresh-enough cache without waiting on a source. */
  stats(): { hits: number; misses: number };
  /** Stops background refresh timers (tests, shutdown). */
  close(): void;
}

export interface RateServiceOptions {
  sources: RateSource[];
  /** A refresh younger than this is not repeated: quotes are answered from memory. */
  cacheMs: number;
  /** A price older than this is never used. */
  maxAgeMs: number;
  /** A source's price further than this from the median of all sources is dropped. */
  maxSpreadPercent: Decimal | string;
  /** Bound of one refresh: each source's request, and a quote's wait for it. */
  timeoutMs: number;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
}

/** A price one source gave, and when it arrived. */
interface Held {
  price: Decimal;
  at: number;
}

/** A currency's combined USD price. */
interface Combined {
  price: Decimal;
  /** When the oldest price kept was fetched. */
  oldest: number;
  sources: Set<string>;
}

/**
 * A quote that finds no fresh price asks the sources again, but not more often than this: while
 * every source is down, a crowd of requests costs at most one round of provider calls per second
 * (or per cacheMs, when shorter), not one per request.
 */
const MIN_RETRY_MS = 1000;

const ONE: Decimal = { value: 1n, scale: 0 };

function spreadOf(value: Decimal | string): Decimal {
  const parsed = typeof value === 'string' ? parseDecimal(value) : value;
  if (!parsed || parsed.value <= 0n || parsed.scale < 0)
    throw new RangeError(`maxSpreadPercent must be a positive decimal, not ${String(value)}`);
  return parsed;
}

/** Builds a service (tests and benchmarks): sources, timing and clock injectable. */
export function createRateService(options: RateServiceOptions): RateService {
  const { sources, cacheMs, maxAgeMs, timeoutMs } = options;
  const now = options.now ?? Date.now;
  const spread = spreadOf(options.maxSpreadPercent);
  if (!(cacheMs > 0 && maxAgeMs >= cacheMs && timeoutMs > 0))
    throw new RangeError('need 0 < cacheMs <= maxAgeMs and timeoutMs > 0');
  if (new Set(sources.map((s) => s.name)).size !== sources.length)
    throw new RangeError('two rate sources have the same name');
  const retryMs = Math.min(cacheMs, MIN_RETRY_MS);
  const codes = codesToFetch();
  const priceable = new Set(priceableCurrencies());

  /** Per source, per code, its last good price. */
  const held = new Map<string, Map<string, Held>>(sources.map((s) => [s.name, new Map()]));
  let refreshing: Promise<void> | undefined;
  let lastAttempt = Number.NEGATIVE_INFINITY;
  let hits = 0;
  let misses = 0;
  let closed = false;
  const stop = new AbortController();
  /** The timers of the waits under way, each with what ends its wait early (close()). */
  const waits = new Map<ReturnType<typeof setTimeout>, () => void>();

  /** `promise`, or a rejection after `ms`: a source that ignores its signal cannot hold a refresh. */
  function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const settle = (finish: () => void) => {
        clearTimeout(timer);
        waits.delete(timer);
        finish();
      };
      const timer = setTimeout(() => settle(() => reject(new Error(`${what}: no answer in time`))), ms);
      timer.unref();
      waits.set(timer, () => settle(() => reject(new Error(`${what}: the rate service stopped`))));
      promise.then(
        (value) => settle(() => resolve(value)),
        (error: unknown) => settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
      );
    });
  }

  /** The source's answer as decimals; anything but positive decimals of codes asked for fails it. */
  function checked(source: string, answer: Record<string, string>): Map<string, Decimal> {
    const prices = new Map<string, Decimal>();
    for (const [code, text] of Object.entries(answer)) {
      if (!codes.includes(code)) continue;
      const price = typeof text === 'string' && text.length <= 64 ? parseDecimal(text) : undefined;
      if (!price || price.value === 0n) throw new Error(`${source}: the price of ${code} is not a positive decimal`);
      prices.set(code, price);
    }
    return prices;
  }

  async function fetchFrom(source: RateSource): Promise<void> {
    try {
      const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), stop.signal]);
      const answer = await within(source.fetchUsdPrices(codes, signal), timeoutMs, source.name);
      const prices = checked(source.name, answer);
      const at = now();
      const table = held.get(source.name)!;
      for (const [code, price] of prices) table.set(code, { price, at });
    } catch (error) {
      if (closed) return;
      // One line per failure; sources word their errors without URLs' queries, headers or keys.
      log.warn('rate source failed', {
        source: source.name,
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Logs, once per refresh, the prices the spread rule leaves out. */
  function reportOutliers(): void {
    const t = now();
    for (const code of codes) {
      const fresh = freshPrices(code, t);
      if (fresh.length < 2) continue;
      const middle = median(fresh.map((f) => f.price));
      for (const f of fresh) {
        if (!withinPercent(f.price, middle, spread)) {
          log.warn('rate source price dropped', {
            source: f.source,
            code,
            price: formatDecimal(f.price),
            median: formatDecimal(middle),
            maxSpreadPercent: formatDecimal(spread),
          });
        }
      }
    }
  }

  /** Starts a refresh of every source, or answers the one under way: one at a time. */
  function refresh(): Promise<void> {
    if (!refreshing) {
      lastAttempt = now();
      refreshing = Promise.all(sources.map(fetchFrom))
        .then(() => {
          if (!closed) reportOutliers();
        })
        .finally(() => {
          refreshing = undefined;
        });
    }
    return refreshing;
  }

  function freshPrices(code: string, t: number): { source: string; price: Decimal; at: number }[] {
    return sources.flatMap((s) => {
      const entry = held.get(s.name)!.get(code);
      return entry && t - entry.at < maxAgeMs ? [{ source: s.name, ...entry }] : [];
    });
  }

  /**
   * The USD price of `code`: the median of the sources' fresh prices, then the median of those
   * within the spread of it. A string says why there is none.
   */
  function combined(code: string, t: number): Combined | string {
    if (code === USD) return { price: ONE, oldest: Number.POSITIVE_INFINITY, sources: new Set() };
    const fresh = freshPrices(code, t);
    if (fresh.length === 0) return `no source has a price of ${code} younger than ${maxAgeMs / 1000} s`;
    const middle = median(fresh.map((f) => f.price));
    const kept = fresh.filter((f) => withinPercent(f.price, middle, spread));
    if (kept.length === 0) return `the sources' prices of ${code} differ by more than ${formatDecimal(spread)} %`;
    return {
      price: median(kept.map((k) => k.price)),
      oldest: Math.min(...kept.map((k) => k.at)),
      sources: new Set(kept.map((k) => k.source)),
    };
  }

  function code(text: string): string {
    const upper = typeof text === 'string' ? text.trim().toUpperCase() : '';
    if (!priceable.has(upper)) throw new UnknownPriceCurrency(String(text));
    return upper;
  }

  function answer(from: string, to: string, a: Combined, b: Combined, t: number): RateQuote {
    const rate = roundHalfUp(divide(a.price, b.price));
    if (rate.value === 0n) throw new RateUnavailable(from, to, 'the rate rounds to 0 at 18 decimal places');
    const oldest = Math.min(a.oldest, b.oldest);
    return {
      from,
      to,
      rate: formatDecimal(rate),
      asOf: new Date(Number.isFinite(oldest) ? oldest : t),
      sources: sources.map((s) => s.name).filter((name) => a.sources.has(name) || b.sources.has(name)),
    };
  }

  return {
    async quote(fromText, toText) {
      const from = code(fromText);
      const to = code(toText);
      let t = now();
      if (from === to) return { from, to, rate: '1', asOf: new Date(t), sources: [] };
      let a = combined(from, t);
      let b = combined(to, t);
      if (typeof a !== 'string' && typeof b !== 'string') {
        hits += 1;
        if (!closed && !refreshing && t - lastAttempt >= cacheMs) void refresh();
        return answer(from, to, a, b, t);
      }
      misses += 1;
      if (closed) throw new RateUnavailable(from, to, 'the rate service is stopped');
      if (refreshing || t - lastAttempt >= retryMs) {
        // fetchFrom never rejects; the bound covers a source that ignores its signal.
        await within(refresh(), timeoutMs, 'refresh').catch(() => undefined);
      }
      t = now();
      a = combined(from, t);
      b = combined(to, t);
      if (typeof a === 'string') throw new RateUnavailable(from, to, a);
      if (typeof b === 'string') throw new RateUnavailable(from, to, b);
      return answer(from, to, a, b, t);
    },
    stats() {
      return { hits, misses };
    },
    close() {
      closed = true;
      stop.abort();
      for (const end of [...waits.values()]) end();
    },
  };
}
