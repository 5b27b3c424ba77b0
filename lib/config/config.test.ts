import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './schema';

describe('parseConfig', () => {
  it('has defaults for a bare environment', () => {
    const cfg = parseConfig({});
    expect(cfg).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicBaseUrl: 'http://127.0.0.1:3000',
      nonceWindowDays: 7,
      databaseUrl: undefined,
    });
    expect(cfg).toMatchObject({ apiBodyTimeoutMs: 10_000, apiSlowBodiesPerClient: 16 });
  });

  it('defaults the public URL to the address the server prints, reachable from this machine', () => {
    expect(parseConfig({ PORT: '4000' })).toMatchObject({
      publicBaseUrl: 'http://127.0.0.1:4000',
      localBaseUrl: 'http://127.0.0.1:4000',
    });
    expect(parseConfig({ HOST: '0.0.0.0' })).toMatchObject({ publicBaseUrl: 'http://127.0.0.1:3000' });
    expect(parseConfig({ HOST: '::' })).toMatchObject({ publicBaseUrl: 'http://[::1]:3000' });
    expect(parseConfig({ HOST: 'gateway.lan' })).toMatchObject({ publicBaseUrl: 'http://gateway.lan:3000' });
    expect(parseConfig({ HOST: '0.0.0.0', PUBLIC_BASE_URL: 'https://pay.example' })).toMatchObject({
      publicBaseUrl: 'https://pay.example',
      localBaseUrl: 'http://127.0.0.1:3000',
    });
  });

  it('bounds the time and the number of slow request bodies', () => {
    expect(parseConfig({ API_BODY_TIMEOUT_SECONDS: '3', API_SLOW_BODIES_PER_CLIENT: '4' })).toMatchObject({
      apiBodyTimeoutMs: 3000,
      apiSlowBodiesPerClient: 4,
    });
    expect(() => parseConfig({ API_BODY_TIMEOUT_SECONDS: '31' })).toThrow(/API_BODY_TIMEOUT_SECONDS/);
    expect(() => parseConfig({ API_BODY_TIMEOUT_SECONDS: '0' })).toThrow(/API_BODY_TIMEOUT_SECONDS/);
    expect(() => parseConfig({ API_SLOW_BODIES_PER_CLIENT: 'many' })).toThrow(/API_SLOW_BODIES_PER_CLIENT/);
  });

  it('names the bad variable', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => parseConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ APP_SECRET: 'short' })).toThrow(/APP_SECRET: must be at least 32 characters/);
    expect(() => parseConfig({ PUBLIC_BASE_URL: 'ftp://pay.example' })).toThrow(/PUBLIC_BASE_URL/);
  });

  it('says what a bad URL or number should look like, not just "Invalid URL" or "Invalid input"', () => {
    const message = (env: Record<string, string | undefined>) => {
      try {
        parseConfig(env);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`${JSON.stringify(env)} was accepted`);
    };
    const wantedUrl = 'must be an http:// or https:// URL such as https://pay.example.com';
    for (const bad of ['ftp://x', 'pay.example.com', 'localhost:3000', 'https://']) {
      expect(message({ PUBLIC_BASE_URL: bad }), bad).toContain(`PUBLIC_BASE_URL: ${wantedUrl}`);
      expect(message({ STORE_GATEWAY_URL: bad }), bad).toContain(`STORE_GATEWAY_URL: ${wantedUrl}`);
    }
    expect(message({ PORT: 'eighty' })).toContain('PORT: must be a number');
    expect(message({ DB_POOL_SIZE: '1.5' })).toContain('DB_POOL_SIZE: must be a whole number');
    const both = message({ SANDBOX_BLOCK_SECONDS: 'fast', API_RATE_LIMIT: 'x' });
    expect(both).toContain('SANDBOX_BLOCK_SECONDS: must be a number');
    expect(both).toContain('API_RATE_LIMIT: must be a number');
    // The enumerations already say which values they take.
    expect(message({ LOG_LEVEL: 'loud' })).toContain(
      'LOG_LEVEL: Invalid option: expected one of "debug"|"info"|"warn"|"error"|"silent"',
    );
    for (const env of [{ PUBLIC_BASE_URL: 'ftp://x' }, { PORT: 'eighty' }, { DB_POOL_SIZE: '1.5' }])
      expect(message(env)).not.toMatch(/Invalid (URL|input)/);
    expect(
      parseConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:3000', STORE_GATEWAY_URL: 'https://gw.example/' }),
    ).toMatchObject({
      publicBaseUrl: 'http://127.0.0.1:3000',
      storeGatewayUrl: 'https://gw.example',
    });
  });

  it('treats empty variables as unset and trims the base URL', () => {
    expect(parseConfig({ DATABASE_URL: '', PUBLIC_BASE_URL: 'https://pay.example/' })).toMatchObject({
      databaseUrl: undefined,
      publicBaseUrl: 'https://pay.example',
    });
  });

  describe('exchange rates', () => {
    const message = (env: Record<string, string | undefined>) => {
      try {
        parseConfig(env);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`${JSON.stringify(env)} was accepted`);
    };

    it('has defaults: three public markets for live keys, the offline table for test keys', () => {
      expect(parseConfig({})).toMatchObject({
        rateSourcesLive: ['kraken', 'coinbase', 'coingecko'],
        rateSourcesTest: ['fixed'],
        rateFixed: {},
        rateCacheMs: 30_000,
        rateMaxAgeMs: 300_000,
        rateMaxSpreadPercent: '3',
        rateTimeoutMs: 5000,
        rateKrakenUrl: undefined,
        rateCoinbaseUrl: undefined,
        rateCoingeckoUrl: undefined,
        rateCoingeckoApiKey: undefined,
      });
    });

    it('reads source lists in any case, spacing and repetition', () => {
      expect(
        parseConfig({ RATE_SOURCES_LIVE: ' Kraken , coingecko,kraken', RATE_SOURCES_TEST: 'fixed,coinbase' }),
      ).toMatchObject({
        rateSourcesLive: ['kraken', 'coingecko'],
        rateSourcesTest: ['fixed', 'coinbase'],
      });
    });

    it('stops start-up on an unknown source, naming the variable and the name', () => {
      expect(message({ RATE_SOURCES_LIVE: 'kraken,binance' })).toContain(
        'RATE_SOURCES_LIVE: unknown rate source "binance": must be a comma-separated list of fixed, kraken, coinbase, coingecko',
      );
      expect(message({ RATE_SOURCES_TEST: 'fixd' })).toContain('RATE_SOURCES_TEST: unknown rate source "fixd"');
      expect(message({ RATE_SOURCES_TEST: ',' })).toContain('RATE_SOURCES_TEST: must be a comma-separated list');
    });

    it('overrides entries of the fixed table with known codes and positive decimals', () => {
      expect(parseConfig({ RATE_FIXED: 'BTC=65000, eur=1.1,USDT=0.998' })).toMatchObject({
        rateFixed: { BTC: '65000', EUR: '1.1', USDT: '0.998' },
      });
      expect(message({ RATE_FIXED: 'XYZ=1' })).toContain('RATE_FIXED: "XYZ" is not a currency the rate service prices');
      // USD is the pivot: 1 by definition.
      expect(message({ RATE_FIXED: 'USD=1' })).toContain('RATE_FIXED: "USD" is not a currency');
      for (const bad of ['0', '-1', '1e3', '01', 'abc', '', '1.', '1'.repeat(41)]) {
        expect(message({ RATE_FIXED: `BTC=${bad}` }), bad).toContain('RATE_FIXED: the price of BTC');
      }
      expect(message({ RATE_FIXED: 'BTC' })).toContain('RATE_FIXED: "BTC" must be CODE=PRICE');
      expect(message({ RATE_FIXED: 'BTC=1=2' })).toContain('RATE_FIXED: "BTC=1=2" must be CODE=PRICE');
    });

    it('bounds the cache, the age of a price, the spread and the timeout', () => {
      expect(
        parseConfig({
          RATE_CACHE_SECONDS: '10',
          RATE_MAX_AGE_SECONDS: '10',
          RATE_MAX_SPREAD_PERCENT: '2.50',
          RATE_TIMEOUT_MS: '800',
        }),
      ).toMatchObject({
        rateCacheMs: 10_000,
        rateMaxAgeMs: 10_000,
        rateMaxSpreadPercent: '2.5',
        rateTimeoutMs: 800,
      });
      expect(message({ RATE_CACHE_SECONDS: '60', RATE_MAX_AGE_SECONDS: '30' })).toContain(
        'RATE_MAX_AGE_SECONDS: must be at least RATE_CACHE_SECONDS (60)',
      );
      expect(message({ RATE_MAX_AGE_SECONDS: '20' })).toContain(
        'RATE_MAX_AGE_SECONDS: must be at least RATE_CACHE_SECONDS (30)',
      );
      expect(message({ RATE_CACHE_SECONDS: '0' })).toContain('RATE_CACHE_SECONDS');
      expect(message({ RATE_CACHE_SECONDS: 'soon' })).toContain('RATE_CACHE_SECONDS: must be a number');
      expect(message({ RATE_TIMEOUT_MS: '50' })).toContain('RATE_TIMEOUT_MS');
      for (const bad of ['0', '-1', '101', 'x', '1.1234567']) {
        expect(message({ RATE_MAX_SPREAD_PERCENT: bad }), bad).toContain(
          'RATE_MAX_SPREAD_PERCENT: must be a percentage above 0 and at most 100',
        );
      }
    });

    it('takes base URLs for mirrors and tests, without a trailing slash, and the CoinGecko key', () => {
      expect(
        parseConfig({
          RATE_KRAKEN_URL: 'http://127.0.0.1:9001/',
          RATE_COINBASE_URL: 'https://cb.mirror.example',
          RATE_COINGECKO_URL: 'http://127.0.0.1:9003',
          RATE_COINGECKO_API_KEY: 'CG-demo',
        }),
      ).toMatchObject({
        rateKrakenUrl: 'http://127.0.0.1:9001',
        rateCoinbaseUrl: 'https://cb.mirror.example',
        rateCoingeckoUrl: 'http://127.0.0.1:9003',
        rateCoingeckoApiKey: 'CG-demo',
      });
      expect(message({ RATE_KRAKEN_URL: 'api.kraken.com' })).toContain(
        'RATE_KRAKEN_URL: must be an http:// or https:// URL',
      );
    });
  });
});

describe('dashboard sessions', () => {
  it('default to 30 minutes idle and 12 hours at most', () => {
    expect(parseConfig({})).toMatchObject({
      dashboardSessionIdleMs: 30 * 60_000,
      dashboardSessionMaxMs: 12 * 3_600_000,
    });
    expect(parseConfig({ DASHBOARD_SESSION_IDLE_MINUTES: '15', DASHBOARD_SESSION_MAX_HOURS: '1' })).toMatchObject({
      dashboardSessionIdleMs: 15 * 60_000,
      dashboardSessionMaxMs: 3_600_000,
    });
    // Seconds, for tests that watch a session end.
    expect(parseConfig({ DASHBOARD_SESSION_IDLE_MINUTES: '0.25' })).toMatchObject({ dashboardSessionIdleMs: 15_000 });
  });

  it('refuse an idle timeout longer than the lifetime or under 6 s, and values that are not numbers, naming the variable', () => {
    expect(() => parseConfig({ DASHBOARD_SESSION_IDLE_MINUTES: '90', DASHBOARD_SESSION_MAX_HOURS: '1' })).toThrow(
      /DASHBOARD_SESSION_IDLE_MINUTES: must be at most DASHBOARD_SESSION_MAX_HOURS in minutes \(60\)/,
    );
    expect(() => parseConfig({ DASHBOARD_SESSION_MAX_HOURS: 'soon' })).toThrow(
      /DASHBOARD_SESSION_MAX_HOURS: must be a number/,
    );
    expect(() => parseConfig({ DASHBOARD_SESSION_IDLE_MINUTES: '0' })).toThrow(/DASHBOARD_SESSION_IDLE_MINUTES/);
    expect(() => parseConfig({ DASHBOARD_SESSION_IDLE_MINUTES: '0.05' })).toThrow(/DASHBOARD_SESSION_IDLE_MINUTES/);
    expect(() => parseConfig({ DASHBOARD_SESSION_MAX_HOURS: '1.5' })).toThrow(/DASHBOARD_SESSION_MAX_HOURS/);
  });
});

describe('trusted proxies', () => {
  it('default to none, and take addresses and CIDR ranges', () => {
    expect(parseConfig({}).trustedProxies).toEqual([]);
    expect(parseConfig({ TRUSTED_PROXIES: '10.0.0.5, 192.168.0.0/16 fd00::/8' }).trustedProxies).toEqual([
      '10.0.0.5',
      '192.168.0.0/16',
      'fd00::/8',
    ]);
  });

  it('refuse host names and bad ranges, naming the variable', () => {
    for (const value of ['proxy.internal', '10.0.0.0/33', '10.0.0.5/8/1', 'fd00::/129', '*'])
      expect(() => parseConfig({ TRUSTED_PROXIES: value }), value).toThrow(/TRUSTED_PROXIES: must be IP addresses/);
  });
});
