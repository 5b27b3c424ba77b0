/**
 * Small builders for the raw SQL of the hot paths (docs/decisions/017): the statement's text is
 * built once, when its module loads, so that it stays the same on every call (a named prepared
 * statement caches its plan by name), and only the values are gathered per call.
 */

export interface NamedParameters<Name extends string> {
  /** Each name's placeholder, `$1`, `$2`... in the order the names were given. */
  readonly $: Readonly<Record<Name, string>>;
  /** A call's values, in parameter order. */
  values(named: Readonly<Record<Name, unknown>>): unknown[];
}

/** Parameters written by name: `$.amount` in the statement, `{ amount: '10' }` in the call. */
export function namedParameters<const Name extends string>(names: readonly Name[]): NamedParameters<Name> {
  const $ = {} as Record<Name, string>;
  names.forEach((name, i) => ($[name] = `$${i + 1}`));
  return { $, values: (named) => names.map((name) => named[name]) };
}

/** The column list and the value list of an insert, from `{ column: SQL expression }`, in one order. */
export function insertLists(row: Readonly<Record<string, string>>): { columns: string; expressions: string } {
  return { columns: Object.keys(row).join(', '), expressions: Object.values(row).join(', ') };
}

export interface UnnestedRows<Column extends string> {
  /** `unnest($1::uuid[], $2::text[], ...) as alias(a, b, ...)`: the rows as a table. */
  readonly from: string;
  /** The column names, in parameter order: `a, b, ...`. */
  readonly columns: string;
  /** A call's parameters: one array per column, gathered from the rows. */
  values(rows: readonly Readonly<Record<Column, unknown>>[]): unknown[][];
}

/**
 * Many rows in one statement, as one typed array parameter per column (`unnest`): the statement's
 * text stays the same whatever the number of rows (unlike a multi-row VALUES list), and each value
 * goes in as a parameter, by its column's name rather than its position. `types` maps each column
 * to its SQL element type (`uuid`, `text`, `numeric`...).
 */
export function unnestRows<const Column extends string>(alias: string, types: Readonly<Record<Column, string>>): UnnestedRows<Column> {
  const names = Object.keys(types) as Column[];
  const arrays = names.map((name, i) => `$${i + 1}::${types[name]}[]`).join(', ');
  return {
    from: `unnest(${arrays}) as ${alias}(${names.join(', ')})`,
    columns: names.join(', '),
    values: (rows) => names.map((name) => rows.map((row) => row[name])),
  };
}
