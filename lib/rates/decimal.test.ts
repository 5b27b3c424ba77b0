import { describe, expect, it } from 'vitest';
import { parseDecimal, type Decimal } from '../money';
import { compare, decimalFromNumberText, divide, median, roundDecimal, roundHalfUp, withinPercent } from './decimal';

const d = (text: string): Decimal => parseDecimal(text)!;

describe('exact price arithmetic', () => {
  it('divides exactly and rounds half up to 18 fractional digits', () => {
    expect(roundHalfUp(divide(d('1'), d('3')))).toEqual(d('0.333333333333333333'));
    expect(roundHalfUp(divide(d('2'), d('3')))).toEqual(d('0.666666666666666667'));
    expect(roundHalfUp(divide(d('60000'), d('1.08')))).toEqual(d('55555.555555555555555556'));
    expect(roundHalfUp(divide(d('1.08'), d('60000')))).toEqual(d('0.000018'));
    // Exactly half at the 19th digit goes up; just below goes down.
    expect(roundHalfUp({ num: 5n, den: 10n ** 19n })).toEqual(d('0.000000000000000001'));
    expect(roundHalfUp({ num: 4999n, den: 10n ** 22n })).toEqual(d('0'));
    expect(roundHalfUp(divide(d('1'), d('3')), 2)).toEqual(d('0.33'));
    expect(() => divide(d('1'), d('0'))).toThrow(RangeError);
  });

  it('rounds a decimal only beyond the scale', () => {
    expect(roundDecimal(d('1.0000000000000000005'))).toEqual(d('1.000000000000000001'));
    expect(roundDecimal(d('1.0000000000000000004'))).toEqual(d('1'));
    expect(roundDecimal(d('73.5'))).toEqual(d('73.5'));
  });

  it('compares across scales', () => {
    expect(compare(d('1.5'), d('1.50'))).toBe(0);
    expect(compare(d('1.5'), d('1.49999999999999999999'))).toBe(1);
    expect(compare(d('2'), d('10'))).toBe(-1);
  });

  it('takes the median, the mean of the middle two for an even count', () => {
    expect(median([d('3'), d('1'), d('2')])).toEqual(d('2'));
    expect(median([d('60300'), d('60000.01')])).toEqual(d('60150.005'));
    expect(median([d('4'), d('1'), d('3'), d('2')])).toEqual(d('2.5'));
    expect(median([d('0.000000000000000001'), d('0.000000000000000002')])).toEqual(d('0.0000000000000000015'));
    expect(median([d('7')])).toEqual(d('7'));
    expect(() => median([])).toThrow(RangeError);
  });

  it('tells whether a price is within a percentage of a reference, at the boundary too', () => {
    expect(withinPercent(d('103'), d('100'), d('3'))).toBe(true);
    expect(withinPercent(d('97'), d('100'), d('3'))).toBe(true);
    expect(withinPercent(d('103.0000001'), d('100'), d('3'))).toBe(false);
    expect(withinPercent(d('96.9999999'), d('100'), d('3'))).toBe(false);
    expect(withinPercent(d('60000'), d('60150'), d('0.25'))).toBe(true); // 0.2494 %
    expect(withinPercent(d('60000'), d('60151'), d('0.25'))).toBe(false); // 0.2510 %
  });

  it("reads a provider's number text exactly, exponent forms included", () => {
    expect(decimalFromNumberText('67187.3358936566')).toEqual(d('67187.3358936566'));
    expect(decimalFromNumberText('0.99980000000000000001')).toEqual(d('0.99980000000000000001'));
    expect(decimalFromNumberText('1.5e-7')).toEqual(d('0.00000015'));
    expect(decimalFromNumberText('1.5E+3')).toEqual(d('1500'));
    expect(decimalFromNumberText('2e0')).toEqual(d('2'));
    expect(decimalFromNumberText('12.50e1')).toEqual(d('125'));
    for (const bad of ['', '-1', '+1', 'abc', '1e', '.5', '1.', '1e99999', 'NaN', '0x10'])
      expect(decimalFromNumberText(bad), bad).toBeUndefined();
  });
});
