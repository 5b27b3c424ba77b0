import 'server-only';
/**
 * Moving a whole gateway database to another (`npm run db -- export FILE`, `import FILE`): the way
 * off the embedded database onto PostgreSQL, and a backup format for either.
 *
 * The file is text, one record per line, each line a tag, a tab and JSON:
 *   H  {"format":"cryptogate-db","version":1,"migrations":N,"source":"pglite","exportedAt":...}
 *   T  {"table":"merchants"}            then one line per row:
 *   R  {...the row as PostgreSQL's row_to_json writes it...}
 *   E  {"table":"merchants","rows":N,"sha256":"..."}
 *   S  {"name":"pool_bitcoin_test","lastValue":"41","isCalled":true,"start":"0","min":"0"}
 *   Z  {"tables":N,"rows":N}            the end: a file without it is incomplete and refused
 *
 * Rows are exported as row_to_json text in one repeatable-read transaction with the time zone set
 * to UTC, ordered by that text, so a table's checksum (SHA-256 over its rows' text in that order)
 * can be computed again from the target database after the import and must be equal. Money
 * (NUMERIC), timestamps and JSON therefore cross as PostgreSQL's own text, never as JS numbers.
 * API keys and TOTP secrets cross as the ciphertext they are: the target needs the same APP_SECRET.
 *
 * The import runs in one transaction into a database migrated to the same version whose tables
 * are all empty, inserts parents before children (from the foreign keys), sets every sequence
 * (address pools, identities) where the source had it, checks every table's count and checksum,
 * and commits only if all match: a failed import leaves the target as it was.
 */
import { createHash } from 'node:crypto';
import { getTableName, is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Database, Queryable } from './client';
import { migrationStatus } from './client';
import * as schema from './schema';
import { param, runSql, sql, statement, type SQL, type Statement } from './sql';

export const FORMAT = 'cryptogate-db';
export const VERSION = 1;
const BATCH = 2000;

export interface TableSummary {
  table: string;
  rows: number;
  sha256: string;
}

export interface TransferSummary {
  migrations: number;
  tables: TableSummary[];
  sequences: number;
}

/** An export or import that cannot be done as asked; its message is for the operator. */
export class TransferError extends Error {
  override name = 'TransferError';
}

interface SequenceState {
  name: string;
  lastValue: string;
  isCalled: boolean;
  start: string;
  min: string;
}

/** A table of the schema (every table the migrations create) and what the transfer runs on it. */
interface TransferTable {
  name: string;
  table: PgTable;
  /** Its rows as row_to_json text, in checksum order (the query of the export's cursor). */
  rows: SQL;
  hasRows: Statement<{ any: boolean }, Record<never, never>>;
  /** Inserts a batch of rows given as one JSON array of row_to_json objects. */
  insert: Statement<unknown, { rows: string }>;
}

/** The schema's tables by name, with their statements (compiled once, here). */
const TABLES = new Map(
  (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table): [string, TransferTable] => {
      const name = getTableName(table);
      return [
        name,
        {
          name,
          table,
          rows: sql`select row_to_json(t)::text as j from ${table} t order by 1`,
          hasRows: statement(sql`select exists (select 1 from ${table}) as any`),
          insert: statement(
            sql`insert into ${table} overriding system value select * from json_populate_recordset(null::${table}, ${param('rows')}::json)`,
          ),
        },
      ];
    }),
);

/**
 * The event feed orders events by their writing transaction's id, then position, and hands out
 * (and delivers) only what transactions older than every running one wrote (schema.ts, `events`,
 * `webhook_events.tx_id`). The source's transaction ids mean nothing in this database and may be
 * ahead of its own, which would hold the imported events and webhooks back: every imported row
 * takes the import's transaction id instead, events with positions renumbered in the feed's order,
 * so the feed reads as it did and comes before every later event.
 */
const { events, webhookEvents } = schema;
const REBASE_EVENT_FEED = statement(sql`with ordered as (
    select ${events.id}, row_number() over (order by ${events.txId}, ${events.position}) as n from ${events}
  )
  update ${events} set ${sql.identifier(events.position.name)} = ordered.n, ${sql.identifier(events.txId.name)} = pg_current_xact_id()
    from ordered where ${events.id} = ordered.id`);
const REBASE_DELIVERIES = statement(
  sql`update ${webhookEvents} set ${sql.identifier(webhookEvents.txId.name)} = pg_current_xact_id()`,
);

/** The schema's tables, parents before children (foreign keys), then by name. */
function tablesInOrder(): TransferTable[] {
  const tables = [...TABLES.keys()].sort();
  const edges = [...TABLES.values()].flatMap(({ name: child, table }) =>
    getTableConfig(table).foreignKeys.map((key) => ({ child, parent: getTableName(key.reference().foreignTable) })),
  );
  const ordered: TransferTable[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.find(
      (t) => !placed.has(t) && edges.every((e) => e.child !== t || e.parent === t || placed.has(e.parent)),
    );
    if (!next) throw new TransferError("the tables' foreign keys form a cycle; cannot order them");
    ordered.push(TABLES.get(next)!);
    placed.add(next);
  }
  return ordered;
}

const SEQUENCES = statement<{ name: string; start: string; min: string }>(
  sql`select sequencename as name, start_value::text as start, min_value::text as min
       from pg_sequences where schemaname = 'public' order by sequencename`,
);

async function sequences(db: Queryable): Promise<SequenceState[]> {
  const rows = await SEQUENCES.run(db, {});
  const states: SequenceState[] = [];
  for (const row of rows) {
    const [state] = await runSql<{ last_value: string; is_called: boolean }>(
      db,
      sql`select last_value::text as last_value, is_called from ${sql.identifier(row.name)}`,
    );
    states.push({
      name: row.name,
      lastValue: state!.last_value,
      isCalled: state!.is_called,
      start: row.start,
      min: row.min,
    });
  }
  return states;
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Each row's text of `table`, in checksum order, a batch at a time (a cursor: a large table is never held whole). */
async function* tableRows(tx: Queryable, table: TransferTable): AsyncGenerator<string[]> {
  const cursor = sql.identifier(`export_${table.name}`);
  await runSql(tx, sql`declare ${cursor} no scroll cursor for ${table.rows}`);
  try {
    for (;;) {
      const rows = await runSql<{ j: string }>(tx, sql`fetch ${sql.raw(String(BATCH))} from ${cursor}`);
      if (rows.length === 0) return;
      yield rows.map((r) => r.j);
    }
  } finally {
    await runSql(tx, sql`close ${cursor}`);
  }
}

/** Opens the consistent, UTC view both sides read in. */
async function readView(tx: Queryable): Promise<void> {
  await runSql(tx, sql`set transaction isolation level repeatable read`);
  await runSql(tx, sql`set local time zone 'UTC'`);
}

async function checksum(tx: Queryable, table: TransferTable): Promise<{ rows: number; sha256: string }> {
  const hash = createHash('sha256');
  let rows = 0;
  for await (const batch of tableRows(tx, table)) {
    for (const row of batch) hash.update(row).update('\n');
    rows += batch.length;
  }
  return { rows, sha256: hash.digest('hex') };
}

const SET_SEQUENCE = statement<unknown, { name: string; value: string; called: boolean }>(
  sql`select setval(${param('name')}::regclass, ${param('value')}::bigint, ${param('called')})`,
);

/**
 * Writes the whole database to `write` (called once per line, awaited: back-pressure is the
 * caller's). `progress` hears each table as it is done.
 */
export async function exportDatabase(
  db: Database,
  write: (line: string) => Promise<void>,
  progress: (table: TableSummary) => void = () => {},
): Promise<TransferSummary> {
  const { applied } = await migrationStatus(db);
  return db.transaction(async (tx) => {
    await readView(tx);
    await write(
      `H\t${JSON.stringify({ format: FORMAT, version: VERSION, migrations: applied, source: db.kind, exportedAt: new Date().toISOString() })}\n`,
    );
    const tables: TableSummary[] = [];
    for (const table of tablesInOrder()) {
      await write(`T\t${JSON.stringify({ table: table.name })}\n`);
      const hash = createHash('sha256');
      let rows = 0;
      for await (const batch of tableRows(tx, table)) {
        for (const row of batch) hash.update(row).update('\n');
        rows += batch.length;
        await write(batch.map((row) => `R\t${row}\n`).join(''));
      }
      const summary = { table: table.name, rows, sha256: hash.digest('hex') };
      await write(`E\t${JSON.stringify(summary)}\n`);
      tables.push(summary);
      progress(summary);
    }
    const states = await sequences(tx);
    for (const state of states) await write(`S\t${JSON.stringify(state)}\n`);
    await write(`Z\t${JSON.stringify({ tables: tables.length, rows: tables.reduce((n, t) => n + t.rows, 0) })}\n`);
    return { migrations: applied, tables, sequences: states.length };
  });
}

/**
 * Loads an export (its lines, in order) into `db`, in one transaction, verified before commit.
 * Refused, changing nothing, when the file is not a complete export, its migrations differ from
 * the target's, or the target holds any row.
 */
export async function importDatabase(
  db: Database,
  lines: AsyncIterable<string>,
  progress: (table: TableSummary) => void = () => {},
): Promise<TransferSummary> {
  const { applied } = await migrationStatus(db);
  return db.transaction(async (tx) => {
    await runSql(tx, sql`set local time zone 'UTC'`);
    for (const table of tablesInOrder()) {
      const [row] = await table.hasRows.run(tx, {});
      if (row!.any)
        throw new TransferError(
          `the target database is not empty (table ${table.name} has rows): import only into a new database`,
        );
    }
    let header: { migrations: number } | undefined;
    let current: { table: TransferTable; batch: string[]; rows: number } | undefined;
    const expected: TableSummary[] = [];
    const states: SequenceState[] = [];
    let complete = false;
    const flush = async () => {
      if (!current || current.batch.length === 0) return;
      await current.table.insert.run(tx, { rows: `[${current.batch.join(',')}]` });
      current.batch = [];
    };
    let lineNumber = 0;
    for await (const line of lines) {
      lineNumber++;
      if (line === '') continue;
      const tab = line.indexOf('\t');
      const [tag, body] = [line.slice(0, tab), line.slice(tab + 1)];
      if (complete) throw new TransferError(`line ${lineNumber}: data after the end record`);
      if (!header && tag !== 'H') throw new TransferError('not a gateway database export (no header line)');
      switch (tag) {
        case 'H': {
          const parsed = JSON.parse(body) as { format?: string; version?: number; migrations?: number };
          if (parsed.format !== FORMAT || parsed.version !== VERSION)
            throw new TransferError(`not a ${FORMAT} version ${VERSION} export`);
          if (parsed.migrations !== applied) {
            throw new TransferError(
              `the export was made at migration ${parsed.migrations} and this database is at ${applied}: export and import with the same gateway version`,
            );
          }
          header = { migrations: parsed.migrations };
          break;
        }
        case 'T': {
          const { table: name } = JSON.parse(body) as { table: string };
          const table = TABLES.get(name);
          if (!table) throw new TransferError(`line ${lineNumber}: the target has no table ${name}`);
          current = { table, batch: [], rows: 0 };
          break;
        }
        case 'R':
          if (!current) throw new TransferError(`line ${lineNumber}: a row outside a table`);
          current.batch.push(body);
          current.rows++;
          if (current.batch.length >= BATCH) await flush();
          break;
        case 'E': {
          const summary = JSON.parse(body) as TableSummary;
          if (!current || summary.table !== current.table.name || summary.rows !== current.rows)
            throw new TransferError(
              `line ${lineNumber}: table ${summary.table} ends with ${current?.rows ?? 0} rows read, ${summary.rows} announced`,
            );
          await flush();
          expected.push(summary);
          current = undefined;
          break;
        }
        case 'S':
          states.push(JSON.parse(body) as SequenceState);
          break;
        case 'Z':
          complete = true;
          break;
        default:
          throw new TransferError(`line ${lineNumber}: unknown record "${tag}"`);
      }
    }
    if (!complete) throw new TransferError('the export is incomplete (no end record): it was cut short; export again');
    for (const state of states) {
      // DDL takes no parameters: the bounds are written in, as the integers BigInt makes of them.
      await runSql(
        tx,
        sql`create sequence if not exists ${sql.identifier(state.name)} as bigint minvalue ${sql.raw(BigInt(state.min).toString())} start with ${sql.raw(BigInt(state.start).toString())}`,
      );
      await SET_SEQUENCE.run(tx, { name: quoteIdent(state.name), value: state.lastValue, called: state.isCalled });
    }
    // Verified inside the transaction: a mismatch rolls everything back.
    for (const want of expected) {
      const got = await checksum(tx, TABLES.get(want.table)!);
      if (got.rows !== want.rows || got.sha256 !== want.sha256) {
        throw new TransferError(
          `table ${want.table}: ${got.rows} rows, checksum ${got.sha256.slice(0, 12)} after import; the export had ${want.rows} rows, ${want.sha256.slice(0, 12)}`,
        );
      }
      progress(want);
    }
    await REBASE_EVENT_FEED.run(tx, {});
    await REBASE_DELIVERIES.run(tx, {});
    return { migrations: header!.migrations, tables: expected, sequences: states.length };
  });
}
