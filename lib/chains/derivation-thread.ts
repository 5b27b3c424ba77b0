import 'server-only';
/**
 * Derives batches of deposit addresses on one worker thread per process (derivation-worker.ts),
 * so that filling the address pools never holds the event loop that answers requests: on a busy
 * gateway the pools are refilled continuously, and a batch derived inline would stall every
 * request in flight (see derivation-worker.ts for the costs).
 *
 * The thread starts on first use and does not keep the process alive while idle. If it dies, the
 * batches it held fail (the pool refill logs it and the next refill starts a new thread).
 */
import { Worker } from 'node:worker_threads';
import type { Network } from '../catalog';
import { forgetProcessSlot, peekProcessSlot, setProcessSlot } from '../process';
import type { DeriveAnswer, DeriveRequest } from './derivation-worker';

interface Pending {
  resolve(addresses: string[]): void;
  reject(error: Error): void;
}

interface DerivationThread {
  worker: Worker;
  pending: Map<number, Pending>;
  nextId: number;
  /** Settles when the worker has loaded its code (it may take seconds from sources on a busy machine). */
  ready: Promise<void>;
}

/**
 * In the Next.js server the bundler compiles the worker entry to JavaScript and rewrites this
 * `new Worker(new URL(...))`. Everywhere else (tsx, Vitest) this module runs from its TypeScript
 * source and the thread loads tsx itself: Node 20 does not pass a loader given with --import on to
 * worker threads.
 */
function startWorker(): Worker {
  // No execArgv inherited: the server's own flags (a test harness's --import preload, say) are
  // not meant for this thread, and the bundled worker needs none.
  const options = { name: 'address-derivation', execArgv: [] };
  if (process.env.NEXT_RUNTIME) return new Worker(new URL('./derivation-worker.ts', import.meta.url), options);
  const entry = import.meta.url.replace(/derivation-thread\.ts$/, 'derivation-worker.ts');
  const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(boot, { ...options, eval: true, execArgv: ['--conditions=react-server'] });
}

// One thread per process, shared by every bundle of this module (Next.js loads server code in
// more than one chunk).
function thread(): DerivationThread {
  const running = peekProcessSlot<DerivationThread>('derivationThread');
  if (running) return running;
  const worker = startWorker();
  let ready!: { resolve(): void; reject(error: Error): void };
  const state: DerivationThread = {
    worker,
    pending: new Map(),
    nextId: 1,
    ready: new Promise((resolve, reject) => (ready = { resolve, reject })),
  };
  state.ready.catch(() => {}); // a thread that dies before it is ready fails its batches; nobody need be waiting
  const failAll = (error: Error) => {
    ready.reject(error);
    if (peekProcessSlot('derivationThread') === state) forgetProcessSlot('derivationThread');
    for (const waiting of state.pending.values()) waiting.reject(error);
    state.pending.clear();
  };
  worker.on('message', (answer: DeriveAnswer) => {
    if ('ready' in answer) return ready.resolve();
    const waiting = state.pending.get(answer.id);
    if (!waiting) return;
    state.pending.delete(answer.id);
    if (state.pending.size === 0) worker.unref();
    if ('error' in answer) waiting.reject(new Error(answer.error));
    else waiting.resolve(answer.addresses);
  });
  worker.on('error', (error) => failAll(new Error(`address derivation thread failed: ${error.message}`)));
  worker.on('exit', (code) => failAll(new Error(`address derivation thread exited (code ${code})`)));
  worker.unref();
  setProcessSlot('derivationThread', state);
  return state;
}

/**
 * The addresses at child indices `from` .. `from + count - 1` of `accountXpub` on `network`,
 * derived on the derivation thread; the same answers as `deriveAddress` for each index.
 */
export function deriveAddresses(network: Network, accountXpub: string, from: number, count: number): Promise<string[]> {
  if (count === 0) return Promise.resolve([]);
  const state = thread();
  const { worker, pending } = state;
  const id = state.nextId++;
  return new Promise<string[]>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // Keep the process alive while a batch is out (a CLI filling a pool must not exit mid-way).
    worker.ref();
    worker.postMessage({ id, network, accountXpub, from, count } satisfies DeriveRequest);
  });
}

/** Starts the derivation thread if needed; settles when it is ready to take batches. */
export function derivationThreadReady(): Promise<void> {
  return thread().ready;
}

/** Stops the derivation thread (tests; the process exits without it otherwise). */
export async function stopDerivationThread(): Promise<void> {
  const state = peekProcessSlot<DerivationThread>('derivationThread');
  if (state) await state.worker.terminate();
}
