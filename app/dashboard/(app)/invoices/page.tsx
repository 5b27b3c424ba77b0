import type { Metadata } from 'next';
import Link from 'next/link';
import { ExportBox } from '@/components/dashboard/export-box';
import { Filters } from '@/components/dashboard/filters';
import { CELL, DataTable, EmptyState, Pager } from '@/components/dashboard/table';
import { Amount, LINK, Notice, PageTitle, StatusBadge, Time } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { listInvoices, ORDER_FILTERS } from '@/lib/dashboard';
import { INVOICE_STATUS_VALUES } from '@/lib/protocol';
import { requirePage } from '../../session';
import { defaultExportRange } from '../export-range';
import { firstValues, issuesText, type SearchParams } from '../search-params';

export const metadata: Metadata = { title: 'Invoices' };

export default async function InvoicesPage({ searchParams }: { searchParams: SearchParams }) {
  const session = await requirePage('view');
  const params = await firstValues(searchParams);
  const parsed = ORDER_FILTERS.safeParse({ ...params, kind: 'invoices' });
  const list = parsed.success ? await listInvoices(await getDatabase(), { merchantId: session.merchantId, mode: session.mode }, parsed.data) : undefined;
  const range = defaultExportRange();
  return (
    <>
      <PageTitle>Invoices</PageTitle>
      <Filters action="/dashboard/invoices" values={params} statuses={INVOICE_STATUS_VALUES} searchLabel="Invoice id, your order id, address or transaction hash" />
      {!parsed.success ? <Notice tone="error">{`These filters cannot be used: ${issuesText(parsed.error)}`}</Notice> : null}
      {list && list.rows.length === 0 ? <EmptyState>No invoices match these filters.</EmptyState> : null}
      {list && list.rows.length > 0 ? (
        <>
          <DataTable caption="Invoices, newest first" head={['Created', 'Invoice', 'Status', 'Price', 'Coin chosen', 'Received']}>
            {list.rows.map((i) => (
              <tr key={i.id}>
                <td className={CELL}><Time value={i.createdAt} /></td>
                <td className={CELL}>
                  <Link href={`/dashboard/invoices/${i.id}`} className={`${LINK} break-all`}>
                    {i.clientOrder ?? i.id}
                  </Link>
                </td>
                <td className={CELL}><StatusBadge status={i.status} /></td>
                <td className={CELL}><Amount value={i.amount} currency={i.currency} /></td>
                <td className={CELL}>{i.order ? `${i.order.currency} on ${i.order.network}` : '—'}</td>
                <td className={CELL}>{i.order ? <Amount value={i.order.received} currency={i.order.currency} /> : '—'}</td>
              </tr>
            ))}
          </DataTable>
          <Pager path="/dashboard/invoices" params={params} previous={list.previous} next={list.next} />
        </>
      ) : null}
      <ExportBox kind="invoices" from={range.from} to={range.to} />
    </>
  );
}
