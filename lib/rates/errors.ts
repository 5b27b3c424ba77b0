import { DomainError } from '../errors';
import { priceableCurrencies } from './currencies';

/** No fresh price for the pair: the API answers 503 RATE_UNAVAILABLE naming it. */
export class RateUnavailable extends DomainError<'RateUnavailable'> {
  constructor(
    readonly from: string,
    readonly to: string,
    reason = 'no source answered in time',
  ) {
    super('RateUnavailable', `No fresh price for ${from}/${to}: ${reason}.`, [
      { path: 'currency', message: `no fresh price for ${from}/${to}: ${reason}` },
    ]);
  }
}

/** The currency is not one the service prices. */
export class UnknownPriceCurrency extends DomainError<'UnknownPriceCurrency'> {
  constructor(readonly currency: string) {
    super('UnknownPriceCurrency', `${JSON.stringify(currency.slice(0, 32))} is not a currency the gateway prices.`, [
      { path: 'currency', message: `must be one of ${priceableCurrencies().join(', ')}` },
    ]);
  }
}
