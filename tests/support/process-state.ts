/**
 * What a test file leaves in its process, undone (decision 078). The database projects' files
 * run one after another in a process and share its loaded modules (`isolate: false`,
 * vitest.config.ts); the set-up file support/file-isolation.ts records with `recordProcessState`
 * the state each file starts from and puts it back after the file's last test, as the end of a
 * process per file did:
 *
 * - the environment: variables the file set or changed go back to the file's start;
 * - intervals the file (or what it started: a webhook dispatcher, a mailer, a sandbox miner)
 *   left running are cleared;
 * - process slots (lib/process) are emptied, so that the next file opens its own configuration,
 *   database handle, live networks, rate services, caches and counters, except those in KEPT.
 */
import { forgetProcessSlot, PROCESS_SLOTS, type ProcessSlotName } from '@/lib/process';

/** Slots that outlive a file, each for its reason. */
const KEPT: ReadonlySet<ProcessSlotName> = new Set<ProcessSlotName>([
  // The address derivation thread holds nothing of a file's, and costs a thread start.
  'derivationThread',
  // Not a value: the brand of every copy of DomainError.
  'domainError',
  // The descriptors of data directory locks still held: forgetting them would leave the locks
  // held with nobody to release them (each file's directories are its own temporary ones).
  'dataDirLocks',
  // Request counters that lib/api keeps from its first load, and that every request returns to
  // where it found them; emptying the slot would not reach the module's copy.
  'api.inFlight',
  'api.slowBodies',
  // The merchant API's front, which the worker's one HTTP server of the gateway files reads
  // (support/gateway.ts): each file's start-up installs its own there again.
  'api.front',
]);

/**
 * Records the process's state now and starts counting the intervals set from now on; the function
 * returned puts the state back (environment, slots) and clears those intervals.
 */
export function recordProcessState(): () => void {
  const environment = { ...process.env };
  const intervals = new Set<ReturnType<typeof setInterval>>();
  const realSetInterval = globalThis.setInterval;
  globalThis.setInterval = Object.assign((...args: Parameters<typeof setInterval>) => {
    const interval = realSetInterval(...args);
    intervals.add(interval);
    return interval;
  }, realSetInterval) as typeof setInterval;
  return () => {
    globalThis.setInterval = realSetInterval;
    for (const interval of intervals) clearInterval(interval);
    for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
    Object.assign(process.env, environment);
    for (const name of Object.keys(PROCESS_SLOTS) as ProcessSlotName[]) if (!KEPT.has(name)) forgetProcessSlot(name);
  };
}
