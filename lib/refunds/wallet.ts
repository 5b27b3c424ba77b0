import 'server-only';
/**
 * "Send with wallet" on a refund (docs/decisions/098, 124): exactly the transfer a ready refund
 * makes, for the merchant's browser wallet (the treasury's account) to send. On EVM the EIP-681
 * request, read by lib/pay/wallet-request as the payment page's button reads an order's; on Tron
 * the TRX or TRC-20 transfer TronLink is asked for. The dashboard records the transaction the
 * wallet sent through the one completion path of a refund sent by hand (./completion.ts: verified
 * on chain, decision 092).
 */
import { findCurrency, type ChainFamily, type Currency, type Network } from '../catalog';
import { networkFor, paymentUri } from '../chains';
import { parseUnits } from '../money';
import type { Mode, RefundResponse } from '../protocol';
import type { TronWalletTransfer } from './wallet-transfer';

/**
 * `refund`'s network and coin as live mode configures them, and its whole amount in base units
 * (the merchant's wallet pays the network's fee), when a browser wallet on `family` may send it.
 * Null when none may: not ready, waiting for a second approval, test mode (the sandbox ledger,
 * whose addresses and chain ids look like the real chain's), another family, or a network or coin
 * live mode does not use. Whether an open plan pays it is the order page's pay-ways rule.
 */
function walletTransfer(
  refund: RefundResponse,
  mode: Mode,
  family: ChainFamily,
): { network: Network; coin: Currency; to: string; amount: bigint } | null {
  if (mode !== 'live' || refund.state !== 'ready' || refund.approval === 'required' || !refund.address) return null;
  const network = networkFor(mode, refund.network);
  const coin = network && findCurrency(network, refund.currency);
  if (!network || network.family !== family || !coin) return null;
  const amount = parseUnits(refund.amount, coin.decimals);
  if (!amount.ok || amount.value <= 0n) return null;
  return { network, coin, to: refund.address, amount: amount.value };
}

/**
 * The wallet URI of an EVM `refund`'s transfer: its whole amount to the address the payer
 * confirmed, on the network as live mode configures it (its chain id and token contracts).
 */
export function refundWalletUri(refund: RefundResponse, mode: Mode): string | null {
  const transfer = walletTransfer(refund, mode, 'evm');
  return transfer && paymentUri(transfer.network, transfer.to, null, refund.currency, transfer.amount);
}

/**
 * The exact transfer of a Tron `refund` for the merchant's TronLink (same conditions as EVM's), on
 * the chain `chainId` of the gateway's node (lib/chains `tronChainId`, null when it did not say).
 */
export function refundTronTransfer(
  refund: RefundResponse,
  mode: Mode,
  chainId: string | null,
): TronWalletTransfer | null {
  const transfer = walletTransfer(refund, mode, 'tron');
  if (!transfer) return null;
  return { to: transfer.to, amount: transfer.amount.toString(), contract: transfer.coin.contract ?? null, chainId };
}
