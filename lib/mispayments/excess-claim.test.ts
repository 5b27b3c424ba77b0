import { describe, expect, it } from 'vitest';
import { EXCESS_CLAIM_FORM } from './excess-claim';

describe("the settings form of the merchant's threshold for excess claims", () => {
  const parse = (percent: string) => EXCESS_CLAIM_FORM.safeParse({ percent });

  it('takes empty (the minimum alone) or a percent from the 1 % minimum to 100, answered canonical', () => {
    expect(parse('').data).toEqual({ percent: null });
    expect(parse('  ').data).toEqual({ percent: null });
    expect(parse('1').data).toEqual({ percent: '1' });
    expect(parse(' 5.50 ').data).toEqual({ percent: '5.5' });
    expect(parse('100').data).toEqual({ percent: '100' });
    expect(parse('1.000001').data).toEqual({ percent: '1.000001' });
  });

  it('refuses below the minimum, above 100 and anything else with its message, never a float or an exception', () => {
    for (const text of [
      '0.999999',
      '0',
      '100.000001',
      '101',
      '1e1',
      '-5',
      '5%',
      '9'.repeat(80),
      '5\u0000',
      '\uD800',
      '0.0000001',
    ]) {
      const result = parse(text);
      expect(result.success, JSON.stringify(text)).toBe(false);
      expect(result.error!.issues[0]!.message).toMatch(/from 1 to 100/);
    }
  });
});
