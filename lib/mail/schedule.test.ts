import { describe, expect, it } from 'vitest';
import { nextMailState, outcomeOfError } from './schedule';

const schedule = { retryDelaysMs: [10_000, 60_000], jitter: 0.2 };

describe('nextMailState', () => {
  it('sent is final', () => {
    expect(nextMailState('sent', 1, schedule)).toEqual({ state: 'sent', delayMs: null });
  });

  it('a permanent refusal is not tried again', () => {
    expect(nextMailState('permanent', 1, schedule)).toEqual({ state: 'refused', delayMs: null });
  });

  it('a temporary failure waits the delay of its attempt, spread by the jitter', () => {
    expect(nextMailState('temporary', 1, schedule, () => 0.5)).toEqual({ state: 'pending', delayMs: 10_000 });
    expect(nextMailState('temporary', 2, schedule, () => 0)).toEqual({ state: 'pending', delayMs: 48_000 });
    expect(nextMailState('temporary', 2, schedule, () => 1)).toEqual({ state: 'pending', delayMs: 72_000 });
  });

  it('fails once the delays are used up', () => {
    expect(nextMailState('temporary', 3, schedule)).toEqual({ state: 'failed', delayMs: null });
  });
});

describe('outcomeOfError', () => {
  it('5xx is permanent; 4xx, timeouts and connection errors are temporary', () => {
    expect(outcomeOfError({ responseCode: 550 })).toBe('permanent');
    expect(outcomeOfError({ responseCode: 451 })).toBe('temporary');
    expect(outcomeOfError(new Error('ECONNREFUSED'))).toBe('temporary');
    expect(outcomeOfError(null)).toBe('temporary');
  });
});
