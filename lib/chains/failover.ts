import 'server-only';
/**
 * Several nodes for one network, behind the one ChainAdapter interface: whatever the family, the
 * watcher sees a single adapter. Each node has an adapter of its own (one per `<NETWORK>_RPC_URL`
 * entry, lib/chains/live.ts); this wrapper decides which one answers.
 *
 * - Every watcher pass asks each node not in its backoff for the head (nodes in parallel), so a
 *   node that falls behind is noticed: one more than `maxLag` blocks behind the best answer is
 *   set aside ("lagging") until it catches up. The cost is one head request per extra node per
 *   pass; blocks and transfers are read from one node only.
 * - Reads go to the first node, in configured order, that answered the head and is not lagging
 *   nor backing off. A failure sets that node back off (1 s, doubling to a minute; a success
 *   clears it) and the read moves to the next one in the same pass, so a dead node costs one
 *   failed request, not a watcher interval.
 * - A scan only goes to a node whose head reached the scan's last block: a node a few blocks
 *   behind would answer a shorter range or none.
 * - A node that does not answer holds the pass up to CHAIN_RPC_TIMEOUT_MS, once per backoff.
 * - When no node answers, the last error is thrown: the watcher marks the network unhealthy
 *   (lib/watcher/health.ts) and the other networks go on.
 *
 * Mixing nodes within a pass is safe: the watcher checks every block's parent against its cursor
 * and treats a mismatch as a reorganisation, whichever node answered.
 */
import type { Network } from '../catalog';
import type { BlockRef, ChainAdapter, ChainTransfer } from './adapter';
import type { LiveAdapter } from './live-adapter';
import { RpcStats } from './rpc-stats';

const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

export type NodeState = 'in use' | 'standby' | 'lagging' | 'failing' | 'not asked yet';

/** One node as `npm run chains -- status` and /ops/chains show it. */
export interface NodeStatus {
  /** The node's origin (scheme, host, port): never its path, query or credentials, where API keys live. */
  node: string;
  state: NodeState;
  /** The head it answered last, and when. */
  height: number | null;
  checkedAt: Date | null;
  /** The last failure, and when the node is asked again (null when it is not backing off). */
  error: string | null;
  retryAt: Date | null;
}

export interface FailoverNode {
  /** The node's URL (its origin alone is ever shown). */
  url: string;
  adapter: LiveAdapter;
}

interface Tracked {
  node: string;
  adapter: LiveAdapter;
  height: number | null;
  checkedAt: Date | null;
  failures: number;
  error: string | null;
  retryAt: number | null;
  lagging: boolean;
}

export interface FailoverAdapter extends LiveAdapter {
  nodes(): NodeStatus[];
}

/** Counts of every node together (npm run bench:chains reads one adapter's). */
class SummedStats extends RpcStats {
  constructor(private readonly parts: () => RpcStats[]) {
    super();
  }

  override snapshot(): { requests: number; calls: number } {
    return this.parts().reduce((sum, s) => ({ requests: sum.requests + s.requests, calls: sum.calls + s.calls }), {
      requests: 0,
      calls: 0,
    });
  }
}

export interface FailoverOptions {
  maxLag: number;
  /** Where new blocks are announced for the network (ChainAdapter.subscribeNewBlocks), besides the nodes' own. */
  announce?: (onBlock: () => void) => () => void;
  now?: () => number;
}

export function failoverAdapter(network: Network, nodes: FailoverNode[], options: FailoverOptions): FailoverAdapter {
  if (nodes.length === 0) throw new Error(`${network.name}: no node configured`);
  const now = options.now ?? Date.now;
  const tracked: Tracked[] = nodes.map(({ url, adapter }) => ({
    node: originOf(url),
    adapter,
    height: null,
    checkedAt: null,
    failures: 0,
    error: null,
    retryAt: null,
    lagging: false,
  }));
  /** The node that answered last: it is "in use" in the status. */
  let current: Tracked | undefined;

  const available = (t: Tracked) => t.retryAt === null || t.retryAt <= now();

  function failed(t: Tracked, error: unknown): void {
    t.failures += 1;
    t.error = error instanceof Error ? error.message : String(error);
    t.retryAt = now() + Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (t.failures - 1));
  }

  function succeeded(t: Tracked): void {
    t.failures = 0;
    t.retryAt = null;
  }

  /**
   * Runs `read` on the usable nodes in order until one answers; throws the last error when none
   * does. Nodes backing off are skipped while another is usable, and asked when none is (one node
   * alone is asked at every pass, as without failover).
   */
  async function firstAnswer<T>(
    read: (adapter: ChainAdapter) => Promise<T>,
    usable: (t: Tracked) => boolean,
  ): Promise<T> {
    const candidates = tracked.filter(usable);
    const ready = candidates.filter(available);
    let lastError: unknown = new Error(`${network.name}: no node is usable (all lagging or not asked yet)`);
    for (const t of ready.length > 0 ? ready : candidates) {
      try {
        const answer = await read(t.adapter);
        succeeded(t);
        current = t;
        return answer;
      } catch (error) {
        failed(t, error);
        lastError = error;
      }
    }
    throw lastError;
  }

  async function head(): Promise<BlockRef> {
    // When every node is backing off there is nothing better to try: ask them all.
    const asked = tracked.some(available) ? tracked.filter(available) : tracked;
    const answers = await Promise.all(
      asked.map(async (t) => {
        try {
          const ref = await t.adapter.head();
          t.height = ref.height;
          t.checkedAt = new Date(now());
          succeeded(t);
          return { t, ref };
        } catch (error) {
          failed(t, error);
          return { t, error };
        }
      }),
    );
    const heads = answers.filter((a): a is { t: Tracked; ref: BlockRef } => 'ref' in a);
    if (heads.length === 0) {
      const last = answers.find((a) => 'error' in a) as { error: unknown } | undefined;
      throw last?.error ?? new Error(`${network.name}: every node is backing off after failures`);
    }
    const best = Math.max(...heads.map((h) => h.ref.height));
    for (const { t, ref } of heads) {
      const behind = best - ref.height;
      if (behind > options.maxLag) {
        if (!t.lagging) t.error = `${behind} blocks behind the best node`;
        t.lagging = true;
      } else {
        if (t.lagging) t.error = null;
        t.lagging = false;
      }
    }
    // Configured order decides among the nodes in step: the first is the operator's preference.
    const chosen = tracked.map((t) => heads.find((h) => h.t === t)).find((h) => h && !h.t.lagging)!;
    current = chosen.t;
    return chosen.ref;
  }

  const inStep = (t: Tracked) => t.height !== null && !t.lagging;
  const announcers = [
    ...tracked.flatMap((t) => (t.adapter.subscribeNewBlocks ? [t.adapter.subscribeNewBlocks.bind(t.adapter)] : [])),
    ...(options.announce ? [options.announce] : []),
  ];

  return {
    network,
    requiredConfirmations: tracked[0]!.adapter.requiredConfirmations,
    stats: new SummedStats(() => tracked.map((t) => t.adapter.stats)),
    head,
    block: (height) => firstAnswer((a) => a.block(height), inStep),
    scan: (from, to) =>
      firstAnswer(
        (a) => a.scan(from, to),
        (t) => inStep(t) && t.height! >= to,
      ),
    // The watcher reads the mempool just before the head and relies on both coming from one node
    // (lib/watcher/scan.ts): both go to the first node in step, so until the nodes' heads are
    // known (the first pass) they are asked first.
    mempool: async (): Promise<ChainTransfer[]> => {
      if (tracked.every((t) => t.height === null)) await head();
      return firstAnswer((a) => a.mempool(), inStep);
    },
    // Every announcer wakes the watcher: several announcing one block cost at most one extra pass.
    ...(announcers.length > 0
      ? {
          subscribeNewBlocks: (onBlock: () => void) => {
            const stops = announcers.map((subscribe) => subscribe(onBlock));
            return () => stops.forEach((stop) => stop());
          },
        }
      : {}),
    nodes: () =>
      tracked.map((t) => ({
        node: t.node,
        state: stateOf(t, t === current, now()),
        height: t.height,
        checkedAt: t.checkedAt,
        error: t.error,
        retryAt: t.retryAt !== null && t.retryAt > now() ? new Date(t.retryAt) : null,
      })),
  };
}

function stateOf(t: Tracked, inUse: boolean, at: number): NodeState {
  if (t.retryAt !== null && t.retryAt > at) return 'failing';
  if (t.lagging) return 'lagging';
  if (t.checkedAt === null) return 'not asked yet';
  return inUse ? 'in use' : 'standby';
}

/** `https://user:key@host:8545/v3/KEY?x` -> `https://host:8545`. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid URL';
  }
}
