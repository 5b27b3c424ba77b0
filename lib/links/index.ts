import 'server-only';
/**
 * Payment links (docs/payment-links.md): a public page that sells one thing at a price, in the
 * coins the merchant offers. A visit makes nothing; a payer who goes on gets an invoice
 * (lib/invoices), and only a coin choice on it takes an address. What links make is capped per
 * link, per client and gateway-wide (./start).
 */
export * from './errors';
export { linkStatus, priceOfChoice, saleTotal, type LinkFacts, type LinkPrice } from './rules';
export {
  countLinkView,
  createPaymentLink,
  disablePaymentLink,
  findPublicLink,
  getPaymentLink,
  listPaymentLinks,
  type LinkScope,
  type LinkWithCounts,
  type PaymentLinkRow,
  type PublicLinkRow,
} from './store';
export { linkPrice, startLinkInvoice, type LinkChoice } from './start';
export { paymentLinkUrl, serializePaymentLink } from './serialize';
export {
  getSale,
  posSettings,
  salesSince,
  saleState,
  startSale,
  updatePosSettings,
  type Cashier,
  type PosSettings,
  type SaleRow,
} from './pos';
export { POS_TEXTS, posLanguage, type PosLanguage, type PosTexts } from './pos-texts';
