import 'server-only';
/**
 * `events/list`: a merchant's events after a cursor, oldest first, safe under any number of
 * writers (docs/decisions/050).
 *
 * The feed's order is (`tx_id`, `position`): the writing transaction's id, then the order of
 * writing. A transaction that is still running may hold events that sort before events already
 * committed; so the feed hands out only events of transactions older than the oldest one still
 * running (`tx_id` below `FEED_HORIZON`, ./horizon.ts). Every transaction below that horizon has
 * ended, and every later one sorts after it: an event handed out is never followed by one that
 * sorts before it. The webhooks wait for the same horizon (lib/webhooks/claims.ts), so the id in a
 * webhook's body is a cursor as good as the feed's own.
 */
import { events, param, sql, statement, columnsOf, type Queryable, type RowOf } from '../db';
import { DomainError } from '../errors';
import { isUuid, type EventType, type GatewayEvent, type Mode } from '../protocol';
import { eventJson } from './event';
import { FEED_HORIZON } from './horizon';

/** The `after` of a call names no event of the caller's (never one, or one removed after the retention period). */
export class EventCursorUnknown extends DomainError<'EventCursorUnknown'> {
  constructor(after: string, retentionDays: number) {
    super(
      'EventCursorUnknown',
      `No event ${after} of this key's merchant and mode: events are kept ${retentionDays} days; start again without "after".`,
      [{ path: 'after', message: 'names no event of yours' }],
    );
  }
}

type FeedRow = Pick<RowOf<typeof events>, 'id' | 'type' | 'data' | 'created_at'>;
type Position = { tx_id: string; position: string | number };

const CURSOR = statement<Position, { id: string; merchantId: string; mode: string }>(
  sql`select ${events.txId}::text as tx_id, ${events.position} from ${events}
   where ${events.id} = ${param('id')} and ${events.merchantId} = ${param('merchantId')} and ${events.mode} = ${param('mode')}`,
);

/** Transactions below the horizon have all ended (committed or rolled back). */
const HANDED_OUT = sql`${events.txId} < ${FEED_HORIZON}`;
const FEED = statement<
  FeedRow,
  { merchantId: string; mode: string; afterTx: string; afterPosition: number; types: string[] | null; limit: number }
>(
  sql`select ${columnsOf(events, ['id', 'type', 'data', 'created_at'])} from ${events}
   where ${events.merchantId} = ${param('merchantId')} and ${events.mode} = ${param('mode')} and ${HANDED_OUT}
     and (${events.txId}, ${events.position}) > (${param('afterTx')}::xid8, ${param('afterPosition')}::bigint)
     and (${param('types')}::text[] is null or ${events.type} = any(${param('types')}::text[]))
   order by ${events.txId}, ${events.position} limit ${param('limit')}`,
);

export interface EventList {
  events: GatewayEvent[];
  /** Another page follows: ask again with the last event's id as `after`. */
  hasMore: boolean;
}

/**
 * The events of `scope` after the event `after` (absent: from the oldest kept), of `types`
 * (absent: all), oldest first, at most `limit`.
 */
export async function listEvents(
  db: Queryable,
  scope: { merchantId: string; mode: Mode },
  query: { after?: string; types?: readonly EventType[]; limit: number },
  retentionDays: number,
): Promise<EventList> {
  let from: { afterTx: string; afterPosition: number } = { afterTx: '0', afterPosition: 0 };
  if (query.after !== undefined) {
    const [cursor] = isUuid(query.after) ? await CURSOR.run(db, { id: query.after, ...scope }) : [];
    if (!cursor) throw new EventCursorUnknown(query.after, retentionDays);
    from = { afterTx: cursor.tx_id, afterPosition: Number(cursor.position) };
  }
  const rows = await FEED.run(db, {
    ...scope,
    ...from,
    types: query.types && query.types.length > 0 ? [...query.types] : null,
    limit: query.limit + 1,
  });
  return {
    events: rows
      .slice(0, query.limit)
      .map(
        (row) =>
          JSON.parse(
            eventJson({ id: row.id, type: row.type as EventType, data: row.data, createdAt: row.created_at }),
          ) as GatewayEvent,
      ),
    hasMore: rows.length > query.limit,
  };
}
