import 'server-only';
import { isDomainErrorOf } from '../errors';
import type { RateService } from './service';

/**
 * available-currencies with each coin's `priceUSD` from `rates` (null when no fresh price exists):
 * what an invoice in dollars would convert at.
 */
export async function withUsdPrices<T extends { currency: string }>(
  rates: RateService,
  currencies: readonly T[],
): Promise<(T & { priceUSD: string | null })[]> {
  return Promise.all(
    currencies.map(async (entry) => ({
      ...entry,
      priceUSD: await rates.quote(entry.currency, 'USD').then(
        (quote) => quote.rate,
        (error: unknown) => {
          if (isDomainErrorOf(error, 'RateUnavailable')) return null;
          throw error;
        },
      ),
    })),
  );
}
