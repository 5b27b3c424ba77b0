/**
 * When a failed webhook is tried again: the retry schedule (SPEC "Webhooks") and the rule that
 * turns an attempt's outcome into its row's next state. Pure (the randomness is a parameter, no
 * clock, no database), so the schedule is unit-tested delay by delay (schedule.test.ts) apart from
 * the dispatcher that applies it.
 */
import type { AttemptResult } from './http';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Delay after each failed attempt (SPEC: about 10s, 1m, 5m, 15m, 1h, 3h, 6h, 12h, 24h, then
 * daily up to 3 days): 11 attempts over about 70 hours, then the event is failed (re-sendable).
 */
export const RETRY_DELAYS_MS: readonly number[] = [
  10 * SECOND,
  MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  24 * HOUR,
  24 * HOUR,
];

/** Each delay is spread by up to this fraction either way, so that failed webhooks do not retry in lockstep. */
export const RETRY_JITTER = 0.2;

/** A retry schedule: the delays (RETRY_DELAYS_MS) and their spread (RETRY_JITTER). */
export interface RetrySchedule {
  retryDelaysMs: readonly number[];
  jitter: number;
}

/** A row's state after an attempt; `delayMs` until the next one when it stays pending. */
export type NextState =
  { state: 'delivered' | 'refused' | 'failed'; delayMs: null } | { state: 'pending'; delayMs: number };

/** What follows an attempt: done, refused, another try after the schedule's delay, or failed. */
export function nextState(
  outcome: AttemptResult['outcome'],
  attemptsInRound: number,
  options: RetrySchedule,
  random = Math.random,
): NextState {
  if (outcome === 'delivered') return { state: 'delivered', delayMs: null };
  if (outcome === 'refused') return { state: 'refused', delayMs: null };
  const delay = options.retryDelaysMs[attemptsInRound - 1];
  if (delay === undefined) return { state: 'failed', delayMs: null };
  return { state: 'pending', delayMs: Math.max(0, Math.round(delay * (1 + options.jitter * (2 * random() - 1)))) };
}
