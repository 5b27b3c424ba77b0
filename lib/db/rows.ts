/**
 * Row types from the schema. Statements (lib/db/sql.ts, docs/decisions/045) answer rows with the
 * database's column names (snake_case) and the drivers' values; `RowOf<typeof table>` is that row,
 * derived from the Drizzle table, so a renamed or retyped column breaks the type check instead of
 * a query at run time (docs/decisions/017). Pick the columns a query selects:
 * `Pick<RowOf<typeof orders>, 'id' | 'status'>`, or `columnsOf(table, [...])` for its select list.
 */
import type { Table } from 'drizzle-orm';

type Columns<T extends Table> = T['_']['columns'];

/**
 * What the drivers answer for a column: Drizzle's own type, except int8, which node-postgres
 * answers as text (to keep its 64 bits) while Drizzle's `mode: 'number'` says number.
 */
type DriverValue<C extends Columns<Table>[string]> = C['_']['columnType'] extends 'PgBigInt53' | 'PgBigInt64'
  ? string | number
  : C['_']['data'];

/** A row of `T` as raw SQL answers it: database column names, drivers' values, null where the column allows it. */
export type RowOf<T extends Table> = {
  -readonly [K in keyof Columns<T> as Columns<T>[K]['_']['name']]:
    DriverValue<Columns<T>[K]> | (Columns<T>[K]['_']['notNull'] extends true ? never : null);
};
