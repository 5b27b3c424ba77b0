import 'server-only';
/**
 * The JSON-RPC connection to one EVM node, with viem: HTTP with batches, basic auth when
 * configured, no retries (the watcher's next pass is the retry), a count of what is asked
 * (`npm run bench:chains`), the chain id checked once, and errors that name the node without the
 * URL's path or query (an API key may live there) or request bodies.
 */
import { BaseError, createPublicClient, http, type PublicClient } from 'viem';
import type { Network } from '../../catalog';
import type { LiveChainConfig } from '../../config';
import { RpcStats } from '../rpc-stats';

export class EvmNodeError extends Error {
  override name = 'EvmNodeError';
}

export interface EvmNode {
  readonly client: PublicClient;
  readonly stats: RpcStats;
  /** The node as error messages name it: network and URL without credentials. */
  readonly label: string;
  /** Runs `work`; a failure that is not already an EvmNodeError becomes one naming the node and `what`. */
  guard<T>(what: string, work: () => Promise<T>): Promise<T>;
  /** Throws unless the node reports the configured chain id; asks until it has once. */
  checkChain(): Promise<void>;
}

export function evmNode(network: Network, cfg: LiveChainConfig): EvmNode {
  const stats = new RpcStats();
  const label = `${network.name} node at ${cfg.rpc.url}`;
  const headers: Record<string, string> = {};
  if (cfg.rpc.user !== undefined)
    headers.authorization = `Basic ${Buffer.from(`${cfg.rpc.user}:${cfg.rpc.password ?? ''}`).toString('base64')}`;
  const client: PublicClient = createPublicClient({
    transport: http(cfg.rpc.url, {
      batch: { batchSize: 50 },
      retryCount: 0, // the watcher's next pass is the retry
      timeout: cfg.rpc.timeoutMs,
      maxResponseBodySize: 256 * 1024 * 1024,
      fetchOptions: { headers },
      fetchFn: async (input, init) => {
        const body = typeof init?.body === 'string' ? init.body : '';
        stats.request(body.startsWith('[') ? (JSON.parse(body) as unknown[]).length : 1);
        return fetch(input, init);
      },
    }),
  });
  let chainChecked = false;

  return {
    client,
    stats,
    label,

    async guard(what, work) {
      try {
        return await work();
      } catch (error) {
        if (error instanceof EvmNodeError) throw error;
        throw new EvmNodeError(`${label}: ${what} failed: ${describeError(error)}`, { cause: undefined });
      }
    },

    async checkChain() {
      if (chainChecked) return;
      const id = await client.getChainId();
      if (id !== cfg.chainId) {
        throw new EvmNodeError(
          `${label} is on chain id ${id}, expected ${cfg.chainId} (${network.name.toUpperCase()}_CHAIN_ID)`,
        );
      }
      chainChecked = true;
    },
  };
}

/** A node error in a few words, without the URL and the request body that viem's `message` carries. */
export function describeError(error: unknown): string {
  if (error instanceof BaseError) {
    const details = error.details && !/https?:\/\//.test(error.details) ? `: ${error.details}` : '';
    return `${error.shortMessage}${details}`;
  }
  return (error as Error)?.message ?? String(error);
}
