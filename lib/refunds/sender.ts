/**
 * Refunding to the address a payment came from (issue 37, docs/decisions/125), as pure rules: the
 * one address every counted transfer of the refunded payment came from, and whether a refund there
 * can be sent without a tag the gateway cannot know.
 */
import type { Network } from '../catalog';
import { isValidAddress } from '../chains';

/**
 * The single address the refunded payment came from, or null when there is none to offer: on the
 * Bitcoin family (a transaction spends inputs, often of many addresses and change, none of them an
 * address that asked to be paid), when a transfer's sender is unknown, when the transfers came from
 * more than one address, or when the address is not one of `network`'s.
 *
 * @param senders the sender of each counted transfer of the payment (an order's payments, an orphan
 * deposit's one transfer), as the watcher recorded it.
 */
export function refundSenderAddress(network: Network, senders: readonly (string | null)[]): string | null {
  if (network.family === 'utxo' || senders.length === 0) return null;
  const [first] = senders;
  if (!first) return null;
  // EVM addresses are hex, told apart by case only in their checksum; elsewhere case is meaning.
  const same = (a: string | null) =>
    a !== null && (network.family === 'evm' ? a.toLowerCase() === first.toLowerCase() : a === first);
  if (!senders.every(same)) return null;
  return isValidAddress(network, first) ? first : null;
}

/**
 * Whether a refund on `network` needs a destination tag (the XRP Ledger): the tag an exchange's
 * deposit address takes is unknown to the gateway, so such a refund goes through the claim link.
 * A Solana Pay reference is the gateway's own, for telling payments apart, never the payer's.
 */
export function refundNeedsTag(network: Network): boolean {
  return network.usesTags && !network.paymentReference;
}
