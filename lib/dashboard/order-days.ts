import 'server-only';
/**
 * The overview's "orders by status, last 30 days" without counting 30 days of orders on every
 * visit (docs/decisions/056): a past UTC day whose orders are all final is counted once, into
 * order_day_counts, and read from there ever after; only today's orders, and a past day's that
 * still has an order pending, are counted live. A final status never changes and an order's
 * creation time never moves, so a day written once stays true.
 *
 * The first visit after a day ends writes that day's row (an index range of one day's orders):
 * the write is a cache fill, idempotent (`on conflict do nothing`), and the same on every process.
 */
import { bare, orderDayCounts, orders, param, sql, statement, type Queryable } from '../db';
import { ORDER_STATUS_VALUES, type OrderStatus } from '../protocol';
import type { MerchantScope } from '../merchants';

const DAY_MS = 86_400_000;

type Counts = Partial<Record<OrderStatus, number>>;
type Scope = { merchantId: string; mode: string };

const WRITTEN_DAYS = statement<{ day: Date; counts: Counts }, Scope & { from: Date; to: Date }>(
  sql`select ${orderDayCounts.day}, ${orderDayCounts.counts} from ${orderDayCounts}
       where ${orderDayCounts.merchantId} = ${param('merchantId')} and ${orderDayCounts.mode} = ${param('mode')}
         and ${orderDayCounts.day} >= ${param('from')} and ${orderDayCounts.day} < ${param('to')}`,
);

/**
 * Counts each of `days` (midnight UTC) that has no pending order, and keeps it; answers the days
 * written. Each day is one range of orders_merchant_status per status (and one for "pending?").
 */
const WRITE_DAYS = statement<{ day: Date; counts: Counts }, Scope & { days: Date[] }>(
  sql`insert into ${orderDayCounts} (${bare(orderDayCounts.merchantId)}, ${bare(orderDayCounts.mode)}, ${bare(orderDayCounts.day)}, ${bare(orderDayCounts.counts)})
      select ${param('merchantId')}::uuid, ${param('mode')}::text, d.day,
             coalesce((select jsonb_object_agg(c.status, c.n) from (
                 select ${orders.status} as status, count(*)::int as n from ${orders}
                  where ${orders.merchantId} = ${param('merchantId')} and ${orders.mode} = ${param('mode')}
                    and ${orders.createdAt} >= d.day and ${orders.createdAt} < d.day + interval '1 day'
                  group by 1) c), '{}'::jsonb)
        from unnest(${param('days')}::timestamptz[]) as d(day)
       where not exists (select 1 from ${orders}
                          where ${orders.merchantId} = ${param('merchantId')} and ${orders.mode} = ${param('mode')} and ${orders.status} = 'pending'
                            and ${orders.createdAt} >= d.day and ${orders.createdAt} < d.day + interval '1 day')
      on conflict do nothing
      returning ${bare(orderDayCounts.day)}, ${bare(orderDayCounts.counts)}`,
);

// One index range per status (orders_merchant_status) rather than a count over the whole table.
const LIVE_BY_STATUS = statement<{ status: OrderStatus; n: number }, Scope & { since: Date; now: Date }>(
  sql`select s.status, (select count(*)::int from ${orders}
                          where ${orders.merchantId} = ${param('merchantId')} and ${orders.mode} = ${param('mode')} and ${orders.status} = s.status
                            and ${orders.createdAt} >= ${param('since')} and ${orders.createdAt} <= ${param('now')}) as n
         from unnest(${sql.param(ORDER_STATUS_VALUES)}::text[]) as s(status)`,
);

/**
 * Orders created from `since` (midnight UTC) to `now`, by status (every status, zero included):
 * the written days before the first day that cannot be written yet, plus a live count from there.
 */
export async function ordersByStatusSince(
  db: Queryable,
  scope: MerchantScope,
  since: Date,
  now: Date,
): Promise<Record<OrderStatus, number>> {
  const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const range = { merchantId: scope.merchantId, mode: scope.mode, from: since, to: today };
  const written = new Map((await WRITTEN_DAYS.run(db, range)).map((r) => [r.day.getTime(), r.counts]));
  const missing: Date[] = [];
  for (let t = since.getTime(); t < today.getTime(); t += DAY_MS) if (!written.has(t)) missing.push(new Date(t));
  if (missing.length > 0)
    for (const row of await WRITE_DAYS.run(db, { merchantId: scope.merchantId, mode: scope.mode, days: missing }))
      written.set(row.day.getTime(), row.counts);
  // Live from the first day not written (a day with an order still pending), else from today.
  let liveFrom = today.getTime();
  for (let t = since.getTime(); t < today.getTime(); t += DAY_MS)
    if (!written.has(t)) {
      liveFrom = t;
      break;
    }
  const totals = Object.fromEntries(ORDER_STATUS_VALUES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  for (const [day, counts] of written)
    if (day < liveFrom) for (const s of ORDER_STATUS_VALUES) totals[s] += counts[s] ?? 0;
  const live = await LIVE_BY_STATUS.run(db, { ...scope, since: new Date(liveFrom), now });
  for (const { status, n } of live) totals[status] += n;
  return totals;
}
