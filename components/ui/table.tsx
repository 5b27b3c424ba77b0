/**
 * The data tables' frame: the table scrolls horizontally inside its own box, so that a narrow
 * screen (360 px) never scrolls the page sideways; the keyset pager under it. Server-safe.
 */
import Link from 'next/link';
import type { ReactNode } from 'react';
import { Button } from './button';

/** A column's title; `hidden` ones are read by screen readers only (a column of row actions). */
export type ColumnTitle = string | { title: string; hidden: true };

export function DataTable({
  caption,
  head,
  minWidth,
  children,
}: {
  caption: string;
  head: readonly ColumnTitle[];
  /** A minimum width for a table whose cells must not wrap narrower (it scrolls inside its box instead). */
  minWidth?: string;
  children: ReactNode;
}) {
  return (
    // Focusable so that keyboard users can scroll it (axe: scrollable-region-focusable). Relative: a
    // hidden column title (sr-only, absolutely placed) scrolls with the table instead of widening the page.
    <div
      className="relative max-w-full overflow-x-auto rounded-lg border border-line"
      tabIndex={0}
      role="region"
      aria-label={caption}
    >
      <table className={`min-w-full text-start text-sm ${minWidth ?? ''}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-raised text-xs uppercase tracking-wide text-muted">
          <tr>
            {head.map((h) => {
              const title = typeof h === 'string' ? h : h.title;
              return (
                <th key={title} scope="col" className="whitespace-nowrap px-3 py-2 font-semibold">
                  {typeof h === 'string' ? h : <span className="sr-only">{title}</span>}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-line">{children}</tbody>
      </table>
    </div>
  );
}

export const CELL = 'px-3 py-2 align-top';

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="empty-state">{children}</p>;
}

/**
 * "Newer" / "Older" links of a keyset-paginated list: each carries the current filters and the
 * cursor the list answered (`before` for newer rows, `after` for older ones).
 */
export function Pager({
  path,
  params,
  previous,
  next,
}: {
  path: string;
  params: Record<string, string | undefined>;
  previous?: string;
  next?: string;
}) {
  if (!previous && !next) return null;
  const href = (cursor: { after?: string; before?: string }) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params))
      if (value && key !== 'after' && key !== 'before') query.set(key, value);
    for (const [key, value] of Object.entries(cursor)) if (value) query.set(key, value);
    return `${path}?${query.toString()}`;
  };
  return (
    <nav aria-label="Pages" className="mt-3 flex justify-between gap-2">
      {previous ? (
        <Button asChild>
          <Link href={href({ before: previous })} rel="prev">
            ← Newer
          </Link>
        </Button>
      ) : (
        <span />
      )}
      {next ? (
        <Button asChild>
          <Link href={href({ after: next })} rel="next">
            Older →
          </Link>
        </Button>
      ) : null}
    </nav>
  );
}
