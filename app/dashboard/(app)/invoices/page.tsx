import type { Metadata } from 'next';
import Link from 'next/link';
import { ExportBox } from '@/components/dashboard/export-box';
import { Filters } from '@/components/dashboard/filters';
import { Amount, LINK, Notice, PageBody, Price, Time } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { listInvoiceItems, parseOrderFilters } from '@/lib/dashboard';
import { INVOICE_STATUS_VALUES } from '@/lib/protocol';
import { requirePage } from '../../session';
import { defaultExportRange } from '../export-range';
import { viewerLocale } from '../viewer-locale';
import { firstValues, loadFiltered, type SearchParams } from '../search-params';
import { StatusBadge } from '@/components/ui/badge';
import { CELL, DataTable, EmptyState, Pager } from '@/components/ui/table';

export const metadata: Metadata = { title: 'Invoices' };

export default async function InvoicesPage({ searchParams }: { searchParams: SearchParams }) {
  const session = await requirePage('view');
  const params = firstValues(await searchParams);
  const scope = { merchantId: session.merchantId, mode: session.mode };
  const list = await loadFiltered(async () =>
    listInvoiceItems(await getDatabase(), scope, parseOrderFilters({ ...params, kind: 'invoices' })),
  );
  const range = defaultExportRange();
  const locale = await viewerLocale();
  return (
    <PageBody title="Invoices">
      <Filters
        action="/dashboard/invoices"
        values={params}
        statuses={INVOICE_STATUS_VALUES}
        searchLabel="Invoice's order id, your order id, address or transaction hash"
      />
      {!list.ok ? <Notice tone="error">{`These filters cannot be used: ${list.message}.`}</Notice> : null}
      {list.ok && list.value.rows.length === 0 ? <EmptyState>No invoices match these filters.</EmptyState> : null}
      {list.ok && list.value.rows.length > 0 ? (
        <>
          <DataTable
            caption="Invoices, newest first"
            head={['Created', 'Invoice', 'Status', 'Price', 'Coin chosen', 'Received']}
          >
            {list.value.rows.map((i) => (
              <tr key={i.id}>
                <td className={CELL}>
                  <Time value={i.createdAt} />
                </td>
                <td className={CELL}>
                  <Link href={`/dashboard/invoices/${i.id}`} className={`${LINK} break-all`}>
                    {i.order ?? i.id}
                  </Link>
                </td>
                <td className={CELL}>
                  <StatusBadge status={i.status} />
                </td>
                <td className={CELL}>
                  <Price value={i.amount} currency={i.currency} locale={locale} />
                </td>
                <td className={CELL}>
                  {i.receivedCurrency && i.receivedNetwork ? `${i.receivedCurrency} on ${i.receivedNetwork}` : '—'}
                </td>
                <td className={CELL}>
                  {i.receivedAmount && i.receivedCurrency ? (
                    <Amount value={i.receivedAmount} currency={i.receivedCurrency} />
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
          <Pager path="/dashboard/invoices" params={params} previous={list.value.previous} next={list.value.next} />
        </>
      ) : null}
      <ExportBox kind="invoices" from={range.from} to={range.to} />
    </PageBody>
  );
}
