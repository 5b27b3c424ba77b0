import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../money';
import { ORDER_STATUS_VALUES, type OrderStatus } from '../protocol';
import { canChooseCoin, invoiceStatus } from './lifecycle';
import { withinSlippage } from './slippage';

const expiresAt = new Date('2026-11-24T12:00:00.000Z');
const before = new Date('2026-11-24T11:59:59.999Z');
const after = new Date('2026-11-24T12:00:00.000Z');
const order = (status: OrderStatus, paymentSeen = false) => ({ status, paymentSeen });

describe('invoiceStatus', () => {
  it('is CREATED before a choice and EXPIRED once its time is up', () => {
    expect(invoiceStatus({ expiresAt, order: null }, before)).toBe('CREATED');
    expect(invoiceStatus({ expiresAt, order: null }, after)).toBe('EXPIRED');
  });

  it('is INIT while the chosen order waits, PENDING once a payment of it was seen, whatever the clock says', () => {
    expect(invoiceStatus({ expiresAt, order: order('pending') }, before)).toBe('INIT');
    expect(invoiceStatus({ expiresAt, order: order('pending', true) }, before)).toBe('PENDING');
    // A running order decides: a payment made in time may not be read yet.
    expect(invoiceStatus({ expiresAt, order: order('pending') }, after)).toBe('INIT');
  });

  it('takes the final status of the order', () => {
    const finals: Partial<Record<OrderStatus, string>> = {
      processed: 'PROCESSED',
      overpaid: 'OVERPAID',
      partial: 'PARTIAL',
      error: 'REJECTED',
    };
    for (const [status, expected] of Object.entries(finals)) {
      expect(invoiceStatus({ expiresAt, order: order(status as OrderStatus, true) }, before)).toBe(expected);
      expect(invoiceStatus({ expiresAt, order: order(status as OrderStatus, true) }, after)).toBe(expected);
    }
  });

  it('returns to CREATED when the chosen order ran out unpaid with invoice time left, else EXPIRED', () => {
    expect(invoiceStatus({ expiresAt, order: order('expired') }, before)).toBe('CREATED');
    expect(invoiceStatus({ expiresAt, order: order('expired') }, after)).toBe('EXPIRED');
  });

  it('answers a status for every order status', () => {
    for (const status of ORDER_STATUS_VALUES)
      expect(invoiceStatus({ expiresAt, order: order(status) }, before)).toMatch(/^[A-Z]+$/);
  });
});

describe('canChooseCoin', () => {
  it('allows a choice while CREATED or INIT and in time, never after a payment or the deadline', () => {
    expect(canChooseCoin('CREATED', expiresAt, before)).toBe(true);
    expect(canChooseCoin('INIT', expiresAt, before)).toBe(true);
    expect(canChooseCoin('INIT', expiresAt, after)).toBe(false);
    for (const status of ['PENDING', 'PROCESSED', 'OVERPAID', 'PARTIAL', 'EXPIRED', 'ERROR', 'REJECTED'] as const) {
      expect(canChooseCoin(status, expiresAt, before)).toBe(false);
    }
  });
});

describe('withinSlippage', () => {
  const d = (text: string) => parseDecimal(text)!;
  it('keeps the quoted rate up to and including the slippage, exactly', () => {
    expect(withinSlippage(d('100'), d('101'), d('1'))).toBe(true);
    expect(withinSlippage(d('100'), d('99'), d('1'))).toBe(true);
    expect(withinSlippage(d('100'), d('101.000001'), d('1'))).toBe(false);
    expect(withinSlippage(d('100'), d('98.99'), d('1'))).toBe(false);
    expect(withinSlippage(d('60000'), d('60000'), d('0'))).toBe(true);
    expect(withinSlippage(d('60000'), d('60000.01'), d('0'))).toBe(false);
    expect(withinSlippage(d('0.25'), d('0.2512'), d('0.5'))).toBe(true);
    expect(withinSlippage(d('0.25'), d('0.2513'), d('0.5'))).toBe(false);
  });
});
