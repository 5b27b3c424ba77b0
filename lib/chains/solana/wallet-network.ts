import 'server-only';
/**
 * What the payment page's "Pay with wallet" needs of the Solana network (issue 44 item 5), asked
 * of the gateway's own nodes so that the RPC URL, which may hold a provider's API key, never
 * reaches the browser:
 *
 * - A recent blockhash, which a transaction names. The nodes are asked in order, and an answer is
 *   kept for KEEP_MS per network: however many pages ask, the node sees at most one request per
 *   network every KEEP_MS, which is the rate limit. A blockhash stays valid for 150 slots (about
 *   a minute), so a few seconds' age costs the payer nothing. `confirmed`, as wallets use for
 *   what they send.
 * - A token's program (SPL Token or Token-2022: the owner of its mint account), which decides the
 *   associated token accounts of the transfer. A mint's owner never changes: once known it is kept
 *   for the life of the process, so each configured mint costs one request.
 */
import type { Address } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { Network } from '../../catalog';
import type { LiveChainConfig } from '../../config';
import { TOKEN_2022_PROGRAM_ADDRESS } from './transactions';
import { accountAnswer, latestBlockhashAnswer } from './answers';
import { SolanaRpcClient, SolanaRpcError } from './rpc';

export interface RecentBlockhash {
  blockhash: string;
  lastValidBlockHeight: number;
}

export const KEEP_MS = 5_000;
const kept = new Map<string, { at: number; answer: Promise<RecentBlockhash> }>();
const mintPrograms = new Map<string, Promise<Address>>();

/** The first answer of the network's nodes, asked in order. */
async function askNodes<T>(
  network: Network,
  cfg: LiveChainConfig,
  ask: (client: SolanaRpcClient) => Promise<T>,
): Promise<T> {
  let last: unknown;
  for (const node of cfg.nodes) {
    try {
      return await ask(new SolanaRpcClient(node, network.name));
    } catch (error) {
      last = error;
    }
  }
  throw last instanceof SolanaRpcError ? last : new SolanaRpcError(`no ${network.name} node answered`);
}

/** Keeps `answer` under `key` of `map`, unless it fails: the next page then asks again. */
function keep<T>(map: Map<string, T>, key: string, entry: T, answer: Promise<unknown>): void {
  map.set(key, entry);
  answer.catch(() => map.get(key) === entry && map.delete(key));
}

/** The network's recent blockhash, from a kept answer under KEEP_MS old or from its nodes. */
export function recentBlockhash(network: Network, cfg: LiveChainConfig, now = Date.now()): Promise<RecentBlockhash> {
  const entry = kept.get(network.name);
  if (entry && now - entry.at < KEEP_MS) return entry.answer;
  const answer = askNodes(network, cfg, async (client) => {
    const { value } = await client.call('getLatestBlockhash', [{ commitment: 'confirmed' }], latestBlockhashAnswer);
    return value;
  });
  keep(kept, network.name, { at: now, answer }, answer);
  return answer;
}

/** The token program that owns `mint` (SPL Token or Token-2022); throws for an account of any other owner. */
export function mintProgram(network: Network, cfg: LiveChainConfig, mint: string): Promise<Address> {
  const key = `${network.name}:${mint}`;
  const known = mintPrograms.get(key);
  if (known) return known;
  const answer = askNodes(network, cfg, async (client) => {
    const { value } = await client.call(
      'getAccountInfo',
      [mint, { encoding: 'base64', commitment: 'finalized', dataSlice: { offset: 0, length: 0 } }],
      accountAnswer,
    );
    if (value?.owner === TOKEN_PROGRAM_ADDRESS) return TOKEN_PROGRAM_ADDRESS;
    if (value?.owner === TOKEN_2022_PROGRAM_ADDRESS) return TOKEN_2022_PROGRAM_ADDRESS;
    throw new SolanaRpcError(`${client.label}: ${mint} is not a mint of the SPL Token or Token-2022 program`);
  });
  keep(mintPrograms, key, answer, answer);
  return answer;
}
