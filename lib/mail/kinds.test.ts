import { describe, expect, it } from 'vitest';
import { isPayerMailKind, payerMailOf } from './kinds';

describe('payerMailOf', () => {
  it('pending: nothing seen, nothing to say', () => {
    expect(payerMailOf({ status: 'pending', received: 0n, paymentSeen: false })).toBeNull();
  });

  it('pending with a payment confirming: payment detected', () => {
    expect(payerMailOf({ status: 'pending', received: 0n, paymentSeen: true })).toBe('payment-detected');
  });

  it('pending with part of the amount counted: partly paid, whether or not more is confirming', () => {
    expect(payerMailOf({ status: 'pending', received: 1n, paymentSeen: true })).toBe('payment-partial');
    expect(payerMailOf({ status: 'pending', received: 1n, paymentSeen: false })).toBe('payment-partial');
  });

  it('processed and overpaid: paid, with the receipt', () => {
    expect(payerMailOf({ status: 'processed', received: 5n, paymentSeen: true })).toBe('payment-paid');
    expect(payerMailOf({ status: 'overpaid', received: 9n, paymentSeen: true })).toBe('payment-paid');
  });

  it('partial and expired: expired (the outbox keeps it to orders a payment reached)', () => {
    expect(payerMailOf({ status: 'partial', received: 1n, paymentSeen: true })).toBe('payment-expired');
    expect(payerMailOf({ status: 'expired', received: 0n, paymentSeen: false })).toBe('payment-expired');
  });

  it('error: no mail (the merchant checks the payment first)', () => {
    expect(payerMailOf({ status: 'error', received: 5n, paymentSeen: true })).toBeNull();
  });
});

describe('isPayerMailKind', () => {
  it('names the payer kinds only', () => {
    expect(isPayerMailKind('payment-paid')).toBe(true);
    expect(isPayerMailKind('refund-sent')).toBe(false);
    expect(isPayerMailKind('constructor')).toBe(false);
  });
});
