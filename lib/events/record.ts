import 'server-only';
import { events, bare, sql, statement, unnest, type Queryable } from '../db';
import type { NewEvent } from './event';

const NEW_EVENTS = unnest('e', {
  id: events.id,
  merchant_id: events.merchantId,
  mode: events.mode,
  type: events.type,
  object_id: events.objectId,
  dedupe_key: events.dedupeKey,
  data: events.data,
  created_at: events.createdAt,
});
// `tx_id` and `position` come from their defaults: the writing transaction and the order of writing.
const INSERT_EVENTS = statement<{ id: string }>(
  sql`insert into ${events} (${NEW_EVENTS.names}) select ${NEW_EVENTS.names} from ${NEW_EVENTS.from}
   on conflict (${bare(events.dedupeKey)}) do nothing returning ${bare(events.id)}`,
);

/**
 * Records events inside `tx`, the transaction of the changes they report, in the order given: the
 * feed reads them in that order after every event of transactions that began writing before.
 * A change is recorded once (its dedupe key): answers the events written, in the order given.
 */
export async function recordEvents<E extends NewEvent>(tx: Queryable, list: readonly E[]): Promise<E[]> {
  if (list.length === 0) return [];
  const rows = list.map((event) => ({
    id: event.id,
    merchant_id: event.merchantId,
    mode: event.mode,
    type: event.type,
    object_id: event.objectId,
    dedupe_key: event.dedupeKey ?? `${event.type}:${event.objectId}`,
    data: event.data,
    created_at: event.createdAt,
  }));
  const written = new Set((await INSERT_EVENTS.run(tx, NEW_EVENTS.values(rows))).map((row) => row.id));
  return list.filter((event) => written.has(event.id));
}
