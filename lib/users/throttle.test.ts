import { describe, expect, it } from 'vitest';
import { ACCOUNT_THRESHOLD, ADDRESS_THRESHOLD, lockDelayMs, secondsUntil } from './throttle';

describe('sign-in throttle arithmetic', () => {
  it('locks an account at its fifth failure for 30 s, doubling after, up to an hour', () => {
    expect(ACCOUNT_THRESHOLD).toBe(5);
    expect([1, 2, 3, 4].map((n) => lockDelayMs(n, ACCOUNT_THRESHOLD))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8].map((n) => lockDelayMs(n, ACCOUNT_THRESHOLD))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(lockDelayMs(12, ACCOUNT_THRESHOLD)).toBe(3_600_000);
    expect(lockDelayMs(10_000, ACCOUNT_THRESHOLD)).toBe(3_600_000);
  });

  it('gives an address more room than an account', () => {
    expect(ADDRESS_THRESHOLD).toBeGreaterThan(ACCOUNT_THRESHOLD);
    expect(lockDelayMs(ADDRESS_THRESHOLD - 1, ADDRESS_THRESHOLD)).toBe(0);
    expect(lockDelayMs(ADDRESS_THRESHOLD, ADDRESS_THRESHOLD)).toBe(30_000);
  });

  it('says whole seconds, rounded up, at least one', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(secondsUntil(new Date(now.getTime() + 30_000), now)).toBe(30);
    expect(secondsUntil(new Date(now.getTime() + 29_001), now)).toBe(30);
    expect(secondsUntil(new Date(now.getTime() + 10), now)).toBe(1);
    expect(secondsUntil(now, now)).toBe(1);
  });
});
