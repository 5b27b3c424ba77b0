import 'server-only';
/**
 * What the payment page's Solana "Pay with wallet" gets from the gateway (issue 44 item 5,
 * decision 062): the unsigned transaction of the order's transfer request, from the shopper's
 * connected account, for their wallet to sign and send. Built on the gateway (lib/chains
 * solanaWalletTransaction) with a recent blockhash from its own nodes, so that the RPC URL, which
 * may hold an API key, never reaches the browser. Only for a live Solana order still awaiting
 * payment: anyone with the order's link may ask, and the node is asked at most once every few
 * seconds whatever the number of pages.
 */
import { isValidSolanaAddress, solanaWalletTransaction } from '../chains';
import type { Queryable } from '../db';
import { log } from '../log';
import { loadPublicView } from './public-view';

export type WalletSolanaTransaction =
  | { ok: true; transaction: string }
  | {
      ok: false;
      status: 400 | 404 | 409 | 503;
      error: 'BAD_ACCOUNT' | 'NOT_FOUND' | 'NOT_PAYABLE' | 'NODE_UNAVAILABLE';
    };

export async function walletSolanaTransaction(
  db: Queryable,
  orderId: string,
  account: string,
): Promise<WalletSolanaTransaction> {
  const view = await loadPublicView(db, orderId);
  if (!view || view.test || view.network !== 'solana') return { ok: false, status: 404, error: 'NOT_FOUND' };
  if (view.status !== 'pending') return { ok: false, status: 409, error: 'NOT_PAYABLE' };
  if (!isValidSolanaAddress(account)) return { ok: false, status: 400, error: 'BAD_ACCOUNT' };
  const asked = solanaWalletTransaction(view.walletUri, account);
  if (!asked) return { ok: false, status: 404, error: 'NOT_FOUND' };
  try {
    const transaction = await asked;
    // Nothing left to ask for (payments still confirming cover the rest).
    return transaction ? { ok: true, transaction } : { ok: false, status: 409, error: 'NOT_PAYABLE' };
  } catch (error) {
    // The node's error names its origin only (lib/chains/solana/rpc): the log, never the page.
    log.warn('no Solana node answered for the payment page wallet transaction', { error: (error as Error).message });
    return { ok: false, status: 503, error: 'NODE_UNAVAILABLE' };
  }
}
