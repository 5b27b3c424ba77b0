import 'server-only';
/**
 * The network fee a refund plan takes from its refund when the merchant chose "fee taken from the
 * refund" (docs/decisions/120): one rule for the plans whose fee is paid in the coin by one account
 * (EVM and Tron from the treasury, Solana from the order's wallet). A coin refund pays its payer the
 * refund less the plan's fee; a token refund cannot pay its fee from the token (the fee is in the
 * coin), so the choice is ignored there and the plan says `feeFromRefund: false`. The Bitcoin family
 * takes its fee from the refund's output instead (lib/chains/utxo/transactions `buildRefundPsbt`).
 */
import type { Currency } from '../catalog';
import { formatUnits } from '../money';
import { CollectionRefused } from './errors';
import type { RefundToPay } from './refund-plans';

/**
 * What a plan of `request` in `currency` pays and takes as its fee, given the plan's fee `fee` in
 * the coin's base units: the whole refund and no fee unless the payer bears it and the refund is in
 * the coin. CollectionRefused when that fee would leave the payer nothing.
 */
export function feeTakenFromRefund(
  request: Pick<RefundToPay, 'amount' | 'feeFromRefund'>,
  currency: Pick<Currency, 'ticker' | 'decimals' | 'contract'>,
  fee: bigint,
): { fee: bigint; pays: bigint } {
  if (!request.feeFromRefund || currency.contract) return { fee: 0n, pays: request.amount };
  const pays = request.amount - fee;
  if (pays <= 0n)
    throw new CollectionRefused(
      `the refund of ${formatUnits(request.amount, currency.decimals)} ${currency.ticker} does not cover its network fee of ${formatUnits(fee, currency.decimals)} ${currency.ticker}: send it with the fee paid by the sender`,
    );
  return { fee, pays };
}
