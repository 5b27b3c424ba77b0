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
import type { Database, Queryable } from './client';
import { migrationStatus } from './client';

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

/** The public tables, parents before children (foreign keys), then by name. */
async function tablesInOrder(db: Queryable): Promise<string[]> {
  const tables = (await db.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' order by c.relname`,
  )).map((r) => r.name);
  const edges = await db.query<{ child: string; parent: string }>(
    `select cc.relname as child, pc.relname as parent from pg_constraint k
       join pg_class cc on cc.oid = k.conrelid join pg_class pc on pc.oid = k.confrelid
       join pg_namespace n on n.oid = k.connamespace
      where k.contype = 'f' and n.nspname = 'public'`,
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.find((t) => !placed.has(t) && edges.every((e) => e.child !== t || e.parent === t || placed.has(e.parent)));
    if (!next) throw new TransferError('the tables\' foreign keys form a cycle; cannot order them');
    ordered.push(next);
    placed.add(next);
  }
  return ordered;
}

async function sequences(db: Queryable): Promise<SequenceState[]> {
  const rows = await db.query<{ name: string; start: string; min: string }>(
    `select sequencename as name, start_value::text as start, min_value::text as min
       from pg_sequences where schemaname = 'public' order by sequencename`,
  );
  const states: SequenceState[] = [];
  for (const row of rows) {
    const [state] = await db.query<{ last_value: string; is_called: boolean }>(`select last_value::text as last_value, is_called from ${quoteIdent(row.name)}`);
    states.push({ name: row.name, lastValue: state!.last_value, isCalled: state!.is_called, start: row.start, min: row.min });
  }
  return states;
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Each row's text of `table`, in checksum order, a batch at a time (a cursor: a large table is never held whole). */
async function* tableRows(tx: Queryable, table: string): AsyncGenerator<string[]> {
  const cursor = `export_${table}`;
  await tx.query(`declare ${quoteIdent(cursor)} no scroll cursor for select row_to_json(t)::text as j from ${quoteIdent(table)} t order by 1`);
  try {
    for (;;) {
      const rows = await tx.query<{ j: string }>(`fetch ${BATCH} from ${quoteIdent(cursor)}`);
      if (rows.length === 0) return;
      yield rows.map((r) => r.j);
    }
  } finally {
    await tx.query(`close ${quoteIdent(cursor)}`);
  }
}

/** Opens the consistent, UTC view both sides read in. */
async function readView(tx: Queryable): Promise<void> {
  await tx.query('set transaction isolation level repeatable read');
  await tx.query("set local time zone 'UTC'");
}

async function checksum(tx: Queryable, table: string): Promise<{ rows: number; sha256: string }> {
  const hash = createHash('sha256');
  let rows = 0;
  for await (const batch of tableRows(tx, table)) {
    for (const row of batch) hash.update(row).update('\n');
    rows += batch.length;
  }
  return { rows, sha256: hash.digest('hex') };
}

/**
 * Writes the whole database to `write` (called once per line, awaited: back-pressure is the
 * caller's). `progress` hears each table as it is done.
 */
export async function exportDatabase(db: Database, write: (line: string) => Promise<void>, progress: (table: TableSummary) => void = () => {}): Promise<TransferSummary> {
  const { applied } = await migrationStatus(db);
  return db.transaction(async (tx) => {
    await readView(tx);
    await write(`H\t${JSON.stringify({ format: FORMAT, version: VERSION, migrations: applied, source: db.kind, exportedAt: new Date().toISOString() })}\n`);
    const tables: TableSummary[] = [];
    for (const table of await tablesInOrder(tx)) {
      await write(`T\t${JSON.stringify({ table })}\n`);
      const hash = createHash('sha256');
      let rows = 0;
      for await (const batch of tableRows(tx, table)) {
        for (const row of batch) hash.update(row).update('\n');
        rows += batch.length;
        await write(batch.map((row) => `R\t${row}\n`).join(''));
      }
      const summary = { table, rows, sha256: hash.digest('hex') };
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
export async function importDatabase(db: Database, lines: AsyncIterable<string>, progress: (table: TableSummary) => void = () => {}): Promise<TransferSummary> {
  const { applied } = await migrationStatus(db);
  return db.transaction(async (tx) => {
    await tx.query("set local time zone 'UTC'");
    const targetTables = await tablesInOrder(tx);
    for (const table of targetTables) {
      const [row] = await tx.query<{ any: boolean }>(`select exists (select 1 from ${quoteIdent(table)}) as any`);
      if (row!.any) throw new TransferError(`the target database is not empty (table ${table} has rows): import only into a new database`);
    }
    let header: { migrations: number } | undefined;
    let current: { table: string; batch: string[]; rows: number } | undefined;
    const expected: TableSummary[] = [];
    const states: SequenceState[] = [];
    let complete = false;
    const flush = async () => {
      if (!current || current.batch.length === 0) return;
      await tx.query(
        `insert into ${quoteIdent(current.table)} overriding system value select * from json_populate_recordset(null::${quoteIdent(current.table)}, $1::json)`,
        [`[${current.batch.join(',')}]`],
      );
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
          if (parsed.format !== FORMAT || parsed.version !== VERSION) throw new TransferError(`not a ${FORMAT} version ${VERSION} export`);
          if (parsed.migrations !== applied) {
            throw new TransferError(`the export was made at migration ${parsed.migrations} and this database is at ${applied}: export and import with the same gateway version`);
          }
          header = { migrations: parsed.migrations };
          break;
        }
        case 'T': {
          const { table } = JSON.parse(body) as { table: string };
          if (!targetTables.includes(table)) throw new TransferError(`line ${lineNumber}: the target has no table ${table}`);
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
          if (!current || summary.table !== current.table || summary.rows !== current.rows) throw new TransferError(`line ${lineNumber}: table ${summary.table} ends with ${current?.rows ?? 0} rows read, ${summary.rows} announced`);
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
      await tx.query(`create sequence if not exists ${quoteIdent(state.name)} as bigint minvalue ${BigInt(state.min)} start with ${BigInt(state.start)}`);
      await tx.query('select setval($1::regclass, $2::bigint, $3)', [quoteIdent(state.name), state.lastValue, state.isCalled]);
    }
    // Verified inside the transaction: a mismatch rolls everything back.
    for (const want of expected) {
      const got = await checksum(tx, want.table);
      if (got.rows !== want.rows || got.sha256 !== want.sha256) {
        throw new TransferError(`table ${want.table}: ${got.rows} rows, checksum ${got.sha256.slice(0, 12)} after import; the export had ${want.rows} rows, ${want.sha256.slice(0, 12)}`);
      }
      progress(want);
    }
    return { migrations: header!.migrations, tables: expected, sequences: states.length };
  });
}
