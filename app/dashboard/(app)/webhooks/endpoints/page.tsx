import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { LINK, Mono, MUTED, Notice, PageBody, Section, Time } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { EVENT_TYPES, EVENT_TYPE_VALUES, SECRET_OVERLAP_HOURS, type Endpoint } from '@/lib/protocol';
import { can } from '@/lib/users';
import { listEndpoints, MAX_ENDPOINTS } from '@/lib/webhooks';
import { requirePage } from '../../../session';
import { createEndpointAction, endpointCommandAction, rollEndpointSecretAction } from './actions';
import { CreateEndpoint, RollSecret } from './endpoint-forms';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';

export const metadata: Metadata = { title: 'Webhook endpoints' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** What the last command did (set by endpointCommandAction's redirect); anything else shows nothing. */
const NOTICE_PARAM = z.object({
  notice: z.enum(['paused', 'enabled', 'test-sent', 'deleted', 'not-found']).optional().catch(undefined),
});
const NOTICES = {
  paused: { text: 'The endpoint is paused: it gets no deliveries until enabled.', tone: 'success' },
  enabled: { text: 'The endpoint is enabled: it gets the events of its types from now on.', tone: 'success' },
  'test-sent': { text: 'A test event is on its way: see the delivery log.', tone: 'success' },
  deleted: { text: 'The endpoint is deleted: its pending deliveries are refused.', tone: 'success' },
  'not-found': { text: 'No such endpoint: nothing was changed.', tone: 'error' },
} as const;

/**
 * The merchant's webhook endpoints of the session's mode (docs/webhooks.md, "Webhook endpoints"):
 * each with its URL, types, state and the end of a rolled secret's overlap; owners and admins add,
 * pause, test, roll and delete them. Secrets are shown only in the answer that made them.
 */
export default async function EndpointsPage({ searchParams }: Props) {
  const session = await requirePage('view');
  const { notice } = NOTICE_PARAM.parse(await searchParams);
  const endpoints = await listEndpoints(await getDatabase(), { merchantId: session.merchantId, mode: session.mode });
  const manage = can(session.role, 'keys');
  return (
    <PageBody
      title="Webhook endpoints"
      description={`URLs that receive the ${session.mode} events of the types they name, as events/list answers them, signed with a secret of their own (x-webhook-signature). At most ${MAX_ENDPOINTS} per mode.`}
    >
      {notice && <Notice tone={NOTICES[notice].tone}>{NOTICES[notice].text}</Notice>}
      {endpoints.length === 0 ? (
        <p className={`text-sm ${MUTED}`}>{`No ${session.mode} endpoint yet.`}</p>
      ) : (
        <ul className="space-y-3">
          {endpoints.map((endpoint) => (
            <EndpointItem key={endpoint.id} endpoint={endpoint} manage={manage} />
          ))}
        </ul>
      )}
      {manage && (
        <Section title="Add an endpoint" id="add">
          <CreateEndpoint
            action={createEndpointAction}
            types={EVENT_TYPE_VALUES.map((type) => ({ value: type, description: EVENT_TYPES[type].description }))}
          />
        </Section>
      )}
    </PageBody>
  );
}

function Command({ id, command, label }: { id: string; command: string; label: string }) {
  return (
    <form action={endpointCommandAction}>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="command" value={command} />
      <Button type="submit" variant="secondary">
        {label}
      </Button>
    </form>
  );
}

function EndpointItem({ endpoint, manage }: { endpoint: Endpoint; manage: boolean }) {
  return (
    <li data-testid="endpoint" data-endpoint-id={endpoint.id} className="rounded-lg border border-line p-4">
      <div className="flex flex-wrap items-center gap-2">
        <Mono>{endpoint.url}</Mono>
        <StatusBadge status={endpoint.status} />
      </div>
      {endpoint.description && <p className="mt-1 text-sm">{endpoint.description}</p>}
      <p className={`mt-1 text-sm ${MUTED}`}>
        {`Events: ${endpoint.eventTypes.includes('*') ? 'all' : endpoint.eventTypes.join(', ')}`}
      </p>
      {endpoint.disabledReason && (
        <p className="mt-1 text-sm" role="note">
          {`Disabled: ${endpoint.disabledReason}`}
        </p>
      )}
      {endpoint.failingSince && (
        <p className="mt-1 text-sm">
          Failing since <Time value={endpoint.failingSince} />
        </p>
      )}
      {endpoint.previousSecretExpiresAt && (
        <p className="mt-1 text-sm" data-testid="overlap-ends">
          Signed with the old secret too until <Time value={endpoint.previousSecretExpiresAt} />
        </p>
      )}
      <div className="mt-3 flex flex-wrap items-start gap-2">
        <Link href={`/dashboard/webhooks/endpoints/${endpoint.id}`} className={`${LINK} self-center text-sm`}>
          Delivery log
        </Link>
        {manage && (
          <>
            <Command id={endpoint.id} command="test" label="Send test event" />
            {endpoint.status === 'enabled' ? (
              <Command id={endpoint.id} command="pause" label="Pause" />
            ) : (
              <Command id={endpoint.id} command="enable" label="Enable" />
            )}
            <RollSecret action={rollEndpointSecretAction} endpointId={endpoint.id} overlap={SECRET_OVERLAP_HOURS} />
            <Command id={endpoint.id} command="delete" label="Delete" />
          </>
        )}
      </div>
    </li>
  );
}
