import 'server-only';
/**
 * Waking a network's watcher when a new block is announced, instead of waiting out
 * WATCH_INTERVAL_MS: by its node (an adapter's `subscribeNewBlocks`, e.g. EVM newHeads over
 * WebSocket) or by the node's operator hook (bitcoind's `-blocknotify` posting to
 * `/ops/new-block/<network>`, lib/ops/http.ts). Polling stays: a lost announcement, or a
 * subscription that dropped, costs at most one interval.
 */
import { processSlot } from '../process';
import type { Mode } from '../protocol';

const wakers = () => processSlot('watcherWakers', () => new Map<string, () => void>());

/** Registers the waker of a running watcher; answers its removal. */
export function registerWaker(network: string, mode: Mode, wake: () => void): () => void {
  const key = `${mode}/${network}`;
  wakers().set(key, wake);
  return () => {
    if (wakers().get(key) === wake) wakers().delete(key);
  };
}

/** Starts a pass of the network's watcher now (or right after the one running); false when this process does not watch it. */
export function wakeWatcher(network: string, mode: Mode): boolean {
  const wake = wakers().get(`${mode}/${network}`);
  wake?.();
  return wake !== undefined;
}
