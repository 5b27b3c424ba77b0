import 'server-only';
/**
 * What the payment page's Solana wallet button needs from the gateway (issue 44 item 5): a recent
 * blockhash for the transfer it builds, asked of the gateway's own nodes (lib/chains
 * solanaBlockhash) so that the RPC URL, which may hold an API key, never reaches the browser. Only
 * for a live Solana order still awaiting payment: anyone with the order's link may ask, and the
 * node is asked at most once every few seconds whatever the number of pages.
 */
import { solanaBlockhash } from '../chains';
import type { Queryable } from '../db';
import { log } from '../log';
import { loadPublicView } from './public-view';

export type WalletBlockhash =
  | { ok: true; blockhash: string; lastValidBlockHeight: number }
  | { ok: false; status: 404 | 409 | 503; error: 'NOT_FOUND' | 'NOT_PAYABLE' | 'NODE_UNAVAILABLE' };

export async function walletBlockhash(db: Queryable, orderId: string): Promise<WalletBlockhash> {
  const view = await loadPublicView(db, orderId);
  if (!view || view.test || view.network !== 'solana') return { ok: false, status: 404, error: 'NOT_FOUND' };
  if (view.status !== 'pending') return { ok: false, status: 409, error: 'NOT_PAYABLE' };
  const asked = solanaBlockhash();
  if (!asked) return { ok: false, status: 404, error: 'NOT_FOUND' };
  try {
    return { ok: true, ...(await asked) };
  } catch (error) {
    // The node's error names its origin only (lib/chains/solana/rpc): the log, never the page.
    log.warn('no Solana node answered a recent blockhash for the payment page', { error: (error as Error).message });
    return { ok: false, status: 503, error: 'NODE_UNAVAILABLE' };
  }
}
