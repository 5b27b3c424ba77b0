/**
 * The rate service: combining sources, the cache and its refreshes, cross rates through USD, and
 * failures. Sources are stand-ins the tests script (and, at the end, the three real sources
 * against local servers); the clock is injected, so no test sleeps for the cache to age.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { coinUnitsFor, parseDecimal } from '../money';
import {
  coinbaseSource,
  coingeckoSource,
  createRateService,
  krakenSource,
  priceableCurrencies,
  RateUnavailable,
  UnknownPriceCurrency,
  type RateService,
  type RateSource,
} from './index';
import { raw, testServer, type TestServer } from './test-servers';

type Script = Record<string, string> | Error | 'hang' | 'ignore-signal' | Promise<Record<string, string>>;

/** A source answering what the test sets, counting its calls. */
function scripted(name: string, script: Script) {
  const source = {
    name,
    calls: 0,
    script,
    async fetchUsdPrices(codes: readonly string[], signal: AbortSignal): Promise<Record<string, string>> {
      source.calls += 1;
      const now = source.script;
      if (now instanceof Error) throw now;
      if (now === 'hang') {
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error(`${name}: no answer in time`)), { once: true }),
        );
      }
      if (now === 'ignore-signal') return new Promise(() => undefined);
      const prices = await now;
      return Object.fromEntries(Object.entries(prices).filter(([code]) => codes.includes(code)));
    },
  };
  return source satisfies RateSource;
}

let clock = 0;
const services: RateService[] = [];
function service(
  sources: RateSource[],
  options: { cacheMs?: number; maxAgeMs?: number; maxSpreadPercent?: string; timeoutMs?: number } = {},
) {
  const built = createRateService({
    sources,
    cacheMs: 30_000,
    maxAgeMs: 300_000,
    maxSpreadPercent: '3',
    timeoutMs: 2000,
    now: () => clock,
    ...options,
  });
  services.push(built);
  return built;
}

/**
 * Until a background refresh has finished: it has called the source (`calls`), and the answer has
 * gone through the service's promise chain, all microtasks, which run before setImmediate's turn.
 */
async function refreshed(source: { calls: number }, calls: number): Promise<void> {
  await vi.waitFor(() => expect(source.calls).toBe(calls));
  await new Promise((resolve) => setImmediate(resolve));
}

/** The RateUnavailable a quote fails with. */
async function unavailable(promise: Promise<unknown>): Promise<RateUnavailable> {
  const error = await promise.then(
    (value) => new Error(`expected RateUnavailable, got ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RateUnavailable);
  return error as RateUnavailable;
}

/** Lines the service logged at warn (stderr) while `run` ran. */
async function warnings(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

afterEach(() => {
  clock = 0;
  for (const s of services.splice(0)) s.close();
});

describe('combining sources', () => {
  it('takes the median of three', async () => {
    const rates = service([
      scripted('a', { BTC: '60000' }),
      scripted('b', { BTC: '60300' }),
      scripted('c', { BTC: '59900.5' }),
    ]);
    const quote = await rates.quote('BTC', 'USD');
    expect(quote).toEqual({ from: 'BTC', to: 'USD', rate: '60000', asOf: new Date(0), sources: ['a', 'b', 'c'] });
  });

  it('takes the mean of the two middle values for an even count, exactly', async () => {
    const rates = service([scripted('a', { BTC: '60000.01' }), scripted('b', { BTC: '60300' })]);
    expect((await rates.quote('BTC', 'USD')).rate).toBe('60150.005');
  });

  it('with one source down, takes the median of the other two, and logs the failure once', async () => {
    const down = scripted('a', new Error('a: HTTP 500'));
    const rates = service([down, scripted('b', { BTC: '60000' }), scripted('c', { BTC: '60300' })]);
    const logged = await warnings(async () => {
      expect(await rates.quote('BTC', 'USD')).toMatchObject({ rate: '60150', sources: ['b', 'c'] });
    });
    expect(logged).toEqual([
      expect.objectContaining({ level: 'warn', msg: 'rate source failed', source: 'a', reason: 'a: HTTP 500' }),
    ]);
  });

  it('drops a source 20 % off the median, and says so once per refresh', async () => {
    const rates = service([
      scripted('a', { BTC: '60000' }),
      scripted('b', { BTC: '60300' }),
      scripted('c', { BTC: '72360' }),
    ]);
    const logged = await warnings(async () => {
      expect(await rates.quote('BTC', 'USD')).toMatchObject({ rate: '60150', sources: ['a', 'b'] });
      expect(await rates.quote('BTC', 'EUR').catch(() => undefined)).toBeUndefined(); // no EUR anywhere
    });
    expect(logged.filter((l) => l.msg === 'rate source price dropped')).toEqual([
      expect.objectContaining({ source: 'c', code: 'BTC', price: '72360', median: '60300', maxSpreadPercent: '3' }),
    ]);
  });

  it('keeps a price exactly at the spread and drops one just beyond it', async () => {
    // Median 100: 103 is 3 % away (kept), 103.01 is beyond (dropped).
    const at = service([scripted('a', { BTC: '100' }), scripted('b', { BTC: '100' }), scripted('c', { BTC: '103' })]);
    expect(await at.quote('BTC', 'USD')).toMatchObject({ rate: '100', sources: ['a', 'b', 'c'] });
    const beyond = service([
      scripted('a', { BTC: '100' }),
      scripted('b', { BTC: '100' }),
      scripted('c', { BTC: '103.01' }),
    ]);
    expect(await beyond.quote('BTC', 'USD')).toMatchObject({ rate: '100', sources: ['a', 'b'] });
  });

  it('answers no price when two sources disagree beyond the spread: neither can be told right', async () => {
    const rates = service([scripted('a', { BTC: '60000' }), scripted('b', { BTC: '66000' })]);
    const error = await unavailable(rates.quote('BTC', 'EUR'));
    expect(error.message).toBe("No fresh price for BTC/EUR: the sources' prices of BTC differ by more than 3 %.");
    expect(error.details).toEqual([
      { path: 'currency', message: "no fresh price for BTC/EUR: the sources' prices of BTC differ by more than 3 %" },
    ]);
    // Within the spread, the two are averaged.
    const close = service([scripted('a', { BTC: '60000' }), scripted('b', { BTC: '61000' })]);
    expect((await close.quote('BTC', 'USD')).rate).toBe('60500');
  });

  it('treats a source answering a bad price as failed', async () => {
    const rates = service([scripted('a', { BTC: '0' }), scripted('b', { BTC: '60000' })]);
    const logged = await warnings(() => rates.quote('BTC', 'USD'));
    expect(logged).toEqual([
      expect.objectContaining({ source: 'a', reason: 'a: the price of BTC is not a positive decimal' }),
    ]);
    expect((await rates.quote('BTC', 'USD')).sources).toEqual(['b']);
  });
});

describe('cross rates through USD', () => {
  const market = () => scripted('market', { BTC: '60000', EUR: '1.08', GBP: '1.27', USDT: '0.998' });

  it('prices a coin in a fiat currency, a fiat currency in a coin, and fiat in fiat', async () => {
    const rates = service([market()]);
    expect((await rates.quote('BTC', 'EUR')).rate).toBe('55555.555555555555555556'); // 60000 / 1.08, 18 digits half up
    expect((await rates.quote('EUR', 'BTC')).rate).toBe('0.000018');
    expect((await rates.quote('USD', 'EUR')).rate).toBe('0.925925925925925926');
    expect((await rates.quote('EUR', 'USD')).rate).toBe('1.08');
    expect((await rates.quote('GBP', 'EUR')).rate).toBe('1.175925925925925926');
  });

  it('prices a stablecoin by its market, not as 1', async () => {
    const rates = service([market()]);
    expect((await rates.quote('BTC', 'USDT')).rate).toBe('60120.240480961923847695'); // 60000 / 0.998
    const usdt = await rates.quote('USDT', 'USD');
    expect(usdt.rate).toBe('0.998');
    // A 73.50 USD invoice paid in USDT (6 decimals) asks 73.5 / 0.998 USDT, rounded up.
    expect(coinUnitsFor(parseDecimal('73.50')!, parseDecimal(usdt.rate)!, 6)).toBe(73_647_295n);
  });

  it('answers 1 for a currency in itself, and reads codes in any case', async () => {
    const rates = service([market()]);
    expect(await rates.quote('btc', 'BTC')).toEqual({
      from: 'BTC',
      to: 'BTC',
      rate: '1',
      asOf: new Date(0),
      sources: [],
    });
    expect(await rates.quote(' eur', 'usdt')).toMatchObject({ from: 'EUR', to: 'USDT', rate: '1.082164328657314629' });
  });

  it('refuses a currency it does not price, listing those it does', async () => {
    const rates = service([market()]);
    const error = await rates.quote('BTC', 'XYZ').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownPriceCurrency);
    expect((error as UnknownPriceCurrency).details).toEqual([
      { path: 'currency', message: `must be one of ${priceableCurrencies().join(', ')}` },
    ]);
    expect(priceableCurrencies()).toEqual([
      'BTC',
      'LTC',
      'BCH',
      'DOGE',
      'ETH',
      'USDT',
      'USDC',
      'BNB',
      'POL',
      'TRX',
      'XRP',
      'RLUSD',
      'SOL',
      'USD',
      'EUR',
      'GBP',
    ]);
    await expect(rates.quote('', 'USD')).rejects.toBeInstanceOf(UnknownPriceCurrency);
  });

  it('names the oldest price used and the sources of both sides', async () => {
    const a = scripted('a', { BTC: '60000' });
    const b = scripted('b', { EUR: '1.08' });
    const rates = service([a, b]);
    clock = 1000;
    await rates.quote('BTC', 'EUR');
    b.script = { EUR: '1.1' };
    a.script = new Error('a: down');
    clock = 40_000; // background refresh: a fails, b answers
    await rates.quote('BTC', 'EUR');
    await vi.waitFor(() => expect(b.calls).toBe(2));
    await vi.waitFor(async () => expect((await rates.quote('BTC', 'EUR')).rate).toBe('54545.454545454545454545'));
    expect(await rates.quote('BTC', 'EUR')).toMatchObject({ asOf: new Date(1000), sources: ['a', 'b'] });
  });
});

describe('the cache', () => {
  it('fetches on the first quote (a miss) and answers later ones from memory (hits)', async () => {
    const a = scripted('a', { BTC: '60000', EUR: '1.08' });
    const rates = service([a]);
    await rates.quote('BTC', 'EUR');
    clock = 29_999;
    await rates.quote('EUR', 'BTC');
    await rates.quote('BTC', 'USD');
    expect(a.calls).toBe(1);
    expect(rates.stats()).toEqual({ hits: 2, misses: 1 });
  });

  it('makes concurrent misses wait for one fetch', async () => {
    const a = scripted('a', { BTC: '60000', EUR: '1.08' });
    const rates = service([a]);
    const quotes = await Promise.all([rates.quote('BTC', 'USD'), rates.quote('EUR', 'USD'), rates.quote('BTC', 'EUR')]);
    expect(quotes.map((q) => q.rate)).toEqual(['60000', '1.08', '55555.555555555555555556']);
    expect(a.calls).toBe(1);
    expect(rates.stats()).toEqual({ hits: 0, misses: 3 });
  });

  it('after cacheMs, answers from memory at once and refreshes in the background, one refresh at a time', async () => {
    const a = scripted('a', { BTC: '60000' });
    const rates = service([a]);
    await rates.quote('BTC', 'USD');
    let release!: (prices: Record<string, string>) => void;
    a.script = new Promise((resolve) => (release = resolve));
    clock = 30_000;
    const during = await Promise.all([rates.quote('BTC', 'USD'), rates.quote('BTC', 'USD'), rates.quote('BTC', 'USD')]);
    expect(during.map((q) => q.rate)).toEqual(['60000', '60000', '60000']); // not waiting for the refresh
    expect(a.calls).toBe(2); // one refresh for the three
    release({ BTC: '61000' });
    await vi.waitFor(async () => expect((await rates.quote('BTC', 'USD')).rate).toBe('61000'));
    expect(await rates.quote('BTC', 'USD')).toMatchObject({ asOf: new Date(30_000) });
    expect(a.calls).toBe(2);
    expect(rates.stats().misses).toBe(1);
  });

  it('never uses a price older than maxAgeMs: with every source failing, the pair is unavailable', async () => {
    const a = scripted('a', { BTC: '60000', EUR: '1.08' });
    const b = scripted('b', { BTC: '60100', EUR: '1.08' });
    const rates = service([a, b]);
    await rates.quote('BTC', 'EUR');
    a.script = new Error('a: HTTP 503');
    b.script = new Error('b: no answer in time');
    clock = 299_999; // still fresh: answered, and a background refresh fails
    expect((await rates.quote('BTC', 'EUR')).rate).toBe('55601.851851851851851852');
    await refreshed(b, 2);
    clock = 300_000;
    const error = await unavailable(rates.quote('BTC', 'EUR'));
    expect(error.message).toBe('No fresh price for BTC/EUR: no source has a price of BTC younger than 300 s.');
    expect(error).toMatchObject({ kind: 'RateUnavailable', from: 'BTC', to: 'EUR' });
    expect(a.calls).toBe(2); // the sources failed 1 ms ago: not asked again yet
    clock = 301_000;
    await unavailable(rates.quote('BTC', 'EUR'));
    expect(a.calls).toBe(3); // this miss asked again before giving up
    expect(rates.stats()).toEqual({ hits: 1, misses: 3 });
  });

  it("keeps a failing source's last prices only until they reach maxAgeMs", async () => {
    const a = scripted('a', { BTC: '60000' });
    const b = scripted('b', { BTC: '60200' });
    const rates = service([a, b]);
    await rates.quote('BTC', 'USD'); // both at 0
    a.script = new Error('a: HTTP 500');
    b.script = { BTC: '60400' };
    clock = 100_000;
    await rates.quote('BTC', 'USD'); // background refresh: a fails, b at 100 000
    await refreshed(b, 2);
    expect(await rates.quote('BTC', 'USD')).toMatchObject({ rate: '60200', asOf: new Date(0), sources: ['a', 'b'] });
    clock = 300_000; // a's price from 0 is now too old; b's from 100 000 is not
    expect(await rates.quote('BTC', 'USD')).toMatchObject({ rate: '60400', asOf: new Date(100_000), sources: ['b'] });
  });

  it('while every source is down, asks again at most once a second, not once per quote', async () => {
    const a = scripted('a', new Error('a: HTTP 429'));
    const rates = service([a]);
    await unavailable(rates.quote('BTC', 'USD'));
    await unavailable(rates.quote('BTC', 'USD'));
    await unavailable(rates.quote('ETH', 'USD'));
    expect(a.calls).toBe(1);
    clock = 1000;
    await unavailable(rates.quote('BTC', 'USD'));
    expect(a.calls).toBe(2);
    a.script = { BTC: '60000' };
    clock = 2000;
    expect((await rates.quote('BTC', 'USD')).rate).toBe('60000');
    expect(rates.stats()).toEqual({ hits: 0, misses: 5 });
  });
});

describe('time limits and stopping', () => {
  it('answers with the sources that answered when one never does, after timeoutMs, and refreshes again later', async () => {
    const b = scripted('b', { BTC: '60000' });
    const rates = service([scripted('slow', 'hang'), scripted('deaf', 'ignore-signal'), b], { timeoutMs: 100 });
    const started = Date.now();
    expect(await rates.quote('BTC', 'USD')).toMatchObject({ rate: '60000', sources: ['b'] });
    expect(Date.now() - started).toBeLessThan(5000);
    // A source that ignores its signal does not hold the refresh: the next one comes.
    b.script = { BTC: '61000' };
    clock = 30_000;
    await vi.waitFor(async () => expect((await rates.quote('BTC', 'USD')).rate).toBe('61000'));
  });

  it('gives up on the pair when no source answers within timeoutMs', async () => {
    const rates = service([scripted('slow', 'hang'), scripted('deaf', 'ignore-signal')], { timeoutMs: 100 });
    expect((await unavailable(rates.quote('BTC', 'USD'))).message).toBe(
      'No fresh price for BTC/USD: no source has a price of BTC younger than 300 s.',
    );
  });

  it('close() ends the waits under way and the background refreshes', async () => {
    const deaf = scripted('deaf', 'ignore-signal');
    const rates = service([deaf], { timeoutMs: 60_000 });
    const pending = rates.quote('BTC', 'USD');
    await vi.waitFor(() => expect(deaf.calls).toBe(1));
    rates.close();
    await unavailable(pending);
    await expect(rates.quote('BTC', 'USD')).rejects.toThrow('No fresh price for BTC/USD: the rate service is stopped.');
    expect(deaf.calls).toBe(1);
  });

  it('stops asking in the background once closed', async () => {
    const a = scripted('a', { BTC: '60000' });
    const rates = service([a]);
    await rates.quote('BTC', 'USD');
    rates.close();
    clock = 31_000;
    expect((await rates.quote('BTC', 'USD')).rate).toBe('60000');
    expect(a.calls).toBe(1);
  });

  it('refuses impossible settings', () => {
    expect(() =>
      createRateService({ sources: [], cacheMs: 30_000, maxAgeMs: 10_000, maxSpreadPercent: '3', timeoutMs: 100 }),
    ).toThrow(RangeError);
    expect(() =>
      createRateService({ sources: [], cacheMs: 30_000, maxAgeMs: 300_000, maxSpreadPercent: '0', timeoutMs: 100 }),
    ).toThrow(RangeError);
    expect(() =>
      createRateService({ sources: [], cacheMs: 30_000, maxAgeMs: 300_000, maxSpreadPercent: 'x', timeoutMs: 100 }),
    ).toThrow(RangeError);
    const twice = [scripted('a', {}), scripted('a', {})];
    expect(() =>
      createRateService({
        sources: twice,
        cacheMs: 30_000,
        maxAgeMs: 300_000,
        maxSpreadPercent: { value: 3n, scale: 0 },
        timeoutMs: 100,
      }),
    ).toThrow(RangeError);
  });
});

describe('the three public sources, against local servers in their formats', () => {
  let kraken: TestServer;
  let coinbase: TestServer;
  let coingecko: TestServer;
  beforeAll(async () => {
    [kraken, coinbase, coingecko] = await Promise.all([testServer(), testServer(), testServer()]);
  });
  afterAll(() => Promise.all([kraken.close(), coinbase.close(), coingecko.close()]));

  const ticker = (last: string) => ({
    a: [last, '1', '1.000'],
    b: [last, '1', '1.000'],
    c: [last, '0.1'],
    v: ['1', '1'],
    p: [last, last],
    t: [1, 1],
    l: [last, last],
    h: [last, last],
    o: last,
  });

  it('combines them into one rate, dropping the one that is off', async () => {
    kraken.answer({
      error: [],
      result: { XXBTZUSD: ticker('60000.0'), ZEURZUSD: ticker('1.0800'), USDTZUSD: ticker('0.9990') },
    });
    coinbase.answer({
      data: {
        currency: 'USD',
        rates: { BTC: '0.0000166112956811', EUR: '0.925925925925925926', USDT: '1.001001001001001001' },
      },
    });
    // CoinGecko's BTC is 10 % high; its EUR (from bitcoin's usd/eur) agrees.
    coingecko.answer(
      raw(200, '{"bitcoin": {"usd": 66000, "eur": 61111.111111111111111111}, "tether": {"usd": 0.999}}', {
        'content-type': 'application/json',
      }),
    );
    const rates = service([
      krakenSource({ baseUrl: kraken.url }),
      coinbaseSource({ baseUrl: coinbase.url }),
      coingeckoSource({ baseUrl: coingecko.url, apiKey: 'CG-key' }),
    ]);
    const btc = await rates.quote('BTC', 'USD');
    // Kraken 60000, Coinbase 1 / 0.0000166112956811 = 60199.999999866356 (18 digits), CoinGecko 66000 dropped.
    expect(btc).toMatchObject({ sources: ['kraken', 'coinbase'] });
    expect(btc.rate).toBe('60099.999999933178');
    expect(await rates.quote('EUR', 'USD')).toMatchObject({
      rate: '1.08',
      sources: ['kraken', 'coinbase', 'coingecko'],
    });
    expect(await rates.quote('USDT', 'USD')).toMatchObject({
      rate: '0.999',
      sources: ['kraken', 'coinbase', 'coingecko'],
    });
    expect(rates.stats()).toEqual({ hits: 2, misses: 1 });
  });

  it('prices on with the others when one answers garbage, logging it without the API key', async () => {
    kraken.answer(raw(200, '<html>maintenance</html>', { 'content-type': 'text/html' }));
    coingecko.answer(raw(500, 'error'));
    coinbase.answer({ data: { currency: 'USD', rates: { BTC: '0.0000166666666667' } } });
    const rates = service([
      krakenSource({ baseUrl: kraken.url }),
      coinbaseSource({ baseUrl: coinbase.url }),
      coingeckoSource({ baseUrl: coingecko.url, apiKey: 'CG-very-secret' }),
    ]);
    let quote: unknown;
    const logged = await warnings(async () => {
      quote = await rates.quote('BTC', 'USD');
    });
    expect(quote).toMatchObject({ rate: '59999.99999988', sources: ['coinbase'] });
    expect(logged.map((l) => [l.source, l.reason])).toEqual([
      ['kraken', 'kraken: the answer is not JSON'],
      ['coingecko', 'coingecko: HTTP 500'],
    ]);
    expect(JSON.stringify(logged)).not.toContain('CG-very-secret');
  });
});
