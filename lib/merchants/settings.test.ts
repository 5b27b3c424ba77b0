import { describe, expect, it } from 'vitest';
import { LATE_PAYMENT_RULE } from './settings';

describe('LATE_PAYMENT_RULE (the settings form of the late-payment rule)', () => {
  const parse = (minutes: string, rateMovePercent: string) => LATE_PAYMENT_RULE.safeParse({ minutes, rateMovePercent });

  it('takes whole minutes 0 to 1440 and a percent below 100, answered canonical', () => {
    expect(parse('0', '0').data).toEqual({ minutes: 0, rateMovePercent: '0' });
    expect(parse(' 30 ', '2.50').data).toEqual({ minutes: 30, rateMovePercent: '2.5' });
    expect(parse('1440', '99.999999').data).toEqual({ minutes: 1440, rateMovePercent: '99.999999' });
  });

  it('refuses the rest with a message, never a float or an exception', () => {
    for (const [minutes, percent] of [
      ['1441', '1'],
      ['-1', '1'],
      ['1.5', '1'],
      ['', '1'],
      ['9'.repeat(80), '1'],
      ['30\u0000', '1'],
      ['30', '100'],
      ['30', '1e1'],
      ['30', '0.0000001'],
      ['30', '9'.repeat(80)],
      ['30', '2\u0000'],
      ['30', '\uD800'],
    ]) {
      const result = parse(minutes!, percent!);
      expect(result.success, `${JSON.stringify(minutes)} ${JSON.stringify(percent)}`).toBe(false);
      expect(result.error!.issues[0]!.message).toMatch(/Minutes|price move/);
    }
  });
});
