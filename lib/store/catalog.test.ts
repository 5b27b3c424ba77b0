import { describe, expect, it } from 'vitest';
import { cartLines, cartTotalCents, formatUsd, parseCart, usdAmount } from './catalog';

describe('demo store cart', () => {
  it('sums the cart and ignores unknown products', () => {
    const cart = { mug: 2, stickers: 1, nothing: 5 };
    expect(cartLines(cart).map((l) => l.product.sku)).toEqual(['mug', 'stickers']);
    expect(cartTotalCents(cart)).toBe(2 * 1200 + 450);
  });
});

describe('demo store dollars', () => {
  it("writes cents as the API's decimal amount, two decimals, no float", () => {
    expect([0, 5, 99, 450, 1200, 123456789, Number.MAX_SAFE_INTEGER].map(usdAmount)).toEqual([
      '0.00',
      '0.05',
      '0.99',
      '4.50',
      '12.00',
      '1234567.89',
      '90071992547409.91',
    ]);
  });

  it('refuses what is not a whole, non-negative number of cents', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      expect(() => usdAmount(bad)).toThrow(RangeError);
  });

  it('writes cents as dollars with two decimals', () => {
    expect([0, 5, 450, 1200, 123456789].map(formatUsd)).toEqual(['$0.00', '$0.05', '$4.50', '$12.00', '$1234567.89']);
  });
});

describe('the cart cookie', () => {
  it('keeps known products with quantities from 1 to the maximum, and nothing from a bad cookie', () => {
    expect(parseCart('{"mug":2,"hoodie":0,"stickers":21,"nothing":1,"x":"3"}')).toEqual({ mug: 2 });
    expect(parseCart('{"stickers":1.5,"hoodie":20}')).toEqual({ hoodie: 20 });
    expect([undefined, '', 'not json', '[1,2]', 'null', '7'].map(parseCart)).toEqual([{}, {}, {}, {}, {}, {}]);
  });
});
