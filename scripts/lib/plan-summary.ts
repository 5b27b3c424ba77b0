/**
 * What `npm run collect` prints of a plan (prepared or shown): one line of what it moves and its
 * status, then where it goes and at what fee. A Bitcoin-family plan (a PSBT, or a raw transaction on
 * dogecoin and bitcoincash: docs/decisions/118, 121; a refund or a collection), an account chain's (EVM, Tron; docs/decisions/093), whose fee is its fee payer's, or an EVM
 * or Tron refund's one transaction from the treasury (docs/decisions/112, 115).
 */
import type {
  EvmRefundPlan,
  MoneyOutPlan,
  RawCollectionPlan,
  RawRefundPlan,
  StoredAccountPlan,
  TronRefundPlan,
} from '../../lib/protocol';

export function planSummary(
  plan: MoneyOutPlan | RawCollectionPlan | RawRefundPlan | StoredAccountPlan | EvmRefundPlan | TronRefundPlan,
): string {
  if (plan.kind === 'refund' && plan.format === 'tron')
    return [
      `${plan.planId}  ${plan.status}  tron ${plan.mode}: refund ${plan.refund.refundId}`,
      `  ${plan.refund.pays} ${plan.currency} to ${plan.refund.destination} from the treasury ${plan.treasury} (burns about ${plan.transaction.burn} sun)`,
      `  transaction ${plan.transaction.txID}, to sign before ${plan.transaction.expiresAt}`,
      ...(plan.reason ? [`  ${plan.reason}`] : []),
    ].join('\n');
  if ('transaction' in plan)
    return [
      `${plan.planId}  ${plan.status}  ${plan.network} ${plan.mode}: refund ${plan.refund.refundId}`,
      `  ${plan.refund.pays} ${plan.currency} to ${plan.refund.destination} from the treasury ${plan.treasury} (nonce ${plan.transaction.nonce})`,
      ...(plan.txid ? [`  transaction ${plan.txid}`] : []),
      ...(plan.reason ? [`  ${plan.reason}`] : []),
    ].join('\n');
  if (!('psbt' in plan) && !('unsignedTx' in plan)) {
    const evm = 'family' in plan ? plan : null;
    const count = evm ? evm.items.length : 'addresses' in plan ? plan.addresses.length : 0;
    const currency = evm ? (evm.tokens[0]?.ticker ?? 'the coin') : 'currency' in plan ? plan.currency : '';
    return [
      `${plan.planId}  ${plan.status}  ${plan.network} ${plan.mode}: ${count} addresses of ${currency}`,
      evm
        ? `  to ${plan.treasury}: ${evm.transactions.length} transactions; the gas payer ${evm.gasPayer.address} spends at most ${evm.maxGasPayerSpend} wei`
        : `  to ${plan.treasury}: ${'total' in plan ? plan.total : ''} base units; ${'burn' in plan ? plan.burn : ''} sun burned`,
      ...(plan.reason ? [`  ${plan.reason}`] : []),
    ].join('\n');
  }
  return [
    `${plan.planId}  ${plan.status}  ${plan.network} ${plan.mode}: ${plan.inputs.length} outputs, ${plan.total} ${plan.currency}`,
    ...(plan.kind === 'refund'
      ? [
          `  refund ${plan.refund.refundId}: ${plan.refund.pays} ${plan.currency} to ${plan.refund.destination}, the rest to ${plan.treasury}; fee ${plan.fee} (${plan.feeRate} per vbyte)`,
        ]
      : [`  to ${plan.treasury}: ${plan.sent} ${plan.currency}, fee ${plan.fee} (${plan.feeRate} per vbyte)`]),
    ...(plan.txid ? [`  transaction ${plan.txid}`] : []),
    ...(plan.reason ? [`  ${plan.reason}`] : []),
  ].join('\n');
}
