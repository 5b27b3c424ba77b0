import 'server-only';
/**
 * The contract between the rate service and one market-data source (lib/rates/sources, one file
 * each), and what every HTTP source shares: a bounded answer, read as text, checked with zod.
 */
import { z } from 'zod';
import { formatDecimal, type Decimal } from '../money';
import { decimalFromNumberText } from './decimal';

/**
 * A market-data source. The service calls every source in parallel, at most once per refresh,
 * with all the codes it prices, and combines the answers (docs/rates.md, "How prices are combined").
 *
 * @example
 * const source: RateSource = {
 *   name: 'fixed',
 *   async fetchUsdPrices(codes) { return { BTC: '60000' } },
 * };
 */
export interface RateSource {
  /** Short lower-case name, as in RATE_SOURCES_LIVE and in a quote's `sources`. */
  name: string;
  /**
   * USD prices of the given codes that this source knows: { BTC: '60000.12', EUR: '1.08',
   * USDT: '0.9998', ... }, each a positive plain decimal string; codes it does not know are left
   * out. Throws on any failure (network, status, shape, a price that is not positive), and stops
   * when `signal` aborts (the service's RATE_TIMEOUT_MS, or close()).
   */
  fetchUsdPrices(codes: readonly string[], signal: AbortSignal): Promise<Record<string, string>>;
}

/** A source's failure, in words that are safe to log (no URL query, no header, no key). */
export class RateSourceError extends Error {
  override name = 'RateSourceError';
}

/** An answer larger than this is refused: every documented answer we read is far smaller. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** A price as a provider writes it (plain, or in exponent form from a JSON number), positive. */
export const priceText = z
  .string()
  .max(64)
  .transform((text, ctx) => {
    const price = decimalFromNumberText(text);
    if (!price || price.value === 0n) {
      ctx.addIssue({ code: 'custom', message: 'must be a positive decimal' });
      return z.NEVER;
    }
    return price;
  });

/** Base URL without trailing slashes. */
export function baseUrl(configured: string | undefined, fallback: string): string {
  return (configured ?? fallback).replace(/\/+$/, '');
}

function describeFetchError(error: unknown, signal: AbortSignal): string {
  if (signal.aborted)
    return (signal.reason as Error | undefined)?.name === 'TimeoutError' ? 'no answer in time' : 'stopped';
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
}

/**
 * GETs `url` and answers its body as text: a non-2xx status, a body over MAX_ANSWER_BYTES, a
 * network failure or the signal aborting is a RateSourceError naming the source.
 */
export async function getText(
  source: string,
  url: string,
  signal: AbortSignal,
  headers: Record<string, string> = {},
): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal });
  } catch (error) {
    throw new RateSourceError(`${source}: ${describeFetchError(error, signal)}`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new RateSourceError(`${source}: HTTP ${response.status}`);
  }
  const declared = response.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && BigInt(declared) > BigInt(MAX_ANSWER_BYTES)) {
    await response.body?.cancel().catch(() => undefined);
    throw new RateSourceError(`${source}: the answer is larger than 1 MiB`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const reader = response.body?.getReader();
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      size += chunk.value.byteLength;
      if (size > MAX_ANSWER_BYTES) {
        await reader!.cancel().catch(() => undefined);
        throw new RateSourceError(`${source}: the answer is larger than 1 MiB`);
      }
      chunks.push(chunk.value);
    }
  } catch (error) {
    if (error instanceof RateSourceError) throw error;
    throw new RateSourceError(`${source}: the answer did not arrive whole (${describeFetchError(error, signal)})`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** JSON.parse, failing as the source's error. */
export function parseJson(source: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new RateSourceError(`${source}: the answer is not JSON`);
  }
}

/**
 * The zod-checked value, or a RateSourceError naming where the shape is wrong; `at` is where
 * `value` sits in the answer.
 */
export function checkShape<S extends z.ZodType>(
  source: string,
  schema: S,
  value: unknown,
  at: string[] = [],
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RateSourceError(
      `${source}: unexpected answer at ${[...at, ...issue.path.map(String)].join('.') || '(root)'}: ${issue.message}`,
    );
  }
  return parsed.data;
}

/** Decimals to the strings a source answers. */
export function priceStrings(prices: Iterable<[string, Decimal]>): Record<string, string> {
  return Object.fromEntries([...prices].map(([code, price]) => [code, formatDecimal(price)]));
}
