import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { LINK, MUTED, PageBody, Section } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { getMail } from '@/lib/mail';
import { requirePage } from '../../../session';
import { StatusBadge } from '@/components/ui/badge';
import { CELL, DataTable } from '@/components/ui/table';

export const metadata: Metadata = { title: 'Message' };

/**
 * One message as it would arrive: its headers, the HTML in a sandboxed frame (no scripts, no
 * forms, no navigation of this page; the dashboard's CSP still applies inside), and the plain text.
 */
export default async function MailMessagePage({ params }: { params: Promise<{ mailId: string }> }) {
  const session = await requirePage('view');
  const mail = await getMail(
    await getDatabase(),
    { merchantId: session.merchantId, mode: session.mode },
    (await params).mailId,
  );
  if (!mail) notFound();
  const headers = (mail.headers as [string, string][] | null) ?? [];
  return (
    <PageBody title={mail.subject ?? 'Not rendered yet'} description={`To ${mail.recipient} · ${mail.kind}`}>
      <p className="mb-4">
        <StatusBadge status={mail.state} /> <span className={MUTED}>{`${mail.attempts} attempt(s)`}</span>{' '}
        {mail.transport ? <span className={MUTED}>{`via ${mail.transport}`}</span> : null}{' '}
        {mail.order_id ? (
          <Link href={`/dashboard/orders/${mail.order_id}`} className={LINK}>
            Order
          </Link>
        ) : null}
      </p>
      {mail.last_error ? <p className={`mb-4 ${MUTED}`}>{`Last error: ${mail.last_error}`}</p> : null}
      {headers.length > 0 ? (
        <Section title="Headers">
          <DataTable caption="Headers" head={['Name', 'Value']}>
            {headers.map(([name, value], i) => (
              <tr key={i}>
                <th scope="row" className={`${CELL} font-medium`}>
                  {name}
                </th>
                <td className={`${CELL} break-all`}>{value}</td>
              </tr>
            ))}
          </DataTable>
        </Section>
      ) : null}
      {mail.html_body ? (
        <Section title="HTML">
          <iframe
            title="The message as HTML"
            sandbox=""
            srcDoc={mail.html_body}
            className="h-[32rem] w-full rounded-lg border border-line bg-white"
          />
        </Section>
      ) : null}
      {mail.text_body ? (
        <Section title="Plain text">
          <pre className="overflow-x-auto whitespace-pre-wrap rounded-lg border border-line p-3 text-sm">
            {mail.text_body}
          </pre>
        </Section>
      ) : null}
    </PageBody>
  );
}
