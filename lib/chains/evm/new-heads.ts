import 'server-only';
/**
 * New blocks announced by an EVM node over WebSocket (`eth_subscribe` newHeads, through viem):
 * each announcement wakes the network's watcher (lib/watcher/wake.ts), which then reads the block
 * over HTTP as always. viem reconnects a dropped socket and subscribes again; meanwhile, and if it
 * never comes back, the watcher's polling carries on (WATCH_INTERVAL_MS). Errors are logged once
 * per outage, naming the node by origin only (a provider's key may be in the path).
 */
import { createPublicClient, webSocket } from 'viem';
import type { Network } from '../../catalog';
import { log } from '../../log';
import { originOf } from '../failover';

export function evmNewHeads(network: Network, wsUrl: string): (onBlock: () => void) => () => void {
  return (onBlock) => {
    const node = originOf(wsUrl);
    const client = createPublicClient({
      transport: webSocket(wsUrl, {
        reconnect: { attempts: Number.MAX_SAFE_INTEGER, delay: 2_000 },
        keepAlive: { interval: 30_000 },
      }),
    });
    let failing = false;
    // Without `poll`, a WebSocket transport subscribes (eth_subscribe newHeads) rather than polls.
    const unwatch = client.watchBlockNumber({
      emitOnBegin: false,
      onBlockNumber: () => {
        if (failing) log.info('new-block subscription back', { network: network.name, node });
        failing = false;
        onBlock();
      },
      onError: (error) => {
        if (!failing)
          log.warn('new-block subscription failing: polling only', {
            network: network.name,
            node,
            error: error.message.split('\n')[0],
          });
        failing = true;
      },
    });
    return () => {
      unwatch();
      void client.transport
        .getRpcClient?.()
        .then((socket: { close(): void }) => socket.close())
        .catch(() => undefined);
    };
  };
}
