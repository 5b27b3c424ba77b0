/** What a re-check counts as a missing transaction, and the hour before "Mark as not sent" (docs/decisions/129). */
import { describe, expect, it } from 'vitest';
import { countsAsMissing, mayMarkNotSent, MISSING_BEFORE_NOT_SENT_MS } from './missing';
import type { RefundTransactionProblem } from './transfer-check';

describe('countsAsMissing', () => {
  it('counts a transaction the node does not find, or that no longer pays; not what is decided before the chain is asked', () => {
    const problems: Record<RefundTransactionProblem, boolean> = {
      unknown: true,
      address: true,
      tag: true,
      amount: true,
      txId: false,
      used: false,
      sent: false,
    };
    for (const [problem, missing] of Object.entries(problems))
      expect(countsAsMissing(problem as RefundTransactionProblem), problem).toBe(missing);
  });
});

describe('mayMarkNotSent', () => {
  const since = new Date('2026-11-28T10:00:00.000Z');
  const after = (ms: number) => new Date(since.getTime() + ms);

  it('waits one hour from when the transaction was first missed', () => {
    expect(MISSING_BEFORE_NOT_SENT_MS).toBe(3_600_000);
    expect(mayMarkNotSent(since, since)).toBe(false);
    expect(mayMarkNotSent(since, after(MISSING_BEFORE_NOT_SENT_MS - 1))).toBe(false);
    expect(mayMarkNotSent(since, after(MISSING_BEFORE_NOT_SENT_MS))).toBe(true);
    expect(mayMarkNotSent(since, after(2 * MISSING_BEFORE_NOT_SENT_MS))).toBe(true);
  });

  it('never while the transaction is found', () => {
    expect(mayMarkNotSent(null, after(10 * MISSING_BEFORE_NOT_SENT_MS))).toBe(false);
  });
});
