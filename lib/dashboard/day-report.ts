import 'server-only';
/**
 * One past UTC day of a merchant's orders, for the team's daily summary mail (docs/decisions/074):
 * the orders created that day by status, from the overview's day counts (./order-days, written
 * once the day's orders are final, else counted live), and the amounts received that day per
 * coin, from the counted payments (the overview's own range of payments_merchant_counted).
 */
import { param, payments, sql, statement, type Queryable } from '../db';
import type { MerchantScope } from '../merchants';
import { formatUnits } from '../money';
import { decimalsOf } from '../orders';
import type { OrderStatus } from '../protocol';
import { ordersByStatusSince } from './order-days';

const DAY_MS = 86_400_000;

const RECEIVED = statement<
  { network: string; currency: string; amount: string },
  MerchantScope & { from: Date; to: Date }
>(
  sql`select ${payments.network}, ${payments.currency}, sum(${payments.amount})::text as amount from ${payments}
       where ${payments.merchantId} = ${param('merchantId')} and ${payments.mode} = ${param('mode')} and ${payments.status} = 'processed'
         and ${payments.createdAt} >= ${param('from')} and ${payments.createdAt} < ${param('to')}
       group by 1, 2 order by 2, 1`,
);

export interface DayReport {
  /** Orders created that day, by status (statuses with none left out). */
  orders: { status: OrderStatus; count: number }[];
  /** Received that day, per coin: decimal strings in the coin's units. */
  received: { currency: string; network: string; amount: string }[];
}

/** The report of the UTC day that starts at `day` (midnight UTC). */
export async function dayReport(db: Queryable, scope: MerchantScope, day: Date): Promise<DayReport> {
  const end = new Date(day.getTime() + DAY_MS);
  const [byStatus, received] = await Promise.all([
    // Through the next midnight, so that the day is read from (or written to) order_day_counts.
    ordersByStatusSince(db, scope, day, end),
    RECEIVED.run(db, { ...scope, from: day, to: end }),
  ]);
  return {
    orders: Object.entries(byStatus)
      .filter(([, count]) => count > 0)
      .map(([status, count]) => ({ status: status as OrderStatus, count })),
    received: received.map((row) => ({
      currency: row.currency,
      network: row.network,
      amount: formatUnits(BigInt(row.amount), decimalsOf(row.network, row.currency)),
    })),
  };
}
