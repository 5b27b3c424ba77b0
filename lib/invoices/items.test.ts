import { describe, expect, it } from 'vitest';
import { InvoiceAmountInvalid } from './errors';
import { lineItemsOf, lineItemsToStore } from './items';

describe('line items', () => {
  it('are stored in base units when they add up to the price; none given, none stored', () => {
    expect(
      lineItemsToStore(
        [
          { name: 'Mug', quantity: 2, price: '12.5' },
          { name: 'Shipping', quantity: 1, price: 4n * 100n },
        ],
        2900n,
        2,
      ),
    ).toEqual([
      { name: 'Mug', quantity: 2, unitPrice: '1250' },
      { name: 'Shipping', quantity: 1, unitPrice: '400' },
    ]);
    expect(lineItemsToStore(undefined, 100n, 2)).toBeNull();
    expect(lineItemsToStore([], 100n, 2)).toBeNull();
  });

  it('are refused when their total is not the price, or a price has more decimals than the currency', () => {
    const short = () => lineItemsToStore([{ name: 'Mug', quantity: 2, price: '12.5' }], 2900n, 2);
    expect(short).toThrow(InvoiceAmountInvalid);
    expect(short).toThrow('items add up to 25, not the amount 29');
    const fine = () => lineItemsToStore([{ name: 'Mug', quantity: 1, price: '29.001' }], 2900n, 2);
    expect(fine).toThrow('items.0.price has a price with more than 2 decimals');
  });

  it('read back with each line total, exactly; a stored value of another shape reads as none', () => {
    expect(lineItemsOf([{ name: 'Coin', quantity: 3, unitPrice: '333333333333333333' }], 18)).toEqual([
      { name: 'Coin', quantity: 3, unitPrice: '0.333333333333333333', total: '0.999999999999999999' },
    ]);
    expect(lineItemsOf(null, 2)).toEqual([]);
    expect(lineItemsOf([{ name: 'Mug', quantity: 1, unitPrice: '1.5' }], 2)).toEqual([]);
  });
});
