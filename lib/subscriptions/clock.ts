import 'server-only';
/**
 * The subscriptions' clock (docs/decisions/068): real time in live mode; in test mode, real time
 * plus the merchant's test-clock offset, which only moves forward (subscriptions/advance-test-clock,
 * the dashboard's Subscriptions page). Invoices, orders and the sandbox chain keep real time: the
 * clock moves when periods start, not how long an invoice may be paid.
 */
import { bare, param, sql, statement, subscriptionTestClocks, type Queryable } from '../db';
import type { Mode } from '../protocol';
import { TestClockLiveMode } from './errors';

const OFFSET = statement<{ offset_ms: number }, { merchantId: string }>(
  sql`select ${subscriptionTestClocks.offsetMs} from ${subscriptionTestClocks} where ${subscriptionTestClocks.merchantId} = ${param('merchantId')}`,
);
const ADVANCE = statement<{ offset_ms: number }, { merchantId: string; ms: number }>(
  sql`insert into ${subscriptionTestClocks} (${bare(subscriptionTestClocks.merchantId)}, ${bare(subscriptionTestClocks.offsetMs)})
   values (${param('merchantId')}, ${param('ms')}::bigint)
   on conflict (${bare(subscriptionTestClocks.merchantId)}) do update
     set ${bare(subscriptionTestClocks.offsetMs)} = ${subscriptionTestClocks.offsetMs} + excluded.offset_ms, ${bare(subscriptionTestClocks.updatedAt)} = now()
   returning ${subscriptionTestClocks.offsetMs}`,
);

/** How far the clock of `merchantId`'s subscriptions in `mode` is ahead of real time (0 in live mode). */
export async function clockOffset(db: Queryable, merchantId: string, mode: Mode): Promise<number> {
  if (mode === 'live') return 0;
  const [row] = await OFFSET.run(db, { merchantId });
  return row ? Number(row.offset_ms) : 0;
}

/** The subscriptions' now for the merchant and mode. */
export async function subscriptionNow(db: Queryable, merchantId: string, mode: Mode, real = new Date()): Promise<Date> {
  return new Date(real.getTime() + (await clockOffset(db, merchantId, mode)));
}

/** Moves the merchant's test clock `ms` forward (never back) and answers the new offset. */
export async function moveTestClock(db: Queryable, merchantId: string, mode: Mode, ms: number): Promise<number> {
  if (mode !== 'test') throw new TestClockLiveMode();
  const [row] = await ADVANCE.run(db, { merchantId, ms: Math.max(0, Math.trunc(ms)) });
  return Number(row!.offset_ms);
}
