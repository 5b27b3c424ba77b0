import 'server-only';
/**
 * A recent blockhash for the payment page's "Pay with wallet" (issue 44 item 5): a Solana
 * transaction names one, and the page must not ask the node itself, since the RPC URL may hold a
 * provider's API key. The gateway asks its own configured nodes, in order, and keeps an answer
 * for KEEP_MS per network: however many pages ask, the node sees at most one request per network
 * every KEEP_MS, which is the rate limit. A blockhash stays valid for 150 slots (about a minute),
 * so a few seconds' age costs the payer nothing. `confirmed`, as wallets use for what they send.
 */
import type { Network } from '../../catalog';
import type { LiveChainConfig } from '../../config';
import { latestBlockhashAnswer } from './answers';
import { SolanaRpcClient, SolanaRpcError } from './rpc';

export interface RecentBlockhash {
  blockhash: string;
  lastValidBlockHeight: number;
}

export const KEEP_MS = 5_000;
const kept = new Map<string, { at: number; answer: Promise<RecentBlockhash> }>();

async function ask(network: Network, cfg: LiveChainConfig): Promise<RecentBlockhash> {
  let last: unknown;
  for (const node of cfg.nodes) {
    try {
      const client = new SolanaRpcClient(node, network.name);
      const { value } = await client.call('getLatestBlockhash', [{ commitment: 'confirmed' }], latestBlockhashAnswer);
      return value;
    } catch (error) {
      last = error;
    }
  }
  throw last instanceof SolanaRpcError ? last : new SolanaRpcError(`no ${network.name} node answered`);
}

/** The network's recent blockhash, from a kept answer under KEEP_MS old or from its nodes. */
export function recentBlockhash(network: Network, cfg: LiveChainConfig, now = Date.now()): Promise<RecentBlockhash> {
  const entry = kept.get(network.name);
  if (entry && now - entry.at < KEEP_MS) return entry.answer;
  const answer = ask(network, cfg);
  kept.set(network.name, { at: now, answer });
  // A failure is not kept: the next page asks again (still at most one request in flight at once).
  answer.catch(() => kept.get(network.name)?.answer === answer && kept.delete(network.name));
  return answer;
}
