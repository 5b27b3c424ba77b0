import { describe, expect, it } from 'vitest';
import {
  chunkAddress,
  countdownPhase,
  EXPIRING_SOON_MS,
  formatAmount,
  formatCountdown,
  formatDuration,
  formatPrice,
  interpolate,
  plural,
} from './format';

describe('formatCountdown', () => {
  it('m:ss under an hour, h:mm:ss from an hour, rounding up partial seconds, never negative', () => {
    expect(formatCountdown(30 * 60_000)).toBe('30:00');
    expect(formatCountdown(65_000)).toBe('1:05');
    expect(formatCountdown(59_001)).toBe('1:00');
    expect(formatCountdown(1)).toBe('0:01');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-5000)).toBe('0:00');
    expect(formatCountdown(2 * 3600_000 + 5 * 60_000 + 9_000)).toBe('2:05:09');
    expect(formatCountdown(12 * 3600_000)).toBe('12:00:00');
  });
});

describe('countdownPhase', () => {
  it('running, then expiring soon in the last minutes, then over', () => {
    expect(countdownPhase(EXPIRING_SOON_MS + 1)).toBe('running');
    expect(countdownPhase(EXPIRING_SOON_MS)).toBe('soon');
    expect(countdownPhase(1)).toBe('soon');
    expect(countdownPhase(0)).toBe('over');
    expect(countdownPhase(-1)).toBe('over');
  });
});

describe('chunkAddress', () => {
  it('groups of four, the last one shorter; joined again it is the address', () => {
    const address = 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh';
    const chunks = chunkAddress(address);
    expect(chunks.slice(0, 3)).toEqual(['ltc1', 'qjmx', 'nz78']);
    expect(chunks.every((c) => c.length <= 4)).toBe(true);
    expect(chunks.join('')).toBe(address);
  });

  it('a CashAddr prefix stays one group', () => {
    expect(chunkAddress('bitcoincash:qqyx49mu')).toEqual(['bitcoincash:', 'qqyx', '49mu']);
  });
});

describe('interpolate', () => {
  it('fills placeholders and leaves unknown ones', () => {
    expect(interpolate('{k} of {n} confirmations', { k: 1, n: 2 })).toBe('1 of 2 confirmations');
    expect(interpolate('Pay {merchant} {x}', { merchant: 'Shop' })).toBe('Pay Shop {x}');
  });
});

describe('formatPrice', () => {
  it('fiat in the currency style of the language, ASCII digits in Arabic too', () => {
    expect(formatPrice('73.5', 'USD', 'en', true)).toBe('$73.50');
    expect(formatPrice('73.5', 'USD', 'es', true)).toMatch(/^73,50\s*US\$$/);
    expect(formatPrice('1234.5', 'EUR', 'en', true)).toBe('€1,234.50');
    expect(formatPrice('73.5', 'USD', 'ar', true)).toMatch(/73\.50/);
    // A locale whose default digits are Arabic-Indic still gets ASCII ones.
    expect(formatPrice('73.5', 'USD', 'ar-EG', true)).toMatch(/73\.50/);
    expect(formatPrice('1000', 'GBP', 'en', true)).toBe('£1,000.00');
  });

  it('exact: a long amount keeps every digit (no float), and digits beyond the usual ones stay', () => {
    expect(formatPrice('12345678901234567.89', 'USD', 'en', true)).toBe('$12,345,678,901,234,567.89');
    expect(formatPrice('0.125', 'USD', 'en', true)).toBe('$0.125');
    expect(formatPrice('100.5', 'JPY', 'en', true)).toBe('¥100.5');
  });

  it('a coin, or anything that is not a plain decimal, as "amount CODE"', () => {
    expect(formatPrice('0.001', 'BTC', 'en', false)).toBe('0.001 BTC');
    expect(formatPrice('73.5', 'USDT', 'ar', false)).toBe('73.5 USDT');
    expect(formatPrice('1e3', 'USD', 'en', true)).toBe('1e3 USD');
  });
});

describe('formatAmount', () => {
  it('groups digits and writes the decimal sign of the language, every digit kept, ASCII digits', () => {
    expect(formatAmount('12345.125', 'en')).toBe('12,345.125');
    expect(formatAmount('12345.125', 'de')).toBe('12.345,125');
    expect(formatAmount('12345.125', 'fr')).toBe('12\u202f345,125');
    expect(formatAmount('12345.125', 'ar')).toMatch(/^12.345.125$/);
    expect(formatAmount('0.000000000000000001', 'en')).toBe('0.000000000000000001');
    expect(formatAmount('123456789012345678.5', 'en')).toBe('123,456,789,012,345,678.5');
    expect(formatAmount('0.25', 'es')).toBe('0,25');
  });

  it('leaves anything that is not a plain decimal as it is', () => {
    for (const odd of ['', '1e5', '-1', '1.', 'abc']) expect(formatAmount(odd, 'en')).toBe(odd);
  });
});

describe('plural and formatDuration', () => {
  const confirmations = { one: '{n} confirmation', few: '{n} few', many: '{n} many', other: '{n} confirmations' };
  it('the plural form by Intl rules, `other` for a language without the category', () => {
    expect(plural('en', confirmations, 1)).toBe('{n} confirmation');
    expect(plural('en', confirmations, 2)).toBe('{n} confirmations');
    expect(plural('ru', confirmations, 3)).toBe('{n} few');
    expect(plural('ru', confirmations, 5)).toBe('{n} many');
    expect(plural('ja', confirmations, 1)).toBe('{n} confirmations');
    expect(plural('ar', { other: 'x' }, 2)).toBe('x');
  });

  it('seconds, minutes or hours, rounded up, in the words of the language', () => {
    expect(formatDuration(24, 'en')).toBe('24 seconds');
    expect(formatDuration(0.2, 'en')).toBe('1 second');
    expect(formatDuration(150, 'en')).toBe('3 minutes');
    expect(formatDuration(3600, 'de')).toBe('60 Minuten');
    expect(formatDuration(7200, 'en')).toBe('2 hours');
  });
});
