/**
 * The payer-safe view of an invoice: what the invoice page shows. Pure types, client-safe; built
 * on the server by ./public-view. Only fields a payer may see: never the webhook URL, the merchant's
 * own ids (externalId, order), the API keys.
 */
import type { PublicBrand } from '../pay/view';
import type { InvoiceStatus } from '../protocol';

/** One network a coin may be paid on, with the amount the payer would send if they chose it now. */
export interface InvoiceCoinNetwork {
  network: string;
  networkName: string;
  /** The token standard on this network (ERC-20, BEP-20, TRC-20), null for the network's native coin. */
  tokenStandard: string | null;
  /** Decimal amount of the coin; null when no fresh rate exists right now (the choice is then disabled). */
  amount: string | null;
}

export interface InvoiceCoin {
  ticker: string;
  name: string;
  networks: InvoiceCoinNetwork[];
}

/**
 * What the invoice page shows, one screen per situation:
 * - choose: the payer may pick a coin (CREATED, or INIT before anything was paid).
 * - pay: a payment was seen on the chosen coin's order: the payment page is where to go.
 * - paid: PROCESSED or OVERPAID.
 * - expired: EXPIRED (time ran out with nothing received).
 * - closed: PARTIAL, REJECTED or ERROR: the payment page of the order says what happened.
 */
export type InvoiceScreen = 'choose' | 'pay' | 'paid' | 'expired' | 'closed';

/** One line of an invoice (./items): its name, how many, the price of one and of the line, decimals of the invoice's currency. */
export interface InvoiceLineItem {
  name: string;
  quantity: number;
  unitPrice: string;
  total: string;
}

export interface PublicInvoiceView {
  invoiceId: string;
  status: InvoiceStatus;
  screen: InvoiceScreen;
  /** Test-mode invoice: the page shows TEST MODE. */
  test: boolean;
  merchantName: string;
  /** The merchant's logo and accent colour (rendered on the server only). */
  brand: PublicBrand;
  description: string | null;
  /** What the payer buys, line by line; empty when the invoice's maker gave no lines. */
  items: InvoiceLineItem[];
  /** The price currency (USD, EUR, a coin ticker) and the price, a canonical decimal string. */
  currency: string;
  amount: string;
  returnUrl: string | null;
  expiresAt: string;
  /** The server's clock when the view was built (the countdown corrects the browser's clock by it). */
  serverTime: string;
  /** The order of the latest choice, when one was made: its payment page is /pay/{orderId}. */
  chosen: { orderId: string; currency: string; network: string } | null;
  /** The coins offered, the merchant's most used first, each with its networks. */
  coins: InvoiceCoin[];
}

/** The screen of an invoice from its status. */
export function invoiceScreenOf(status: InvoiceStatus, canChoose: boolean): InvoiceScreen {
  switch (status) {
    case 'PROCESSED':
    case 'OVERPAID':
      return 'paid';
    case 'EXPIRED':
      return 'expired';
    case 'PARTIAL':
    case 'REJECTED':
    case 'ERROR':
      return 'closed';
    case 'PENDING':
      return 'pay';
    case 'CREATED':
    case 'INIT':
      return canChoose ? 'choose' : 'expired';
  }
}
