import 'server-only';
/**
 * Health of each watched network in this process: a network whose node fails (unreachable, wrong
 * credentials, wrong chain) is marked unhealthy and logged once, at `error`, while its watcher
 * keeps retrying every WATCH_INTERVAL_MS; the others are not held up (each has its own loop).
 * Its recovery is logged once too. A pass that failed because our own database pool was busy says
 * nothing about the node: it is logged at `warn` and leaves the health as it was.
 * `chainHealth()` answers the current state in this process.
 */
import { isDatabaseBusy } from '../db';
import { log } from '../log';
import { metrics } from '../metrics';
import { processSlot } from '../process';
import type { Mode } from '../protocol';

export interface NetworkHealth {
  network: string;
  mode: Mode;
  healthy: boolean;
  /** The last failure, without credentials (adapters never put them in messages). */
  error: string | null;
  /** Failed passes in a row. */
  failures: number;
  since: Date;
  checkedAt: Date;
  /** The chain tip and the cursor after the last pass that scanned (null before one has). */
  head: number | null;
  cursor: number | null;
  /** The end of the last successful pass (null before one). */
  lastPassAt: Date | null;
}

/** Where a successful pass left the network's cursor, and the tip it saw. */
export interface WatchProgress {
  head: number;
  cursor: number;
}

// Looked up on each use, not kept in a module variable: a test process that shares its modules
// between files forgets the slot after each file (tests/support/file-isolation.ts, decision 078).
const states = () => processSlot('chainHealth', () => new Map<string, NetworkHealth>());

/** Records the outcome of one watcher pass: null for success (with where it got to), else the error. */
export function reportHealth(network: string, mode: Mode, error: unknown, progress?: WatchProgress): void {
  const key = `${mode}/${network}`;
  const now = new Date();
  const before = states().get(key);
  if (error === null || error === undefined) {
    metrics().watcherPasses.inc({ network, mode, result: 'ok' });
    if (before && !before.healthy) log.info('chain node healthy again', { network, mode, after: before.failures });
    const state =
      !before || !before.healthy
        ? {
            network,
            mode,
            healthy: true,
            error: null,
            failures: 0,
            since: now,
            checkedAt: now,
            head: before?.head ?? null,
            cursor: before?.cursor ?? null,
            lastPassAt: now,
          }
        : Object.assign(before, { checkedAt: now, lastPassAt: now });
    if (progress) Object.assign(state, progress);
    states().set(key, state);
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (isDatabaseBusy(error)) {
    // Our database was busy, not the node: the pass rolled back and the next one retries it.
    log.warn('watcher pass deferred: database busy', { network, mode, error: message });
    return;
  }
  metrics().watcherPasses.inc({ network, mode, result: 'error' });
  if (!before || before.healthy) {
    log.error('chain node unhealthy: watcher step failed', { network, mode, error: message });
    states().set(key, {
      network,
      mode,
      healthy: false,
      error: message,
      failures: 1,
      since: now,
      checkedAt: now,
      head: before?.head ?? null,
      cursor: before?.cursor ?? null,
      lastPassAt: before?.lastPassAt ?? null,
    });
  } else {
    before.failures += 1;
    before.error = message;
    before.checkedAt = now;
    // Still failing: a reminder now and then rather than a line per pass.
    if (before.failures % 60 === 0)
      log.warn('chain node still unhealthy', { network, mode, failures: before.failures, error: message });
  }
}

export function chainHealth(): NetworkHealth[] {
  return [...states().values()].map((s) => ({ ...s }));
}
