import { describe, expect, it } from 'vitest';
import { xrplAccountReserve, xrplReserveShortfall } from './reserve';

/** Mainnet's settings as xrpl.org's reserves page gives them: 1 XRP base, 0.2 XRP per object. */
const MAINNET = { base: 1_000_000n, increment: 200_000n };

describe('XRP Ledger reserves', () => {
  it('is the base reserve and the owner reserve for each object the account owns', () => {
    expect(xrplAccountReserve(MAINNET, 0)).toBe(1_000_000n);
    expect(xrplAccountReserve(MAINNET, 3)).toBe(1_600_000n);
    expect(xrplAccountReserve({ base: 10_000_000n, increment: 2_000_000n }, 250)).toBe(510_000_000n);
  });

  it('lets a payment and its fee leave exactly the reserve, not a drop less', () => {
    const funds = { balance: 3_600_000n, ownerCount: 3 };
    expect(xrplReserveShortfall(funds, MAINNET, { drops: 1_999_988n, fee: 12n })).toBeNull();
    expect(xrplReserveShortfall(funds, MAINNET, { drops: 1_999_989n, fee: 12n })).toEqual({
      reserve: 1_600_000n,
      spendable: 2_000_000n,
      needs: 2_000_001n,
    });
    // The fee counts: the same amount with a larger fee does not fit.
    expect(xrplReserveShortfall(funds, MAINNET, { drops: 1_999_988n, fee: 13n })).not.toBeNull();
    // Each object the account owns holds back its increment.
    expect(xrplReserveShortfall({ ...funds, ownerCount: 4 }, MAINNET, { drops: 1_999_988n, fee: 12n })).toEqual({
      reserve: 1_800_000n,
      spendable: 1_800_000n,
      needs: 2_000_000n,
    });
  });

  it('says an account below its reserve has nothing to spend', () => {
    expect(xrplReserveShortfall({ balance: 500_000n, ownerCount: 0 }, MAINNET, { drops: 1n, fee: 12n })).toEqual({
      reserve: 1_000_000n,
      spendable: 0n,
      needs: 13n,
    });
  });
});
