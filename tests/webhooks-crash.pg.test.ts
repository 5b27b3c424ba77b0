/**
 * Webhooks survive a crash of `npm run worker` (SIGKILL): the outbox row is committed with the
 * status change, and a dispatcher that dies before or during an attempt leaves rows that the next
 * one delivers. At least once: a delivery whose answer the dead worker never recorded is sent
 * again, with the same x-webhook-id. PostgreSQL only (a worker process beside the test needs a
 * shared database).
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { broadcastMany, mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import type { OrderRow } from '@/lib/orders/rows';
import { createOrder, network } from './support/chain';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { startReceiver, verifyWebhook, type Receiver } from './support/webhook-receiver';
import {
  killAllWorkers,
  openSharedTestDatabase,
  startWorker,
  waitFor,
  type WorkerProcess,
} from './support/worker-process';

const TRON = network('tron');
/** The worker's webhook settings: receivers on 127.0.0.1 allowed, a short timeout (so a short lease). */
const WEBHOOK_ENV = {
  WEBHOOK_ALLOWED_TARGETS: '127.0.0.1',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_CONCURRENCY: '8',
  WEBHOOK_POLL_MS: '50',
  // The worker signs with the merchant's key, decrypted with the same APP_SECRET as the test's.
  APP_SECRET: process.env.APP_SECRET!,
};

let db: Database;
let url: string;
let merchant: TestMerchant;
let receiver: Receiver | undefined;

beforeAll(async () => {
  ({ db, url } = await openSharedTestDatabase());
  merchant = await createTestMerchant(db);
});
afterEach(async () => {
  await killAllWorkers();
  await receiver?.close();
});
afterAll(async () => {
  await killAllWorkers();
  await db?.close();
});

/** `count` USDT-on-Tron orders with a success webhook to `hook`, paid in full (in the mempool). */
async function paidOrders(count: number, hook: string): Promise<string[]> {
  const orders: OrderRow[] = [];
  for (let i = 0; i < count; i++)
    orders.push(
      await createOrder(db, merchant.test, { currency: 'USDT', network: 'tron', amount: '10', successWebhook: hook }),
    );
  await broadcastMany(
    db,
    TRON,
    orders.map((o) => ({ to: o.address, currency: 'USDT', amount: 10_000_000n })),
  );
  return orders.map((o) => o.id);
}

async function outbox(ids: string[]) {
  return db.query<{ id: string; order_id: string; state: string; attempts: number; body: string }>(
    'select id, order_id, state, attempts, body from webhook_events where order_id = any($1::uuid[])',
    [ids],
  );
}

async function countWhere(ids: string[], state: string): Promise<number> {
  return (await outbox(ids)).filter((e) => e.state === state).length;
}

function startWebhookWorker(name: string): WorkerProcess {
  return startWorker(url, name, WEBHOOK_ENV);
}

async function backendsOf(worker: WorkerProcess): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = $1',
    [worker.name],
  );
  return row!.n;
}

describe('webhooks across a worker crash', () => {
  it(
    'SIGKILL in the middle of a batch of 100 deliveries: after a restart every event reached the receiver, duplicates with the same id',
    { timeout: 120_000 },
    async () => {
      receiver = await startReceiver(() => ({ status: 200, body: 'ok', delayMs: 100 }));
      const hooks = receiver;
      const ids = await paidOrders(100, hooks.url());
      const first = startWebhookWorker('webhook-crash-a');
      await waitFor(
        'the worker to start',
        30_000,
        () => first.output().includes('workers started'),
        () => first.output(),
      );
      await mine(db, TRON, 2); // the payments' block and a confirming one: the worker settles all 100

      await waitFor(
        '30 deliveries received',
        30_000,
        () => hooks.ids().size >= 30,
        () => first.output(),
      );
      first.signal('SIGKILL');
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      const atKill = hooks.ids().size;
      const events = await outbox(ids);
      expect(events).toHaveLength(100); // every status change committed its webhook
      const deliveredAtKill = events.filter((e) => e.state === 'delivered').length;
      expect(deliveredAtKill).toBeLessThan(100);
      expect(atKill).toBeLessThan(100); // killed in the middle of the batch
      await waitFor(`the backends of ${first.name} to end`, 10_000, async () => (await backendsOf(first)) === 0);

      const second = startWebhookWorker('webhook-crash-b');
      await waitFor(
        'all 100 delivered after the restart',
        60_000,
        async () => (await countWhere(ids, 'delivered')) === 100,
        () => second.output(),
      );
      const final = await outbox(ids);
      const eventIds = new Set(final.map((e) => e.id));
      expect(hooks.ids()).toEqual(eventIds); // every event reached the receiver, nothing else did
      const bodies = new Map(final.map((e) => [e.id, e.body]));
      for (const request of hooks.received) {
        const id = String(request.headers['x-webhook-id']);
        expect(request.raw).toBe(bodies.get(id)); // a duplicate is the same event: same id, same bytes
        expect(request.body.id).toBe(id);
        expect(verifyWebhook(request, merchant.test.privateKey)).toMatchObject({
          apiSignature: true,
          timestamped: true,
        });
      }
      const duplicates = hooks.received.length - eventIds.size;
      expect(second.logs().filter((l) => l.level === 'error')).toEqual([]);
      second.signal('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
      console.info(
        `webhooks-crash: killed after ${atKill} of 100 received (${deliveredAtKill} recorded delivered); after the restart 100 of 100 received, ${duplicates} duplicate(s) with the same id`,
      );
    },
  );

  it(
    'killed after the status change committed and before the first attempt: the restarted worker delivers',
    { timeout: 120_000 },
    async () => {
      receiver = await startReceiver();
      const hooks = receiver;
      const ids = await paidOrders(5, hooks.url('/after-crash'));
      // The dispatcher's claim reads the merchant's keys to sign: holding api_keys locked stops it
      // right before its first attempt. The lock is taken once the watcher has committed the status
      // changes and their outbox rows, while an older open transaction (`horizon`, with a
      // transaction id) holds the rows back from the dispatchers (they wait for every older
      // transaction to end: docs/decisions/050); ending it then lets the claim run into the lock.
      const horizon = new pg.Client({ connectionString: url, application_name: 'webhooks-crash-test-horizon' });
      const holder = new pg.Client({ connectionString: url, application_name: 'webhooks-crash-test-lock' });
      await horizon.connect();
      await holder.connect();
      const worker = startWebhookWorker('webhook-crash-c');
      try {
        const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
        await horizon.query('begin');
        await horizon.query('select pg_current_xact_id()');
        await waitFor(
          'the worker to start',
          30_000,
          () => worker.output().includes('workers started'),
          () => worker.output(),
        );
        await mine(db, TRON, 2);
        await waitFor(
          'the 5 status changes and their outbox rows committed',
          30_000,
          async () => (await outbox(ids)).length === 5,
          () => worker.output(),
        );
        await holder.query('begin');
        await holder.query('lock table api_keys in access exclusive mode');
        await horizon.query('commit');
        const [processed] = await db.query<{ n: number }>(
          `select count(*)::int as n from orders where id = any($1::uuid[]) and status = 'processed'`,
          [ids],
        );
        expect(processed!.n).toBe(5);
        // The dispatcher, woken by the commit, claims the rows and waits for the key: blocked by the test.
        const blockedClaims = () =>
          db.query<{ query: string }>(
            `select query from pg_stat_activity where datname = current_database() and application_name = $1 and wait_event_type = 'Lock' and $2 = any(pg_blocking_pids(pid))`,
            [worker.name, holderPid],
          );
        await waitFor(
          'the dispatcher blocked on the merchant key',
          30_000,
          async () => (await blockedClaims()).some((b) => /update "webhook_events"/.test(b.query)),
          () => worker.output(),
        );
        worker.signal('SIGKILL');
        expect(await worker.exited).toEqual({ code: null, signal: 'SIGKILL' });
        await holder.query('rollback');
      } finally {
        await holder.end();
        await horizon.end();
      }
      await waitFor(`the backends of ${worker.name} to end`, 10_000, async () => (await backendsOf(worker)) === 0);
      expect(hooks.received).toEqual([]);
      // Nothing was attempted. The claim statement the worker was blocked in may still have run to
      // its end once the lock was released (its backend then found its client gone): the rows are
      // then leased to the dead worker, and come due again when the lease ends.
      const left = await outbox(ids);
      expect(left.map((e) => e.state)).toEqual(Array(5).fill('pending'));
      expect(left.every((e) => e.attempts === 0 || e.attempts === 1)).toBe(true);
      const [attempted] = await db.query<{ n: number }>(
        'select count(*)::int as n from webhook_attempts a join webhook_events e on e.id = a.event_id where e.order_id = any($1::uuid[])',
        [ids],
      );
      expect(attempted!.n).toBe(0);

      const restarted = startWebhookWorker('webhook-crash-d');
      await waitFor(
        'the 5 webhooks delivered after the restart',
        30_000,
        async () => (await countWhere(ids, 'delivered')) === 5,
        () => restarted.output(),
      );
      expect(hooks.received).toHaveLength(5);
      const claimedBefore = new Map(left.map((e) => [e.id, e.attempts]));
      for (const request of hooks.received) {
        expect(request.path).toBe('/after-crash');
        expect(request.headers['x-webhook-attempt']).toBe(
          String(claimedBefore.get(String(request.headers['x-webhook-id']))! + 1),
        );
      }
      const [logged] = await db.query<{ n: number }>(
        `select count(*)::int as n from webhook_attempts a join webhook_events e on e.id = a.event_id where e.order_id = any($1::uuid[]) and a.outcome = 'delivered'`,
        [ids],
      );
      expect(logged!.n).toBe(5);
      expect(new Set(hooks.received.map((r) => r.body.orderId))).toEqual(new Set(ids));
    },
  );
});
