import type { Metadata } from 'next';
import { PageBody } from '@/components/dashboard/ui';
import Link from 'next/link';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { listAudit } from '@/lib/users';
import { requirePage } from '../../session';

export const metadata: Metadata = { title: 'Audit log' };

const params = z.object({ after: z.string().max(200).optional().catch(undefined) });
const CELL = 'px-3 py-2 align-top';

/** What people did in this merchant's dashboard, newest first (owners: permission `audit`). */
// The dashboard frame ((app)/layout.tsx, pages helper) holds the page's <main>.
export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await requirePage('audit');
  const { after } = params.parse(await searchParams);
  const { rows, next } = await listAudit(await getDatabase(), session.merchantId, after);
  return (
    <PageBody title="Audit log">
      <p className="mt-2">Sign-ins, user, key and settings changes and webhook resends, newest first. Times in UTC.</p>
      {/* Focusable so that keyboard users can scroll it (axe: scrollable-region-focusable), as DataTable's. */}
      <div
        className="mt-4 overflow-x-auto rounded-lg border border-line"
        tabIndex={0}
        role="region"
        aria-label="Audit log entries"
      >
        <table className="min-w-full text-left text-sm">
          <thead className="bg-raised">
            <tr>
              <th scope="col" className={CELL}>
                Time
              </th>
              <th scope="col" className={CELL}>
                Who
              </th>
              <th scope="col" className={CELL}>
                What
              </th>
              <th scope="col" className={CELL}>
                Details
              </th>
              <th scope="col" className={CELL}>
                Address
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((row) => (
              <tr key={row.id} data-testid="audit-entry">
                <td className={`${CELL} whitespace-nowrap`}>
                  {row.createdAt.toISOString().replace('T', ' ').slice(0, 19)}
                </td>
                <td className={`${CELL} break-all`}>{row.actor}</td>
                <td className={CELL}>{row.action}</td>
                <td className={`${CELL} break-all font-mono text-xs`}>
                  {Object.keys(row.detail).length > 0 ? JSON.stringify(row.detail) : ''}
                </td>
                <td className={CELL}>{row.ip ?? ''}</td>
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td className={CELL} colSpan={5}>
                  Nothing yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <nav className="mt-4 flex gap-4" aria-label="Audit log pages">
        {after && (
          <Link href="/dashboard/audit" className="underline">
            Newest
          </Link>
        )}
        {next && (
          <Link href={`/dashboard/audit?after=${encodeURIComponent(next)}`} className="underline">
            Older entries
          </Link>
        )}
      </nav>
    </PageBody>
  );
}
