import { describe, expect, it } from 'vitest';
import { screenOf } from './view';

const base = { status: 'pending' as const, received: '0', payments: [], otherTransfers: [] };

describe('screenOf', () => {
  it('pending: awaiting, detected while a payment confirms, partially paid once something counted', () => {
    expect(screenOf(base)).toBe('awaiting');
    expect(screenOf({ ...base, received: '0.000' })).toBe('awaiting');
    expect(screenOf({ ...base, payments: [{ status: 'detected' }] })).toBe('detected');
    expect(screenOf({ ...base, received: '0.1', payments: [{ status: 'confirmed' }] })).toBe('partially-paid');
    expect(screenOf({ ...base, received: '0.1', payments: [{ status: 'confirmed' }, { status: 'detected' }] })).toBe(
      'detected',
    );
    // A reversed payment alone leaves the order waiting.
    expect(screenOf({ ...base, payments: [{ status: 'reversed' }] })).toBe('awaiting');
  });

  it('final statuses', () => {
    expect(screenOf({ ...base, status: 'processed' })).toBe('paid');
    expect(screenOf({ ...base, status: 'overpaid' })).toBe('overpaid');
    expect(screenOf({ ...base, status: 'expired' })).toBe('expired');
    expect(screenOf({ ...base, status: 'partial' })).toBe('underpaid');
    expect(screenOf({ ...base, status: 'error' })).toBe('error');
  });

  it('expired or underpaid with a late transfer: paid late; a transfer that is not late changes nothing', () => {
    expect(screenOf({ ...base, status: 'expired', otherTransfers: [{ late: true }] })).toBe('paid-late');
    expect(screenOf({ ...base, status: 'partial', otherTransfers: [{ late: true }] })).toBe('paid-late');
    expect(screenOf({ ...base, status: 'expired', otherTransfers: [{ late: false }] })).toBe('expired');
    expect(screenOf({ ...base, status: 'processed', otherTransfers: [{ late: true }] })).toBe('paid');
  });
});
