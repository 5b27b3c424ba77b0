/**
 * The invoice state machine as a pure function of every order its coin choices made (lib/orders
 * decides each order), plus the invoice's own deadline while no order runs. An abandoned coin's
 * order keeps running to its own deadline, so a payment already made to it (mined, but not yet
 * read) still pays the invoice; the invoice is decided by the first order that decides it, and
 * money another order receives after that is for the merchant to refund (docs/decisions/026).
 * Everything comes in as arguments; the caller owns locking and writes.
 *
 *   CREATED ──choose──▶ INIT ──a payment seen on any order──▶ PENDING
 *      ▲                 │                                       │
 *      └─every order ran─┘                                       ▼
 *        out unpaid, invoice time left       any order paid ▶ PROCESSED | OVERPAID
 *                                            any refused by risk screening ▶ REJECTED
 *                                            none left running, one underpaid ▶ PARTIAL
 *   CREATED ──invoice time up, no order running, nothing received──▶ EXPIRED
 */
import { FINAL_INVOICE_STATUSES, type InvoiceStatus, type OrderStatus } from '../protocol';

/**
 * Orders made per invoice, at most: each takes a deposit address, and anyone holding the
 * invoice's link may choose. Enough to change one's mind a few times and to come back after an
 * order ran out; choosing a coin again reuses its order while that runs, so going back and forth
 * costs nothing. Without a bound, switching coins drained the network's address pool and pushed
 * the merchant's wallet past its gap limit.
 */
export const MAX_INVOICE_ORDERS = 5;

/** One order of the invoice, as its own lifecycle left it. */
export interface InvoiceOrder {
  id: string;
  status: OrderStatus;
  /** A payment of the order was seen (confirming, confirmed, or refused by screening). */
  paymentSeen: boolean;
  createdAt: Date;
}

export interface InvoiceFacts {
  status: InvoiceStatus;
  expiresAt: Date;
  /** The order the invoice answers with: its latest choice, or once final the order that decided it. */
  orderId: string | null;
  /** Every order its choices made. */
  orders: readonly InvoiceOrder[];
}

export interface InvoiceEvaluation {
  status: InvoiceStatus;
  /** The order the invoice answers with from now on. */
  orderId: string | null;
  /** Orders of a final invoice that kept money the invoice does not: another order decided it. */
  toRefund: string[];
}

const PAID: Partial<Record<OrderStatus, InvoiceStatus>> = { processed: 'PROCESSED', overpaid: 'OVERPAID' };
/** Order statuses that keep what they received. */
const KEPT_MONEY: ReadonlySet<OrderStatus> = new Set(['processed', 'overpaid', 'partial']);

export function evaluateInvoice(invoice: InvoiceFacts, now: Date): InvoiceEvaluation {
  const decided = FINAL_INVOICE_STATUSES.has(invoice.status)
    ? { status: invoice.status, orderId: invoice.orderId }
    : decide(invoice, now);
  if (!FINAL_INVOICE_STATUSES.has(decided.status)) return { ...decided, toRefund: [] };
  const toRefund = invoice.orders.filter((o) => o.id !== decided.orderId && KEPT_MONEY.has(o.status)).map((o) => o.id);
  return { ...decided, toRefund };
}

function decide(invoice: InvoiceFacts, now: Date): Omit<InvoiceEvaluation, 'toRefund'> {
  const { orders } = invoice;
  const paid = deciding(invoice, (o) => PAID[o.status] !== undefined);
  if (paid) return { status: PAID[paid.status]!, orderId: paid.id };
  const refused = deciding(invoice, (o) => o.status === 'error');
  if (refused) return { status: 'REJECTED', orderId: refused.id };
  const partial = (o: InvoiceOrder) => o.status === 'partial';
  // A running order may still be paid: a payment made in time may not be read yet.
  if (orders.some((o) => o.status === 'pending')) {
    const seen = orders.some((o) => (o.status === 'pending' && o.paymentSeen) || partial(o));
    return { status: seen ? 'PENDING' : 'INIT', orderId: invoice.orderId };
  }
  const underpaid = deciding(invoice, partial);
  if (underpaid) return { status: 'PARTIAL', orderId: underpaid.id };
  const timeUp = now.getTime() >= invoice.expiresAt.getTime();
  return { status: timeUp ? 'EXPIRED' : 'CREATED', orderId: invoice.orderId };
}

/** Of the orders that `decides`, the invoice's current one, else the earliest made. */
function deciding(invoice: InvoiceFacts, decides: (order: InvoiceOrder) => boolean): InvoiceOrder | undefined {
  const candidates = invoice.orders.filter(decides);
  return (
    candidates.find((o) => o.id === invoice.orderId) ??
    [...candidates].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))[0]
  );
}

/** Whether the payer may (still) choose a coin: before any payment, while the invoice has time. */
export function canChooseCoin(status: InvoiceStatus, expiresAt: Date, now: Date): boolean {
  return (status === 'CREATED' || status === 'INIT') && now.getTime() < expiresAt.getTime();
}
