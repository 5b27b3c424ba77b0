import 'server-only';
/**
 * Keyset pagination on (created_at desc, id desc), both directions, never OFFSET: a page costs
 * the same at the millionth row as at the first (the indexes of migration 0007 lead with the
 * scope and end with created_at desc, id desc).
 */
import { runSql, sql, where, type Queryable, type SQL, type SQLWrapper } from '../db';
import { decodeCursor, encodeCursor, InvalidFilter, type PageCursor } from './filters';

/** A page of rows, newest first, with the cursors of the pages beside it (absent at either end). */
export interface Page<T> {
  rows: T[];
  next?: string;
  previous?: string;
}

/** A condition of a list's where clause, or none (a filter that was not given): `where()` of lib/db joins those that apply. */
export type Condition = SQL | undefined | false;

/** The columns a list is ordered by: the created_at and id of its table (or of the alias it is read under). */
export interface ListKeys {
  createdAt: SQLWrapper;
  id: SQLWrapper;
}

export const MAX_PAGE_SIZE = 500;

/** Where a page starts: a cursor as the filter schemas parse it, or its text. */
export interface Position {
  after?: PageCursor | string;
  before?: PageCursor | string;
}

/** A cursor as parsed by the filter schemas, or as text (a caller that skipped them). */
export function cursorOf(value: PageCursor | string | undefined, parameter: string): PageCursor | undefined {
  if (value === undefined || typeof value !== 'string') return value;
  const cursor = decodeCursor(value);
  if (!cursor) throw new InvalidFilter(`${parameter} is not a page position of this list`, parameter);
  return cursor;
}

/**
 * Rows beyond (time, id) in the list's order: `(created_at, id) < (time, id)` spelled so that the
 * created_at bound is an index condition of every scope-first index (a row comparison is one only
 * when its columns lead the index's remaining ones in the same direction), ties decided by id.
 */
export function afterPosition(keys: ListKeys, op: '<' | '>', time: SQLWrapper | Date, id: SQLWrapper | string): SQL {
  const [beyond, upTo] = [sql.raw(op), sql.raw(`${op}=`)];
  return sql`${keys.createdAt} ${upTo} ${time}::timestamptz and (${keys.createdAt} ${beyond} ${time}::timestamptz or ${keys.id} ${beyond} ${id}::uuid)`;
}

/**
 * One page of `select ... from <source> where <conditions> order by created_at desc, id desc`
 * (the `keys`): after `after` (older rows) or, with `before`, the rows just newer than it, still
 * answered newest first. `select` is the select list and from clause up to the where;
 * `conditions` hold the scope and filters.
 */
export async function keysetPage<R extends { created_at: Date; id: string }>(
  db: Queryable,
  select: SQL,
  keys: ListKeys,
  conditions: readonly Condition[],
  position: Position,
  pageSize: number,
): Promise<{ rows: R[]; next?: string; previous?: string }> {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)
    throw new RangeError(`pageSize must be 1-${MAX_PAGE_SIZE}`);
  const after = cursorOf(position.after, 'after');
  const before = after ? undefined : cursorOf(position.before, 'before');
  const backwards = before !== undefined;
  const at = after ?? before;
  const direction = sql.raw(backwards ? 'asc' : 'desc');
  const found = await runSql<R>(
    db,
    sql`${select} where ${where([...conditions, at && afterPosition(keys, backwards ? '>' : '<', at.createdAt, at.id)])}
      order by ${keys.createdAt} ${direction}, ${keys.id} ${direction} limit ${pageSize + 1}`,
  );
  const more = found.length > pageSize;
  const rows = found.slice(0, pageSize);
  if (backwards) {
    // Fewer than a page newer than the cursor: that is the top of the list, shown as the first page.
    if (!more) return keysetPage(db, select, keys, conditions, {}, pageSize);
    rows.reverse();
  }
  const first = rows[0];
  const last = rows.at(-1);
  return {
    rows,
    // Older rows: going back, always (the cursor's row at least); going forwards, when the query found one more.
    next: (backwards || more) && last ? encodeCursor(last) : undefined,
    // Newer rows: going back, when it found one more; going forwards, whenever we came from a cursor.
    previous: (backwards ? more : at !== undefined) && first ? encodeCursor(first) : undefined,
  };
}
