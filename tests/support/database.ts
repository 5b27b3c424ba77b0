import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '@/lib/db/client';

/**
 * A fresh, migrated database for one test file: PGlite in memory, or a new database on the
 * PostgreSQL server of `npm test` (TEST_PG_URL), dropped again on close.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== 'postgres') {
    // From the run's migrated copy (support/pglite-template.ts) when there is one, else a new cluster.
    const template = inject('pgliteTemplate');
    const db = await openDatabase({
      dataDir: 'memory://',
      loadDataDir: template ? new Blob([fs.readFileSync(template)]) : undefined,
    });
    await db.migrate();
    return db;
  }
  return (await openPostgresTestDatabase()).db;
}

const POOL_SIZE = 20;

/**
 * A new, migrated database on the PostgreSQL server of `npm test`, dropped again on close, with
 * its URL for the processes a test starts (an embedded database has one owner process).
 *
 * Its pool's connections are all opened here, one at a time, while nothing else runs: a test
 * gateway in this process (support/gateway.ts) loads every page of the build right after it
 * starts, which blocks the event loop for a second or more on a loaded machine, and a connection
 * being opened then missed the pool's 1 s connection timeout (DatabaseBusyError in the test's
 * first query, or a 503 for the first requests), however quickly PostgreSQL answered.
 */
export async function openPostgresTestDatabase(): Promise<{ db: Database; url: string }> {
  const adminUrl = process.env.TEST_PG_URL;
  if (!adminUrl) throw new Error('TEST_PG_URL is not set: run the suite with `npm test`, which starts PostgreSQL.');
  const name = `gw_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // A copy of the run's migrated database (support/postgres-template.ts) when there is one.
  const template = inject('postgresTemplate');
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), poolSize: POOL_SIZE });
  await db.migrate();
  await holdConnections(db, POOL_SIZE);
  const close = db.close.bind(db);
  return {
    url: url.toString(),
    db: Object.assign(db, {
      async close() {
        await close();
        const drop = new pg.Client({ connectionString: adminUrl });
        await drop.connect();
        await drop.query(`drop database if exists ${name} with (force)`);
        await drop.end();
      },
    }),
  };
}

/** Holds `count` pooled connections at once (a transaction each, nested), so that the pool opens them in turn. */
async function holdConnections(db: Database, count: number): Promise<void> {
  if (count > 0) await db.transaction(() => holdConnections(db, count - 1));
}

/** Row counts of every table: a rejected request must leave them all unchanged. */
export async function countRows(db: Database): Promise<Record<string, number>> {
  const tables = [
    'merchants',
    'api_keys',
    'api_nonces',
    'advanced_balances',
    'external_users',
    'addresses',
    'orders',
    'payments',
    'deposits',
    'invoices',
    'payment_links',
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = await db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
    counts[table] = row!.n;
  }
  // Assigned addresses change on make-order without a new row.
  const [assigned] = await db.query<{ n: number }>(
    'select count(*)::int as n from addresses where assigned_at is not null',
  );
  counts.assigned_addresses = assigned!.n;
  return counts;
}
