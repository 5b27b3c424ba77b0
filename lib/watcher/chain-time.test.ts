import { describe, expect, it } from 'vitest';
import { CHAIN_TIME_TOLERANCE_MS, chainTimes } from './chain-time';

const NOW = new Date('2030-01-01T12:00:00.000Z');
/** `minutes` from NOW. */
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);
const blocks = (...minutes: number[]) => minutes.map((m) => ({ time: at(m) }));

describe('chainTimes', () => {
  it('follows block times as they go forward', () => {
    expect(chainTimes(at(-30), blocks(-20, -10, 0), NOW, false)).toEqual([at(-20), at(-10), at(0)]);
  });

  it('does not go back for a block dated before its parent', () => {
    expect(chainTimes(at(-30), blocks(-10, -12, -5), NOW, false)).toEqual([at(-10), at(-10), at(-5)]);
    // Nor below where it was before the blocks.
    expect(chainTimes(at(-5), blocks(-10), NOW, false)).toEqual([at(-5)]);
  });

  it('moves no further ahead of the gateway clock than the tolerance, for a block dated two hours ahead', () => {
    const ceiling = new Date(NOW.getTime() + CHAIN_TIME_TOLERANCE_MS);
    expect(chainTimes(at(-10), blocks(120, 1), NOW, false)).toEqual([ceiling, ceiling]);
    expect(CHAIN_TIME_TOLERANCE_MS).toBeLessThanOrEqual(5 * 60_000);
  });

  it('never goes back when the gateway clock does', () => {
    expect(chainTimes(at(10), blocks(20), NOW, false)).toEqual([at(10)]);
  });

  it('is the block time on the sandbox ledger, ahead of the clock and back again', () => {
    expect(chainTimes(at(-10), blocks(600, 601), NOW, true)).toEqual([at(600), at(601)]);
    expect(chainTimes(at(600), blocks(-1), NOW, true)).toEqual([at(-1)]);
  });
});
