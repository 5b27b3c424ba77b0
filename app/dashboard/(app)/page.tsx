import type { Metadata } from 'next';
import Link from 'next/link';
import { BarChart } from '@/components/dashboard/bar-chart';
import { Amount, CARD, LINK, MUTED, PageBody, Section, Time } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { overview, type ChainState } from '@/lib/dashboard';
import { ORDER_STATUS_VALUES } from '@/lib/protocol';
import { requirePage } from '../session';
import { StatusBadge } from '@/components/ui/badge';

export const metadata: Metadata = { title: 'Overview' };

/** What each watcher state means for the merchant (lib/dashboard's chainState), in words. */
const CHAIN_STATE_TEXT: Record<ChainState, (waiting: number) => string> = {
  unhealthy: () => 'The last pass failed; the watcher keeps retrying.',
  starting: () => 'No block scanned yet.',
  idle: () => 'Idle: no payment waiting.',
  watching: (n) => `Watching for ${n === 1 ? '1 payment' : `${n} payments`} waiting.`,
};

/** The overview: what came in, what is waiting, what failed, and whether each chain is followed. */
export default async function OverviewPage() {
  const session = await requirePage('view');
  const data = await overview(await getDatabase(), { merchantId: session.merchantId, mode: session.mode });
  const unpriced = data.usd.unpriced.length > 0 ? ` Without ${data.usd.unpriced.join(', ')}: no current rate.` : '';
  return (
    <PageBody
      title="Overview"
      description={`${session.mode === 'test' ? 'Test' : 'Live'} data. Days are UTC days; "7 days" is today and the six days before.`}
    >
      <Section title="Received" id="received">
        <div className={`${CARD} mb-3`}>
          <p className="text-sm font-medium">In USD at current rates</p>
          <dl className="mt-1 grid grid-cols-1 gap-2 text-sm sm:grid-cols-3">
            {(
              [
                ['Today', data.usd.today],
                ['7 days', data.usd.last7Days],
                ['30 days', data.usd.last30Days],
              ] as const
            ).map(([label, value]) => (
              <div key={label}>
                <dt className={MUTED}>{label}</dt>
                <dd className="text-lg font-semibold">
                  <Amount value={value} currency="USD" />
                </dd>
              </div>
            ))}
          </dl>
          {unpriced ? <p className={`mt-1 text-xs ${MUTED}`}>{unpriced.trim()}</p> : null}
        </div>
        {data.received.length === 0 ? (
          <p className={`text-sm ${MUTED}`}>Nothing received in the last 30 days.</p>
        ) : (
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {data.received.map((r) => (
              <li key={`${r.network}:${r.currency}`} className={CARD}>
                <p className="font-semibold">{`${r.currency} on ${r.network}`}</p>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className={MUTED}>Today</dt>
                  <dd>
                    <Amount value={r.today} currency={r.currency} />
                  </dd>
                  <dt className={MUTED}>7 days</dt>
                  <dd>
                    <Amount value={r.last7Days} currency={r.currency} />
                  </dd>
                  <dt className={MUTED}>30 days</dt>
                  <dd>
                    <Amount value={r.last30Days} currency={r.currency} />
                  </dd>
                </dl>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Received value per day" id="chart">
        <div className={CARD}>
          <BarChart
            id="daily"
            title="Received per day, last 30 days, at current rates"
            unit="USD"
            points={data.series.map((d) => ({ label: d.day.toISOString().slice(0, 10), value: d.usdAtCurrentRate }))}
          />
          {unpriced ? <p className={`mt-1 text-xs ${MUTED}`}>{unpriced.trim()}</p> : null}
        </div>
      </Section>

      <div className="grid grid-cols-1 gap-x-6 lg:grid-cols-2">
        <Section title="Orders by status, last 30 days" id="statuses">
          <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {ORDER_STATUS_VALUES.map((status) => (
              <li key={status} className={CARD}>
                <Link
                  href={`/dashboard/orders?status=${status}`}
                  className={`${LINK} block`}
                  aria-label={`${data.ordersByStatus[status]} ${status} orders`}
                >
                  <span className="block text-2xl font-semibold">{data.ordersByStatus[status]}</span>
                  <StatusBadge status={status} />
                </Link>
              </li>
            ))}
          </ul>
        </Section>

        <Section title="Failed webhooks" id="webhooks">
          <div className={CARD}>
            <p className="text-2xl font-semibold" data-testid="failed-webhooks">
              {data.failedWebhooks}
            </p>
            <p className="text-sm">
              {data.failedWebhooks === 1 ? 'webhook gave up or was refused. ' : 'webhooks gave up or were refused. '}
              <Link href="/dashboard/webhooks?failed=1" className={LINK}>
                See failed webhooks
              </Link>
            </p>
          </div>
        </Section>
      </div>

      <Section title="Chain health" id="chains">
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {data.chains.map((c) => (
            <li key={c.network} className={CARD} data-testid={`chain-${c.network}`}>
              <p className="flex items-center justify-between gap-2 font-semibold">
                {c.displayName}
                <StatusBadge status={c.state} />
              </p>
              <p className="text-sm">{CHAIN_STATE_TEXT[c.state](c.waiting)}</p>
              {c.height === null ? null : (
                <p className="text-sm">
                  {session.mode === 'test'
                    ? `At sandbox block ${c.height}; the sandbox makes a block only when a payment needs one.`
                    : `Block ${c.height}, ${c.lagSeconds ?? 0} s behind the chain's time.`}
                </p>
              )}
              {c.lastPassAt || c.updatedAt ? (
                <p className={`text-xs ${MUTED}`}>
                  {c.lastPassAt ? 'Last pass ' : 'Last block scanned '}
                  <Time value={(c.lastPassAt ?? c.updatedAt)!} />
                </p>
              ) : null}
              {c.error ? <p className="text-sm text-bad-text">{c.error}</p> : null}
            </li>
          ))}
        </ul>
      </Section>
    </PageBody>
  );
}
