import 'server-only';
import { config } from '../config';
import { processSlot } from '../process';
import { sourcesFor, type RateMode } from './from-config';
import { createRateService, type RateService } from './service';

/**
 * The exchange-rate service: the price of any catalog coin or fiat currency in any other, for
 * fiat-priced invoices. Every source gives USD prices; a cross rate is usd(from) / usd(to).
 * docs/rates.md describes sources, rules and settings; docs/decisions/025-exchange-rates.md why.
 */

export { priceableCurrencies } from './currencies';
export { RateUnavailable, UnknownPriceCurrency } from './errors';
export type { RateMode } from './from-config';
export { createRateService, type RateQuote, type RateService, type RateServiceOptions } from './service';
export type { RateSource } from './source';
export { coinbaseSource } from './sources/coinbase';
export { coingeckoSource } from './sources/coingecko';
export { FIXED_USD_PRICES, fixedSource } from './sources/fixed';
export { krakenSource } from './sources/kraken';
export { withUsdPrices } from './usd-prices';

/** The process-wide service for keys of `mode`, built from config() on first use (processSlot). */
export function rateService(mode: RateMode): RateService {
  const services = processSlot('rates', () => new Map<RateMode, RateService>());
  let service = services.get(mode);
  if (!service) {
    const cfg = config();
    service = createRateService({
      sources: sourcesFor(mode, cfg),
      cacheMs: cfg.rateCacheMs,
      maxAgeMs: cfg.rateMaxAgeMs,
      maxSpreadPercent: cfg.rateMaxSpreadPercent,
      timeoutMs: cfg.rateTimeoutMs,
    });
    services.set(mode, service);
  }
  return service;
}
