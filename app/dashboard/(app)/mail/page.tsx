import type { Metadata } from 'next';
import Link from 'next/link';
import { LINK, MUTED, PageBody, Time } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { listMail, MAIL_PAGE_SIZE } from '@/lib/mail';
import { requirePage } from '../../session';
import { StatusBadge } from '@/components/ui/badge';
import { CELL, DataTable, EmptyState } from '@/components/ui/table';

export const metadata: Metadata = { title: 'Mail' };

/**
 * Every message the gateway wrote for this merchant and mode, newest first: its state and, when
 * it was sent, whether through SMTP or kept by the built-in catcher (docs/mail.md).
 */
export default async function MailPage() {
  const session = await requirePage('view');
  const rows = await listMail(await getDatabase(), { merchantId: session.merchantId, mode: session.mode });
  return (
    <PageBody
      title="Mail"
      description={`Mail to payers. Without SMTP_URL, and in test mode, messages are caught here and sent nowhere else. The latest ${MAIL_PAGE_SIZE} are shown.`}
    >
      {rows.length === 0 ? <EmptyState>No mail was written yet.</EmptyState> : null}
      {rows.length > 0 ? (
        <DataTable
          caption="Mail, newest first"
          head={['Created', 'Subject', 'To', 'Kind', 'State', 'Attempts', 'Sent via']}
        >
          {rows.map((mail) => (
            <tr key={mail.id}>
              <td className={CELL}>
                <Time value={mail.created_at} />
              </td>
              <td className={CELL}>
                <Link href={`/dashboard/mail/${mail.id}`} className={LINK}>
                  {mail.subject ?? 'not rendered yet'}
                </Link>
              </td>
              <td className={CELL}>{mail.recipient}</td>
              <td className={CELL}>{mail.kind}</td>
              <td className={CELL}>
                <StatusBadge status={mail.state} />
                {mail.last_error ? <span className={`block ${MUTED}`}>{mail.last_error}</span> : null}
              </td>
              <td className={CELL}>{mail.attempts}</td>
              <td className={CELL}>{mail.transport ?? <span className={MUTED}>not sent</span>}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </PageBody>
  );
}
