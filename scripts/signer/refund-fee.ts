/**
 * What the signer believes of a refund plan's "fee taken from the refund" (docs/decisions/120), for
 * the plans one account pays in the coin (EVM and Tron from the treasury). A gateway could shrink a
 * refund by a made-up fee, so the plan's `pays` must be the refund's whole amount, or, for a coin
 * refund whose payer bears the fee, exactly the amount less the fee its transaction may spend,
 * which the caller has bounded already (EVM `maxGasPayerSpend`, Tron `maxBurn`). A token refund
 * never pays its fee from the token.
 */
import { formatUnits } from '../../lib/money';

/** Every reason `refund`'s `pays` is not what its amount and `fee` (base units of the coin, the plan's own) leave. */
export function feeFromRefundRefusals(
  refund: { amount: string; pays: string; feeFromRefund: boolean },
  values: { amount: bigint; pays: bigint },
  fee: { coin: boolean; planned: bigint; decimals: number; ticker: string },
): string[] {
  const { amount, pays } = values;
  if (pays > amount) return [`the plan pays ${refund.pays}, more than the refund's ${refund.amount}`];
  if (!refund.feeFromRefund)
    return pays === amount
      ? []
      : [`the plan pays ${refund.pays}, not the refund's ${refund.amount}, and the fee is not taken from it`];
  if (!fee.coin)
    return ['the plan takes the fee from a token refund: the fee is paid in the coin, never from the token'];
  if (amount - pays !== fee.planned)
    return [
      `the plan pays ${refund.pays}: the refund's ${refund.amount} less ${formatUnits(amount - pays, fee.decimals)} ${fee.ticker}, not less its transaction's fee of ${formatUnits(fee.planned, fee.decimals)} ${fee.ticker}`,
    ];
  return [];
}

/** The summary's note on a refund that pays less than its amount: the payer bears the fee (`units` writes an amount). */
export function feeNote(checked: { amount: bigint; pays: bigint }, units: (value: bigint) => string): string {
  return checked.pays < checked.amount
    ? ` (the refund of ${units(checked.amount)} less its fee, which the payer bears)`
    : '';
}
