import 'server-only';
/**
 * Fiat-priced invoices (docs/invoices.md): a price in USD, EUR, GBP or a coin, paid in the coin the
 * payer chooses on the invoice page at a live rate. The invoice's status follows every order its
 * choices made (./lifecycle, a pure function); its final status is announced by webhook.
 */

export { chooseCoin, loadInvoice } from './choose';
export { COIN_CHOICE_FORM, coinChoiceRefusal } from './choice-form';
export * from './errors';
export { canChooseCoin, evaluateInvoice, MAX_INVOICE_ORDERS, type InvoiceFacts } from './lifecycle';
export {
  makeInvoice,
  makeLinkInvoice,
  priceDecimalsOf,
  priceOf,
  quoteLinkInvoice,
  type InvoiceCaller,
  type InvoiceQuote,
  type LinkInvoice,
} from './make';
export { lineItemsOf, lineItemsToStore, type GivenLineItem, type StoredLineItem } from './items';
export { loadInvoiceView } from './public-view';
export { getInvoice, invoiceLineItems, listInvoices, withOrders } from './read';
export type { InvoiceRow, InvoiceWithOrder } from './rows';
export { invoiceLink, serializeInvoice } from './serialize';
export { followOrders, sweepInvoices, type InvoiceStatusChange } from './settle';
export { withinSlippage } from './slippage';
export { resolveOffers } from './offers';
