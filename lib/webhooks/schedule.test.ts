import { describe, expect, it } from 'vitest';
import { nextState, RETRY_DELAYS_MS, RETRY_JITTER } from './schedule';

const SECONDS = [10, 60, 300, 900, 3600, 10800, 21600, 43200, 86400, 86400];

describe('retry schedule', () => {
  const options = { retryDelaysMs: RETRY_DELAYS_MS, jitter: RETRY_JITTER };

  it('grows from about 10 s to daily, eleven attempts over about three days, then failed', () => {
    expect(RETRY_DELAYS_MS.map((ms) => ms / 1000)).toEqual(SECONDS);
    expect(RETRY_JITTER).toBe(0.2);
    const total = RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeGreaterThan(69);
    expect(total / 3_600_000).toBeLessThan(72);
    expect(nextState('http_error', 11, options)).toEqual({ state: 'failed', delayMs: null });
    expect(nextState('delivered', 3, options)).toEqual({ state: 'delivered', delayMs: null });
    expect(nextState('refused', 1, options)).toEqual({ state: 'refused', delayMs: null });
  });

  it('spreads each delay by up to 20 % either way', () => {
    expect(nextState('timeout', 1, options, () => 0)).toEqual({ state: 'pending', delayMs: 8000 });
    expect(nextState('timeout', 1, options, () => 0.5)).toEqual({ state: 'pending', delayMs: 10_000 });
    expect(nextState('network_error', 2, options, () => 1)).toEqual({ state: 'pending', delayMs: 72_000 });
  });

  it.each(SECONDS.map((seconds, i) => [i + 1, seconds]))(
    'after failed attempt %i: pending, %i s give or take 20 %',
    (attempt, seconds) => {
      const ms = seconds * 1000;
      // The ends of the spread, exactly, and its middle.
      expect(nextState('http_error', attempt, options, () => 0)).toEqual({
        state: 'pending',
        delayMs: Math.round(ms * 0.8),
      });
      expect(nextState('http_error', attempt, options, () => 0.5)).toEqual({ state: 'pending', delayMs: ms });
      expect(nextState('http_error', attempt, options, () => 1)).toEqual({
        state: 'pending',
        delayMs: Math.round(ms * 1.2),
      });
      // Math.random's own draws stay inside it, and do spread.
      const delays = new Set<number>();
      for (let i = 0; i < 200; i++) {
        const next = nextState('timeout', attempt, options);
        expect(next.state).toBe('pending');
        expect(next.delayMs).toBeGreaterThanOrEqual(Math.round(ms * 0.8));
        expect(next.delayMs).toBeLessThanOrEqual(Math.round(ms * 1.2));
        delays.add(next.delayMs!);
      }
      expect(delays.size).toBeGreaterThan(1);
    },
  );

  it('fails after the last delay, for every kind of failure, and stays failed', () => {
    for (const outcome of ['http_error', 'timeout', 'network_error'] as const) {
      expect(nextState(outcome, RETRY_DELAYS_MS.length, options, () => 0.5)).toEqual({
        state: 'pending',
        delayMs: 86_400_000,
      });
      expect(nextState(outcome, RETRY_DELAYS_MS.length + 1, options)).toEqual({ state: 'failed', delayMs: null });
      expect(nextState(outcome, RETRY_DELAYS_MS.length + 5, options)).toEqual({ state: 'failed', delayMs: null });
    }
  });

  it('follows the schedule it is given: its length decides when a webhook fails', () => {
    const short = { retryDelaysMs: [1000, 2000], jitter: 0 };
    expect(nextState('timeout', 1, short)).toEqual({ state: 'pending', delayMs: 1000 });
    expect(nextState('timeout', 2, short)).toEqual({ state: 'pending', delayMs: 2000 });
    expect(nextState('timeout', 3, short)).toEqual({ state: 'failed', delayMs: null });
    // A delivery or a refusal ends the webhook whatever the schedule says.
    expect(nextState('delivered', 1, short)).toEqual({ state: 'delivered', delayMs: null });
    expect(nextState('refused', 3, short)).toEqual({ state: 'refused', delayMs: null });
  });
});
