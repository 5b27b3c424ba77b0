import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_CLIENT_THRESHOLD,
  BUDGET_BURST,
  BUDGET_SPACING_MS,
  CLIENT_THRESHOLD,
  DEVICE_THRESHOLD,
  lockDelayMs,
  lockKeys,
  secondsUntil,
} from './throttle';

describe('sign-in throttle arithmetic', () => {
  it('locks a client on an account at its fifth failure for 30 s, doubling after, up to an hour', () => {
    expect(ACCOUNT_CLIENT_THRESHOLD).toBe(5);
    expect([1, 2, 3, 4].map((n) => lockDelayMs(n, ACCOUNT_CLIENT_THRESHOLD))).toEqual([0, 0, 0, 0]);
    expect([5, 6, 7, 8].map((n) => lockDelayMs(n, ACCOUNT_CLIENT_THRESHOLD))).toEqual([
      30_000, 60_000, 120_000, 240_000,
    ]);
    expect(lockDelayMs(12, ACCOUNT_CLIENT_THRESHOLD)).toBe(3_600_000);
    expect(lockDelayMs(10_000, ACCOUNT_CLIENT_THRESHOLD)).toBe(3_600_000);
  });

  it('gives a client over every account more room than on one account; a known device as much as a client', () => {
    expect(CLIENT_THRESHOLD).toBeGreaterThan(ACCOUNT_CLIENT_THRESHOLD);
    expect(lockDelayMs(CLIENT_THRESHOLD - 1, CLIENT_THRESHOLD)).toBe(0);
    expect(lockDelayMs(CLIENT_THRESHOLD, CLIENT_THRESHOLD)).toBe(30_000);
    expect(DEVICE_THRESHOLD).toBe(ACCOUNT_CLIENT_THRESHOLD);
  });

  it('lets at most 100 password checks an hour through an account budget', () => {
    expect(BUDGET_BURST + 3_600_000 / BUDGET_SPACING_MS).toBe(100);
  });

  it('counts a known device on its own, and a client per IPv4 address or IPv6 /64', () => {
    expect(lockKeys('a@shop.example', { ip: '203.0.113.7', deviceHash: 'abc' }).map((k) => k.key)).toEqual([
      'device:abc|a@shop.example',
    ]);
    expect(lockKeys('a@shop.example', { ip: '2001:db8:1:2::99' }).map((k) => k.key)).toEqual([
      'account-client:a@shop.example|2001:db8:1:2::/64',
      'client:2001:db8:1:2::/64',
    ]);
  });

  it('says whole seconds, rounded up, at least one', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(secondsUntil(new Date(now.getTime() + 30_000), now)).toBe(30);
    expect(secondsUntil(new Date(now.getTime() + 29_001), now)).toBe(30);
    expect(secondsUntil(new Date(now.getTime() + 10), now)).toBe(1);
    expect(secondsUntil(now, now)).toBe(1);
  });
});
