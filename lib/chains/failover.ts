import 'server-only';
/**
 * Several nodes for one network, behind the one ChainAdapter interface: whatever the family, the
 * watcher sees a single adapter. Each node has an adapter of its own (one per `<NETWORK>_RPC_URL`
 * entry, lib/chains/live.ts); this wrapper decides which one answers.
 *
 * - Every watcher step starts by pinning one node (`pin`): each node not in its backoff is asked
 *   for its head (nodes in parallel), so a node that falls behind is noticed: one more than
 *   `maxLag` blocks behind the best answer is set aside ("lagging") until it catches up. The cost
 *   is one head request per extra node per step, and one more to the pinned node, whose head the
 *   step reads after its mempool; blocks and transfers are read from that node only.
 * - The pinned node is the first, in configured order, that answered, is not lagging, and whose
 *   head reached `floor` (the watcher's cursor): a node a few blocks behind the cursor, within
 *   `maxLag`, has "no block" at the cursor, which is not a fork, and is not read from while
 *   another node has the cursor's block. When none has reached it, the highest answers, and the
 *   watcher waits for it.
 * - Every read of the step goes to the pinned node: a mempool, a head, blocks and a scan of
 *   different nodes would mix their chains (a transfer in the first node's block and no longer in
 *   its mempool, missing from the second's chain, would be dropped). A failed read fails the
 *   step; the node backs off (1 s, doubling to a minute; a success clears it) and the next step
 *   pins another. A node that fails its head is passed over in the same step, so a dead node costs
 *   one refused request, not a watcher interval.
 * - A node that does not answer holds the pass up to CHAIN_RPC_TIMEOUT_MS, once per backoff.
 * - When no node answers, the last error is thrown: the watcher marks the network unhealthy
 *   (lib/watcher/health.ts) and the other networks go on.
 * - The unpinned reads (head, block, scan, mempool) serve callers other than the watcher: each
 *   goes to the first usable node, moving to the next on a failure.
 *
 * docs/decisions/038 (and its amendment of 2026-11-27) says why.
 */
import type { Network } from '../catalog';
import type { BlockRef, ChainAdapter, ChainTransfer, FoundTransaction, TransactionHint } from './adapter';
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
  pin(floor: number): Promise<ChainAdapter>;
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

  /** Asks every usable node for its head and sets aside the lagging ones; answers those that answered. */
  async function refreshHeads(): Promise<{ t: Tracked; ref: BlockRef }[]> {
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
    // In configured order: the first is the operator's preference.
    return tracked.flatMap((t) => heads.filter((h) => h.t === t));
  }

  async function head(): Promise<BlockRef> {
    const chosen = (await refreshHeads()).find((h) => !h.t.lagging)!;
    current = chosen.t;
    return chosen.ref;
  }

  /** The node `t` alone, for one watcher step: its reads update its state, and a failure is the step's. */
  function pinned(t: Tracked): ChainAdapter {
    const read = async <T>(work: () => Promise<T>): Promise<T> => {
      try {
        const answer = await work();
        succeeded(t);
        current = t;
        return answer;
      } catch (error) {
        failed(t, error);
        throw error;
      }
    };
    return {
      network,
      requiredConfirmations: t.adapter.requiredConfirmations,
      head: () =>
        read(async () => {
          const ref = await t.adapter.head();
          t.height = ref.height;
          t.checkedAt = new Date(now());
          return ref;
        }),
      block: (height) => read(() => t.adapter.block(height)),
      scan: (from, to) => read(() => t.adapter.scan(from, to)),
      mempool: () => read(() => t.adapter.mempool()),
    };
  }

  async function pin(floor: number): Promise<ChainAdapter> {
    // One node: nothing to choose, and no head to ask twice.
    if (tracked.length === 1) return pinned(tracked[0]!);
    const inStep = (await refreshHeads()).filter((h) => !h.t.lagging);
    const chosen =
      inStep.find((h) => h.ref.height >= floor) ?? inStep.reduce((a, b) => (b.ref.height > a.ref.height ? b : a));
    current = chosen.t;
    return pinned(chosen.t);
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
    pin,
    block: (height) => firstAnswer((a) => a.block(height), inStep),
    scan: (from, to) =>
      firstAnswer(
        (a) => a.scan(from, to),
        (t) => inStep(t) && t.height! >= to,
      ),
    // Until the nodes' heads are known, which are in step is not: they are asked first.
    mempool: async (): Promise<ChainTransfer[]> => {
      if (tracked.every((t) => t.height === null)) await head();
      return firstAnswer((a) => a.mempool(), inStep);
    },
    // Every node reads the same accounts: whichever is pinned next must.
    ...(tracked.some((t) => t.adapter.watchAccounts)
      ? {
          watchAccounts: (accounts: readonly string[]) => {
            for (const t of tracked) t.adapter.watchAccounts?.(accounts);
          },
        }
      : {}),
    // A transaction looked up by id (docs/decisions/092): the first node in step that answers.
    ...(tracked.every((t) => t.adapter.transaction)
      ? {
          transaction: async (txHash: string, hint: TransactionHint): Promise<FoundTransaction | null> => {
            if (tracked.every((t) => t.height === null)) await head();
            return firstAnswer((a) => a.transaction!(txHash, hint), inStep);
          },
        }
      : {}),
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
