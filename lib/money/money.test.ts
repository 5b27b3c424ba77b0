import { describe, expect, it } from 'vitest';
import { formatPercent, formatUnits, MAX_AMOUNT_DIGITS, parsePercent, parseUnits, paymentThreshold, percentOf } from './index';

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
