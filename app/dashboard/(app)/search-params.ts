/**
 * What the data pages do with their query. lib/dashboard parses it (its filter schemas raise
 * `InvalidFilter` naming the bad parameter); a page shows that message instead of the list, and
 * queries nothing with it. Anything else stays an error.
 */
import { searchParamsObject } from '@/lib/dashboard';
import { isDomainErrorOf } from '@/lib/errors';

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The first value of each parameter, empty ones dropped, as the forms and pager links repeat them. */
export const firstValues: (params: Awaited<SearchParams>) => Record<string, string> = searchParamsObject;

export type Loaded<T> = { ok: true; value: T } | { ok: false; message: string };

/** `load()`'s value, or the message of the InvalidFilter it raised. */
export async function loadFiltered<T>(load: () => Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, value: await load() };
  } catch (error) {
    if (isDomainErrorOf(error, 'InvalidFilter')) return { ok: false, message: error.message };
    throw error;
  }
}
