/**
 * The invoice state machine as a pure function: an invoice's status follows the order made for the
 * coin its payer chose (lib/orders/lifecycle decides that order), plus the invoice's own deadline
 * while no order is running. Everything comes in as arguments; the caller owns locking and writes.
 *
 *   CREATED ──choose──▶ INIT ──payment seen──▶ PENDING ──▶ PROCESSED | OVERPAID | PARTIAL
 *      ▲                 │                                   (the order's final status)
 *      └─order expired,──┘  (invoice time left: the payer may choose again)
 *   CREATED | INIT ──invoice time up, nothing received──▶ EXPIRED
 *   INIT | PENDING ──payment refused by risk screening──▶ REJECTED
 */
import type { InvoiceStatus, OrderStatus } from '../protocol';

export interface InvoiceFacts {
  expiresAt: Date;
  /** The order of the latest coin choice; null before the payer chose. */
  order: {
    status: OrderStatus;
    /** A payment of the order was seen (confirming or confirmed). */
    paymentSeen: boolean;
  } | null;
}

const FINAL_OF_ORDER: Partial<Record<OrderStatus, InvoiceStatus>> = {
  processed: 'PROCESSED',
  overpaid: 'OVERPAID',
  partial: 'PARTIAL',
  error: 'REJECTED',
};

export function invoiceStatus(invoice: InvoiceFacts, now: Date): InvoiceStatus {
  const timeUp = now.getTime() >= invoice.expiresAt.getTime();
  const { order } = invoice;
  if (!order) return timeUp ? 'EXPIRED' : 'CREATED';
  const final = FINAL_OF_ORDER[order.status];
  if (final) return final;
  if (order.status === 'expired') return timeUp ? 'EXPIRED' : 'CREATED';
  return order.paymentSeen ? 'PENDING' : 'INIT';
}

/** Whether the payer may (still) choose a coin: before any payment, while the invoice has time. */
export function canChooseCoin(status: InvoiceStatus, expiresAt: Date, now: Date): boolean {
  return (status === 'CREATED' || status === 'INIT') && now.getTime() < expiresAt.getTime();
}
