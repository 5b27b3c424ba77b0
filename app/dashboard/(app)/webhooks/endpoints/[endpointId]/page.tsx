import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { LINK, Mono, MUTED, Notice, PageBody, Time } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { isDomainError } from '@/lib/errors';
import {
  EVENT_TYPE_VALUES,
  listEndpointDeliveriesRequest,
  TEST_EVENT_TYPE,
  WEBHOOK_STATE_VALUES,
} from '@/lib/protocol';
import { getEndpoint, listEndpointDeliveries } from '@/lib/webhooks';
import { notFound } from 'next/navigation';
import { requirePage } from '../../../../session';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { CELL, DataTable, EmptyState } from '@/components/ui/table';

export const metadata: Metadata = { title: 'Endpoint deliveries' };

type Props = {
  params: Promise<{ endpointId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const FILTERS = z.object({
  eventType: z.string().optional().catch(undefined),
  state: z.string().optional().catch(undefined),
  before: z.string().optional().catch(undefined),
});

/**
 * One endpoint's delivery log, newest first, filtered by event type and outcome (the same query as
 * `webhook-endpoints/deliveries`); a filter the API would refuse is said, not applied.
 */
export default async function EndpointDeliveriesPage({ params, searchParams }: Props) {
  const session = await requirePage('view');
  const { endpointId } = await params;
  const raw = FILTERS.parse(await searchParams);
  const scope = { merchantId: session.merchantId, mode: session.mode };
  const db = await getDatabase();
  const endpoint = await getEndpoint(db, scope, endpointId).catch((error: unknown) => {
    if (isDomainError(error)) notFound();
    throw error;
  });
  const query = listEndpointDeliveriesRequest.safeParse({
    id: endpoint.id,
    ...(raw.eventType ? { eventType: raw.eventType } : {}),
    ...(raw.state ? { state: raw.state } : {}),
    ...(raw.before ? { before: raw.before } : {}),
  });
  const page = query.success ? await listEndpointDeliveries(db, scope, query.data) : undefined;
  const older = page?.hasMore
    ? `?${new URLSearchParams({ ...(raw.eventType ? { eventType: raw.eventType } : {}), ...(raw.state ? { state: raw.state } : {}), before: page.deliveries.at(-1)!.id })}`
    : undefined;
  return (
    <PageBody title="Endpoint deliveries" description={<Mono>{endpoint.url}</Mono>}>
      <p className="mb-3 text-sm">
        <Link href="/dashboard/webhooks/endpoints" className={LINK}>
          All endpoints
        </Link>
      </p>
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Filters">
        <Label>
          Event type
          <Select name="eventType" defaultValue={raw.eventType ?? ''}>
            <option value="">All</option>
            {[...EVENT_TYPE_VALUES, TEST_EVENT_TYPE].map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </Select>
        </Label>
        <Label>
          Outcome
          <Select name="state" defaultValue={raw.state ?? ''}>
            <option value="">All</option>
            {WEBHOOK_STATE_VALUES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </Select>
        </Label>
        <Button type="submit" variant="secondary">
          Apply
        </Button>
      </form>
      {!query.success && <Notice tone="error">These filters cannot be used: choose them from the lists.</Notice>}
      {page && page.deliveries.length === 0 && <EmptyState>No delivery matches.</EmptyState>}
      {page && page.deliveries.length > 0 && (
        <DataTable
          caption="Deliveries to this endpoint, newest first"
          head={['Created', 'Event', 'State', 'Attempts', 'Last answer']}
        >
          {page.deliveries.map((delivery) => {
            const last = delivery.log.at(-1);
            return (
              <tr key={delivery.id} data-testid="delivery" data-event-type={delivery.eventType}>
                <td className={CELL}>
                  <Time value={delivery.createdAt} />
                </td>
                <td className={CELL}>
                  <code>{delivery.eventType}</code>
                </td>
                <td className={CELL}>
                  <StatusBadge status={delivery.state} />
                </td>
                <td className={CELL}>{delivery.attempts}</td>
                <td className={CELL}>
                  {last ? (
                    <span className="whitespace-nowrap">{`${last.statusCode ?? last.outcome} · ${last.latencyMs} ms`}</span>
                  ) : (
                    <span className={MUTED}>not tried</span>
                  )}
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      {older && (
        <p className="mt-3 text-sm">
          <Link href={older} className={LINK}>
            Older deliveries
          </Link>
        </p>
      )}
    </PageBody>
  );
}
