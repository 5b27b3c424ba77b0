import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../money';
import { ORDER_STATUS_VALUES, type OrderStatus } from '../protocol';
import { canChooseCoin, evaluateInvoice, type InvoiceFacts, type InvoiceOrder } from './lifecycle';
import { withinSlippage } from './slippage';

const expiresAt = new Date('2026-11-24T12:00:00.000Z');
const before = new Date('2026-11-24T11:59:59.999Z');
const after = new Date('2026-11-24T12:00:00.000Z');

/** The invoice's `n`th order (made `n` minutes after the first). */
function order(n: number, status: OrderStatus, paymentSeen = false): InvoiceOrder {
  return { id: `order-${n}`, status, paymentSeen, createdAt: new Date(Date.UTC(2026, 10, 24, 11, n)) };
}

/** A running invoice whose latest choice is its last order. */
function invoice(...orders: InvoiceOrder[]): InvoiceFacts {
  const status = orders.length === 0 ? 'CREATED' : 'INIT';
  return { status, expiresAt, orderId: orders.at(-1)?.id ?? null, orders };
}

describe('evaluateInvoice', () => {
  it('is CREATED before a choice and EXPIRED once its time is up', () => {
    expect(evaluateInvoice(invoice(), before)).toEqual({ status: 'CREATED', orderId: null, toRefund: [] });
    expect(evaluateInvoice(invoice(), after)).toEqual({ status: 'EXPIRED', orderId: null, toRefund: [] });
  });

  it('is INIT while an order waits, PENDING once a payment of any was seen, whatever the clock says', () => {
    expect(evaluateInvoice(invoice(order(1, 'pending')), before).status).toBe('INIT');
    expect(evaluateInvoice(invoice(order(1, 'pending', true)), before).status).toBe('PENDING');
    // A running order decides: a payment made in time may not be read yet.
    expect(evaluateInvoice(invoice(order(1, 'pending')), after).status).toBe('INIT');
    // The abandoned coin's order was paid (or something of it counted): the invoice waits for it.
    const abandonedSeen = invoice(order(1, 'pending', true), order(2, 'pending'));
    expect(evaluateInvoice(abandonedSeen, before)).toEqual({ status: 'PENDING', orderId: 'order-2', toRefund: [] });
    expect(evaluateInvoice(invoice(order(1, 'partial', true), order(2, 'pending')), before).status).toBe('PENDING');
  });

  it('takes the final status of the order that decides it, whichever choice that was', () => {
    const finals: Partial<Record<OrderStatus, string>> = {
      processed: 'PROCESSED',
      overpaid: 'OVERPAID',
      partial: 'PARTIAL',
      error: 'REJECTED',
    };
    for (const [status, expected] of Object.entries(finals)) {
      for (const now of [before, after]) {
        const latest = evaluateInvoice(invoice(order(1, 'expired'), order(2, status as OrderStatus, true)), now);
        expect(latest).toEqual({ status: expected, orderId: 'order-2', toRefund: [] });
        // The abandoned coin's order decides, and the invoice answers with it.
        const abandoned = evaluateInvoice(invoice(order(1, status as OrderStatus, true), order(2, 'expired')), now);
        expect(abandoned).toEqual({ status: expected, orderId: 'order-1', toRefund: [] });
      }
    }
  });

  it('is paid by a paid order while another still runs; an underpaid one is PARTIAL only once none runs', () => {
    expect(evaluateInvoice(invoice(order(1, 'processed', true), order(2, 'pending')), before)).toEqual({
      status: 'PROCESSED',
      orderId: 'order-1',
      toRefund: [],
    });
    expect(evaluateInvoice(invoice(order(1, 'partial', true), order(2, 'expired')), before).status).toBe('PARTIAL');
  });

  it('flags for refund the money of every order but the one that decided it', () => {
    const twice = invoice(order(1, 'processed', true), order(2, 'overpaid', true), order(3, 'partial', true));
    // The latest choice decides when it is one of those paid; else the earliest paid.
    expect(evaluateInvoice(twice, before)).toEqual({
      status: 'PROCESSED',
      orderId: 'order-1',
      toRefund: ['order-2', 'order-3'],
    });
    const latestPaid = { ...twice, orderId: 'order-2' };
    expect(evaluateInvoice(latestPaid, before)).toEqual({
      status: 'OVERPAID',
      orderId: 'order-2',
      toRefund: ['order-1', 'order-3'],
    });
    // A final invoice stays as it is; an order paid after it is to be refunded.
    const paid = { ...invoice(order(1, 'processed', true), order(2, 'processed', true)), status: 'PROCESSED' as const };
    expect(evaluateInvoice({ ...paid, orderId: 'order-1' }, after)).toEqual({
      status: 'PROCESSED',
      orderId: 'order-1',
      toRefund: ['order-2'],
    });
    const expired = { ...invoice(order(1, 'expired'), order(2, 'processed', true)), status: 'EXPIRED' as const };
    expect(evaluateInvoice({ ...expired, orderId: 'order-1' }, after)).toEqual({
      status: 'EXPIRED',
      orderId: 'order-1',
      toRefund: ['order-2'],
    });
  });

  it('returns to CREATED when every order ran out unpaid with invoice time left, else EXPIRED', () => {
    expect(evaluateInvoice(invoice(order(1, 'expired'), order(2, 'expired')), before).status).toBe('CREATED');
    expect(evaluateInvoice(invoice(order(1, 'expired'), order(2, 'expired')), after).status).toBe('EXPIRED');
  });

  it('answers a status for every order status', () => {
    for (const status of ORDER_STATUS_VALUES)
      expect(evaluateInvoice(invoice(order(1, status)), before).status).toMatch(/^[A-Z]+$/);
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
