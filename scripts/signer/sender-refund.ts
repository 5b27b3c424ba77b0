/**
 * Where a refund plan pays, as the signer checks and shows it (docs/decisions/126): to the address
 * the payer confirmed by its claim link, or, on an account chain, to the address the payment came
 * from, which the merchant chose (the refund's `delivery` is `sender`, decision 125). A gateway
 * playing attacker could call an address of its own the payment's sender, so the signer believes
 * it only when every transaction of the payment it read on its own node came from that address,
 * by the rule the gateway's watcher names a sender by (EVM: the transaction's `from`, a token's
 * Transfer `from`; Tron: the TransferContract's owner, a TRC-20 Transfer's from; Solana:
 * lib/chains/solana/transactions `solanaPaymentSender`).
 */
import type { PlanRefund } from '../../lib/protocol';

/** What the destination's lines read of a plan's refund. */
type RefundDestination = Pick<PlanRefund, 'destination' | 'addressConfirmedAt' | 'delivery'>;

/** Who sent one counted transfer of the refunded payment, as the signer's node shows it; null when it cannot tell. */
export interface PaymentSender {
  /** The transaction (hash, id or signature) the transfer is in. */
  transaction: string;
  sender: string | null;
}

/** Whether the merchant chose the address the payment came from, rather than the payer by its claim link. */
export const isSenderRefund = (refund: Pick<PlanRefund, 'delivery'>): boolean => refund.delivery === 'sender';

/** Who confirmed the refund's destination, as the merchant reads it. */
export const destinationSource = (refund: Pick<PlanRefund, 'delivery'>): string =>
  isSenderRefund(refund) ? 'the address the payment came from' : 'the address the payer confirmed';

/**
 * Why a refund plan marked `sender` does not pay the payment's sender, naming both addresses: each
 * counted transfer that came from another address (or from one the node does not tell), or no
 * transfer at all. None for a refund the payer claimed. `same` compares two addresses (EVM: without
 * case, its checksum being case).
 */
export function senderRefundRefusals(
  refund: Pick<PlanRefund, 'destination' | 'delivery'>,
  senders: readonly PaymentSender[],
  same: (a: string, b: string) => boolean = (a, b) => a === b,
): string[] {
  if (!isSenderRefund(refund)) return [];
  if (senders.length === 0)
    return [
      `the plan pays ${refund.destination} as the address the payment came from, but your node shows no transfer of the payment to check it by`,
    ];
  return senders
    .filter((s) => s.sender === null || !same(s.sender, refund.destination))
    .map(
      (s) =>
        `the plan pays ${refund.destination} as the address the payment came from, but the payment's transaction ${s.transaction} came from ${s.sender ?? 'an address your node does not tell'} on your node`,
    );
}

/** The refusal of a plan that says `sender` on a network whose refunds go only to the payer's claim (Bitcoin family, XRP Ledger). */
export function claimOnlyRefusals(refund: Pick<PlanRefund, 'delivery'>, network: string): string[] {
  return isSenderRefund(refund)
    ? [
        `the plan says the merchant chose the address the payment came from; on ${network} a refund is paid only to the address the payer confirmed by its claim link`,
      ]
    : [];
}

/**
 * The summary's line of where the refund goes: `pays` to the address (as shown: `address`, the
 * destination by default; with its destination tag where the network has tags, `tag` null saying
 * there is none), who confirmed it and when, and `note` (the fee the payer bears, say). A refund
 * to the payment's sender carries the warning the order page gives the merchant.
 */
export function refundDestinationLine(
  refund: RefundDestination,
  pays: string,
  shown: { address?: string; tag?: string | null; note?: string } = {},
): string {
  const tag =
    shown.tag === undefined
      ? ''
      : shown.tag === null
        ? ' with NO destination tag'
        : ` with destination tag ${shown.tag}`;
  const confirmed = isSenderRefund(refund)
    ? `${destinationSource(refund)}, chosen by the merchant at ${refund.addressConfirmedAt} (exchange deposit addresses often cannot receive refunds)`
    : `${destinationSource(refund)} at ${refund.addressConfirmedAt}`;
  return `  pays ${pays} to ${shown.address ?? refund.destination}${tag}, ${confirmed}${shown.note ?? ''}`;
}
