import type { Metadata } from 'next';
import Link from 'next/link';
import { Filters } from '@/components/dashboard/filters';
import { CELL, DataTable, EmptyState, Pager } from '@/components/dashboard/table';
import { Amount, LINK, Mono, Notice, PageTitle, StatusBadge, Time } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { DEPOSIT_FILTERS, listDeposits } from '@/lib/dashboard';
import { DEPOSIT_STATUS_VALUES } from '@/lib/protocol';
import { requirePage } from '../../session';
import { firstValues, issuesText, type SearchParams } from '../search-params';

export const metadata: Metadata = { title: 'Deposits' };

/** Orphan deposits (transfers that did not count for an order) and personal ones (to an external user's address). */
export default async function DepositsPage({ searchParams }: { searchParams: SearchParams }) {
  const session = await requirePage('view');
  const params = await firstValues(searchParams);
  const parsed = DEPOSIT_FILTERS.safeParse(params);
  const list = parsed.success ? await listDeposits(await getDatabase(), { merchantId: session.merchantId, mode: session.mode }, parsed.data) : undefined;
  return (
    <>
      <PageTitle description="Orphan deposits did not count for an order; personal deposits reached an external user's address.">Deposits</PageTitle>
      <Filters action="/dashboard/deposits" values={params} statuses={DEPOSIT_STATUS_VALUES} searchLabel="Address or transaction hash" />
      {!parsed.success ? <Notice tone="error">{`These filters cannot be used: ${issuesText(parsed.error)}`}</Notice> : null}
      {list && list.rows.length === 0 ? <EmptyState>No deposits match these filters.</EmptyState> : null}
      {list && list.rows.length > 0 ? (
        <>
          <DataTable caption="Deposits, newest first" head={['Seen', 'Kind', 'Status', 'Amount', 'Network', 'Address', 'Transaction', 'Order']}>
            {list.rows.map((d) => (
              <tr key={d.id}>
                <td className={CELL}><Time value={d.createdAt} /></td>
                <td className={CELL}>{d.kind}</td>
                <td className={CELL}><StatusBadge status={d.status} /></td>
                <td className={CELL}><Amount value={d.amount} currency={d.currency} /></td>
                <td className={CELL}>{d.network}</td>
                <td className={CELL}><Mono>{d.address}</Mono></td>
                <td className={CELL}><Mono>{d.inTxHash}</Mono></td>
                <td className={CELL}>
                  {d.orderId ? (
                    <Link href={`/dashboard/orders/${d.orderId}`} className={LINK}>
                      Order
                    </Link>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
          <Pager path="/dashboard/deposits" params={params} previous={list.previous} next={list.next} />
        </>
      ) : null}
    </>
  );
}
