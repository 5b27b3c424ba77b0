import 'server-only';
import { z } from 'zod';
import type { Decimal } from '../../money';
import { divide, roundHalfUp } from '../decimal';
import {
  baseUrl,
  checkShape,
  getText,
  parseJson,
  priceStrings,
  priceText,
  RateSourceError,
  type RateSource,
} from '../source';

/**
 * Coinbase's public exchange rates: how many units of each currency one US dollar buys.
 *
 * GET {base}/v2/exchange-rates?currency=USD answers
 * `{"data": {"currency": "USD", "rates": {"BTC": "0.0000153846", "EUR": "0.9259", ...}}}`, the
 * rates as JSON strings, about 600 currencies. No authentication.
 * https://docs.cdp.coinbase.com/coinbase-app/track-apis/exchange-rates
 *
 * A USD price is 1 / rate, an exact division rounded half up to 18 fractional digits (the one
 * rounding this source adds). Only the codes asked for are checked: a currency we do not price
 * cannot fail the answer.
 */
const answerShape = z.object({
  data: z.object({ currency: z.literal('USD'), rates: z.record(z.string(), z.unknown()) }),
});

const ONE: Decimal = { value: 1n, scale: 0 };

export function coinbaseSource(options: { baseUrl?: string } = {}): RateSource {
  const base = baseUrl(options.baseUrl, 'https://api.coinbase.com');
  return {
    name: 'coinbase',
    async fetchUsdPrices(codes, signal) {
      const text = await getText('coinbase', `${base}/v2/exchange-rates?currency=USD`, signal);
      const { rates } = checkShape('coinbase', answerShape, parseJson('coinbase', text)).data;
      const prices: [string, Decimal][] = [];
      for (const code of codes) {
        if (!Object.hasOwn(rates, code)) continue;
        const rate = checkShape('coinbase', priceText, rates[code], ['data', 'rates', code]);
        const price = roundHalfUp(divide(ONE, rate));
        if (price.value === 0n) throw new RateSourceError(`coinbase: the USD price of ${code} rounds to 0`);
        prices.push([code, price]);
      }
      if (prices.length === 0) throw new RateSourceError('coinbase: the answer has none of the currencies asked for');
      return priceStrings(prices);
    },
  };
}
