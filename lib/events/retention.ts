import 'server-only';
import { events, param, sql, statement, type Queryable } from '../db';

const PRUNE = statement<{ n: number }, { days: number }>(
  sql`with gone as (delete from ${events} where ${events.createdAt} < now() - ${param('days')}::int * interval '1 day' returning 1)
   select count(*)::int as n from gone`,
);

/**
 * Removes the events older than `days` (EVENT_RETENTION_DAYS): the feed goes back that far. Their
 * deliveries stay in the delivery log (their event id set to null).
 */
export async function pruneEvents(db: Queryable, days: number): Promise<number> {
  const [row] = await PRUNE.run(db, { days });
  return row!.n;
}
