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
