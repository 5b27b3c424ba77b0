import 'server-only';
/**
 * Mispayments (issue 38, docs/decisions/069): an order that ended underpaid, or was paid after its
 * deadline, is settled without changing its final status: a remainder order ("pay the rest"), the
 * merchant's late-payment rule, or the merchant's decision, each recorded once as the order's
 * settlement with an `order.resolved` event; or the payer asks for a refund instead (./payer-refund.ts).
 */
export { NoPayerRefund, NoRemainder, NothingToDecide, PaymentBeingRefunded, type MispaymentError } from './errors';
export { payerRefundOfferOf, requestPayerRefund } from './payer-refund';
export { EXCESS_CLAIM_FORM, excessClaimRule, setExcessClaimRule } from './excess-claim';
export { mispaidOrder, type MispaidOrder } from './facts';
export { openRemainder, payerRest, remainderClientOrderId, remainderLeft, type PayerRest } from './remainder';
export { acceptLatePayments, lateVerdict, resolvePaidRemainders, totalReceived } from './resolve';
export { mispaymentsOf, type OrderMispayment } from './dashboard';
export { decideMispayment, type DecidedMispayment } from './decide';
export { standingOf, waitsForDecision } from './standing';
export {
  judgeLatePayment,
  payerRefundAmount,
  payerRefundOffer,
  REMAINDER_MINIMUM_PER_MILLE,
  remainderAmount,
  remainderMinimum,
  type LateRule,
  type LateVerdict,
  type MerchantDecision,
  type PayerRefundKind,
} from './rules';
