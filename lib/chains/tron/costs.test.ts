import { describe, expect, it } from 'vitest';
import { trxSweep, trxSweepAtMost, tronAddressCost, tronCostAtMost } from './costs';

// Prices moved from mainnet's, so that no figure could come from a constant.
const prices = {
  energyFee: 210n,
  transactionFee: 1_000n,
  createAccountFee: 100_000n,
  createNewAccountFeeInSystemContract: 1_100_000n,
};
const bytes = { fund: 270n, delegate: 280n, transfer: 345n, reclaim: 275n };

describe('what collecting one Tron address burns', () => {
  it('an address not yet active burns the two creation fees and, without stake, its energy', () => {
    expect(tronAddressCost(prices, { active: false, energy: 39_731n, bytes, staked: false })).toEqual({
      activation: 1_200_000n,
      energy: 39_731n * 210n,
      bandwidth: 0n,
      total: 1_200_000n + 39_731n * 210n,
    });
  });

  it('an active one burns its fund transfer and token transfer bytes instead of the creation fees', () => {
    expect(tronAddressCost(prices, { active: true, energy: 19_631n, bytes, staked: false })).toEqual({
      activation: 0n,
      energy: 19_631n * 210n,
      bandwidth: 615n * 1_000n,
      total: 19_631n * 210n + 615_000n,
    });
  });

  it('with stake the energy is lent: the delegation and its reclaim burn their bytes', () => {
    expect(tronAddressCost(prices, { active: false, energy: 39_731n, bytes, staked: true })).toEqual({
      activation: 1_200_000n,
      energy: 0n,
      bandwidth: 555_000n,
      total: 1_755_000n,
    });
    expect(tronAddressCost(prices, { active: true, energy: 39_731n, bytes, staked: true }).total).toBe(1_170_000n);
  });

  it('at most: the costliest of active or not, stake or burn', () => {
    expect(tronCostAtMost(prices, 39_731n, bytes).total).toBe(1_200_000n + 39_731n * 210n);
    // A token of almost no energy: the stake's two transactions weigh more than the energy burned.
    expect(tronCostAtMost(prices, 10n, bytes)).toMatchObject({ activation: 1_200_000n, energy: 0n, total: 1_755_000n });
  });

  it("at most with the kept fee payer's stake lending the energy: the costlier of active or not, energy never burned", () => {
    expect(tronCostAtMost(prices, 39_731n, bytes, true)).toMatchObject({
      activation: 1_200_000n,
      energy: 0n,
      total: 1_755_000n,
    });
  });
});

describe("sweeping an address's own TRX", () => {
  const sweep = { balance: 5_000_000n, bytes: 268n, freeBandwidth: 600n, treasuryActive: true };

  it('free bandwidth covers the sweep: the whole balance moves, nothing is kept', () => {
    expect(trxSweep(prices, sweep)).toEqual({ amount: 5_000_000n, burn: 0n });
    expect(trxSweep(prices, { ...sweep, freeBandwidth: 268n })).toEqual({ amount: 5_000_000n, burn: 0n });
  });

  it('free bandwidth used up: the address keeps what its bytes burn', () => {
    expect(trxSweep(prices, { ...sweep, freeBandwidth: 267n })).toEqual({
      amount: 5_000_000n - 268_000n,
      burn: 268_000n,
    });
  });

  it('a treasury that is no account yet: the sweep creates it and burns the two creation fees', () => {
    expect(trxSweep(prices, { ...sweep, treasuryActive: false })).toEqual({ amount: 3_800_000n, burn: 1_200_000n });
  });

  it('nothing to sweep when the burn takes all the address holds', () => {
    expect(trxSweep(prices, { ...sweep, balance: 268_000n, freeBandwidth: 0n })).toBeNull();
    expect(trxSweep(prices, { ...sweep, balance: 268_001n, freeBandwidth: 0n })).toEqual({
      amount: 1n,
      burn: 268_000n,
    });
    expect(trxSweep(prices, { ...sweep, balance: 0n })).toBeNull();
  });

  it('at most: the bytes burned, no free bandwidth left', () => {
    expect(trxSweepAtMost(prices, 268n)).toBe(268_000n);
  });
});
