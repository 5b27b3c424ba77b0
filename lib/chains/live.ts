import 'server-only';
/**
 * The live networks: the catalog entries whose node is configured (lib/config/chains.ts), with the
 * configured confirmations, chain id, address chain and token contracts, and their adapters.
 * Built once per configuration; a bad extended public key stops start-up naming its variable.
 * Outside lib/chains the live networks are read through ./networks, with test mode's.
 */
import { findNetwork, type Network } from '../catalog';
import { config } from '../config';
import { ConfigError, envPrefix, type LiveChainConfig } from '../config';
import { peekProcessSlot, setProcessSlot } from '../process';
import { deriveAddress, isValidAddress } from './derivation';
import { evmAdapter, evmNewHeads } from './evm';
import { failoverAdapter, type FailoverAdapter, type NodeStatus } from './failover';
import type { LiveAdapter } from './live-adapter';
import { solanaAdapter, solanaMintProgram, solanaPaymentTransaction } from './solana';
import { isValidTronAddress, tronAdapter, tronNodeChainId } from './tron';
import { utxoAdapter } from './utxo';
import { xrplAdapter } from './xrpl';

export type { LiveAdapter } from './live-adapter';

interface Live {
  networks: Network[];
  configs: Map<string, LiveChainConfig>;
  adapters?: FailoverAdapter[];
}

type Built = { source: LiveChainConfig[]; live: Live };

/** The catalog network as configured for live payments. */
export function liveNetworkOf(cfg: LiveChainConfig): Network {
  const catalog = findNetwork(cfg.network)!;
  const byTicker = new Map(cfg.tokens.map((t) => [t.ticker, t.contract]));
  return {
    ...catalog,
    confirmations: cfg.confirmations,
    chain: cfg.chain,
    ...(cfg.chainId !== undefined ? { chainId: cfg.chainId } : {}),
    currencies: catalog.currencies
      .filter((c) => !c.contract || byTicker.has(c.ticker))
      .map((c) => (c.contract ? { ...c, contract: byTicker.get(c.ticker)! } : c)),
  };
}

function live(): Live {
  const source = config().liveChains;
  const built = peekProcessSlot<Built>('liveNetworks');
  if (built?.source === source) return built.live;
  const networks: Network[] = [];
  const problems: string[] = [];
  for (const cfg of source) {
    const network = liveNetworkOf(cfg);
    if (cfg.family === 'xrpl' || cfg.family === 'solana') {
      const what = cfg.family === 'xrpl' ? 'XRP Ledger address (checksum)' : 'Solana address (32 bytes in base58)';
      if (!isValidAddress(network, cfg.account!))
        problems.push(
          `  ${envPrefix(network)}_ADDRESS: ${cfg.family === 'xrpl' ? 'the address checksum does not match' : `is not a valid ${what}`}`,
        );
      const invalid = cfg.tokens.filter((t) => !isValidAddress(network, t.contract));
      for (const t of invalid)
        problems.push(`  ${envPrefix(network)}_TOKENS: ${t.ticker}:${t.contract} is not a valid ${what}`);
    } else {
      try {
        deriveAddress(network, cfg.xpub, 0);
      } catch (error) {
        problems.push(`  ${envPrefix(network)}_XPUB: ${(error as Error).message}`);
      }
    }
    if (cfg.family === 'tron') {
      const invalid = cfg.tokens.filter((t) => !isValidTronAddress(t.contract));
      for (const t of invalid)
        problems.push(
          `  ${envPrefix(network)}_TOKENS: ${t.ticker}:${t.contract} is not a valid Tron address (checksum)`,
        );
    }
    networks.push(network);
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  const value: Live = { networks, configs: new Map(source.map((c) => [c.network, c])) };
  setProcessSlot<Built>('liveNetworks', { source, live: value });
  return value;
}

/** Networks live keys can use, in catalog order. */
export function liveNetworks(): readonly Network[] {
  return live().networks;
}

/** The live configuration of a network (RPC, extended public key...), if it is live. */
export function liveChainConfig(network: string): LiveChainConfig | undefined {
  return live().configs.get(network);
}

/**
 * The unsigned transaction paying live Solana's transfer request `walletUri` from `payer`, for the
 * payment page's wallet button, built with what the gateway's own nodes tell (./solana
 * solanaPaymentTransaction: a recent blockhash kept a few seconds, the token's program); null when the URI
 * asks for nothing; undefined where Solana is not live.
 */
export function solanaWalletTransaction(walletUri: string, payer: string): Promise<string | null> | undefined {
  const state = live();
  const network = state.networks.find((n) => n.family === 'solana');
  const cfg = network && state.configs.get(network.name);
  return network && cfg ? solanaPaymentTransaction(network, cfg, walletUri, payer) : undefined;
}

/**
 * The token program (SPL Token or Token-2022) that owns `mint` on live Solana, asked of the
 * gateway's own nodes and kept for the process (a refund plan names it: docs/decisions/111);
 * undefined where Solana is not live.
 */
export function solanaTokenProgram(mint: string): Promise<string> | undefined {
  const state = live();
  const network = state.networks.find((n) => n.family === 'solana');
  const cfg = network && state.configs.get(network.name);
  return network && cfg ? solanaMintProgram(network, cfg, mint) : undefined;
}

/**
 * The chain id of live Tron's nodes (./tron tronNodeChainId: from their genesis block, kept for the
 * process), which "Send with TronLink" compares with the wallet's; null where they do not say, or
 * Tron is not live.
 */
export async function tronChainId(): Promise<string | null> {
  const cfg = live().configs.get('tron');
  return cfg ? tronNodeChainId(cfg) : null;
}

/** One adapter per live network, created once per process: over its nodes, with failover (./failover). */
export function liveAdapters(): LiveAdapter[] {
  const state = live();
  state.adapters ??= state.networks.map((network) => {
    const cfg = state.configs.get(network.name)!;
    const nodes = cfg.nodes.map((rpc) => ({ url: rpc.url, adapter: familyAdapter(network, { ...cfg, rpc }) }));
    const announce = cfg.family === 'evm' && cfg.wsUrl ? evmNewHeads(network, cfg.wsUrl) : undefined;
    return failoverAdapter(network, nodes, { maxLag: cfg.maxNodeLag, announce });
  });
  return state.adapters;
}

function familyAdapter(network: Network, cfg: LiveChainConfig): LiveAdapter {
  if (cfg.family === 'tron') return tronAdapter(network, cfg);
  if (cfg.family === 'xrpl') return xrplAdapter(network, cfg);
  if (cfg.family === 'solana') return solanaAdapter(network, cfg);
  return cfg.family === 'utxo' ? utxoAdapter(network, cfg) : evmAdapter(network, cfg);
}

/**
 * Each live network's nodes as this process sees them: empty until its adapters exist (a process
 * that runs no watcher never asks a node).
 */
export function liveNodeStatus(): { network: string; nodes: NodeStatus[] }[] {
  const built = peekProcessSlot<Built>('liveNetworks');
  return (built?.live.adapters ?? []).map((adapter) => ({ network: adapter.network.name, nodes: adapter.nodes() }));
}
