/**
 * Content shown and hidden by a button of its own, without JavaScript: a `<details>`. The compact
 * navigation of narrow screens is one (WAI-ARIA's disclosure navigation: its entries stay links,
 * which a `role="menu"` would turn into menu items). Server-safe.
 */
import type { ReactNode } from 'react';

export function Disclosure({
  summary,
  className,
  children,
}: {
  summary: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <details className={`rounded-md border border-line ${className ?? ''}`}>
      <summary className="cursor-pointer rounded-md px-3 py-2 text-sm font-medium focus-ring">{summary}</summary>
      {children}
    </details>
  );
}
