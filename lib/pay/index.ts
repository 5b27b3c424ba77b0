import 'server-only';
/** The hosted payment page's server side: the payer-safe order view and the page's language. */
export {
  buildPublicView,
  loadPublicBrand,
  loadPublicView,
  type PublicInvoiceRow,
  type PublicOrderRow,
  type PublicTransferRow,
} from './public-view';
export { walletSolanaTransaction, type WalletSolanaTransaction } from './wallet-solana';
export type { PublicBrand, PublicOrderInvoice, PublicOrderView, PublicRefundOffer, Screen } from './view';
export { rememberPayerLanguage } from './payer-language';
export { PAYER_POSTS_PER_MINUTE, payerPostWait } from './payer-posts';
