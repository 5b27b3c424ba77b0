/**
 * What a page shows of an order, in the terms of the order's status answer: what ./follow-order
 * compares each answer with. Apart from that client component so that server pages can build it.
 */
import type { PublicOrderView } from '@/lib/pay/view';

export interface OrderShown {
  status: string;
  /** Decimal, as the status answer and the dashboard write it. */
  received: string;
  payments: number;
}

export const orderShownOf = (view: PublicOrderView): OrderShown => ({
  status: view.status,
  received: view.received,
  payments: view.payments.length,
});

export const sameOrderShown = (a: OrderShown, b: OrderShown) =>
  a.status === b.status && a.received === b.received && a.payments === b.payments;
