import 'server-only';
/**
 * Receipts and invoices as documents (docs/receipts.md, docs/decisions/075 and 076): the public
 * receipt of a paid order, its PDF, and an invoice's PDF before payment, in the payment page's
 * languages, from the same payer-safe views the payment and invoice pages show.
 */
export {
  formatMoment,
  invoiceDocument,
  receiptDocument,
  type DocumentRow,
  type PayerDocument,
  type ReceiptFacts,
} from './document';
export { loadReceipt, type LoadedReceipt } from './load';
export { LOGO_MAX_SIDE, mailLogoOf, pdfLogoOf } from './logo';
export { pdfHeaders, renderPdf } from './pdf';
export {
  gatedPdfResponse,
  PDF_RENDERS_AT_ONCE,
  PDF_RENDER_WAIT_MS,
  withPdfRender,
  type PdfRefusal,
} from './render-gate';
export { RECEIPT_MESSAGES, type ReceiptMessages } from './receipt-messages';
