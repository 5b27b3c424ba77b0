/**
 * The payer-safe view of an order: what the payment page and its public status endpoint
 * (`GET /api/pay/{orderId}/status`) show a shopper. Pure and client-safe: the browser gets these
 * types and `screenOf`, never the code that builds the view (./public-view, server-only).
 *
 * Only fields a shopper may see are here: never webhooks, the payer's e-mail, the merchant's
 * external user id, the merchant's own order id, API keys or the risk screening's reason.
 * Money is decimal strings (formatted from bigint base units on the server), never numbers.
 */
import type { OrderStatus } from '../protocol';

/**
 * The merchant's brand on the payer's pages (dashboard settings): a logo as a data: URL and an
 * accent colour `#rrggbb` on which white text passes WCAG AA; null is the default look. Rendered by
 * server components only, never handed to a client component (a logo is up to 100 KB).
 */
export interface PublicBrand {
  logo: string | null;
  color: string | null;
}

/** Order statuses as the wire contract names them. */
export type PublicStatus = OrderStatus;

/**
 * What the page shows, one screen per situation:
 * - awaiting: pending, nothing seen yet.
 * - detected: pending, a payment is waiting for confirmations (k/n on each payment).
 * - partially-paid: pending, confirmed payments below the amount: received and remaining.
 * - paid / overpaid: final success (processed, overpaid): "Return to store" and the redirect.
 * - expired: final, nothing received by the deadline.
 * - underpaid: final (`partial`), something received but below the threshold by the deadline.
 * - paid-late: expired or underpaid, and a transfer reached the address after the deadline:
 *   "contact the merchant" rather than silently ignoring it.
 * - error: final, a payment was flagged by risk screening.
 */
export type Screen =
  'awaiting' | 'detected' | 'partially-paid' | 'paid' | 'overpaid' | 'expired' | 'underpaid' | 'paid-late' | 'error';

export interface PublicPayment {
  txid: string;
  /** Decimal, in the order's currency. */
  amount: string;
  /** `detected` until it has the confirmations, then `confirmed`; `reversed` when the chain dropped it. */
  status: 'detected' | 'confirmed' | 'reversed' | 'rejected';
  /** Confirmations so far, at most `requiredConfirmations`. */
  confirmations: number;
}

/** A transfer to the order's address that did not count for it (after the deadline, another currency, after the order was final). */
export interface PublicOtherTransfer {
  txid: string;
  currency: string;
  amount: string;
  confirmations: number;
  /** First seen after `expiresAt`. */
  late: boolean;
}

/** The invoice an order was made for (the payer chose this order's coin on the invoice page). */
export interface PublicOrderInvoice {
  invoiceId: string;
  /** The price currency (USD, EUR, GBP or a coin ticker) and the price, a decimal string. */
  currency: string;
  amount: string;
  /**
   * The payer may still go back to /invoice/{invoiceId} and choose another coin: this order is the
   * invoice's latest choice, the invoice takes choices (CREATED or INIT, within its time), and
   * nothing was sent to this order.
   */
  canChangeCoin: boolean;
}

/**
 * "Pay the rest" (docs/decisions/069) on an underpaid or paid-late order: what a remainder order
 * would ask, the remainder once opened, that the order was settled, or that what arrived is being
 * refunded (never by whom).
 */
export interface PublicRest {
  /** Decimal in the order's coin; null when the remainder exists already or none is offered (below the minimum). */
  left: string | null;
  orderId: string | null;
  settled: boolean;
  /** What arrived is being refunded to an address given for it: no remainder (docs/decisions/102). */
  refunding: boolean;
}

/**
 * A refund the payer may ask for on the payment page (docs/decisions/088): "get back what I sent"
 * (`sent`, an underpaid order, or an expired one paid late) or "claim the excess" (`excess`, an
 * overpaid one).
 */
export interface PublicRefundOffer {
  kind: 'sent' | 'excess';
  /** Decimal in the order's coin, before the network fee that the refund bears. */
  amount: string;
}

export interface PublicOrderView {
  orderId: string;
  status: PublicStatus;
  screen: Screen;
  /** Test-mode order (sandbox ledger): the page shows TEST MODE and "Simulate payment". */
  test: boolean;
  merchantName: string;
  description: string | null;
  currency: string;
  currencyName: string;
  network: string;
  networkName: string;
  /** The token standard ("ERC-20", "TRC-20") for a token; null for the network's native coin. */
  tokenStandard: string | null;
  /**
   * Seconds between blocks as the order's mode sees them (lib/chains blockSecondsOf: the sandbox's pace
   * in test mode, the catalog's live): the estimate of the confirmations still to come; 0 gives none.
   */
  blockSeconds: number;
  amount: string;
  /** Sum of the confirmed (counted) payments. */
  received: string;
  /** amount − received − payments still confirming, never below 0. */
  remaining: string;
  address: string;
  tag: string | null;
  /** The wallet URI of the QR code, for `remaining` (see lib/chains/payment-uri). */
  walletUri: string;
  returnUrl: string | null;
  expiresAt: string;
  /** The server's clock when the view was built: the countdown corrects the browser's clock by it. */
  serverTime: string;
  requiredConfirmations: number;
  payments: PublicPayment[];
  otherTransfers: PublicOtherTransfer[];
  /** The invoice whose price this order pays; null for an order made by make-order. */
  invoice: PublicOrderInvoice | null;
  /** Set on an expired or underpaid order with something to offer or say (./public-view). */
  rest: PublicRest | null;
  /** Set on an unsettled underpaid, overpaid or paid-late order that offers its payer a refund (./public-view). */
  refundOffer: PublicRefundOffer | null;
  /** The order whose rest this order pays; null for any other order. */
  remainderOf: string | null;
}

/** The screen of an order from its status, payments and other transfers. */
export function screenOf(input: {
  status: PublicStatus;
  received: string;
  payments: readonly Pick<PublicPayment, 'status'>[];
  otherTransfers: readonly Pick<PublicOtherTransfer, 'late'>[];
}): Screen {
  switch (input.status) {
    case 'processed':
      return 'paid';
    case 'overpaid':
      return 'overpaid';
    case 'error':
      return 'error';
    case 'expired':
    case 'partial':
      if (input.otherTransfers.some((t) => t.late)) return 'paid-late';
      return input.status === 'expired' ? 'expired' : 'underpaid';
    case 'pending':
      if (input.payments.some((p) => p.status === 'detected')) return 'detected';
      return /^0(\.0*)?$/.test(input.received) ? 'awaiting' : 'partially-paid';
  }
}

/** Only a paid order has a receipt (/pay/{orderId}/receipt, lib/receipts): processed, or overpaid. */
export function hasReceipt(screen: Screen): boolean {
  return screen === 'paid' || screen === 'overpaid';
}
