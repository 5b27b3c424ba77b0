/**
 * Worker thread entry: derives deposit addresses away from the server's event loop. A secp256k1
 * child key and its address cost one to two milliseconds of CPU (point decompressions in BigInt
 * arithmetic); on the thread that answers HTTP requests that time is stolen from every request in
 * flight. Started by derivation-thread.ts; the same `deriveAddress` as everywhere else, so an
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
