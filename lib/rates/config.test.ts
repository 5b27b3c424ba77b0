/** lib/rates and lib/config agree on the sources and currencies, and the process-wide service is built from the environment. */
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig, RATE_SOURCE_NAMES } from '../config/schema';
import { forgetProcessSlot, peekProcessSlot, setProcessSlot } from '../process';
import { priceableCurrencies, rateService, type RateService } from './index';
import { SOURCE_BUILDERS, sourcesFor } from './from-config';

describe('the rate settings', () => {
  it('build every source lib/config accepts, under its own name', () => {
    expect(Object.keys(SOURCE_BUILDERS).sort()).toEqual([...RATE_SOURCE_NAMES].sort());
    const cfg = parseConfig({ RATE_SOURCES_LIVE: RATE_SOURCE_NAMES.join(','), RATE_SOURCES_TEST: 'coingecko,fixed' });
    expect(sourcesFor('live', cfg).map((s) => s.name)).toEqual([...RATE_SOURCE_NAMES]);
    expect(sourcesFor('test', cfg).map((s) => s.name)).toEqual(['coingecko', 'fixed']);
    expect(sourcesFor('test', parseConfig({})).map((s) => s.name)).toEqual(['fixed']);
    expect(sourcesFor('live', parseConfig({})).map((s) => s.name)).toEqual(['kraken', 'coinbase', 'coingecko']);
  });

  it('let RATE_FIXED set exactly the currencies the service prices, but the USD pivot', () => {
    for (const code of priceableCurrencies()) {
      if (code === 'USD') expect(() => parseConfig({ RATE_FIXED: 'USD=1' })).toThrow(/RATE_FIXED/);
      else expect(parseConfig({ RATE_FIXED: `${code}=2` }).rateFixed).toEqual({ [code]: '2' });
    }
    expect(() => parseConfig({ RATE_FIXED: 'JPY=0.0067' })).toThrow(/RATE_FIXED/);
  });
});

describe('rateService', () => {
  const saved = { RATE_FIXED: process.env.RATE_FIXED, RATE_SOURCES_TEST: process.env.RATE_SOURCES_TEST };
  const savedConfig = peekProcessSlot('config');
  const savedRates = peekProcessSlot('rates');

  afterEach(() => {
    for (const service of (peekProcessSlot<Map<string, RateService>>('rates') ?? new Map()).values()) service.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    // As the other test files of this process left them.
    for (const [slot, value] of [
      ['config', savedConfig],
      ['rates', savedRates],
    ] as const) {
      if (value === undefined) forgetProcessSlot(slot);
      else setProcessSlot(slot, value);
    }
  });

  it('is one service per mode and process, built from the environment: offline for test keys', async () => {
    forgetProcessSlot('config');
    forgetProcessSlot('rates');
    process.env.RATE_SOURCES_TEST = 'fixed';
    process.env.RATE_FIXED = 'BTC=65000';
    const test = rateService('test');
    expect(rateService('test')).toBe(test);
    expect(rateService('live')).not.toBe(test);
    expect(await test.quote('BTC', 'USD')).toMatchObject({ rate: '65000', sources: ['fixed'] });
    expect(await test.quote('USDT', 'EUR')).toMatchObject({ rate: '0.925925925925925926', sources: ['fixed'] });
    expect(test.stats()).toEqual({ hits: 1, misses: 1 });
  });
});
