/**
 * Each real source against a local server answering in the provider's documented format: good
 * answers, error answers, no answer, and garbage.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  coinbaseSource,
  coingeckoSource,
  FIXED_USD_PRICES,
  fixedSource,
  krakenSource,
  priceableCurrencies,
  type RateSource,
} from './index';
import { codesToFetch } from './currencies';
import { MAX_ANSWER_BYTES } from './source';
import { raw, testServer, type TestServer } from './test-servers';

const CODES = codesToFetch();
const signal = (ms = 2000) => AbortSignal.timeout(ms);

/** The error message a source's fetch fails with (the test fails if it succeeds). */
async function failure(source: RateSource, timeoutMs = 2000): Promise<string> {
  try {
    const prices = await source.fetchUsdPrices(CODES, signal(timeoutMs));
    throw new Error(`expected a failure, got ${JSON.stringify(prices)}`);
  } catch (error) {
    return (error as Error).message;
  }
}

/** Failures every HTTP source shares: status, no answer, not JSON, too large. */
function sharedFailures(name: string, make: () => { server: TestServer; source: RateSource }) {
  describe(`${name}: failures of the transport`, () => {
    it('fails on HTTP 500 and 429, naming the status', async () => {
      const { server, source } = make();
      server.answer(raw(500, 'oops'));
      expect(await failure(source)).toBe(`${name}: HTTP 500`);
      server.answer(raw(429, '{"error":"rate limited"}', { 'retry-after': '30' }));
      expect(await failure(source)).toBe(`${name}: HTTP 429`);
    });

    it('gives up when the provider never answers, at the signal', async () => {
      const { server, source } = make();
      server.answer('hang');
      const started = Date.now();
      expect(await failure(source, 150)).toBe(`${name}: no answer in time`);
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it('refuses HTML, truncated JSON and an empty body', async () => {
      const { server, source } = make();
      server.answer(raw(200, '<html><body>Cloudflare says wait</body></html>', { 'content-type': 'text/html' }));
      expect(await failure(source)).toBe(`${name}: the answer is not JSON`);
      server.answer(
        raw(200, '{"data": {"currency": "USD", "rates": {"BTC": "0.00001', { 'content-type': 'application/json' }),
      );
      expect(await failure(source)).toBe(`${name}: the answer is not JSON`);
      server.answer(raw(200, ''));
      expect(await failure(source)).toBe(`${name}: the answer is not JSON`);
    });

    it('refuses an answer larger than 1 MiB, declared or streamed', async () => {
      const { server, source } = make();
      const big = `{"pad": "${'x'.repeat(MAX_ANSWER_BYTES)}"}`;
      server.answer(raw(200, big, { 'content-type': 'application/json' })); // node:http declares its content-length
      expect(await failure(source)).toBe(`${name}: the answer is larger than 1 MiB`);
      server.answer(raw(200, big, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }));
      expect(await failure(source)).toBe(`${name}: the answer is larger than 1 MiB`);
      // Refused on the declared length alone, before waiting for a body that never comes.
      server.answer(
        raw(200, '{', { 'content-type': 'application/json', 'content-length': String(MAX_ANSWER_BYTES + 1) }),
      );
      expect(await failure(source, 1500)).toBe(`${name}: the answer is larger than 1 MiB`);
    });
  });
}

describe('fixed', () => {
  it('prices every catalog coin and fiat currency but the USD pivot, with round numbers', async () => {
    expect(Object.keys(FIXED_USD_PRICES).sort()).toEqual(
      priceableCurrencies()
        .filter((c) => c !== 'USD')
        .sort(),
    );
    const prices = await fixedSource().fetchUsdPrices(CODES, signal());
    expect(prices).toEqual(FIXED_USD_PRICES);
    expect(prices).toMatchObject({ BTC: '60000', ETH: '3000', USDT: '1', EUR: '1.08', GBP: '1.27' });
  });

  it('answers only what is asked for', async () => {
    expect(await fixedSource().fetchUsdPrices(['BTC', 'EUR', 'NOPE'], signal())).toEqual({ BTC: '60000', EUR: '1.08' });
  });

  it('takes overrides entry by entry, checked', async () => {
    const prices = await fixedSource({ BTC: '65000.50', eur: '1.1' }).fetchUsdPrices(CODES, signal());
    expect(prices).toMatchObject({ BTC: '65000.5', EUR: '1.1', ETH: '3000' });
    expect(() => fixedSource({ BTC: '0' })).toThrow(/BTC/);
    expect(() => fixedSource({ BTC: '-1' })).toThrow(/BTC/);
    expect(() => fixedSource({ BTC: '6e4' })).toThrow(/BTC/);
  });
});

describe('kraken', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer();
  });
  afterAll(() => server.close());

  /** A ticker as documented: every field a string array but t; c = [last price, lot volume]. */
  const ticker = (last: string) => ({
    a: [last, '1', '1.000'],
    b: [last, '1', '1.000'],
    c: [last, '0.00067643'],
    v: ['4083.67001100', '4412.73601799'],
    p: [last, last],
    t: [34619, 38907],
    l: [last, last],
    h: [last, last],
    o: last,
  });
  const good = {
    error: [],
    result: {
      XXBTZUSD: ticker('60000.10000'),
      XETHZUSD: ticker('3000.00'),
      XLTCZUSD: ticker('80.01'),
      BCHUSD: ticker('400.5'),
      XDGUSD: ticker('0.2000000'),
      XXRPZUSD: ticker('2.00000'),
      TRXUSD: ticker('0.250000'),
      SOLUSD: ticker('150.12'),
      POLUSD: ticker('0.5000'),
      USDTZUSD: ticker('0.99980000'),
      USDCUSD: ticker('1.0001'),
      ZEURZUSD: ticker('1.08123'),
      ZGBPZUSD: ticker('1.27001'),
    },
  };

  it('reads the last trade price of each USD market, exactly', async () => {
    server.answer(good);
    const prices = await krakenSource({ baseUrl: `${server.url}/` }).fetchUsdPrices(CODES, signal());
    expect(prices).toEqual({
      BTC: '60000.1',
      ETH: '3000',
      LTC: '80.01',
      BCH: '400.5',
      DOGE: '0.2',
      XRP: '2',
      TRX: '0.25',
      SOL: '150.12',
      POL: '0.5',
      USDT: '0.9998',
      USDC: '1.0001',
      EUR: '1.08123',
      GBP: '1.27001',
    });
    // One request, naming only the markets Kraken lists (no BNB: an unknown pair fails them all).
    const url = new URL(server.asked.at(-1)!.url, server.url);
    expect(url.pathname).toBe('/0/public/Ticker');
    expect(url.searchParams.get('pair')).not.toContain('BNB');
    expect(url.searchParams.get('pair')!.split(',').sort()).toEqual([
      'BCHUSD',
      'ETHUSD',
      'EURUSD',
      'GBPUSD',
      'LTCUSD',
      'POLUSD',
      'SOLUSD',
      'TRXUSD',
      'USDCUSD',
      'USDTUSD',
      'XBTUSD',
      'XDGUSD',
      'XRPUSD',
    ]);
  });

  it('accepts a market under the name it was asked by, and leaves out markets not answered', async () => {
    server.answer({ error: [], result: { XBTUSD: ticker('61000'), ETHUSD: ticker('3100') } });
    expect(await krakenSource({ baseUrl: server.url }).fetchUsdPrices(CODES, signal())).toEqual({
      BTC: '61000',
      ETH: '3100',
    });
  });

  it("fails on Kraken's error array, even with a result", async () => {
    server.answer({ error: ['EQuery:Unknown asset pair'] });
    expect(await failure(krakenSource({ baseUrl: server.url }))).toBe('kraken: EQuery:Unknown asset pair');
    server.answer({ error: ['EGeneral:Too many requests'], result: good.result });
    expect(await failure(krakenSource({ baseUrl: server.url }))).toBe('kraken: EGeneral:Too many requests');
  });

  it('refuses a wrong shape, and a price that is not a positive decimal', async () => {
    const source = krakenSource({ baseUrl: server.url });
    server.answer({ result: good.result });
    expect(await failure(source)).toMatch(/^kraken: unexpected answer at error: /);
    server.answer({ error: [] });
    expect(await failure(source)).toMatch(/^kraken: unexpected answer at result: /);
    server.answer({ error: [], result: { XXBTZUSD: { c: [] } } });
    expect(await failure(source)).toMatch(/^kraken: unexpected answer at result\.XXBTZUSD\.c/);
    server.answer({ error: [], result: { XXBTZUSD: { c: [60000.1, '1'] } } });
    expect(await failure(source)).toMatch(/^kraken: unexpected answer at result\.XXBTZUSD\.c\.0/);
    for (const bad of ['0', '0.00000', '-60000.1', 'abc', '', 'NaN']) {
      server.answer({ error: [], result: { ...good.result, XXBTZUSD: ticker(bad) } });
      expect(await failure(source), bad).toBe(
        'kraken: unexpected answer at result.XXBTZUSD.c.0: must be a positive decimal',
      );
    }
    server.answer({ error: [], result: { XXBTZEUR: ticker('55000') } });
    expect(await failure(source)).toBe('kraken: the answer has none of the markets asked for');
    server.answer([1, 2, 3]);
    expect(await failure(source)).toMatch(/^kraken: unexpected answer at /);
  });

  sharedFailures('kraken', () => ({ server, source: krakenSource({ baseUrl: server.url }) }));
});

describe('coinbase', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer();
  });
  afterAll(() => server.close());

  const good = {
    data: {
      currency: 'USD',
      rates: {
        AED: '3.6725',
        BTC: '0.0000166666666667',
        ETH: '0.000333333333333333',
        USDT: '1.002004008016032064',
        EUR: '0.925925925925925926',
        GBP: '0.787401574803149606',
        SHIB: '0',
        WEIRD: 'n/a',
      },
    },
  };

  it('turns units per dollar into dollars per unit: 1 / rate, rounded half up to 18 digits', async () => {
    server.answer(good);
    const prices = await coinbaseSource({ baseUrl: server.url }).fetchUsdPrices(CODES, signal());
    expect(prices).toEqual({
      BTC: '59999.99999988', // 1 / 0.0000166666666667, exactly so at 18 digits
      ETH: '3000.000000000003', // 1 / 0.000333333333333333 = 3000.000000000003000000000000003000...
      USDT: '0.998',
      EUR: '1.08', // 1.07999999999999999956... rounds up
      GBP: '1.27',
    });
    expect(new URL(server.asked.at(-1)!.url, server.url).search).toBe('?currency=USD');
    expect(new URL(server.asked.at(-1)!.url, server.url).pathname).toBe('/v2/exchange-rates');
  });

  it('checks only the currencies asked for', async () => {
    server.answer(good); // SHIB "0" and WEIRD "n/a" are not ours
    await expect(coinbaseSource({ baseUrl: server.url }).fetchUsdPrices(['BTC'], signal())).resolves.toEqual({
      BTC: '59999.99999988',
    });
  });

  it('refuses a wrong shape, another base currency, and a rate that is not a positive decimal', async () => {
    const source = coinbaseSource({ baseUrl: server.url });
    server.answer({ rates: good.data.rates });
    expect(await failure(source)).toMatch(/^coinbase: unexpected answer at data: /);
    server.answer({ data: { ...good.data, currency: 'EUR' } });
    expect(await failure(source)).toMatch(/^coinbase: unexpected answer at data\.currency: /);
    for (const bad of ['0', '-0.00001', 'abc', 0.00001]) {
      server.answer({ data: { currency: 'USD', rates: { ...good.data.rates, BTC: bad } } });
      expect(await failure(source), String(bad)).toMatch(/^coinbase: unexpected answer at data\.rates\.BTC: /);
    }
    server.answer({ data: { currency: 'USD', rates: { AED: '3.6725' } } });
    expect(await failure(source)).toBe('coinbase: the answer has none of the currencies asked for');
  });

  sharedFailures('coinbase', () => ({ server, source: coinbaseSource({ baseUrl: server.url }) }));
});

describe('coingecko', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await testServer();
  });
  afterAll(() => server.close());

  // Numbers as CoinGecko writes them, one with more digits than a double keeps, one in exponent form.
  const goodText = `{
    "bitcoin": {"usd": 60000.5, "eur": 55556, "gbp": 47244.5},
    "ethereum": {"usd": 3000.123456789012345678},
    "tether": {"usd": 0.99980000000000000001},
    "dogecoin": {"usd": 2E-1},
    "usd-coin": {"usd":1.0002e0},
    "binancecoin": {"usd": 600}
  }`;

  it('reads each price as the digits CoinGecko wrote, never through a double', async () => {
    server.answer(raw(200, goodText, { 'content-type': 'application/json' }));
    const prices = await coingeckoSource({ baseUrl: server.url }).fetchUsdPrices(CODES, signal());
    expect(prices).toEqual({
      BTC: '60000.5',
      ETH: '3000.123456789012345678',
      USDT: '0.99980000000000000001',
      DOGE: '0.2',
      USDC: '1.0002',
      BNB: '600',
      // bitcoin's USD price over its EUR and GBP prices, rounded half up to 18 digits
      EUR: '1.080000359997120023',
      GBP: '1.269999682502725185',
    });
  });

  it('asks for the ids of the catalog coins in usd and the fiat currencies, with the key in a header', async () => {
    server.answer(raw(200, goodText, { 'content-type': 'application/json' }));
    await coingeckoSource({ baseUrl: server.url, apiKey: 'CG-secret-demo-key' }).fetchUsdPrices(CODES, signal());
    const { url, headers } = server.asked.at(-1)!;
    const asked = new URL(url, server.url);
    expect(asked.pathname).toBe('/api/v3/simple/price');
    expect(asked.searchParams.get('ids')!.split(',').sort()).toEqual(
      [
        'binancecoin',
        'bitcoin',
        'bitcoin-cash',
        'dogecoin',
        'ethereum',
        'litecoin',
        'polygon-ecosystem-token',
        'ripple',
        'ripple-usd',
        'solana',
        'tether',
        'tron',
        'usd-coin',
      ].sort(),
    );
    expect(asked.searchParams.get('vs_currencies')).toBe('usd,eur,gbp');
    expect(headers['x-cg-demo-api-key']).toBe('CG-secret-demo-key');
    expect(url).not.toContain('CG-secret');
    // Without a key, no header.
    await coingeckoSource({ baseUrl: server.url }).fetchUsdPrices(['BTC'], signal());
    expect(server.asked.at(-1)!.headers['x-cg-demo-api-key']).toBeUndefined();
    expect(new URL(server.asked.at(-1)!.url, server.url).searchParams.get('vs_currencies')).toBe('usd');
  });

  it('refuses a wrong shape and a price that is not a positive number', async () => {
    const source = coingeckoSource({ baseUrl: server.url });
    server.answer(['bitcoin']);
    expect(await failure(source)).toMatch(/^coingecko: unexpected answer at /);
    server.answer({ bitcoin: 60000 });
    expect(await failure(source)).toMatch(/^coingecko: unexpected answer at bitcoin: /);
    for (const bad of ['0', '-60000', '0.0', 'null', '"abc"', 'true', '{}']) {
      server.answer(raw(200, `{"bitcoin": {"usd": ${bad}, "eur": 55556, "gbp": 47244.5}}`));
      expect(await failure(source), bad).toMatch(/^coingecko: unexpected answer at bitcoin\.usd: /);
    }
    server.answer({ 'some-other-coin': { usd: 1 } });
    expect(await failure(source)).toBe('coingecko: the answer has none of the coins asked for');
  });

  sharedFailures('coingecko', () => ({ server, source: coingeckoSource({ baseUrl: server.url }) }));
});

afterEach(() => {
  vi.restoreAllMocks();
});
