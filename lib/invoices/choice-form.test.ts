import { describe, expect, it } from 'vitest';
import { COIN_CHOICE_FORM, coinChoiceRefusal } from './choice-form';

describe("the invoice page's coin choice as posted", () => {
  const parse = (coin: unknown, payerEmail: unknown) => COIN_CHOICE_FORM.safeParse({ coin, payerEmail });

  it('takes a coin of the list with no address, an empty field, or a valid one (trimmed)', () => {
    const coin = { currency: 'LTC', network: 'litecoin' };
    expect(parse('LTC@litecoin', null).data).toEqual({ coin, payerEmail: undefined });
    expect(parse('LTC@litecoin', '').data).toEqual({ coin, payerEmail: undefined });
    expect(parse('LTC@litecoin', '   ').data).toEqual({ coin, payerEmail: undefined });
    expect(parse('LTC@litecoin', ' ana@example.com ').data).toEqual({ coin, payerEmail: 'ana@example.com' });
  });

  it("refuses a bad address as the payer's to correct, never an exception", () => {
    for (const email of [
      'ana',
      'ana@',
      'a\u0000@example.com',
      '\uD800@example.com',
      `${'a'.repeat(250)}@b.co`,
      7,
      {},
    ]) {
      const result = parse('LTC@litecoin', email);
      expect(result.success, JSON.stringify(email)).toBe(false);
      expect(coinChoiceRefusal(result.error!)).toBe('email');
    }
  });

  it('refuses a coin not shaped as the list posts it as no choice, whatever the address', () => {
    for (const coin of [
      null,
      '',
      'LTC',
      'LTC@Litecoin',
      'L TC@litecoin',
      `${'A'.repeat(17)}@tron`,
      'LTC@litecoin\u0000',
    ]) {
      const result = parse(coin, 'not an address');
      expect(result.success, JSON.stringify(coin)).toBe(false);
      expect(coinChoiceRefusal(result.error!)).toBe('invalid');
    }
  });
});
