import { describe, expect, it } from 'vitest';
import { gasLeftSummary } from './gas-left';

const line = {
  network: 'ethereum',
  currency: 'ETH',
  addresses: 2,
  left: 3_000_000_000_000_000n,
  costPerAddress: 210_000_000_000_000n,
};

describe('the gas left line of the Funds page', () => {
  it('says what is left, what returning one costs, and how many are worth it', () => {
    expect(gasLeftSummary({ ...line, worthReturning: 1 }, 18)).toBe(
      "ethereum: 0.003 ETH of gas left on 2 addresses by fund-then-transfer collections; sending one address's back costs at most 0.00021 ETH; 1 of them holds more: the next token plan sends it back to the treasury",
    );
  });

  it('says when collecting it would cost more than it holds', () => {
    expect(gasLeftSummary({ ...line, worthReturning: 0 }, 18)).toMatch(
      /each holds less: collecting it would cost more than it holds, so it stays$/,
    );
  });

  it('without a node (down, or test mode): the addresses only', () => {
    expect(gasLeftSummary({ ...line, left: null, costPerAddress: null, worthReturning: null }, 18)).toBe(
      'ethereum: gas left on 2 addresses by fund-then-transfer collections (no node answered for their balances)',
    );
  });
});
