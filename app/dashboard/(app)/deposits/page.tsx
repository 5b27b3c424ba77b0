import type { Metadata } from 'next';
import Link from 'next/link';
import { Amount, LINK, Mono, Notice, PageBody, Time, TxLink } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { listDepositItems, parseDepositFilters } from '@/lib/dashboard';
import { requirePage } from '../../session';
import { firstValues, loadFiltered, type SearchParams } from '../search-params';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { CELL, DataTable, EmptyState, Pager } from '@/components/ui/table';

export const metadata: Metadata = { title: 'Deposits' };

/** Orphan deposits (transfers that did not count for an order) and personal ones (to an external user's address). */
export default async function DepositsPage({ searchParams }: { searchParams: SearchParams }) {
  const session = await requirePage('view');
  const params = firstValues(await searchParams);
  const scope = { merchantId: session.merchantId, mode: session.mode };
  const list = await loadFiltered(async () =>
    listDepositItems(await getDatabase(), scope, parseDepositFilters(params)),
  );
  return (
    <PageBody
      title="Deposits"
      description="Orphan deposits did not count for an order; personal deposits reached an external user's address."
    >
      <form
        method="get"
        action="/dashboard/deposits"
        aria-label="Filters"
        className="mb-4 flex flex-wrap items-end gap-3"
      >
        <div>
          <Label htmlFor="filter-kind">Kind</Label>
          <Select id="filter-kind" name="kind" defaultValue={params.kind ?? ''}>
            <option value="">Any</option>
            <option value="ORPHAN">Orphan</option>
            <option value="PERSONAL">Personal</option>
          </Select>
        </div>
        <Button type="submit" variant="secondary">
          Apply
        </Button>
      </form>
      {!list.ok ? <Notice tone="error">{`These filters cannot be used: ${list.message}.`}</Notice> : null}
      {list.ok && list.value.rows.length === 0 ? <EmptyState>No deposits match these filters.</EmptyState> : null}
      {list.ok && list.value.rows.length > 0 ? (
        <>
          <DataTable
            caption="Deposits, newest first"
            head={['Seen', 'Kind', 'Status', 'Amount', 'Network', 'Address', 'Tag', 'Transaction', 'Order']}
          >
            {list.value.rows.map((d) => (
              <tr key={d.id}>
                <td className={CELL}>
                  <Time value={d.createdAt} />
                </td>
                <td className={CELL}>{d.kind}</td>
                <td className={CELL}>
                  <StatusBadge status={d.status} />
                </td>
                <td className={CELL}>
                  <Amount value={d.amount} currency={d.currency} />
                </td>
                <td className={CELL}>{d.network}</td>
                <td className={CELL}>
                  <Mono>{d.inTransaction.address}</Mono>
                </td>
                {/* The payer's destination tag, also one that names no order: what a refund or a match by hand needs. */}
                <td className={CELL}>{d.inTransaction.tag === null ? '—' : <Mono>{d.inTransaction.tag}</Mono>}</td>
                <td className={CELL}>
                  <TxLink hash={d.inTransaction.txId} url={d.explorerUrl} />
                </td>
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
          <Pager path="/dashboard/deposits" params={params} previous={list.value.previous} next={list.value.next} />
        </>
      ) : null}
    </PageBody>
  );
}
