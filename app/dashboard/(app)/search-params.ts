/**
 * What the data pages do with their query: the first value of each parameter (a repeated one
 * counts once), and a zod error as one sentence the page shows instead of the list.
 */
import type { z } from 'zod';

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The first value of each parameter, empty ones dropped (an empty filter field means "any"). */
export async function firstValues(searchParams: SearchParams): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(await searchParams)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== '') values[key] = first;
  }
  return values;
}

/** "status: Invalid option ...; from: ..." */
export function issuesText(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}
