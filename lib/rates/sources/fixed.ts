import 'server-only';
import { formatDecimal, parseDecimal } from '../../money';
import type { RateSource } from '../source';

/**
 * The offline source: a fixed table of USD prices, the default for test keys (RATE_SOURCES_TEST),
 * so that a fresh start prices invoices without the internet and always the same way. Round
 * numbers an example can be checked by hand with: a 73.50 USD invoice asks 0.001225 BTC,
 * 0.0245 ETH or 73.5 USDT. USD itself is the pivot, always 1, and not in the table.
 * RATE_FIXED replaces entries one by one (`BTC=65000,EUR=1.1`).
 */
export const FIXED_USD_PRICES: Readonly<Record<string, string>> = Object.freeze({
  BTC: '60000',
  ETH: '3000',
  LTC: '80',
  BCH: '400',
  DOGE: '0.2',
  BNB: '600',
  POL: '0.5',
  TRX: '0.25',
  XRP: '2',
  SOL: '150',
  USDT: '1',
  USDC: '1',
  RLUSD: '1',
  EUR: '1.08',
  GBP: '1.27',
});

/** The fixed table with `overrides` replacing its entries; each must be a positive plain decimal. */
export function fixedSource(overrides: Record<string, string> = {}): RateSource {
  const table = new Map<string, string>(Object.entries(FIXED_USD_PRICES));
  for (const [code, text] of Object.entries(overrides)) {
    const price = parseDecimal(text);
    if (!price || price.value === 0n)
      throw new RangeError(`the fixed price of ${code} must be a positive decimal, not ${JSON.stringify(text)}`);
    table.set(code.toUpperCase(), formatDecimal(price));
  }
  return {
    name: 'fixed',
    async fetchUsdPrices(codes, signal) {
      signal.throwIfAborted();
      return Object.fromEntries(codes.flatMap((code) => (table.has(code) ? [[code, table.get(code)!]] : [])));
    },
  };
}
