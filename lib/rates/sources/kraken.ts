import 'server-only';
import { z } from 'zod';
import type { Decimal } from '../../money';
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
 * Kraken's public market data: the last trade price of each XXX/USD market.
 *
 * GET {base}/0/public/Ticker?pair=XBTUSD,ETHUSD,... answers
 * `{"error": [], "result": {"XXBTZUSD": {"a": [...], "b": [...], "c": ["30303.20000", "0.00067643"], ...}}}`:
 * `c` is the last trade closed, [price, lot volume], and every price is a JSON string, so it is
 * read exactly. A non-empty `error` is a failure, and so is one unknown pair in the request (Kraken
 * then answers `EQuery:Unknown asset pair` for all of them): only markets Kraken lists are asked.
 * https://docs.kraken.com/api/docs/rest-api/get-ticker-information
 *
 * `result` is keyed by Kraken's own pair names, which differ from the names asked for ("XBTUSD"
 * answers as "XXBTZUSD"; https://support.kraken.com/hc/en-us/articles/360000920306-API-symbols-and-tickers,
 * and GET /0/public/AssetPairs lists both): each code accepts either.
 *
 * BNB has no USD market on Kraken: Coinbase and CoinGecko price it. RLUSD is not asked for either
 * (a USD market for it is not confirmed, and one unknown pair fails the whole request): CoinGecko
 * prices it, and Coinbase when its table has it.
 */
const PAIRS: Readonly<Record<string, { ask: string; keys: readonly string[] }>> = {
  BTC: { ask: 'XBTUSD', keys: ['XXBTZUSD', 'XBTUSD'] },
  ETH: { ask: 'ETHUSD', keys: ['XETHZUSD', 'ETHUSD'] },
  LTC: { ask: 'LTCUSD', keys: ['XLTCZUSD', 'LTCUSD'] },
  BCH: { ask: 'BCHUSD', keys: ['BCHUSD'] },
  DOGE: { ask: 'XDGUSD', keys: ['XDGUSD', 'XXDGZUSD'] },
  XRP: { ask: 'XRPUSD', keys: ['XXRPZUSD', 'XRPUSD'] },
  TRX: { ask: 'TRXUSD', keys: ['TRXUSD'] },
  SOL: { ask: 'SOLUSD', keys: ['SOLUSD'] },
  POL: { ask: 'POLUSD', keys: ['POLUSD'] },
  USDT: { ask: 'USDTUSD', keys: ['USDTZUSD', 'USDTUSD'] },
  USDC: { ask: 'USDCUSD', keys: ['USDCUSD'] },
  EUR: { ask: 'EURUSD', keys: ['ZEURZUSD', 'EURUSD'] },
  GBP: { ask: 'GBPUSD', keys: ['ZGBPZUSD', 'GBPUSD'] },
};

/** The codes this source can price. */
export const KRAKEN_CODES = Object.keys(PAIRS);

const envelope = z.object({ error: z.array(z.string()) });
const withResult = z.object({ result: z.record(z.string(), z.unknown()) });
/** Only the last trade price is read; the other fields are Kraken's business. */
const ticker = z.object({ c: z.tuple([priceText], z.string()) });

export function krakenSource(options: { baseUrl?: string } = {}): RateSource {
  const base = baseUrl(options.baseUrl, 'https://api.kraken.com');
  return {
    name: 'kraken',
    async fetchUsdPrices(codes, signal) {
      const wanted = codes.filter((code) => PAIRS[code]);
      if (wanted.length === 0) return {};
      const text = await getText(
        'kraken',
        `${base}/0/public/Ticker?pair=${wanted.map((code) => PAIRS[code]!.ask).join(',')}`,
        signal,
      );
      const answer = parseJson('kraken', text);
      const { error } = checkShape('kraken', envelope, answer);
      // Kraken's error strings ("EQuery:Unknown asset pair", "EGeneral:Too many requests") carry no secret.
      if (error.length > 0) throw new RateSourceError(`kraken: ${error.join('; ').slice(0, 200)}`);
      const { result } = checkShape('kraken', withResult, answer);
      const prices: [string, Decimal][] = [];
      for (const code of wanted) {
        const key = PAIRS[code]!.keys.find((k) => Object.hasOwn(result, k));
        if (key === undefined) continue;
        const { c } = checkShape('kraken', ticker, result[key], ['result', key]);
        prices.push([code, c[0]]);
      }
      if (prices.length === 0) throw new RateSourceError('kraken: the answer has none of the markets asked for');
      return priceStrings(prices);
    },
  };
}
