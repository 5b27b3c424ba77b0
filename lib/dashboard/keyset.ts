import 'server-only';
/**
 * Keyset pagination on (created_at desc, id desc), both directions, never OFFSET: a page costs
 * the same at the millionth row as at the first (the indexes of migration 0007 lead with the
 * scope and end with created_at desc, id desc).
 */
import type { Queryable } from '../db';
import { decodeCursor, encodeCursor, InvalidFilter, type PageCursor } from './filters';


/** A page of rows, newest first, with the cursors of the pages beside it (absent at either end). */
export interface Page<T> {
  rows: T[];
  next?: string;
  previous?: string;
}

/** A where clause built from fixed fragments; only values travel as parameters. */
export class Where {
  readonly clauses: string[] = [];
  readonly params: unknown[] = [];

  /** The placeholder of a new parameter `value`. */
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** Adds the clause `make(placeholder)` for `value`, or nothing when it is undefined. */
  add(value: unknown, make: (p: string) => string): this {
    if (value !== undefined) this.clauses.push(make(this.param(value)));
    return this;
  }

  get sql(): string {
    return this.clauses.length > 0 ? this.clauses.join(' and ') : 'true';
  }
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
export function afterPosition(alias: string, op: '<' | '>', time: string, id: string): string {
  return `${alias}.created_at ${op}= ${time}::timestamptz and (${alias}.created_at ${op} ${time}::timestamptz or ${alias}.id ${op} ${id}::uuid)`;
}

/**
 * One page of `select ... from <source> where <where> order by <alias>.created_at desc, <alias>.id desc`:
 * after `after` (older rows) or, with `before`, the rows just newer than it, still answered newest
 * first. `source` is the select list and from clause up to the where; `where` holds the scope and
 * filters.
 */
export async function keysetPage<R extends { created_at: Date; id: string }>(
  db: Queryable,
  select: string,
  alias: string,
  where: Where,
  position: Position,
  pageSize: number,
): Promise<{ rows: R[]; next?: string; previous?: string }> {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) throw new RangeError(`pageSize must be 1-${MAX_PAGE_SIZE}`);
  const after = cursorOf(position.after, 'after');
  const before = after ? undefined : cursorOf(position.before, 'before');
  const backwards = before !== undefined;
  const at = after ?? before;
  if (at) {
    const time = where.param(at.createdAt);
    const id = where.param(at.id);
    where.clauses.push(afterPosition(alias, backwards ? '>' : '<', time, id));
  }
  const direction = backwards ? 'asc' : 'desc';
  const limit = where.param(pageSize + 1);
  const found = await db.query<R>(`${select} where ${where.sql} order by ${alias}.created_at ${direction}, ${alias}.id ${direction} limit ${limit}`, where.params);
  const more = found.length > pageSize;
  const rows = found.slice(0, pageSize);
  if (backwards) {
    // Fewer than a page newer than the cursor: that is the top of the list, shown as the first page.
    if (!more) return keysetPage(db, select, alias, withoutPosition(where), {}, pageSize);
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

/** `where` without the position clause and limit keysetPage added (the last clause, the last three params). */
function withoutPosition(where: Where): Where {
  const fresh = new Where();
  fresh.clauses.push(...where.clauses.slice(0, -1));
  fresh.params.push(...where.params.slice(0, -3));
  return fresh;
}
