import 'server-only';
/**
 * The chain id of the Tron network the gateway's node serves (docs/decisions/130), for the order
 * page's "Send with TronLink" to compare with the wallet's: the last four bytes of the genesis
 * block's id (./transactions tronChainIdOf), block 0 as the node answers `/wallet/getblockbynum`
 * {"num": 0}. A genesis block never changes, so the first answer is kept for the process (each
 * bundle of it asks once). A node that does not answer, or answers no block 0, makes it unknown
 * (null) rather than an error: the button then sends unchecked, and the nodes are asked again
 * after RETRY_MS. The order page waits at most TIMEOUT_MS a node for it.
 */
import type { LiveChainConfig } from '../../config';
import { genesisBlockOrNone } from './answers';
import { TronNode } from './node';
import { tronChainIdOf } from './transactions';

const RETRY_MS = 60_000;
const TIMEOUT_MS = 5_000;

/** By the configured node URLs: the answer, when it was asked, and what it gave once settled. */
const asked = new Map<string, { at: number; answer: Promise<string | null>; chainId?: string | null }>();

/** The first chain id the network's nodes (asked in order) derive from their block 0; null when none does. */
async function askNodes(cfg: LiveChainConfig): Promise<string | null> {
  for (const rpc of cfg.nodes) {
    const node = new TronNode({ ...rpc, timeoutMs: Math.min(rpc.timeoutMs, TIMEOUT_MS) }, cfg.network, cfg.apiKey);
    try {
      const genesis = await node.post('wallet/getblockbynum', { num: 0 }, genesisBlockOrNone);
      if (genesis && genesis.block_header.raw_data.number === 0) return tronChainIdOf(genesis.blockID);
    } catch {
      // Unreachable, refused or a surprising answer: the next node, else unknown.
    }
  }
  return null;
}

/** The chain id ("0x" and 8 hex digits) of the network `cfg`'s nodes serve, or null when they do not say. */
export function tronNodeChainId(cfg: LiveChainConfig, now = Date.now()): Promise<string | null> {
  const key = cfg.nodes.map((rpc) => rpc.url).join(' ');
  const entry = asked.get(key);
  if (entry && (entry.chainId !== null || now - entry.at < RETRY_MS)) return entry.answer;
  const fresh: { at: number; answer: Promise<string | null>; chainId?: string | null } = {
    at: now,
    answer: askNodes(cfg).then((chainId) => (fresh.chainId = chainId)),
  };
  asked.set(key, fresh);
  return fresh.answer;
}
