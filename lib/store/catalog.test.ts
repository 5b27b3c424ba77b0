import { describe, expect, it } from 'vitest';
import { cartLines, cartTotalCents, formatUsd, priceIn } from './catalog';

describe('demo store prices', () => {
  it('converts cents to the coin, rounding up to the coin\'s smallest unit', () => {
    expect(priceIn(1200, 'USDT', 6)).toBe('12');
    expect(priceIn(450, 'usdc', 6)).toBe('4.5');
    // $12 at $90,000 per BTC is 0.000133333... BTC: rounded up to the satoshi.
    expect(priceIn(1200, 'BTC', 8)).toBe('0.00013334');
    expect(priceIn(1, 'ETH', 18)).toBe('0.000003333333333334');
    expect(priceIn(1200, 'XRP', 6)).toBe('6');
  });

  it('has no price for a coin without a rate, or for an empty cart', () => {
    expect(priceIn(1200, 'SHIB', 18)).toBeUndefined();
    expect(priceIn(0, 'BTC', 8)).toBeUndefined();
  });

  it('sums the cart and ignores unknown products', () => {
    const cart = { mug: 2, stickers: 1, nothing: 5 };
    expect(cartLines(cart).map((l) => l.product.sku)).toEqual(['mug', 'stickers']);
    expect(cartTotalCents(cart)).toBe(2 * 1200 + 450);
  });
});

describe('demo store dollars', () => {
  it('writes cents as dollars with two decimals', () => {
    expect([0, 5, 450, 1200, 123456789].map(formatUsd)).toEqual(['$0.00', '$0.05', '$4.50', '$12.00', '$1234567.89']);
  });
});

describe('the cart cookie', () => {
  it('keeps known products with quantities from 1 to the maximum, and nothing from a bad cookie', async () => {
    const { parseCart } = await import('./catalog');
    expect(parseCart('{"mug":2,"hoodie":0,"stickers":21,"nothing":1,"x":"3"}')).toEqual({ mug: 2 });
    expect(parseCart('{"stickers":1.5,"hoodie":20}')).toEqual({ hoodie: 20 });
    expect([undefined, '', 'not json', '[1,2]', 'null', '7'].map(parseCart)).toEqual([{}, {}, {}, {}, {}, {}]);
  });
});
