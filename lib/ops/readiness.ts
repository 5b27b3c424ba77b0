import 'server-only';
/**
 * `/readyz`: whether this process can do its work now, and if not, what is wrong, in words an
 * operator can act on. A web process without workers is ready when its database is; a process
 * that runs the workers is also judged on each network it watches. So a load balancer never takes
 * web servers out of rotation because a chain node is down, while a worker's probe says so.
 */
import { config } from '../config';
import { getDatabase, migrationStatus, type Queryable } from '../db';
import { chainHealth, runningWorkers } from '../watcher';
import type { Mode } from '../protocol';

export interface NetworkReadiness {
  network: string;
  mode: Mode;
  ready: boolean;
  head: number | null;
  cursor: number | null;
  lagBlocks: number | null;
  /** Seconds since the last successful watcher pass (null before one). */
  lastPassSecondsAgo: number | null;
  error: string | null;
  /** What makes it not ready, in words (null when ready). */
  problem: string | null;
}

export interface Readiness {
  ready: boolean;
  /** One line per thing that is wrong; empty when ready. */
  problems: string[];
  database: { ready: boolean; migrationsApplied: number | null; migrationsExpected: number | null };
  workers: { configured: boolean; running: boolean };
  networks: NetworkReadiness[];
}

export async function readiness(
  now = new Date(),
  database: () => Promise<Queryable> = () => getDatabase(),
): Promise<Readiness> {
  const cfg = config();
  const problems: string[] = [];
  const db: Readiness['database'] = { ready: false, migrationsApplied: null, migrationsExpected: null };
  try {
    const status = await migrationStatus(await database());
    db.migrationsApplied = status.applied;
    db.migrationsExpected = status.expected;
    db.ready = status.applied >= status.expected;
    if (!db.ready) problems.push(`database: ${status.applied} of ${status.expected} migrations applied`);
  } catch (error) {
    problems.push(`database: unreachable (${error instanceof Error ? error.message : String(error)})`);
  }

  const workers = runningWorkers();
  if (cfg.runWorkers && !workers)
    problems.push('workers: configured to run in this process (RUN_WORKERS) but not running');
  const networks = watchedNetworks(now);
  for (const n of networks) if (n.problem) problems.push(`${n.mode}/${n.network}: ${n.problem}`);
  return {
    ready: problems.length === 0,
    problems,
    database: db,
    workers: { configured: cfg.runWorkers, running: workers !== undefined },
    networks,
  };
}

/** Each network this process watches, judged against the readiness thresholds. */
export function watchedNetworks(now = new Date()): NetworkReadiness[] {
  const cfg = config();
  const health = new Map(chainHealth().map((h) => [`${h.mode}/${h.network}`, h]));
  return (runningWorkers()?.watched ?? []).map(({ network, mode }): NetworkReadiness => {
    const h = health.get(`${mode}/${network}`);
    const lagBlocks = h?.head != null && h.cursor != null ? Math.max(0, h.head - h.cursor) : null;
    const lastPassSecondsAgo = h?.lastPassAt ? Math.round((now.getTime() - h.lastPassAt.getTime()) / 1000) : null;
    const problem =
      h && !h.healthy
        ? `node failing: ${h.error}`
        : !h?.lastPassAt
          ? 'no watcher pass has succeeded yet'
          : lastPassSecondsAgo! * 1000 > cfg.readyMaxPassAgeMs
            ? `last good pass ${lastPassSecondsAgo} s ago (READY_MAX_PASS_AGE_SECONDS ${cfg.readyMaxPassAgeMs / 1000})`
            : lagBlocks !== null && lagBlocks > cfg.readyMaxLagBlocks
              ? `${lagBlocks} blocks behind the tip (READY_MAX_LAG_BLOCKS ${cfg.readyMaxLagBlocks})`
              : null;
    return {
      network,
      mode,
      ready: problem === null,
      head: h?.head ?? null,
      cursor: h?.cursor ?? null,
      lagBlocks,
      lastPassSecondsAgo,
      error: h?.error ?? null,
      problem,
    };
  });
}
