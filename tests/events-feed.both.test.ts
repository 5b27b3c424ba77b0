/**
 * The event feed a merchant catches up from (SPEC "Events", docs/decisions/050): a receiver is down
 * while 50 orders are paid; once it is back, `events/list` after the last event it saw answers
 * exactly the 50 it missed, in order, each the object its webhook carries (and, once delivered,
 * the body it received). On PostgreSQL the 50 are settled by two writers whose transactions
 * commit out of order (the later one wrote the lower positions), while a reader polls the feed:
 * the reader never passes an event that commits later before its cursor. PGlite (one connection)
 * has one writer at a time.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import type { Database, Queryable } from '@/lib/db/client';
import { pruneEvents } from '@/lib/events';
import { noRiskScreen } from '@/lib/risk';
import { settleOrder } from '@/lib/watcher';
import { dispatcherOptions, startDispatcher, type Dispatcher } from '@/lib/webhooks';
import type { OrderRow } from '@/lib/orders/rows';
import { callInProcess, useDatabaseForApi } from './support/api-in-process';
import { createOrder, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { openTestDatabase } from './support/database';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { startReceiver, type Receiver } from './support/webhook-receiver';
import { waitFor } from './support/worker-process';

const NET = 'litecoin';
const ORDERS = 50;

let db: Database;
let merchant: TestMerchant;
let receiver: Receiver;
let dispatcher: Dispatcher;

beforeAll(async () => {
  db = await openTestDatabase();
  useDatabaseForApi(db);
  merchant = await createTestMerchant(db);
  receiver = await startReceiver();
  // Retries every 50 ms for as long as the test needs: the receiver comes back and gets them all.
  dispatcher = startDispatcher(
    db,
    dispatcherOptions({
      policy: { allowPrivate: false, allowed: ['127.0.0.1'] },
      retryDelaysMs: Array.from({ length: 400 }, () => 50),
      jitter: 0,
      timeoutMs: 2000,
      pollMs: 25,
    }),
  );
});
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await db?.close();
});

/** Orders paid and seen by the watcher, but short of the confirmations that would settle them (the test settles them). */
async function paidOrders(count: number): Promise<OrderRow[]> {
  const made: OrderRow[] = [];
  for (let i = 0; i < count; i++)
    made.push(
      await createOrder(db, merchant.test, {
        currency: 'LTC',
        network: NET,
        amount: '0.01',
        successWebhook: receiver.url('/paid'),
      }),
    );
  for (const order of made)
    await broadcast(db, { network: network(NET), to: order.address, tag: null, currency: 'LTC', amount: 1_000_000n });
  await mine(db, network(NET), 1);
  await watchOnce(db, sandboxChain(db, NET, 100));
  for (const order of made) expect((await orderRow(db, order.id)).status).toBe('pending');
  return made;
}

/** Settles `orders` inside `tx` as the watcher does once their payments have their confirmations. */
async function settle(tx: Queryable, orders: readonly OrderRow[]): Promise<void> {
  const [tip] = await tx.query<{ height: number }>(
    'select max(height)::int as height from sandbox_blocks where network = $1',
    [NET],
  );
  for (const order of orders) {
    const change = await settleOrder(tx, order.id, {
      now: new Date(),
      tipHeight: tip!.height,
      tipTime: new Date(),
      requiredConfirmations: 1,
      screen: noRiskScreen,
    });
    expect(change?.to).toBe('processed');
  }
}

interface FeedEvent {
  id: string;
  type: string;
  createdAt: string;
  data: { orderId: string } & Record<string, unknown>;
}

/** Every page of `events/list` after `after`, as a merchant pages through it. */
async function feedAfter(after: string | undefined): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  for (let cursor = after; ;) {
    const answer = await callInProcess(
      'events/list',
      { ...(cursor ? { after: cursor } : {}), limit: 20 },
      merchant.test,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const page = answer.body.response as { events: FeedEvent[]; hasMore: boolean };
    events.push(...page.events);
    if (!page.hasMore) return events;
    cursor = page.events.at(-1)!.id;
  }
}

/** The event ids whose webhooks reached the receiver, in the order received. */
const receivedIds = () => receiver.received.map((r) => String(r.headers['x-webhook-id']));

describe('events/list after an outage', () => {
  it('answers exactly the events the receiver missed, in order, each matching its webhook', async () => {
    // The receiver sees a first order paid, then goes down.
    const [first] = await paidOrders(1);
    await db.transaction((tx) => settle(tx, [first!]));
    await waitFor('the first webhook', 10_000, () => receiver.received.length === 1);
    const lastSeen = receiver.received[0]!.body.id as string;
    expect(receiver.received[0]!.body.orderId).toBe(first!.id);
    await receiver.close();

    const orders = await paidOrders(ORDERS);
    const firstHalf = orders.slice(0, ORDERS / 2);
    const secondHalf = orders.slice(ORDERS / 2);
    const polled: FeedEvent[] = [];
    let cursor: string | undefined = lastSeen;
    const poll = async () => {
      const page = await feedAfter(cursor);
      polled.push(...page);
      if (page.length > 0) cursor = page.at(-1)!.id;
    };

    if (db.kind === 'postgres') {
      // Two writers committing out of order. A takes the lower transaction id, but writes its events
      // last and commits first; B writes first (the lower positions) and commits last. The reader
      // is handed A's events while B runs, and must still get B's afterwards, although their
      // positions are lower than the cursor's: ordering by position alone loses them.
      const signal = () => {
        let done!: () => void;
        const promise = new Promise<void>((resolve) => (done = resolve));
        return { promise, done };
      };
      const aHasId = signal();
      const bWrote = signal();
      const bMayCommit = signal();
      const a = db.transaction(async (tx) => {
        await tx.query('select pg_current_xact_id()');
        aHasId.done();
        await bWrote.promise;
        await settle(tx, firstHalf);
      });
      const b = db.transaction(async (tx) => {
        await aHasId.promise;
        await settle(tx, secondHalf);
        bWrote.done();
        await bMayCommit.promise;
      });
      await a;
      await poll();
      // A's events, none of B's: B still runs.
      expect(new Set(polled.map((e) => e.data.orderId))).toEqual(new Set(firstHalf.map((o) => o.id)));
      bMayCommit.done();
      await b;
      // The case a reader ordering by position alone loses: lower positions committed last.
      const [after] = await db.query<{ a: string; b: string }>(
        `select (select min(position) from events where object_id = any($1::uuid[]))::text as a,
                (select max(position) from events where object_id = any($2::uuid[]))::text as b`,
        [firstHalf.map((o) => o.id), secondHalf.map((o) => o.id)],
      );
      expect(BigInt(after!.b)).toBeLessThan(BigInt(after!.a));
    } else {
      await db.transaction((tx) => settle(tx, firstHalf));
      await poll();
      await db.transaction((tx) => settle(tx, secondHalf));
    }
    await poll();

    // The receiver's own catch-up, after the last event it saw: the 50, each once, in order.
    const missed = await feedAfter(lastSeen);
    expect(missed).toHaveLength(ORDERS);
    expect(polled.map((e) => e.id)).toEqual(missed.map((e) => e.id));
    expect(new Set(missed.map((e) => e.data.orderId))).toEqual(new Set(orders.map((o) => o.id)));
    expect(missed.every((e) => e.type === 'order.processed')).toBe(true);
    // In order: the order in which the writers wrote them, transaction by transaction.
    const [feedOrder] = await db.query<{ ids: string[] }>(
      `select array_agg(id::text order by tx_id, position) as ids from events where object_id = any($1::uuid[])`,
      [orders.map((o) => o.id)],
    );
    expect(missed.map((e) => e.id)).toEqual(feedOrder!.ids);
    // Nothing before the cursor is answered again.
    expect(missed.map((e) => e.id)).not.toContain(lastSeen);

    // Each is what its webhook carries: the outbox's body is the event's object with `event` and its `id`.
    const bodies = new Map(
      (
        await db.query<{ id: string; body: string }>(`select id, body from webhook_events where id = any($1::uuid[])`, [
          missed.map((e) => e.id),
        ])
      ).map((row) => [row.id, JSON.parse(row.body) as Record<string, unknown>]),
    );
    for (const event of missed) {
      const { event: kind, id, ...order } = bodies.get(event.id)!;
      expect({ kind, id }).toEqual({ kind: 'ORDER', id: event.id });
      expect(order).toEqual(event.data);
    }

    // The receiver comes back: it gets the 50 webhooks, each body the event's object.
    await receiver.listen();
    await waitFor('the 50 missed webhooks', 60_000, () => new Set(receivedIds()).size === ORDERS + 1);
    for (const event of missed) {
      const got = receiver.received.find((r) => r.headers['x-webhook-id'] === event.id)!;
      const { event: _kind, id, ...order } = got.body as Record<string, unknown>;
      expect(id).toBe(event.id);
      expect(order).toEqual(event.data);
    }
  });

  it('answers 404 NOT_FOUND for a cursor that names no event of the key, and filters by type', async () => {
    const unknown = await callInProcess(
      'events/list',
      { after: '00000000-0000-4000-8000-000000000000' },
      merchant.test,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({
      name: 'NOT_FOUND',
      details: [{ path: 'after', message: 'names no event of yours' }],
    });
    const [seen] = (await feedAfter(undefined)).slice(-1);
    // Another mode's key: the test mode's events are not its own.
    const otherMode = await callInProcess('events/list', { after: seen!.id }, merchant.live);
    expect(otherMode.status).toBe(404);
    const expired = await callInProcess('events/list', { types: ['order.expired'] }, merchant.test);
    expect(expired.body.response).toEqual({ events: [], hasMore: false });
    const invalid = await callInProcess('events/list', { types: ['order.shipped'] }, merchant.test);
    expect(invalid.status).toBe(400);
  });

  it.runIf(process.env.TEST_DB === 'postgres')(
    // The first test shows a running write of this database holding it back.
    'is not held back by a running write of another database on the same server',
    async () => {
      const [last] = (await feedAfter(undefined)).slice(-1);
      const elsewhere = new pg.Client({ connectionString: process.env.TEST_PG_URL });
      await elsewhere.connect();
      try {
        // Another database of the server writes, and stays open.
        await elsewhere.query('begin');
        await elsewhere.query('select pg_current_xact_id()');
        const [order] = await paidOrders(1);
        await db.transaction((tx) => settle(tx, [order!]));
        const seen = await feedAfter(last!.id);
        expect(seen.map((e) => e.data.orderId)).toEqual([order!.id]);
      } finally {
        await elsewhere.query('rollback');
        await elsewhere.end();
      }
    },
  );

  it('keeps events EVENT_RETENTION_DAYS: an older one is removed, and its id is no cursor any more', async () => {
    const [oldest] = await feedAfter(undefined);
    expect(await pruneEvents(db, 30)).toBe(0);
    await db.query(`update events set created_at = now() - interval '31 days' where id = $1`, [oldest!.id]);
    expect(await pruneEvents(db, 30)).toBe(1);
    expect((await callInProcess('events/list', { after: oldest!.id }, merchant.test)).status).toBe(404);
    // Its webhook stays in the delivery log.
    const [kept] = await db.query<{ n: number }>('select count(*)::int as n from webhook_events where id = $1', [
      oldest!.id,
    ]);
    expect(kept!.n).toBe(1);
  });
});
