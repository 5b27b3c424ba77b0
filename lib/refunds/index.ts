import 'server-only';
/**
 * Refunds (issue 37, docs/decisions/071): money paid back to a payer by the merchant's own key, as
 * a new object linked to the order, invoice or orphan deposit it refunds (the order never changes).
 * The payer names the address through a claim link; the sum refunded for a payment never exceeds
 * what it received (the database holds it). Mispayment fixes (issue 38) make refunds with
 * `makeRefund` and move them with `applyRefundAction`.
 */
export { approveRefund } from './approval';
export {
  aboveApprovalThreshold,
  REFUND_APPROVAL_FORM,
  refundApprovalRule,
  setRefundApprovalRule,
  type RefundApprovalRule,
} from './approval-rule';
export { CLAIM_LIFETIME_MS, claimUrl } from './claims';
export { checkClaimAddress, confirmClaim, openClaim, reviewClaimAddress, type ClaimView } from './claim';
export {
  ClaimAddressInvalid,
  type ClaimAddressProblem,
  ClaimLinkInvalid,
  NotRefundable,
  RefundDestinationRefused,
  RefundExceedsReceived,
  RefundNetworkUnavailable,
  RefundStateConflict,
  RefundTransactionRefused,
  type RefundError,
} from './errors';
export {
  completeRefundByTransaction,
  markRefundNotSent,
  recheckRefundsSentByHand,
  type CompleteRefundOptions,
  refundChain,
  type RefundChain,
} from './completion';
export { countsAsMissing, mayMarkNotSent, MISSING_BEFORE_NOT_SENT_MS } from './missing';
export {
  judgeRefundTransaction,
  owedBy,
  type RefundOwed,
  type RefundTransactionJudgement,
  type RefundTransactionProblem,
} from './transfer-check';
export { planRefund, settleRefundPlans, type PlanRefundOptions } from './plans';
export { refundPayWays, type RefundPayWays } from './pay-ways';
export { refundTronTransfer, refundWalletUri } from './wallet';
export type { TronWalletTransfer } from './wallet-transfer';
export { priceRefund, refundRates, type PricedRefund, type RefundPrice, type RefundRates } from './pricing';
export {
  holdsAmount,
  isFinalRefundState,
  nextRefundState,
  refundActionOfPlanChange,
  type RefundAction,
  type RefundTransition,
} from './lifecycle';
export {
  applyRefundAction,
  cancelRefund,
  getRefund,
  leftToRefund,
  listRefunds,
  lockRefund,
  makeRefund,
  paymentSenderAddress,
  refundablePayment,
  reopenRefund,
  serializeRefund,
  writeRefund,
  type MadeRefund,
  type MadeRefundTo,
  type MakeRefund,
  type RefundablePayment,
  type RefundChange,
  type RefundRow,
  type RefundTarget,
} from './store';
