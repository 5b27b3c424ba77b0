/**
 * Whether a transaction the merchant entered pays a refund (docs/decisions/092), as a pure
 * function of the refund and the transaction the chain showed (ChainAdapter.transaction):
 *
 * - the node must know it (on account chains: in a block);
 * - it must move the refund's coin to the address the payer confirmed (addresses compared without
 *   case: hex and bech32 are case-blind, and a base58 address that differs in case only fails its
 *   checksum, so the chain never names one), and under the payer's tag when they gave one;
 * - what those transfers deliver together must reach what the refund owes: its amount, or when the
 *   payer bears the fee (`feeFromRefund`) its amount less the fee the transaction paid, where the
 *   chain tells that fee in the refund's own coin (a token's fee is paid in another coin: the
 *   whole amount is owed; a Bitcoin-family transaction already mined does not tell its fee).
 */
import { formatUnits } from '../money';
import type { FoundTransaction } from '../chains';

/** What a refund is owed, as the check needs it. */
export interface RefundOwed {
  address: string;
  tag: string | null;
  currency: string;
  /** Base units. */
  amount: bigint;
  feeFromRefund: boolean;
  decimals: number;
  /** The network's native coin, the one its fees are paid in. */
  nativeCurrency: string;
}

/** Why a transaction does not complete a refund (`txId`, `used` and `sent` are decided before the chain is asked). */
export type RefundTransactionProblem = 'txId' | 'unknown' | 'used' | 'sent' | 'address' | 'tag' | 'amount';

export type RefundTransactionJudgement =
  | { ok: true; paid: bigint; confirmations: number; blockHash: string | null }
  | { ok: false; problem: RefundTransactionProblem; message: string };

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The smallest payment that completes `refund` by a transaction that paid `fee` (null: not told). */
export function owedBy(refund: RefundOwed, fee: bigint | null): bigint {
  if (!refund.feeFromRefund || fee === null || refund.currency !== refund.nativeCurrency) return refund.amount;
  return fee >= refund.amount ? 1n : refund.amount - fee;
}

export function judgeRefundTransaction(refund: RefundOwed, found: FoundTransaction | null): RefundTransactionJudgement {
  const units = (value: bigint) => `${formatUnits(value, refund.decimals)} ${refund.currency}`;
  if (!found)
    return {
      ok: false,
      problem: 'unknown',
      message: 'The network does not know this transaction (on account networks: not in a block yet).',
    };
  const toAddress = found.transfers.filter((t) => t.currency === refund.currency && sameAddress(t.to, refund.address));
  if (toAddress.length === 0)
    return {
      ok: false,
      problem: 'address',
      message: `This transaction pays no ${refund.currency} to the refund's address ${refund.address}.`,
    };
  const paying = refund.tag === null ? toAddress : toAddress.filter((t) => t.tag === refund.tag);
  if (paying.length === 0)
    return {
      ok: false,
      problem: 'tag',
      message: `This transaction pays the refund's address without its destination tag ${refund.tag}.`,
    };
  const paid = paying.reduce((sum, t) => sum + t.amount, 0n);
  const owed = owedBy(refund, found.fee);
  if (paid < owed)
    return {
      ok: false,
      problem: 'amount',
      message: `This transaction pays ${units(paid)} to the refund's address; the refund owes ${units(owed)}${owed < refund.amount ? ' (its amount less the fee the payer bears)' : ''}.`,
    };
  return { ok: true, paid, confirmations: found.confirmations, blockHash: found.blockHash };
}
