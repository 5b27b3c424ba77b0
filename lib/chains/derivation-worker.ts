/**
 * Worker thread entry: derives deposit addresses away from the server's event loop. An address
 * costs ~0.1 ms of CPU with native child keys and 1-1.5 ms where they fall back to JavaScript
 * (lib/chains/child-key.ts); a refill batch of 128 on the thread that answers HTTP requests would
 * stall every request in flight for that long. Started by derivation-thread.ts; the same `deriveAddress` as everywhere else, so an
 * address never depends on which thread derived it.
 */
import { parentPort } from 'node:worker_threads';
import type { Network } from '../catalog';
import { deriveAddress } from './derivation';

export interface DeriveRequest {
  id: number;
  network: Network;
  accountXpub: string;
  from: number;
  count: number;
}

export type DeriveAnswer = { id: number; addresses: string[] } | { id: number; error: string } | { ready: true };

const port = parentPort;
if (!port) throw new Error('derivation-worker.ts runs as a worker thread (see derivation-thread.ts)');

port.on('message', ({ id, network, accountXpub, from, count }: DeriveRequest) => {
  let answer: DeriveAnswer;
  try {
    answer = { id, addresses: Array.from({ length: count }, (_, i) => deriveAddress(network, accountXpub, from + i)) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
// Loaded and listening: from here a batch takes only its own time (see derivationThreadReady).
port.postMessage({ ready: true } satisfies DeriveAnswer);
