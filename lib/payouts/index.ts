import 'server-only';
/**
 * Money out, without custody (docs/decisions/052, 081): funds per network, the merchant's treasury,
 * collection and refund plans and their state as the watcher sees them. Plans are data the signer checks on
 * the merchant's machine; nothing here ever sees a private key.
 */
export {
  collectionPlan,
  discardRefundPlans,
  fundsOf,
  listMoneyOutPlans,
  movePlan,
  newestRefundPlan,
  openRefundPlan,
  prepareAnyCollection,
  prepareCollection,
  refundFeeEstimate,
  settleCollections,
  type CollectionStep,
  type FundsLine,
  type PlanChange,
  type PlanWrite,
  type PrepareCollection,
} from './collections';
export { collectedCurrency, evmPlansWithNoncesUsed } from './account-collections';
export { evmRefundSightings } from './evm-refund-plans';
export { sweptCoinSightings } from './swept-coin';
export { tronRefundSightings } from './tron-refund-plans';
export { xrplRefundSightings } from './xrpl-refund-plans';
export {
  CollectionRefused,
  DepositKeyInvalid,
  FeePayerInvalid,
  KeyMaterialRefused,
  TreasuryInvalid,
  type PayoutError,
} from './errors';
export { checkDepositKey, depositKeyOf, setDepositKey, type DepositKeySet } from './deposit-keys';
export { checkFundsAgainstNode } from './funds-check';
export {
  DEFAULT_FEE_PAYER_PATH,
  checkFeePayer,
  feePayerOf,
  feePayersOf,
  setFeePayer,
  type FeePayer,
} from './fee-payers';
export { fundsReport, gasLeftOnWire } from './funds-report';
export { gapLimitOf, type GapLimit } from './gap-limit';
export { gasLeftReport, gasLeftSummary, type GasLeftLine } from './gas-left';
export { refuseKeyMaterial } from './key-material';
export { prepareRefundPlan, type RefundToPay } from './refund-plans';
export {
  decideAccountPlan,
  decidePlan,
  isFinalPlanStatus,
  type AccountPlanInputState,
  type PlanDecision,
  type PlanInputState,
} from './lifecycle';
export { broadcastTronPlan, prepareTronCollection, settleTronPlan } from './tron-collections';
export {
  broadcastTransaction,
  submitPlan,
  takesSubmission,
  type BroadcastTransaction,
  type SubmitPlan,
} from './submit';
export { checkTreasury, setTreasury, treasuryOf } from './treasury';
