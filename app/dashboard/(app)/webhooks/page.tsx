import type { Metadata } from 'next';
import Link from 'next/link';
import { LINK, Mono, MUTED, Notice, PageBody, Time } from '@/components/dashboard/ui';
import { ResendButton } from '@/components/dashboard/webhook-events';
import { getDatabase } from '@/lib/db';
import { listDeliveryItems, parseDeliveryFilters } from '@/lib/dashboard';
import { can } from '@/lib/users';
import { requirePage } from '../../session';
import { resendWebhook } from '../actions';
import { ResentNotice } from '../resent-notice';
import { firstValues, loadFiltered, type SearchParams } from '../search-params';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CELL, DataTable, EmptyState, Pager } from '@/components/ui/table';

export const metadata: Metadata = { title: 'Webhooks' };

/** Every webhook event with its last attempt; "failed only" narrows to those that gave up or were refused. */
export default async function WebhooksPage({ searchParams }: { searchParams: SearchParams }) {
  const session = await requirePage('view');
  const { resent, ...params } = firstValues(await searchParams);
  const scope = { merchantId: session.merchantId, mode: session.mode };
  const failedOnly = params.failed === '1' || params.failed === 'true';
  const list = await loadFiltered(async () =>
    listDeliveryItems(await getDatabase(), scope, parseDeliveryFilters(params)),
  );
  const mayResend = can(session.role, 'resend');
  const back = failedOnly ? '/dashboard/webhooks?failed=1' : '/dashboard/webhooks';
  return (
    <PageBody title="Webhooks">
      <ResentNotice resent={resent} />
      <form
        method="get"
        action="/dashboard/webhooks"
        className="mb-4 flex flex-wrap items-center gap-3"
        aria-label="Filters"
      >
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="failed" value="1" defaultChecked={failedOnly} className="h-4 w-4" />
          Failed only
        </label>
        <Button type="submit" variant="secondary">
          Apply
        </Button>
      </form>
      {!list.ok ? <Notice tone="error">{`These filters cannot be used: ${list.message}.`}</Notice> : null}
      {list.ok && list.value.rows.length === 0 ? (
        <EmptyState>{failedOnly ? 'No webhook has failed.' : 'No webhook was sent yet.'}</EmptyState>
      ) : null}
      {list.ok && list.value.rows.length > 0 ? (
        <>
          <DataTable
            caption="Webhook deliveries, newest first"
            head={[
              'Created',
              'Kind',
              'State',
              'Attempts',
              'Last answer',
              'URL',
              'Order',
              ...(mayResend ? ['Resend'] : []),
            ]}
          >
            {list.value.rows.map((w) => (
              <tr key={w.id}>
                <td className={CELL}>
                  <Time value={w.createdAt} />
                </td>
                <td className={CELL}>{w.kind}</td>
                <td className={CELL}>
                  <StatusBadge status={w.state} />
                </td>
                <td className={CELL}>{w.attempts}</td>
                <td className={CELL}>
                  {w.lastAttempt ? (
                    <span className="whitespace-nowrap">{`${w.lastAttempt.statusCode ?? w.lastAttempt.outcome} · ${w.lastAttempt.latencyMs} ms`}</span>
                  ) : (
                    <span className={MUTED}>not tried</span>
                  )}
                </td>
                <td className={CELL}>
                  <Mono>{w.url}</Mono>
                </td>
                <td className={CELL}>
                  {w.orderId ? (
                    <Link href={`/dashboard/orders/${w.orderId}`} className={LINK}>
                      Order
                    </Link>
                  ) : w.invoiceId ? (
                    <Link href={`/dashboard/invoices/${w.invoiceId}`} className={LINK}>
                      Invoice
                    </Link>
                  ) : null}
                </td>
                {mayResend ? (
                  <td className={CELL}>
                    <ResendButton eventId={w.id} resend={resendWebhook} back={back} />
                  </td>
                ) : null}
              </tr>
            ))}
          </DataTable>
          <Pager path="/dashboard/webhooks" params={params} previous={list.value.previous} next={list.value.next} />
        </>
      ) : null}
    </PageBody>
  );
}
