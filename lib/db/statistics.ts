import 'server-only';
/**
 * Planner statistics for the tables the request path looks things up in. Without statistics the
 * planner rates every index of a table alike: measured on a fresh database, make-order's cached
 * plan scanned all of the merchant's orders (orders_merchant_created instead of the unique
 * orders_client_order) and all of a network's pool (instead of addresses_derivation), some
 * milliseconds per order after a few thousand orders and growing with every order. PostgreSQL's
 * autovacuum analyzes a table only after it has changed by a tenth and looks at a database once a
 * minute; the embedded database (single-user PGlite) has no autovacuum at all.
 *
 * So the gateway analyzes these tables itself when they have never been analyzed or have grown
 * by a fifth in pages since: the sizes come from the relation files (no table scan), an ANALYZE
 * samples a bounded number of rows, and it invalidates the plans cached before it.
 */
import { getTableName, type Table } from 'drizzle-orm';
import type { Queryable } from './client';
import { addresses, chainTransfers, deposits, orders, payments, webhookEvents } from './schema';
import { param, runSql, sql, statement } from './sql';
import { log } from '../log';

/** Tables with more than one index that a lookup on the request path or in the watcher could use. */
const WATCHED_TABLES = new Map<string, Table>(
  [orders, addresses, payments, chainTransfers, webhookEvents, deposits].map((table) => [getTableName(table), table]),
);

const STALE_TABLES = statement<{ name: string }, { names: string[] }>(
  sql`select c.relname as name from pg_class c
      where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and c.relname = any(${param('names')}::text[])
        and pg_relation_size(c.oid) > 0
        and (c.reltuples < 0 or pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * 1.2 + 4)`,
);

/** Checked this often; a check is one catalog query. */
const STATISTICS_CHECK_MS = 10_000;

/** Analyzes the watched tables whose statistics are missing or stale; answers their names. */
export async function refreshStatistics(db: Queryable): Promise<string[]> {
  const tables = await STALE_TABLES.run(db, { names: [...WATCHED_TABLES.keys()] });
  // The tables of the fixed list above, never from input.
  for (const { name } of tables) await runSql(db, sql`analyze ${WATCHED_TABLES.get(name)!}`);
  return tables.map((t) => t.name);
}

/** Keeps the statistics fresh in the background for the life of the process. */
export function keepStatisticsFresh(db: Queryable): void {
  const refresh = () =>
    refreshStatistics(db)
      .then((analyzed) => analyzed.length > 0 && log.debug('planner statistics refreshed', { tables: analyzed }))
      .catch((error) => log.error('refreshing planner statistics failed', { error }));
  void refresh();
  setInterval(refresh, STATISTICS_CHECK_MS).unref();
}
