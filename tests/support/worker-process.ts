import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Database } from '@/lib/db/client';
import { openPostgresTestDatabase } from './database';

/**
 * `npm run worker` as a child process of a test, on a PostgreSQL test database: started in a
 * process group of its own so that a test can kill it (and anything it started) like a crash
 * would, and so that nothing is left behind when the test fails.
 */

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** The PostgreSQL test database and its URL, for worker processes to share (PostgreSQL only). */
export async function openSharedTestDatabase(): Promise<{ db: Database; url: string }> {
  if (process.env.TEST_DB !== 'postgres')
    throw new Error('a database shared with other processes needs PostgreSQL (TEST_DB=postgres, TEST_PG_URL)');
  return openPostgresTestDatabase();
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface WorkerProcess {
  /** Also its PostgreSQL application_name, to find its backends in pg_stat_activity. */
  name: string;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Its JSON log lines so far. */
  logs(): Record<string, unknown>[];
  exited: Promise<Exit>;
  hasExited(): boolean;
  /** Signals the whole process group. */
  signal(signal: NodeJS.Signals): void;
}

const running = new Set<WorkerProcess>();

/** Starts `npm run worker` against `databaseUrl` with the test settings (no automatic mining). */
export function startWorker(databaseUrl: string, name: string, env: Record<string, string> = {}): WorkerProcess {
  const child = spawn(process.execPath, ['--conditions=react-server', 'scripts/cli.mjs', 'worker'], {
    cwd: ROOT,
    detached: true, // a process group of its own: kill(-pid) reaches everything it started
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      APP_SECRET: 'worker-test-app-secret-at-least-32-characters',
      SANDBOX_BLOCK_SECONDS: '0',
      SANDBOX_CONFIRMATIONS: '2',
      WATCH_INTERVAL_MS: '50',
      LOG_LEVEL: 'info',
      // node-postgres names its connections after this: the test finds the worker's backends by it.
      PGAPPNAME: name,
      ...env,
    },
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  let done = false;
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
  });
  const worker: WorkerProcess = {
    name,
    child,
    output: () => output,
    logs: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    exited,
    hasExited: () => done,
    signal(signal) {
      if (done || child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    },
  };
  running.add(worker);
  void exited.then(() => running.delete(worker));
  return worker;
}

/** SIGKILLs every worker process group still running (afterAll, whatever happened). */
export async function killAllWorkers(): Promise<void> {
  const left = [...running];
  for (const worker of left) worker.signal('SIGKILL');
  await Promise.all(left.map((w) => w.exited));
}

/** Resolves when `check` answers true; throws after `ms`, with `describe()` in the message. */
export async function waitFor(
  what: string,
  ms: number,
  check: () => Promise<boolean> | boolean,
  describe?: () => string,
): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${ms} ms waiting for ${what}${describe ? `\n${describe()}` : ''}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
