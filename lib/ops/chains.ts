import 'server-only';
/**
 * Chain status (`/ops/chains`, `npm run chains -- status`): per network this process watches, its
 * head, cursor and lag, whether it is healthy, its last error, and for live networks each node
 * (lib/chains/failover.ts) with how many are usable. Readiness (./readiness) judges the same
 * figures; this shows them all, healthy or not.
 */
import { liveNodeStatus, type NodeStatus } from '../chains';
import { config } from '../config';
import { runningWorkers } from '../watcher';
import { watchedNetworks, type NetworkReadiness } from './readiness';

export interface NetworkStatus extends Omit<NetworkReadiness, 'ready' | 'problem'> {
  healthy: boolean;
  /** Why not, in words (null when healthy). */
  problem: string | null;
  /** Live networks: every configured node; null in test mode (the sandbox ledger has none). */
  nodes: NodeStatus[] | null;
  /** Nodes in use or standing by, of those configured. */
  usableNodes: number | null;
}

export interface ChainStatus {
  /** False when this process runs no watcher: then the networks are watched by `npm run worker`. */
  watching: boolean;
  runWorkers: boolean;
  networks: NetworkStatus[];
}

export function chainStatus(now = new Date()): ChainStatus {
  const nodes = new Map(liveNodeStatus().map((n) => [n.network, n.nodes]));
  const networks = watchedNetworks(now).map(({ ready, problem, ...rest }): NetworkStatus => {
    const own = rest.mode === 'live' ? (nodes.get(rest.network) ?? null) : null;
    return {
      ...rest,
      healthy: ready,
      problem,
      nodes: own,
      usableNodes: own ? own.filter((n) => n.state === 'in use' || n.state === 'standby').length : null,
    };
  });
  return { watching: runningWorkers() !== undefined, runWorkers: config().runWorkers, networks };
}
