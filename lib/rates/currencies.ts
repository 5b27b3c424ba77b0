/**
 * What the rate service prices: every catalog coin and a few fiat currencies. Pure, client-safe.
 */
import { FIAT_CURRENCIES, NETWORKS } from '../catalog';

/** The pivot: every source gives prices in US dollars, and a cross rate is usd(from) / usd(to). */
export const USD = 'USD';

const PRICEABLE: readonly string[] = Object.freeze([
  ...new Set([...NETWORKS.flatMap((n) => n.currencies.map((c) => c.ticker)), ...FIAT_CURRENCIES]),
]);

/** Upper-case codes the service can price: every catalog ticker (once) and FIAT_CURRENCIES. */
export function priceableCurrencies(): readonly string[] {
  return PRICEABLE;
}

/** The codes a source is asked for: everything but the pivot. */
export function codesToFetch(): readonly string[] {
  return PRICEABLE.filter((c) => c !== USD);
}
