import 'server-only';
/**
 * "Send with wallet" on a refund (docs/decisions/098): the EIP-681 request for the exact transfer
 * a ready EVM refund makes, for the merchant's browser wallet (the treasury's account, EIP-1193) to
 * send. The dashboard's button reads it with lib/pay/wallet-request, as the payment page's button
 * reads an order's, and records the transaction it sent through the one completion path of a
 * refund sent by hand (./completion.ts: verified on chain, decision 092).
 */
import { findCurrency } from '../catalog';
import { networkFor, paymentUri } from '../chains';
import { parseUnits } from '../money';
import type { Mode, RefundResponse } from '../protocol';

/**
 * The wallet URI of `refund`'s transfer: its whole amount (the merchant's wallet pays the gas) to
 * the address the payer confirmed, on the network as live mode configures it (its chain id and
 * token contracts). Null when no browser wallet sends it: not ready, waiting for a second
 * approval, test mode (the sandbox ledger, whose chain id is the real chain's), or not EVM.
 */
export function refundWalletUri(refund: RefundResponse, mode: Mode): string | null {
  if (mode !== 'live' || refund.state !== 'ready' || refund.approval === 'required' || !refund.address) return null;
  const network = networkFor(mode, refund.network);
  const coin = network && findCurrency(network, refund.currency);
  if (!network || network.family !== 'evm' || !coin) return null;
  const amount = parseUnits(refund.amount, coin.decimals);
  if (!amount.ok || amount.value <= 0n) return null;
  return paymentUri(network, refund.address, null, refund.currency, amount.value);
}
