/**
 * Webhook events with every delivery attempt (time, status code, latency, error, the start of the
 * answer), and a "Resend" button per event for roles that may resend. The button is a form post
 * to a server action (it works without JavaScript); the action checks the role again, so hiding
 * the button is a courtesy, not the guard.
 */
import { CARD, Mono, MUTED, Time } from './ui';
import { StatusBadge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { CELL, DataTable } from '@/components/ui/table';

/** The shape of lib/protocol's webhook event and attempt (times as ISO strings), as far as shown here. */
export interface AttemptView {
  attempt: number;
  at: string;
  statusCode: number | null;
  latencyMs: number;
  outcome: string;
  error: string | null;
  responseExcerpt: string | null;
}

export interface WebhookEventView {
  id: string;
  kind: string;
  url: string;
  state: string;
  createdAt: string;
  log: readonly AttemptView[];
}

interface Props {
  events: readonly WebhookEventView[];
  /** The resend server action, when the role may resend; undefined hides the buttons. */
  resend?: (form: FormData) => Promise<void>;
  /** The page to come back to after a resend. */
  back: string;
}

export function ResendButton({
  eventId,
  resend,
  back,
  label = 'Resend',
}: {
  eventId: string;
  resend: NonNullable<Props['resend']>;
  back: string;
  label?: string;
}) {
  return (
    <form action={resend}>
      <input type="hidden" name="eventId" value={eventId} />
      <input type="hidden" name="back" value={back} />
      <Button type="submit" variant="secondary">
        {label}
      </Button>
    </form>
  );
}

export function WebhookEvents({ events, resend, back }: Props) {
  if (events.length === 0) return <p className={`text-sm ${MUTED}`}>No webhook was sent for this one.</p>;
  return (
    <ul className="flex flex-col gap-4">
      {events.map((event) => (
        <li key={event.id} className={CARD} data-testid="webhook-event">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div className="min-w-0">
              <h3 className="font-semibold">
                {`${event.kind} webhook `}
                <StatusBadge status={event.state} />
              </h3>
              <p className="text-sm">
                <Mono>{event.url}</Mono>
              </p>
              <p className={`text-xs ${MUTED}`}>
                {'Created '}
                <Time value={event.createdAt} />
                {` · event id `}
                <Mono>{event.id}</Mono>
              </p>
            </div>
            {resend ? (
              <ResendButton eventId={event.id} resend={resend} back={back} label={`Resend ${event.kind} webhook`} />
            ) : null}
          </div>
          {event.log.length === 0 ? (
            <p className={`mt-2 text-sm ${MUTED}`}>Not tried yet.</p>
          ) : (
            <div className="mt-3">
              <DataTable
                caption={`Attempts of the ${event.kind} webhook`}
                head={['#', 'Time', 'Status', 'Latency', 'Outcome', 'Error / answer']}
              >
                {event.log.map((a) => (
                  <tr key={a.attempt}>
                    <td className={CELL}>{a.attempt}</td>
                    <td className={CELL}>
                      <Time value={a.at} />
                    </td>
                    <td className={CELL}>{a.statusCode ?? '—'}</td>
                    <td className={`${CELL} whitespace-nowrap`}>{`${a.latencyMs} ms`}</td>
                    <td className={CELL}>
                      <StatusBadge status={a.outcome} />
                    </td>
                    <td className={CELL}>
                      {a.error ? <p className="text-bad-text">{a.error}</p> : null}
                      {a.responseExcerpt ? (
                        <pre className="max-h-32 max-w-md overflow-auto whitespace-pre-wrap break-all rounded bg-raised p-2 font-mono text-xs">
                          {a.responseExcerpt}
                        </pre>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </DataTable>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
