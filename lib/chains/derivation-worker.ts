/**
 * Worker thread entry: derives deposit addresses away from the server's event loop. A secp256k1
 * child key and its address cost one to two milliseconds of CPU (point decompressions in BigInt
 * arithmetic); on the thread that answers HTTP requests that time is stolen from every request in
 * flight. Started by derivation-thread.ts; the same `deriveAddress` as everywhere else, so an
 * address never depends on which thread derived it.
 */
import fs from 'node:fs';
import os from 'node:os';
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

/**
 * Pools are refilled ahead of need, so this thread can wait: on Linux it runs at the lowest
 * priority (nice 19, set on this thread alone through its thread id), and the request thread and
 * the database get the CPU first when the machine is busy.
 */
function lowerPriority(): void {
  try {
    const threadId = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(threadId)) os.setPriority(threadId, 19);
  } catch {
    // Not Linux (no /proc/thread-self): the thread runs at the process's priority.
  }
}
lowerPriority();

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
