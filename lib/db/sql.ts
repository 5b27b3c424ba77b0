/**
 * The one way to write SQL (docs/decisions/045): Drizzle's `sql` template, naming tables and
 * columns by their schema objects (`${orders.status}` renders `"orders"."status"`), so that a
 * column renamed in lib/db/schema.ts renames itself in every statement or breaks the type check.
 *
 * - `statement(sql\`...\`)` compiles a statement once, when its module loads, with the values a
 *   call gives by name (`${param('id')}` in the text, `{ id }` in `run`): its text never changes,
 *   so a named prepared statement keeps its plan (node-postgres), and every statement compiled this
 *   way is listed for tests/statements.both.test.ts, which prepares each on both databases.
 * - `runSql(db, sql\`...\`)` runs a statement built per call, for lists whose filters come and go
 *   (the dashboard's); `where()` joins the filters that apply.
 * - `bare(column)` is a column's own name where SQL takes no table (insert lists, `set`), and
 *   `unnest()` many rows as one typed array parameter per column.
 */
import {
  fillPlaceholders,
  getTableColumns,
  sql,
  type Placeholder,
  type SQLWrapper,
  type SQL,
  type Table,
} from 'drizzle-orm';
import { PgDialect, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Queryable } from './client';
import type { RowOf } from './rows';

export { sql, type SQL, type SQLWrapper };

const dialect = new PgDialect();

/** A value a call gives by name: `${param('id')}` in a statement, `{ id: ... }` in its run(). */
export function param<Name extends string>(name: Name): Placeholder<Name> {
  return sql.placeholder(name);
}

/** A column's own name, `"status"`: insert column lists, `set`, `excluded.`, where SQL allows no table. */
export function bare(column: AnyPgColumn): SQLWrapper {
  return sql.identifier(column.name);
}

/** A statement compiled once; `Params` are the names its `param()`s take. */
export interface Statement<Row, Params extends object> {
  readonly text: string;
  /** node-postgres keeps a named statement prepared per connection (hot paths); PGlite ignores it. */
  readonly name: string | undefined;
  run(db: Queryable, params: Params): Promise<Row[]>;
}

export interface CompiledStatement {
  text: string;
  name: string | undefined;
  /** The module that compiled it, from the stack (a bundle's path when bundled): for the prepare test's messages. */
  source: string | undefined;
}

/**
 * The file of the first stack frame outside this module, in `site`'s stack. Read only when asked:
 * formatting a stack costs each process start a tenth of a second over its hundreds of statements.
 */
function callerFile(site: Error): string | undefined {
  const frames = site.stack?.split('\n').slice(1) ?? [];
  for (const frame of frames) {
    const file = /\(?((?:file:\/\/)?\/[^():]+)/.exec(frame)?.[1];
    if (file && !file.endsWith('/lib/db/sql.ts')) return file.replace(/^file:\/\//, '');
  }
  return undefined;
}

const compiled: CompiledStatement[] = [];

/** Every statement compiled by `statement()` in this process, in the order their modules loaded. */
export function compiledStatements(): readonly CompiledStatement[] {
  return compiled;
}

/**
 * Compiles `query` once. Its values are the `param()`s, given by name to `run`; a value written
 * into the template itself is fixed for every call.
 */
export function statement<Row = Record<string, unknown>, Params extends object = Record<never, never>>(
  query: SQL,
  options: { name?: string } = {},
): Statement<Row, Params> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const site = new Error();
  compiled.push({
    text,
    name: options.name,
    get source() {
      return callerFile(site);
    },
  });
  return {
    text,
    name: options.name,
    run: (db, values) => db.query<Row>(text, fillPlaceholders(params, values as Record<string, unknown>), options.name),
  };
}

/** Runs a statement built for this call (filters that come and go); never prepared by name. */
export function runSql<Row = Record<string, unknown>>(db: Queryable, query: SQL): Promise<Row[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return db.query<Row>(text, params);
}

/** The conditions that apply, joined with `and`; `true` when none does. */
export function where(conditions: readonly (SQL | undefined | false)[]): SQL {
  const applying = conditions.filter((c): c is SQL => !!c);
  return applying.length > 0 ? sql.join(applying, sql` and `) : sql`true`;
}

/** An unnest column: a schema column (its name and type), or the SQL type of a value of the statement's own. */
type UnnestColumn = AnyPgColumn | string;

export interface Unnested<Name extends string> {
  /** `unnest($1::uuid[], $2::text[], ...) as alias(a, b, ...)`: the rows as a table. */
  readonly from: SQL;
  /** The column names, bare: `a, b, ...` (an insert's column list and its select list). */
  readonly names: SQL;
  /** Each column of the rows: `alias.a`. */
  readonly ref: Readonly<Record<Name, SQL>>;
  /** A call's values: one array per column, gathered from the rows, under the names of `from`'s params. */
  values(rows: readonly Readonly<Record<Name, unknown>>[]): Record<string, unknown[]>;
}

/**
 * Many rows in one statement as one typed array parameter per column (`unnest`): the statement's
 * text stays the same whatever the number of rows (unlike a multi-row VALUES list), and each
 * value goes in as a parameter. A schema column gives its name and type; its key must be that name
 * (checked when the module loads), so that a renamed column fails at once.
 */
export function unnest<const Name extends string>(
  alias: string,
  columns: Readonly<Record<Name, UnnestColumn>>,
): Unnested<Name> {
  const names = Object.keys(columns) as Name[];
  const typeOf = (name: Name): string => {
    const column = columns[name];
    if (typeof column === 'string') return column;
    if (column.name !== name) throw new Error(`unnest ${alias}: key ${name} names column ${column.name}`);
    return column.getSQLType();
  };
  const arrays = names.map((name) => sql`${param(`${alias}.${name}`)}::${sql.raw(typeOf(name))}[]`);
  const identifiers = sql.join(
    names.map((name) => sql.identifier(name)),
    sql`, `,
  );
  return {
    from: sql`unnest(${sql.join(arrays, sql`, `)}) as ${sql.identifier(alias)}(${identifiers})`,
    names: identifiers,
    ref: Object.fromEntries(
      names.map((name) => [name, sql`${sql.identifier(alias)}.${sql.identifier(name)}`]),
    ) as Record<Name, SQL>,
    values: (rows) => Object.fromEntries(names.map((name) => [`${alias}.${name}`, rows.map((row) => row[name])])),
  };
}

/**
 * Columns of `table` by their database names, `"t"."a", "t"."b"`, for a select list whose rows are
 * `Pick<RowOf<T>, N>`: the names are checked against the schema by the type check.
 */
export function columnsOf<T extends Table, const N extends keyof RowOf<T> & string>(
  table: T,
  names: readonly N[],
): SQL {
  const byName = new Map<string, AnyPgColumn>(
    Object.values(getTableColumns(table)).map((column) => [column.name, column as AnyPgColumn]),
  );
  const column = (name: string) => {
    const found = byName.get(name);
    if (!found) throw new Error(`columnsOf: no column ${name}`);
    return found;
  };
  return sql.join(names.map(column), sql`, `);
}

/** A placeholder per name, `p.id` for `param('id')`: the names a statement's run() takes, checked by the type check. */
export function placeholders<const Name extends string>(
  names: readonly Name[],
): Readonly<Record<Name, Placeholder<Name>>> {
  return Object.fromEntries(names.map((name) => [name, param(name)])) as Record<Name, Placeholder<Name>>;
}

/**
 * An insert's column list and value list from `[column, value]` pairs, in one order: each value
 * sits beside the schema column it goes to.
 */
export function insertValues(pairs: readonly (readonly [AnyPgColumn, SQLWrapper])[]): { columns: SQL; values: SQL } {
  return {
    columns: sql.join(
      pairs.map(([column]) => bare(column)),
      sql`, `,
    ),
    values: sql.join(
      pairs.map(([, value]) => value),
      sql`, `,
    ),
  };
}
