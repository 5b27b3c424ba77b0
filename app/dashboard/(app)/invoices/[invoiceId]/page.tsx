import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Amount, CARD, LINK, Mono, MUTED, PageBody, Section, Time } from '@/components/dashboard/ui';
import { WebhookEvents } from '@/components/dashboard/webhook-events';
import { getDatabase } from '@/lib/db';
import { invoiceDetail } from '@/lib/dashboard';
import { can } from '@/lib/users';
import { z } from 'zod';
import { requirePage } from '../../../session';
import { resendWebhook } from '../../actions';
import { ResentNotice } from '../../resent-notice';
import { firstValues, type SearchParams } from '../../search-params';
import { StatusBadge } from '@/components/ui/badge';

export const metadata: Metadata = { title: 'Invoice' };

type Props = { params: Promise<{ invoiceId: string }>; searchParams: SearchParams };

/** An invoice: its price, the coin its payer chose (with a link to that order's detail) and its webhook. */
export default async function InvoicePage({ params, searchParams }: Props) {
  const session = await requirePage('view');
  const id = z.uuid().safeParse((await params).invoiceId);
  if (!id.success) notFound();
  const detail = await invoiceDetail(
    await getDatabase(),
    { merchantId: session.merchantId, mode: session.mode },
    id.data,
  );
  if (!detail) notFound();
  const { invoice, order, webhooks } = detail;
  const { resent } = firstValues(await searchParams);
  return (
    <PageBody
      title={`Invoice ${invoice.order ?? ''}`.trim()}
      description={<Mono>{invoice.id}</Mono>}
      back={{ href: '/dashboard/invoices', label: 'Invoices' }}
    >
      <ResentNotice resent={resent} />
      <dl className={`${CARD} grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]`}>
        <dt className={MUTED}>Status</dt>
        <dd>
          <StatusBadge status={invoice.status} />
        </dd>
        <dt className={MUTED}>Price</dt>
        <dd>
          <Amount value={invoice.amount} currency={invoice.currency} />
        </dd>
        {invoice.description ? (
          <>
            <dt className={MUTED}>Description</dt>
            <dd>{invoice.description}</dd>
          </>
        ) : null}
        <dt className={MUTED}>Created</dt>
        <dd>
          <Time value={invoice.createdAt} />
        </dd>
        <dt className={MUTED}>Expires</dt>
        <dd>
          <Time value={invoice.expiresAt} />
        </dd>
      </dl>
      <Section title="Coin chosen" id="order">
        {order ? (
          <p className="text-sm">
            <Amount value={order.order.amount} currency={order.order.currency} />
            {` on ${order.order.network}, received `}
            <Amount value={order.order.received} currency={order.order.currency} />
            {', '}
            <StatusBadge status={order.order.status} />
            {' · '}
            <Link href={`/dashboard/orders/${order.order.orderId}`} className={LINK}>
              Order details, payments and timeline
            </Link>
          </p>
        ) : (
          <p className={`text-sm ${MUTED}`}>The payer has not chosen a coin yet.</p>
        )}
      </Section>
      <Section title="Webhooks" id="webhooks">
        <WebhookEvents
          events={webhooks}
          resend={can(session.role, 'resend') ? resendWebhook : undefined}
          back={`/dashboard/invoices/${invoice.id}`}
        />
      </Section>
    </PageBody>
  );
}
