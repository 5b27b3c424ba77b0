import 'server-only';
/**
 * `/metrics`: the process's own counters (lib/metrics) plus figures read from the database at
 * each scrape (orders by status, payments, the webhook queue), which hold for the whole
 * deployment whichever process is scraped. Each scrape costs a few grouped counts (about 0.1 s
 * at a million orders on PostgreSQL): scrape every 15 s or more, not every second.
 */
import { getDatabase, orders, param, payments, sql, statement, webhookEvents, type Database, type RowOf } from '../db';
import { metrics } from '../metrics';
import { chainHealth } from '../watcher';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export async function metricsText(
  now = new Date(),
  database: () => Promise<Database> = () => getDatabase(),
): Promise<string> {
  const m = metrics();
  for (const h of chainHealth()) {
    const labels = { network: h.network, mode: h.mode };
    m.chainHealthy.set(labels, h.healthy ? 1 : 0);
    if (h.head !== null) m.chainHead.set(labels, h.head);
    if (h.cursor !== null) m.watcherCursor.set(labels, h.cursor);
    if (h.head !== null && h.cursor !== null) m.watcherLag.set(labels, Math.max(0, h.head - h.cursor));
    if (h.lastPassAt) m.watcherPassAge.set(labels, (now.getTime() - h.lastPassAt.getTime()) / 1000);
  }
  try {
    const db = await database();
    await readDatabaseFigures(db, now);
    const pool = db.poolStats?.();
    if (pool)
      for (const state of ['total', 'idle', 'waiting', 'max'] as const) m.dbConnections.set({ state }, pool[state]);
  } catch {
    // The process's own figures still help most when the database is what is failing.
    m.scrapeErrors.inc();
  }
  return m.registry.metrics();
}

type Count = { n: number };
const ORDERS_BY_STATUS = statement<Pick<RowOf<typeof orders>, 'mode' | 'status'> & Count>(
  sql`select ${orders.mode}, ${orders.status}, count(*)::int as n from ${orders} group by ${orders.mode}, ${orders.status}`,
);
const PAYMENTS_BY_STATUS = statement<Pick<RowOf<typeof payments>, 'network' | 'mode' | 'status'> & Count>(
  sql`select ${payments.network}, ${payments.mode}, ${payments.status}, count(*)::int as n from ${payments} group by ${payments.network}, ${payments.mode}, ${payments.status}`,
);
const WEBHOOKS_BY_STATE = statement<Pick<RowOf<typeof webhookEvents>, 'state'> & Count>(
  sql`select ${webhookEvents.state}, count(*)::int as n from ${webhookEvents} group by ${webhookEvents.state}`,
);
const WEBHOOKS_DUE = statement<Count, { now: Date }>(
  sql`select count(*)::int as n from ${webhookEvents} where ${webhookEvents.state} = 'pending' and ${webhookEvents.nextAttemptAt} <= ${param('now')}`,
);

async function readDatabaseFigures(db: Database, now: Date): Promise<void> {
  const m = metrics();
  const [orderCounts, paymentCounts, events, due] = await Promise.all([
    ORDERS_BY_STATUS.run(db, {}),
    PAYMENTS_BY_STATUS.run(db, {}),
    WEBHOOKS_BY_STATE.run(db, {}),
    WEBHOOKS_DUE.run(db, { now }),
  ]);
  // Reset first: a status no order has any more must read 0, not its last count.
  m.orders.reset();
  for (const row of orderCounts) m.orders.set({ mode: row.mode, status: row.status }, row.n);
  m.payments.reset();
  for (const row of paymentCounts) m.payments.set({ network: row.network, mode: row.mode, status: row.status }, row.n);
  m.webhookEvents.reset();
  for (const row of events) m.webhookEvents.set({ state: row.state }, row.n);
  m.webhookQueue.set(due[0]!.n);
}
