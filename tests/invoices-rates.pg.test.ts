/**
 * Invoices priced from market data over real HTTP: the gateway's rate service for test keys is
 * replaced by one reading three local stand-ins of Kraken, Coinbase and CoinGecko in their
 * documented formats (lib/rates/test-servers.ts), with a clock the test moves. make-invoice asks
 * the median; a source down or one far off changes nothing a merchant would notice; when no price
 * is fresh, 503 RATE_UNAVAILABLE names the pair and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillAddressPool } from '@/lib/addresses';
import { chooseCoin } from '@/lib/invoices';
import { setProcessSlot } from '@/lib/process';
import { coinbaseSource, coingeckoSource, createRateService, krakenSource, type RateService } from '@/lib/rates';
import { raw, testServer, type TestServer } from '@/lib/rates/test-servers';
import { network } from './support/chain';
import { countRows } from './support/database';
import { call, withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';

let gateway: TestGateway;
let merchant: TestMerchant;
let kraken: TestServer;
let coinbase: TestServer;
let coingecko: TestServer;
let clock = Date.now();
let rates: RateService;

const CACHE_MS = 30_000;
const MAX_AGE_MS = 300_000;

withTestGateway((started) => ({ gateway, merchant } = started));
beforeAll(async () => {
  await fillAddressPool(gateway.db, network('bitcoin'), 'test');
  [kraken, coinbase, coingecko] = await Promise.all([testServer(), testServer(), testServer()]);
});
afterAll(async () => {
  rates?.close();
  await Promise.all([kraken?.close(), coinbase?.close(), coingecko?.close()]);
});

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

/** What each stand-in answers for BTC in dollars (null: it fails with HTTP 500). */
function markets(prices: { kraken: string | null; coinbase: string | null; coingecko: string | null }) {
  kraken.answer(prices.kraken === null ? raw(500, 'down') : { error: [], result: { XXBTZUSD: ticker(prices.kraken) } });
  coinbase.answer(
    prices.coinbase === null ? raw(500, 'down') : { data: { currency: 'USD', rates: { BTC: prices.coinbase } } },
  );
  coingecko.answer(
    prices.coingecko === null
      ? raw(500, 'down')
      : raw(200, `{"bitcoin": {"usd": ${prices.coingecko}, "eur": 55555, "gbp": 47244}}`, {
          'content-type': 'application/json',
        }),
  );
}

/** A fresh rate service for test keys (an empty cache), in place of the fixed table the gateway started with. */
function freshService(): void {
  rates?.close();
  rates = createRateService({
    sources: [
      krakenSource({ baseUrl: kraken.url }),
      coinbaseSource({ baseUrl: coinbase.url }),
      coingeckoSource({ baseUrl: coingecko.url }),
    ],
    cacheMs: CACHE_MS,
    maxAgeMs: MAX_AGE_MS,
    maxSpreadPercent: '3',
    timeoutMs: 2000,
    now: () => clock,
  });
  setProcessSlot('rates', new Map([['test', rates]]));
}

const invoiceFor100Usd = () =>
  call(
    gateway,
    'make-invoice',
    { currency: 'USD', amount: '100', currencies: [{ currency: 'BTC', networks: ['bitcoin'] }] },
    merchant.test,
  );
const btcAmount = (answer: { body: { response: { currencies: { networks: { amount: string }[] }[] } } }) =>
  answer.body.response.currencies[0]!.networks[0]!.amount;

describe('make-invoice at market rates', () => {
  it('asks the median of three sources', async () => {
    freshService();
    markets({ kraken: '60000', coinbase: '0.000016501650165017', coingecko: '59400' }); // coinbase: 1 / 60600
    const answer = await invoiceFor100Usd();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // median(59400, 60000, 60600) = 60000: 100 / 60000 BTC, rounded up to the satoshi.
    expect(btcAmount(answer)).toBe('0.00166667');
    expect((await call(gateway, 'price-rate', { from: 'BTC', to: 'USD' }, merchant.test)).body.response).toBe('60000');
  });

  it('goes on with two when one is down', async () => {
    freshService();
    markets({ kraken: null, coinbase: '0.000016501650165017', coingecko: '59400' });
    const answer = await invoiceFor100Usd();
    // median(59400, 60599.99999999…) = their mean; within 3 % of it, both kept.
    expect(answer.status).toBe(200);
    expect((await call(gateway, 'price-rate', { from: 'BTC', to: 'USD' }, merchant.test)).body.response).toBe(
      '59999.99999999908494',
    );
    expect(btcAmount(answer)).toBe('0.00166667');
  });

  it('drops a source answering a price 20 % off the others', async () => {
    freshService();
    markets({ kraken: '60000', coinbase: '0.000016501650165017', coingecko: '72000' });
    const answer = await invoiceFor100Usd();
    expect(answer.status).toBe(200);
    // 72000 is dropped; median(60000, 60600) = 60300 (to 18 digits): 100 / 60300 BTC = 0.00165837…
    expect(btcAmount(answer)).toBe('0.00165838');
  });

  it('refuses with 503 RATE_UNAVAILABLE naming the pair, writing nothing, once every price is stale', async () => {
    freshService();
    markets({ kraken: '60000', coinbase: '0.000016666666666667', coingecko: '60000' });
    expect((await invoiceFor100Usd()).status).toBe(200);
    // Every source goes down; the cached prices serve until they are MAX_AGE_MS old, never after.
    markets({ kraken: null, coinbase: null, coingecko: null });
    clock += MAX_AGE_MS - 1_000;
    expect((await invoiceFor100Usd()).status).toBe(200);
    clock += 2_000;
    const before = await countRows(gateway.db);
    const refused = await invoiceFor100Usd();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.error).toMatchObject({ name: 'RATE_UNAVAILABLE', code: 5004 });
    expect(refused.body.error.message).toContain('BTC/USD');
    expect(await countRows(gateway.db)).toEqual(before);
    const rate = await call(gateway, 'price-rate', { from: 'BTC', to: 'EUR' }, merchant.test);
    expect(rate.status).toBe(503);
    expect(rate.body.error.message).toMatch(/BTC\/EUR/);
    // available-currencies still answers, without a price.
    const available = (await call(gateway, 'available-currencies', {}, merchant.test)).body.response as {
      currency: string;
      priceUSD: string | null;
    }[];
    expect(available.find((c) => c.currency === 'BTC')?.priceUSD).toBeNull();
  });

  it("locks the quoted rate at the choice while the market stays within slippagePercent, else the market's", async () => {
    freshService();
    markets({ kraken: '60000', coinbase: '0.000016666666666667', coingecko: '60000' });
    const made = (
      await call(
        gateway,
        'make-invoice',
        { currency: 'USD', amount: '100', slippagePercent: '1', currencies: [{ currency: 'BTC' }] },
        merchant.test,
      )
    ).body.response;
    const again = (
      await call(
        gateway,
        'make-invoice',
        { currency: 'USD', amount: '100', slippagePercent: '1', currencies: [{ currency: 'BTC' }] },
        merchant.test,
      )
    ).body.response;
    expect(btcAmount({ body: { response: made } })).toBe('0.00166667');

    // The market moves 0.5 %: the quote stands.
    markets({ kraken: '60300', coinbase: '0.000016583747927032', coingecko: '60300' });
    clock += CACHE_MS + 1;
    await rates.quote('BTC', 'USD'); // starts the refresh
    await expect.poll(async () => (await rates.quote('BTC', 'USD')).rate).toMatch(/^603/);
    const kept = await chooseCoin(gateway.db, made.id, { currency: 'BTC', network: 'bitcoin' });
    expect(kept.amount).toBe('166667');
    expect((await call(gateway, 'get-invoice', { invoiceId: made.id }, merchant.test)).body.response.rate).toBe(
      '60000',
    );

    // It moves 1.67 %: recalculated at the market, 100 / 61000 BTC.
    markets({ kraken: '61000', coinbase: '0.000016393442622951', coingecko: '61000' });
    clock += CACHE_MS + 1;
    await rates.quote('BTC', 'USD');
    await expect.poll(async () => (await rates.quote('BTC', 'USD')).rate).toMatch(/^6100/);
    const moved = await chooseCoin(gateway.db, again.id, { currency: 'BTC', network: 'bitcoin' });
    expect(moved.amount).toBe('163935');
  });
});
