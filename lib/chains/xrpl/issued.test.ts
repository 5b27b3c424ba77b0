import { describe, expect, it } from 'vitest';
import { findNetwork } from '@/lib/catalog';
import { currencyCode, issuedTokens, issuedUnits, tokenKey } from './issued';

const RLUSD_CODE = '524C555344000000000000000000000000000000';
const USD_CODE = '0000000000000000000000005553440000000000';

describe('XRP Ledger issued currencies', () => {
  it('writes both forms of a currency code as one: 40 upper-case hex digits', () => {
    expect(currencyCode('USD')).toBe(USD_CODE);
    expect(currencyCode(USD_CODE.toLowerCase())).toBe(USD_CODE);
    expect(currencyCode('524c555344000000000000000000000000000000')).toBe(RLUSD_CODE);
    expect(currencyCode('XRP')).toBeNull();
    for (const bad of ['RLUSD', 'US', 'U D', '524C5553440000000000000000000000000000', ''])
      expect(currencyCode(bad), bad).toBeNull();
  });

  it('reads a token value in base units, rounding down: never more than arrived', () => {
    expect(issuedUnits('25.5', 6)).toBe(25_500_000n);
    expect(issuedUnits('1', 6)).toBe(1_000_000n);
    expect(issuedUnits('0.1234569', 6)).toBe(123_456n);
    expect(issuedUnits('9.999999999999999', 6)).toBe(9_999_999n);
    expect(issuedUnits('1.5e3', 6)).toBe(1_500_000_000n);
    expect(issuedUnits('1234567890123456e-15', 6)).toBe(1_234_567n);
    expect(issuedUnits('1E+2', 6)).toBe(100_000_000n);
    expect(issuedUnits('7.', 6)).toBe(7_000_000n);
    // Nothing to credit: below one base unit, zero, negative, not a value, beyond an amount column.
    for (const none of ['0.0000009', '1e-7', '0', '-5', '1,5', '', '9999999999999999e80'])
      expect(issuedUnits(none, 6), none).toBeNull();
  });

  it('names each catalog token by its normalised code and issuer', () => {
    const tokens = issuedTokens(findNetwork('ripple')!);
    expect([...tokens]).toEqual([
      [tokenKey(RLUSD_CODE, 'rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De'), { ticker: 'RLUSD', decimals: 6 }],
    ]);
  });
});
