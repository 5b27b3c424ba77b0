import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../money';
import { aboveApprovalThreshold, REFUND_APPROVAL_FORM } from './approval-rule';

const d = (text: string) => parseDecimal(text)!;

describe('the approval threshold', () => {
  it('compares the refund at the rate with the threshold exactly, strictly above', () => {
    // 1.25 LTC at 80 USD = 100 USD: not above 100; one base unit more is.
    expect(aboveApprovalThreshold(125_000_000n, 8, d('80'), d('100'))).toBe(false);
    expect(aboveApprovalThreshold(125_000_001n, 8, d('80'), d('100'))).toBe(true);
    expect(aboveApprovalThreshold(1n, 18, d('0.000000000000000001'), d('0'))).toBe(true);
    expect(aboveApprovalThreshold(10n ** 80n, 8, d('60000.5'), d('99999999999999999999.99'))).toBe(true);
  });
  it('asks when the refund cannot be valued, and never without a threshold', () => {
    expect(aboveApprovalThreshold(1n, 8, null, d('100'))).toBe(true);
    expect(aboveApprovalThreshold(10n ** 20n, 8, d('80'), null)).toBe(false);
  });
});

describe('the threshold form', () => {
  const parse = (above: string, currency = 'usd') => REFUND_APPROVAL_FORM.safeParse({ above, currency });
  it('takes an amount (canonical) or nothing, in a currency the gateway prices', () => {
    expect(parse('500.50').data).toEqual({ above: '500.5', currency: 'USD' });
    expect(parse('  ').data).toEqual({ above: null, currency: 'USD' });
    expect(parse('1', 'eur').data).toEqual({ above: '1', currency: 'EUR' });
  });
  it('refuses what is not an amount, 80 digits, and an unknown currency', () => {
    for (const above of ['1e5', '-1', '0x10', '1'.repeat(80), '1.123456789', '5\u0000'])
      expect(parse(above).success).toBe(false);
    expect(parse('1', 'XXX').success).toBe(false);
  });
});
