import 'server-only';
import { z } from 'zod';
import type { Decimal } from '../../money';
import { FIAT_CURRENCIES } from '../../catalog';
import { USD } from '../currencies';
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
 * CoinGecko's aggregated prices (the demo/public API).
 *
 * GET {base}/api/v3/simple/price?ids=bitcoin,ethereum,...&vs_currencies=usd,eur,gbp&precision=full
 * answers `{"bitcoin": {"usd": 67187.3358936566, "eur": 61942.1, "gbp": 53111.2}, ...}`; an id it
 * does not know is left out. With an API key, the key goes in the x-cg-demo-api-key header (never
 * in the URL, which could reach a log).
 * https://docs.coingecko.com/v3.0.1/reference/simple-price
 * https://docs.coingecko.com/v3.0.1/reference/authentication
 *
 * Prices are JSON numbers. They are never read through a double: before JSON.parse, the number
 * text after each "usd"/"eur"/"gbp" key is put in quotes (as lib/chains/utxo/rpc.ts does for
 * amounts), so the decimal is exactly the digits CoinGecko wrote; exponent forms ("1.2e-7") are
 * expanded digit by digit. (A price CoinGecko would write as a string of digits reads the same.)
 *
 * Fiat: CoinGecko converts every coin into each vs_currency with the same exchange rate, so the
 * USD price of one euro is bitcoin's USD price over its EUR price, an exact division rounded half
 * up to 18 fractional digits. bitcoin is asked for whenever a fiat currency is.
 */
const IDS: Readonly<Record<string, string>> = {
  BTC: 'bitcoin',
  ETH: 'ethereum',
  LTC: 'litecoin',
  BCH: 'bitcoin-cash',
  DOGE: 'dogecoin',
  BNB: 'binancecoin',
  POL: 'polygon-ecosystem-token',
  TRX: 'tron',
  XRP: 'ripple',
  SOL: 'solana',
  USDT: 'tether',
  USDC: 'usd-coin',
  RLUSD: 'ripple-usd',
};
/** The coin whose prices in each vs_currency give the fiat exchange rates. */
const FIAT_REFERENCE = 'bitcoin';

export function coingeckoSource(options: { baseUrl?: string; apiKey?: string } = {}): RateSource {
  const base = baseUrl(options.baseUrl, 'https://api.coingecko.com');
  const headers: Record<string, string> = options.apiKey ? { 'x-cg-demo-api-key': options.apiKey } : {};
  return {
    name: 'coingecko',
    async fetchUsdPrices(codes, signal) {
      const coins = codes.filter((code) => IDS[code]);
      const fiat = codes.filter((code) => code !== USD && FIAT_CURRENCIES.includes(code));
      const ids = [...new Set([...coins.map((code) => IDS[code]!), ...(fiat.length > 0 ? [FIAT_REFERENCE] : [])])];
      if (ids.length === 0) return {};
      const vs = ['usd', ...fiat.map((code) => code.toLowerCase())];
      const url = `${base}/api/v3/simple/price?ids=${ids.join(',')}&vs_currencies=${vs.join(',')}&precision=full`;
      const text = await getText('coingecko', url, signal, headers);
      const numbers = new RegExp(`("(?:${vs.join('|')})"\\s*:\\s*)(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)`, 'g');
      const answer = checkShape(
        'coingecko',
        z.record(z.string(), z.record(z.string(), z.unknown())),
        parseJson('coingecko', text.replace(numbers, '$1"$2"')),
      );
      const priceIn = (id: string, currency: string): Decimal | undefined =>
        answer[id] && Object.hasOwn(answer[id], currency)
          ? checkShape('coingecko', priceText, answer[id][currency], [id, currency])
          : undefined;
      const prices: [string, Decimal][] = [];
      for (const code of coins) {
        const price = priceIn(IDS[code]!, 'usd');
        if (price) prices.push([code, price]);
      }
      const referenceUsd = priceIn(FIAT_REFERENCE, 'usd');
      for (const code of fiat) {
        const referenceFiat = priceIn(FIAT_REFERENCE, code.toLowerCase());
        if (!referenceUsd || !referenceFiat) continue;
        prices.push([code, roundHalfUp(divide(referenceUsd, referenceFiat))]);
      }
      if (prices.length === 0) throw new RateSourceError('coingecko: the answer has none of the coins asked for');
      return priceStrings(prices);
    },
  };
}
