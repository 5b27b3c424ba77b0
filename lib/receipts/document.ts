/**
 * A receipt or an invoice as a document: its title, state and labelled rows, in one language,
 * from the payer-safe views the payment and invoice pages show (lib/pay, lib/invoices). The
 * receipt page and both PDFs draw this one model, so the page and its PDF never say different
 * things. Pure: tested in document.test.ts.
 */
import { FIAT_CURRENCIES } from '../catalog';
import type { InvoiceLineItem, PublicInvoiceView } from '../invoices/view';
import { formatAmount, formatPrice, interpolate, isolate } from '../pay/format';
import { directionOf, type Language } from '../pay/i18n';
import { INVOICE_MESSAGES, MESSAGES } from '../pay/messages';
import type { PublicOrderView } from '../pay/view';
import { RECEIPT_MESSAGES } from './receipt-messages';

export interface DocumentRow {
  label: string;
  value: string;
  /** A link the value opens (a transaction on its explorer, the invoice page). */
  href: string | null;
  /** An id the payer may copy or read out: drawn in a fixed-width style and kept left to right. */
  code: boolean;
}

export interface PayerDocument {
  kind: 'receipt' | 'invoice';
  language: Language;
  direction: 'ltr' | 'rtl';
  /** "Receipt from {merchant}" with the name isolated (FSI/PDI): the heading and the PDF's title. */
  title: string;
  merchantName: string;
  /** The state in the page's words ("Paid"). */
  status: string;
  rows: DocumentRow[];
  /** "TEST MODE" on a test-mode order or invoice, else null. */
  testMode: string | null;
}

/** A moment in the language's words, in UTC (the receipt is the same wherever it is opened), ASCII digits. */
export function formatMoment(moment: Date, language: Language): string {
  const format = new Intl.DateTimeFormat(language, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
    numberingSystem: 'latn',
  });
  return `${format.format(moment)} UTC`;
}

/**
 * A line item's value: its total, and how many at what price when more than one ("2 × $5.00 =
 * $10.00"), in the invoice's currency. Its label is the item's name. The receipt, both PDFs and
 * the paid mail write a line this way.
 */
export function lineItemValue(item: InvoiceLineItem, currency: string, language: Language): string {
  const fiat = FIAT_CURRENCIES.includes(currency);
  const total = formatPrice(item.total, currency, language, fiat);
  if (item.quantity === 1) return total;
  return `${item.quantity} × ${formatPrice(item.unitPrice, currency, language, fiat)} = ${total}`;
}

const row = (label: string, value: string, extra: Partial<Pick<DocumentRow, 'href' | 'code'>> = {}): DocumentRow => ({
  label,
  value,
  href: extra.href ?? null,
  code: extra.code ?? false,
});

export interface ReceiptFacts {
  view: PublicOrderView;
  /** When the order reached its paid state (its `order.processed` or `order.overpaid` event). */
  paidAt: Date | null;
  /** An invoice's order: the price of one of the order's coin in the invoice's currency, a decimal string. */
  rate: string | null;
  /** The explorer link of a transaction, where there is one. */
  explorer: (txid: string) => string | null;
  /** An invoice's order: the invoice's line items, in the invoice's currency (empty without). */
  items: InvoiceLineItem[];
}

export function receiptDocument(facts: ReceiptFacts, language: Language): PayerDocument {
  const { view } = facts;
  const m = MESSAGES[language];
  const rm = RECEIPT_MESSAGES[language];
  const coin = (amount: string) => `${formatAmount(amount, language)} ${view.currency}`;
  const rows: DocumentRow[] = [row(m.orderReference, view.orderId, { code: true })];
  if (view.description) rows.push(row(m.description, view.description));
  const invoice = view.invoice;
  const fiat = invoice !== null && FIAT_CURRENCIES.includes(invoice.currency);
  if (invoice) {
    for (const item of facts.items) rows.push(row(item.name, lineItemValue(item, invoice.currency, language)));
    rows.push(row(m.invoicePrice, formatPrice(invoice.amount, invoice.currency, language, fiat)));
  }
  rows.push(row(m.orderTotal, `${coin(view.amount)} (${view.networkName})`));
  rows.push(row(m.received, coin(view.received)));
  if (invoice && facts.rate)
    rows.push(row(rm.rate, `1 ${view.currency} = ${formatPrice(facts.rate, invoice.currency, language, fiat)}`));
  if (facts.paidAt) rows.push(row(rm.paidOn, formatMoment(facts.paidAt, language)));
  for (const payment of view.payments)
    if (payment.status === 'confirmed')
      rows.push(row(m.transaction, payment.txid, { href: facts.explorer(payment.txid), code: true }));
  return {
    kind: 'receipt',
    language,
    direction: directionOf(language),
    title: interpolate(rm.receiptTitle, { merchant: isolate(view.merchantName) }),
    merchantName: view.merchantName,
    status: m.screens[view.screen].title,
    rows,
    testMode: view.test ? m.testMode : null,
  };
}

/** An invoice as a document, before or after payment; `invoiceUrl` is its page, where it is paid. */
export function invoiceDocument(view: PublicInvoiceView, language: Language, invoiceUrl: string): PayerDocument {
  const m = MESSAGES[language];
  const im = INVOICE_MESSAGES[language];
  const rm = RECEIPT_MESSAGES[language];
  const fiat = FIAT_CURRENCIES.includes(view.currency);
  const rows: DocumentRow[] = [row(rm.invoiceReference, view.invoiceId, { code: true })];
  if (view.description) rows.push(row(m.description, view.description));
  for (const item of view.items) rows.push(row(item.name, lineItemValue(item, view.currency, language)));
  rows.push(row(im.price, formatPrice(view.amount, view.currency, language, fiat)));
  if (view.screen === 'choose' || view.screen === 'pay') {
    rows.push(row(rm.payBy, formatMoment(new Date(view.expiresAt), language)));
    rows.push(row(rm.payOnline, invoiceUrl, { href: invoiceUrl, code: true }));
  }
  return {
    kind: 'invoice',
    language,
    direction: directionOf(language),
    title: interpolate(im.pageTitle, { merchant: isolate(view.merchantName) }),
    merchantName: view.merchantName,
    status: im.screens[view.screen].title,
    rows,
    testMode: view.test ? m.testMode : null,
  };
}
