/**
 * What the rate service prices: every catalog coin and a few fiat currencies. Pure, client-safe.
 */
import { NETWORKS } from '../catalog';

/** The pivot: every source gives prices in US dollars, and a cross rate is usd(from) / usd(to). */
export const USD = 'USD';

/**
 * Fiat currencies a price can be given in. Only those every source prices (Kraken's EURUSD and
 * GBPUSD markets, Coinbase's and CoinGecko's fiat rates): a currency one source lacks would be
 * priced by fewer sources than the others. lib/config/schema.ts keeps the same list for
 * RATE_FIXED (a test holds them equal).
 */
export const FIAT_CURRENCIES: readonly string[] = Object.freeze(['USD', 'EUR', 'GBP']);

const PRICEABLE: readonly string[] = Object.freeze([...new Set([...NETWORKS.flatMap((n) => n.currencies.map((c) => c.ticker)), ...FIAT_CURRENCIES])]);

/** Upper-case codes the service can price: every catalog ticker (once) and FIAT_CURRENCIES. */
export function priceableCurrencies(): readonly string[] {
  return PRICEABLE;
}

/** The codes a source is asked for: everything but the pivot. */
export function codesToFetch(): readonly string[] {
  return PRICEABLE.filter((c) => c !== USD);
}
