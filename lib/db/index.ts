import 'server-only';
import { config } from '../config';
import { forgetProcessSlot, processSlot } from '../process';
import { openDatabase, type Database, type DatabaseOptions } from './client';
import { acquireDataDir, type DataDirOwner } from './lock';

export type { Database, PoolStats, Queryable } from './client';
export { migrationStatus } from './client';
export type { RowOf } from './rows';
export {
  bare,
  columnsOf,
  compiledStatements,
  insertValues,
  param,
  placeholders,
  runSql,
  sql,
  statement,
  unnest,
  where,
  type CompiledStatement,
  type SQL,
  type SQLWrapper,
  type Statement,
  type Unnested,
} from './sql';
export { alias } from 'drizzle-orm/pg-core';
// The tables, for the statements' column references (lib/db/sql.ts) and `RowOf<typeof table>`.
export * from './schema';
export { DatabaseBusyError, isDatabaseBusy } from './client';
export { keepStatisticsFresh } from './statistics';
export { claimDataDir, describeOwner, type DataDirOwner } from './lock';

/**
 * The process's database, opened and migrated on first use; the first caller's `pool` options
 * hold. Next.js may load this module more than once (instrumentation and route bundles), so the
 * handle lives in a process slot (lib/process).
 */
export function getDatabase(
  owner: Omit<DataDirOwner, 'pid'> = {},
  pool: Pick<DatabaseOptions, 'connectionWaitMs'> = {},
): Promise<Database> {
  const database = processSlot('database', async () => {
    const cfg = config();
    if (!cfg.databaseUrl) acquireDataDir(cfg.dataDir, owner);
    const db = await openDatabase({ url: cfg.databaseUrl, dataDir: cfg.dataDir, poolSize: cfg.dbPoolSize, ...pool });
    await db.migrate();
    return db;
  });
  database.catch(() => forgetProcessSlot('database'));
  return database;
}
export { exportDatabase, importDatabase, TransferError, type TableSummary, type TransferSummary } from './transfer';
