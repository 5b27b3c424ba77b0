import type { Metadata } from 'next';
import Link from 'next/link';
import { BarChart } from '@/components/dashboard/bar-chart';
import { Amount, CARD, LINK, MUTED, PageTitle, Section, StatusBadge, Time } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { overview } from '@/lib/dashboard';
import { requirePage } from '../session';

export const metadata: Metadata = { title: 'Overview' };

/** The overview: what came in, what is waiting, what failed, and whether each chain is followed. */
export default async function OverviewPage() {
  const session = await requirePage('view');
  const data = await overview(await getDatabase(), { merchantId: session.merchantId, mode: session.mode });
  return (
    <>
      <PageTitle description={`${session.mode === 'test' ? 'Test' : 'Live'} data. Days are UTC.`}>Overview</PageTitle>

      <Section title="Received" id="received">
        {data.received.length === 0 ? (
          <p className={`text-sm ${MUTED}`}>Nothing received in the last 30 days.</p>
        ) : (
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {data.received.map((r) => (
              <li key={`${r.network}:${r.currency}`} className={CARD}>
                <p className="font-semibold">{`${r.currency} on ${r.network}`}</p>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className={MUTED}>Today</dt>
                  <dd><Amount value={r.today} currency={r.currency} /></dd>
                  <dt className={MUTED}>7 days</dt>
                  <dd><Amount value={r.week} currency={r.currency} /></dd>
                  <dt className={MUTED}>30 days</dt>
                  <dd><Amount value={r.month} currency={r.currency} /></dd>
                </dl>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Received value per day" id="chart">
        <div className={CARD}>
          <BarChart id="daily" title="Received value per day, last 30 days" unit={data.daily.unit} points={data.daily.points} />
        </div>
      </Section>

      <div className="grid grid-cols-1 gap-x-6 lg:grid-cols-2">
        <Section title="Orders by status" id="statuses">
          <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {data.ordersByStatus.map(({ status, count }) => (
              <li key={status} className={CARD}>
                <Link href={`/dashboard/orders?status=${status}`} className={`${LINK} block`}>
                  <span className="block text-2xl font-semibold">{count}</span>
                  <StatusBadge status={status} />
                </Link>
              </li>
            ))}
          </ul>
        </Section>

        <Section title="Webhooks" id="webhooks">
          <div className={CARD}>
            <p className="text-2xl font-semibold">{data.failedWebhooks}</p>
            <p className="text-sm">
              {data.failedWebhooks === 1 ? 'webhook failed' : 'webhooks failed'} ·{' '}
              <Link href="/dashboard/webhooks?failed=1" className={LINK}>
                See failed webhooks
              </Link>
            </p>
          </div>
        </Section>
      </div>

      <Section title="Chain health" id="chains">
        {data.chains.length === 0 ? (
          <p className={`text-sm ${MUTED}`}>No watcher has scanned a block in this mode yet.</p>
        ) : (
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {data.chains.map((c) => (
              <li key={c.network} className={CARD}>
                <p className="font-semibold">{c.network}</p>
                <p className="text-sm">
                  {`Block ${c.height} · scanned `}
                  <Time value={c.updatedAt} />
                </p>
                <p className="text-sm">{`Behind by ${c.lagSeconds} s`}</p>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </>
  );
}
