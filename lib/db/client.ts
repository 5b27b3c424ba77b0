import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

/** Something SQL can be sent to: the database itself or an open transaction. */
export interface Queryable {
  /**
   * Runs one parameterised statement and answers its rows. `name` makes node-postgres keep the
   * statement prepared on each connection (hot paths); PGlite ignores it.
   */
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[], name?: string): Promise<R[]>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Applies the committed migrations that have not run yet. */
  migrate(): Promise<void>;
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel`, from this or any other
   * process. `onGap` is called whenever notifications may have been missed (the listening
   * connection was lost and is back), so that the listener can resynchronise.
   */
  listen(channel: string, onNotify: (payload: string) => void, onGap: () => void): Promise<void>;
  /** The pool's connections now (node-postgres); the embedded database has one connection and no pool. */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  total: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
  max: number;
}

/** Raised when the database cannot take more work right now (pool exhausted); answered 503. */
export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError';
}

/**
 * By name, not instanceof: the database is opened by the instrumentation bundle and used by the
 * route bundles, and each bundle has its own copy of this class.
 */
export function isDatabaseBusy(error: unknown): boolean {
  return error instanceof Error && error.name === 'DatabaseBusyError';
}

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'lib', 'db', 'migrations');

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite database in `dataDir` is used. */
  url?: string;
  dataDir?: string;
  poolSize?: number;
  /**
   * PostgreSQL only: how long work waits for a pooled connection before DatabaseBusyError. Short
   * for a web server, whose requests are better answered 503 than queued; a worker's passes have
   * no one waiting on them and rather take their turn.
   */
  connectionWaitMs?: number;
  /**
   * PGlite only: the contents a new data directory starts from, a `dumpDataDir()` tarball, instead
   * of an empty cluster (initdb, several seconds of CPU). The test suite starts each file's
   * database from one migrated copy (tests/support/database.ts).
   */
  loadDataDir?: Blob;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) return openPostgres(options.url, options.poolSize ?? 10, options.connectionWaitMs ?? 1000);
  if (!options.dataDir) throw new Error('openDatabase needs a url or a dataDir');
  return openPglite(options.dataDir, options.loadDataDir);
}

async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<Database> {
  const dir = dataDir === 'memory://' ? dataDir : path.join(dataDir, 'pglite');
  if (dir !== 'memory://') fs.mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir, { loadDataDir });
  const run = async <R>(q: Pick<PGlite, 'query'>, text: string, params?: readonly unknown[]) =>
    (await q.query<R>(text, params as unknown[] | undefined)).rows;
  return {
    kind: 'pglite',
    query: (text, params) => run(client, text, params),
    transaction: (work) => client.transaction((tx) => work({ query: (text, params) => run(tx, text, params) })),
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER }),
    // One process owns an embedded database, so its notifications never get lost in transit.
    listen: async (channel, onNotify) => void (await client.listen(checkChannel(channel), onNotify)),
    close: () => client.close(),
  };
}

async function openPostgres(url: string, poolSize: number, connectionWaitMs: number): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // Work that cannot get a connection in time fails (a request: 503) rather than queue forever.
    connectionTimeoutMillis: connectionWaitMs,
    idleTimeoutMillis: 30_000,
    // A process killed inside a transaction leaves its session open until TCP gives up, holding
    // row locks (a watcher's cursor) meanwhile; the server ends such a session after a minute.
    idle_in_transaction_session_timeout: 60_000,
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Nothing to do, but not fatal.
  });
  const connect = async () => {
    try {
      return await pool.connect();
    } catch (error) {
      if (error instanceof Error && /timeout/i.test(error.message))
        throw new DatabaseBusyError(
          `database pool exhausted (${pool.totalCount} connections, ${pool.idleCount} idle, ${pool.waitingCount} waiting)`,
        );
      throw error;
    }
  };
  const listeners: (() => Promise<void>)[] = [];
  const run = async <R>(client: pg.PoolClient, text: string, params?: readonly unknown[], name?: string) => {
    const result = await client.query(
      name ? { name, text, values: params as unknown[] } : { text, values: params as unknown[] },
    );
    return result.rows as R[];
  };
  return {
    kind: 'postgres',
    async query(text, params, name) {
      const client = await connect();
      try {
        return await run(client, text, params, name);
      } finally {
        client.release();
      }
    },
    async transaction(work) {
      const client = await connect();
      try {
        await client.query('BEGIN');
        const result = await work({ query: (text, params, name) => run(client, text, params, name) });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    migrate: () => migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS_FOLDER }),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
    async listen(channel, onNotify, onGap) {
      listeners.push(listenPostgres(url, checkChannel(channel), onNotify, onGap));
    },
    async close() {
      await Promise.all(listeners.map((stop) => stop()));
      await pool.end();
    },
  };
}

function checkChannel(channel: string): string {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`bad notification channel name: ${channel}`);
  return channel;
}

const LISTEN_RETRY_MS = { first: 1000, max: 30_000 };

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other work), reconnecting
 * with backoff whenever it is lost. Answers a function that stops listening.
 */
function listenPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onGap: () => void,
): () => Promise<void> {
  let stopped = false;
  let current: pg.Client | undefined;
  let wake: (() => void) | undefined;
  const loop = async () => {
    let delay = LISTEN_RETRY_MS.first;
    while (!stopped) {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => {
        // Followed by 'end': the loop reconnects.
      });
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${channel}`);
        current = client;
        delay = LISTEN_RETRY_MS.first;
        const ended = new Promise<void>((resolve) => client.once('end', resolve));
        // A stop() that came while this client was connecting found no client to end.
        if (stopped) void client.end().catch(() => undefined);
        else onGap(); // whatever happened before this LISTEN was not heard
        await ended;
      } catch {
        await client.end().catch(() => undefined);
      }
      current = undefined;
      if (stopped) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, delay).unref();
      });
      delay = Math.min(delay * 2, LISTEN_RETRY_MS.max);
    }
  };
  const done = loop();
  return async () => {
    stopped = true;
    wake?.();
    await current?.end().catch(() => undefined);
    await done;
  };
}

/**
 * How many of the committed migrations the database has applied, by drizzle's own record
 * (`drizzle.__drizzle_migrations`, one row per applied migration) against the journal.
 */
export async function migrationStatus(db: Queryable): Promise<{ applied: number; expected: number }> {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  const [table] = await db.query<{ present: boolean }>(
    `select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!table!.present) return { applied: 0, expected: journal.entries.length };
  const [row] = await db.query<{ applied: number }>(
    'select count(*)::int as applied from drizzle.__drizzle_migrations',
  );
  return { applied: row!.applied, expected: journal.entries.length };
}
