import { describe, expect, it } from 'vitest';
import { chainState } from './chain-state';

describe("the overview's chain state", () => {
  it('is unhealthy when the last pass failed, whatever else is known', () => {
    expect(chainState({ healthy: false, height: 12, waiting: 3 })).toBe('unhealthy');
    expect(chainState({ healthy: false, height: null, waiting: 0 })).toBe('unhealthy');
  });

  it('is starting before a first block was scanned', () => {
    expect(chainState({ healthy: true, height: null, waiting: 2 })).toBe('starting');
    expect(chainState({ healthy: null, height: null, waiting: 0 })).toBe('starting');
  });

  it('is idle with no payment waiting, however old the last block (the sandbox mines on demand)', () => {
    expect(chainState({ healthy: true, height: 0, waiting: 0 })).toBe('idle');
    // No watcher in this process (scale-out): the cursor alone says the chain is followed.
    expect(chainState({ healthy: null, height: 7, waiting: 0 })).toBe('idle');
  });

  it('is watching while a payment waits', () => {
    expect(chainState({ healthy: true, height: 7, waiting: 1 })).toBe('watching');
  });
});
