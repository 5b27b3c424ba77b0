import { describe, expect, it } from 'vitest';
import {
  coinUnitsAtMost,
  coinUnitsFor,
  formatDecimal,
  formatPercent,
  formatUnits,
  MAX_AMOUNT_DIGITS,
  parseDecimal,
  parsePercent,
  parseUnits,
  paymentThreshold,
  percentOf,
  valueOfUnits,
  type Decimal,
} from './index';

describe('parseUnits', () => {
  it('parses decimals into base units exactly', () => {
    expect(parseUnits('1', 8)).toEqual({ ok: true, value: 100_000_000n });
    expect(parseUnits('0.00000001', 8)).toEqual({ ok: true, value: 1n });
    expect(parseUnits('1.50', 2)).toEqual({ ok: true, value: 150n });
    // 18 decimals beyond float precision survive intact.
    expect(parseUnits('123456789.123456789123456789', 18)).toEqual({ ok: true, value: 123456789123456789123456789n });
  });

  it('rejects what is not a plain decimal', () => {
    for (const bad of ['', '-1', '+1', '1e3', 'abc', '01.5', '1.', '.5', ' 1', '1,5', '0x10']) {
      expect(parseUnits(bad, 8), bad).toEqual({ ok: false, error: 'format' });
    }
  });

  it('rejects more fractional digits than the currency has, but not trailing zeros', () => {
    expect(parseUnits('0.000000001', 8)).toEqual({ ok: false, error: 'precision' });
    expect(parseUnits('0.100000000', 8)).toEqual({ ok: true, value: 10_000_000n });
  });

  it('refuses more base units than the money columns leave room for (NUMERIC(78,0), one digit kept for sums)', () => {
    expect(MAX_AMOUNT_DIGITS).toBe(77);
    // 8 decimals: 69 digits before the point make 77 digits of base units, 70 make 78.
    expect(parseUnits('9'.repeat(69) + '.99999999', 8)).toEqual({ ok: true, value: 10n ** 77n - 1n });
    expect(parseUnits('1' + '0'.repeat(69), 8)).toEqual({ ok: false, error: 'range' });
    expect(parseUnits('1'.repeat(80), 0)).toEqual({ ok: false, error: 'range' });
    expect(parseUnits('1'.repeat(60), 18)).toEqual({ ok: false, error: 'range' });
    expect(parseUnits('1'.repeat(59), 18)).toEqual({ ok: true, value: BigInt('1'.repeat(59) + '0'.repeat(18)) });
    expect(parseUnits('0.' + '0'.repeat(100), 18)).toEqual({ ok: true, value: 0n });
    // A whole part of 0 adds no digit: with 77 decimals, none may come before the point but "0".
    expect(parseUnits('0.5', 77)).toEqual({ ok: true, value: 5n * 10n ** 76n });
    expect(parseUnits('1', 77)).toEqual({ ok: false, error: 'range' });
  });
});

describe('formatUnits', () => {
  it('answers the canonical form', () => {
    expect(formatUnits(150_000_000n, 8)).toBe('1.5');
    expect(formatUnits(1n, 8)).toBe('0.00000001');
    expect(formatUnits(0n, 6)).toBe('0');
    expect(formatUnits(10n ** 18n, 18)).toBe('1');
    expect(formatUnits(-5n, 1)).toBe('-0.5');
  });
});

describe('paymentThreshold', () => {
  it('is the amount without tolerance', () => {
    expect(paymentThreshold(1000n, parsePercent('0')!)).toBe(1000n);
  });
  it('rounds up to a whole base unit', () => {
    // 999 * 0.99 = 989.01 -> 990
    expect(paymentThreshold(999n, parsePercent('1')!)).toBe(990n);
    expect(paymentThreshold(1000n, parsePercent('0.5')!)).toBe(995n);
    expect(paymentThreshold(3n, parsePercent('33.333333')!)).toBe(3n);
  });
});

describe('parsePercent and percentOf', () => {
  it('keeps fractions exactly and rounds fees down', () => {
    expect(parsePercent('1.25')).toEqual({ value: 125n, scale: 2 });
    expect(parsePercent('1.2345678')).toBeUndefined();
    expect(percentOf(1000n, parsePercent('1.25')!)).toBe(12n);
  });

  it('drops trailing fractional zeros only, so that equal percentages have one form', () => {
    expect(parsePercent('10')).toEqual({ value: 10n, scale: 0 });
    expect(parsePercent('1.50')).toEqual({ value: 15n, scale: 1 });
    expect(parsePercent('1.500')).toEqual({ value: 15n, scale: 1 });
    expect(parsePercent('1.05')).toEqual({ value: 105n, scale: 2 });
    expect(parsePercent('0.5000000')).toEqual({ value: 5n, scale: 1 });
  });

  it('refuses what is not a plain decimal', () => {
    for (const bad of ['', '-1', '1e2', 'abc', '01', '00.5', '.5', '1.']) {
      expect(parsePercent(bad), bad).toBeUndefined();
    }
  });

  it('formats a percentage back to its canonical form', () => {
    for (const text of ['0', '0.5', '1.25', '10', '99.999999']) {
      expect(formatPercent(parsePercent(text)!)).toBe(text);
    }
    expect(formatPercent(parsePercent('1.50')!)).toBe('1.5');
  });
});

/** A decimal the test knows is valid. */
const d = (text: string): Decimal => {
  const parsed = parseDecimal(text);
  if (!parsed) throw new Error(`${text} is not a decimal`);
  return parsed;
};

describe('parseDecimal and formatDecimal', () => {
  it('keeps every digit exactly, in one form per value', () => {
    expect(parseDecimal('73.50')).toEqual({ value: 735n, scale: 1 });
    expect(parseDecimal('0.000012')).toEqual({ value: 12n, scale: 6 });
    expect(parseDecimal('60000')).toEqual({ value: 60000n, scale: 0 });
    expect(parseDecimal('0')).toEqual({ value: 0n, scale: 0 });
    expect(parseDecimal('1.000')).toEqual({ value: 1n, scale: 0 });
    // Beyond a double's 15-17 significant digits.
    expect(parseDecimal('123456789.123456789123456789')).toEqual({ value: 123456789123456789123456789n, scale: 18 });
  });

  it('refuses what is not a plain non-negative decimal', () => {
    for (const bad of [
      '',
      '-1',
      '+1',
      '1e3',
      '1E-3',
      'abc',
      '01',
      '00.5',
      '.5',
      '1.',
      ' 1',
      '1 ',
      '1,5',
      '0x10',
      'NaN',
      'Infinity',
    ]) {
      expect(parseDecimal(bad), bad).toBeUndefined();
    }
  });

  it('formats the canonical string', () => {
    expect(formatDecimal({ value: 7350n, scale: 2 })).toBe('73.5');
    expect(formatDecimal({ value: 12n, scale: 6 })).toBe('0.000012');
    expect(formatDecimal({ value: 60000n, scale: 0 })).toBe('60000');
    expect(formatDecimal({ value: 0n, scale: 18 })).toBe('0');
    for (const text of ['0', '1', '0.5', '73.5', '0.000000000000000001', '65000.123456789012345678'])
      expect(formatDecimal(d(text))).toBe(text);
  });
});

describe('coinUnitsFor', () => {
  it('asks the exact number of base units when the division is exact', () => {
    // 73.50 USD at 60000 USD/BTC: 73.5e8 / 60000 = 122500 sat, not 122501.
    expect(coinUnitsFor(d('73.50'), d('60000'), 8)).toBe(122_500n);
    // ETH, 18 decimals, at 3000: 0.0245 ETH.
    expect(coinUnitsFor(d('73.50'), d('3000'), 18)).toBe(24_500_000_000_000_000n);
    // USDT, 6 decimals, at 1: 73.5 USDT.
    expect(coinUnitsFor(d('73.50'), d('1'), 6)).toBe(73_500_000n);
    // The same USDT on BNB Smart Chain, 18 decimals.
    expect(coinUnitsFor(d('73.50'), d('1'), 18)).toBe(73_500_000_000_000_000_000n);
  });

  it('rounds up, once, at the end', () => {
    // 1 USD at 3 USD/coin: 33333333.33... sat -> 33333334 (never 33333333).
    expect(coinUnitsFor(d('1'), d('3'), 8)).toBe(33_333_334n);
    // 10 at 3 with no decimals: 3.33 -> 4.
    expect(coinUnitsFor(d('10'), d('3'), 0)).toBe(4n);
    // One base unit above an exact multiple rounds up to the next; just below stays.
    expect(coinUnitsFor(d('0.00000001'), d('1'), 8)).toBe(1n);
    expect(coinUnitsFor(d('0.000000011'), d('1'), 8)).toBe(2n);
    expect(coinUnitsFor(d('0.000000019'), d('1'), 8)).toBe(2n);
    expect(coinUnitsFor(d('0.00000002'), d('1'), 8)).toBe(2n);
    // A rate with 18 fractional digits, as the rate service answers cross rates:
    // 100 × 10^6 / 1.080000000000000001 = 92592592.59... -> 92592593.
    expect(coinUnitsFor(d('100'), d('1.080000000000000001'), 6)).toBe(92_592_593n);
  });

  it('adds the insurance percentage before the one rounding', () => {
    // 73.5 × 1.015 = 74.6025 USD at 60000: 124337.5 sat -> 124338.
    expect(coinUnitsFor(d('73.50'), d('60000'), 8, d('1.5'))).toBe(124_338n);
    // Rounding twice (73.5 sat-rounded, then the insurance) would have asked 124337 or 124339.
    expect(coinUnitsFor(d('73.50'), d('1'), 6, d('1.5'))).toBe(74_602_500n);
    expect(coinUnitsFor(d('73.50'), d('60000'), 8, d('0'))).toBe(122_500n);
  });

  it('refuses a rate of zero and impossible arguments', () => {
    expect(() => coinUnitsFor(d('1'), d('0'), 8)).toThrow(RangeError);
    expect(() => coinUnitsFor(d('1'), d('1'), -1)).toThrow(RangeError);
    expect(() => coinUnitsFor(d('1'), d('1'), 1.5)).toThrow(RangeError);
    expect(() => coinUnitsFor({ value: -1n, scale: 0 }, d('1'), 8)).toThrow(RangeError);
  });
});

describe('valueOfUnits', () => {
  it('values base units at a rate, rounded down to the scale', () => {
    expect(valueOfUnits(122_500n, 8, d('60000'), 2)).toBe('73.5');
    expect(valueOfUnits(24_500_000_000_000_000n, 18, d('3000'), 2)).toBe('73.5');
    expect(valueOfUnits(73_500_000n, 6, d('0.998'), 2)).toBe('73.35'); // 73.353
    expect(valueOfUnits(73_500_000n, 6, d('0.998'), 3)).toBe('73.353');
    // 33333334 sat at 3 = 1.00000002: down to cents is 1, never 1.01.
    expect(valueOfUnits(33_333_334n, 8, d('3'), 2)).toBe('1');
    expect(valueOfUnits(33_333_333n, 8, d('3'), 2)).toBe('0.99');
    expect(valueOfUnits(1n, 8, d('60000'), 2)).toBe('0');
    expect(valueOfUnits(1n, 8, d('60000'), 4)).toBe('0.0006');
    expect(valueOfUnits(0n, 8, d('60000'), 2)).toBe('0');
  });

  it('refuses negative units', () => {
    expect(() => valueOfUnits(-1n, 8, d('1'), 2)).toThrow(RangeError);
  });
});

describe('coinUnitsAtMost', () => {
  const d = (text: string) => parseDecimal(text)!;
  it('rounds down where coinUnitsFor rounds up', () => {
    // 10 USD at 3 USD per coin of 2 decimals: 333.33... units.
    expect(coinUnitsAtMost(d('10'), d('3'), 2)).toBe(333n);
    expect(coinUnitsFor(d('10'), d('3'), 2)).toBe(334n);
  });
  it('is exact when the price divides', () => {
    expect(coinUnitsAtMost(d('73.50'), d('60000'), 8)).toBe(122_500n);
  });
  it('refuses a rate of 0', () => {
    expect(() => coinUnitsAtMost(d('1'), d('0'), 8)).toThrow(RangeError);
  });
});
