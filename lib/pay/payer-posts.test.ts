import { describe, expect, it } from 'vitest';
import { PAYER_POSTS_PER_MINUTE, payerPostWait } from './payer-posts';

describe('payerPostWait (the payment page posts)', () => {
  it('bounds a client across orders, and an order across clients, each per minute', () => {
    const at = 1_000_000;
    const order = () => crypto.randomUUID();
    for (let i = 0; i < PAYER_POSTS_PER_MINUTE.client; i++) expect(payerPostWait('198.51.100.7', order(), at)).toBe(0);
    expect(payerPostWait('198.51.100.7', order(), at)).toBeGreaterThan(0);
    // Another client is not held by the first one's budget.
    expect(payerPostWait('198.51.100.8', order(), at)).toBe(0);

    const one = order();
    for (let i = 0; i < PAYER_POSTS_PER_MINUTE.order; i++) expect(payerPostWait(`203.0.113.${i}`, one, at)).toBe(0);
    expect(payerPostWait('203.0.113.200', one, at)).toBeGreaterThan(0);
    // A minute later, the order's budget is back.
    expect(payerPostWait('203.0.113.200', one, at + 60_000)).toBe(0);
  });
});
