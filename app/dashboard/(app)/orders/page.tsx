import type { Metadata } from 'next';
import Link from 'next/link';
import { ExportBox } from '@/components/dashboard/export-box';
import { Filters } from '@/components/dashboard/filters';
import { Amount, LINK, Mono, Notice, PageBody, Price, Time } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { listOrderItems, parseOrderFilters } from '@/lib/dashboard';
import { ORDER_STATUS_VALUES } from '@/lib/protocol';
import { requirePage } from '../../session';
import { defaultExportRange } from '../export-range';
import { viewerLocale } from '../viewer-locale';
import { firstValues, loadFiltered, type SearchParams } from '../search-params';
import { StatusBadge } from '@/components/ui/badge';
import { CoinIcon, NetworkIcon } from '@/components/icons/coin-icon';
import { CELL, DataTable, EmptyState, Pager } from '@/components/ui/table';

export const metadata: Metadata = { title: 'Orders' };

export default async function OrdersPage({ searchParams }: { searchParams: SearchParams }) {
  const session = await requirePage('view');
  const params = firstValues(await searchParams);
  const scope = { merchantId: session.merchantId, mode: session.mode };
  const list = await loadFiltered(async () =>
    listOrderItems(await getDatabase(), scope, parseOrderFilters({ ...params, kind: 'orders' })),
  );
  const range = defaultExportRange();
  const locale = await viewerLocale();
  return (
    <PageBody title="Orders">
      <Filters
        action="/dashboard/orders"
        values={params}
        statuses={ORDER_STATUS_VALUES}
        searchLabel="Order id, your order id, address or transaction hash"
      />
      {!list.ok ? <Notice tone="error">{`These filters cannot be used: ${list.message}.`}</Notice> : null}
      {list.ok && list.value.rows.length === 0 ? <EmptyState>No orders match these filters.</EmptyState> : null}
      {list.ok && list.value.rows.length > 0 ? (
        <>
          <DataTable
            caption="Orders, newest first"
            head={[
              'Created',
              'Your order',
              'Description',
              'Status',
              'Price',
              'Amount',
              'Received',
              'Network',
              'Address',
            ]}
          >
            {list.value.rows.map((o) => (
              <tr key={o.orderId} data-testid="order-row" data-order-id={o.orderId}>
                <td className={CELL}>
                  <Time value={o.createdAt} />
                </td>
                <td className={CELL}>
                  {/* An invoice's order: the merchant's own number, not the internal invoice:<id>:<n>. */}
                  <Link href={`/dashboard/orders/${o.orderId}`} className={`${LINK} break-all`}>
                    {o.invoice?.merchantOrder ?? o.clientOrderId}
                  </Link>
                </td>
                <td className={`${CELL} max-w-48 break-words`}>{o.description ?? ''}</td>
                <td className={CELL}>
                  <StatusBadge status={o.status} />
                  {o.latePayments > 0 ? (
                    <span className="ms-1 inline-block rounded bg-wait-surface px-1.5 py-0.5 text-xs font-medium text-wait-ink">
                      {o.latePayments === 1 ? 'paid late' : `paid late ×${o.latePayments}`}
                    </span>
                  ) : null}
                  {o.mispayment === 'waiting' ? (
                    // The badge is the way to the decision: the order page's accept, leave and refund.
                    <Link
                      href={`/dashboard/orders/${o.orderId}#mispayment`}
                      data-testid="needs-decision"
                      className="ms-1 inline-block rounded bg-bad-surface px-1.5 py-0.5 text-xs font-medium text-bad-ink underline"
                    >
                      needs a decision
                    </Link>
                  ) : o.mispayment === 'settled' ? (
                    <span className="ms-1 inline-block rounded bg-good-surface px-1.5 py-0.5 text-xs font-medium text-good-ink">
                      settled
                    </span>
                  ) : null}
                </td>
                <td className={CELL}>
                  {o.invoice ? <Price value={o.invoice.amount} currency={o.invoice.currency} locale={locale} /> : null}
                </td>
                <td className={CELL}>
                  <span className="inline-flex items-center gap-2">
                    <CoinIcon ticker={o.currency} size="sm" />
                    <Amount value={o.amount} currency={o.currency} />
                  </span>
                </td>
                <td className={CELL}>
                  <Amount value={o.received} currency={o.currency} />
                </td>
                <td className={CELL}>
                  <span className="inline-flex items-center gap-2">
                    <NetworkIcon network={o.network} />
                    {o.network}
                  </span>
                </td>
                <td className={CELL}>
                  <Mono>{o.address}</Mono>
                </td>
              </tr>
            ))}
          </DataTable>
          <Pager path="/dashboard/orders" params={params} previous={list.value.previous} next={list.value.next} />
        </>
      ) : null}
      <ExportBox kind="orders" from={range.from} to={range.to} />
    </PageBody>
  );
}
