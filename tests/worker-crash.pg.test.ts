/**
 * `npm run worker` killed (SIGKILL) in the middle of crediting a block loses nothing and credits
 * nothing twice: a watcher step is one transaction, so a crash rolls the whole block back (the
 * cursor included) and the next worker credits it again, once. Two workers running at once credit
 * a block once between them. PostgreSQL only: the embedded database has one owner process.
 *
 * To kill the worker at a known point inside its step, the test holds a row lock on one of the
 * orders from its own connection: the worker's transaction blocks on that row (seen in
 * pg_stat_activity as blocked by the test's backend), having done part of the block's work.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { broadcastMany, mine, sandboxAdapter } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import { freePort } from '../scripts/lib/postgres.mjs';
import { createOrder, network } from './support/chain';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import {
  killAllWorkers,
  openSharedTestDatabase,
  startWorker,
  waitFor,
  type WorkerProcess,
} from './support/worker-process';

const TRON = network('tron');
/** 10 USDT in base units (6 decimals): the exact amount of every order. */
const AMOUNT = 10_000_000n;

let db: Database;
let url: string;
let merchant: TestMerchant;

beforeAll(async () => {
  ({ db, url } = await openSharedTestDatabase());
  merchant = await createTestMerchant(db);
});

// A failed test leaves no worker behind to take the next test's tron cursor.
afterEach(killAllWorkers);

afterAll(async () => {
  await killAllWorkers();
  await db?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `count` pending USDT-on-Tron orders of the test merchant, each paid exactly (in the mempool); ids sorted. */
async function paidOrders(count: number): Promise<string[]> {
  const ids: string[] = [];
  const destinations: { to: string; currency: string; amount: bigint }[] = [];
  for (let i = 0; i < count; i++) {
    const order = await createOrder(db, merchant.test, { currency: 'USDT', network: 'tron', amount: '10' });
    ids.push(order.id);
    destinations.push({ to: order.address, currency: 'USDT', amount: AMOUNT });
  }
  expect(new Set(destinations.map((d) => d.to)).size).toBe(count);
  await broadcastMany(db, TRON, destinations); // one statement
  // Postgres orders uuids by their bytes, as JS orders their lower-case hex: the worker's locking order.
  return ids.sort();
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const [row] = await db.query<{ n: number }>(`select count(*)::int as n from (${sql}) s`, params);
  return row!.n;
}

/** What the block's crediting has committed for `ids`. */
async function committed(ids: string[]) {
  return {
    transfers: await count('select 1 from chain_transfers where order_id = any($1::uuid[])', [ids]),
    payments: await count('select 1 from payments where order_id = any($1::uuid[])', [ids]),
    events: await count('select 1 from order_events where order_id = any($1::uuid[])', [ids]),
    ordersChanged: await count(
      `select 1 from orders where id = any($1::uuid[]) and (status <> 'pending' or received <> 0)`,
      [ids],
    ),
  };
}

async function cursorHeight(): Promise<number | null> {
  const [row] = await db.query<{ height: string }>(
    `select height from chain_cursors where network = 'tron' and mode = 'test'`,
  );
  return row ? Number(row.height) : null;
}

/** The worker's backends (found by application_name) that are inside a transaction touching the block's tables. */
async function backendsInStep(worker: WorkerProcess) {
  return db.query<{
    pid: number;
    state: string;
    wait_event_type: string | null;
    query: string;
    wrote: boolean;
    blockers: number[];
  }>(
    `select pid, state, wait_event_type, query, backend_xid is not null as wrote, pg_blocking_pids(pid) as blockers
       from pg_stat_activity
      where datname = current_database() and application_name = $1 and xact_start is not null
        and state in ('active', 'idle in transaction') and query ~ '(chain_transfers|orders|payments)'`,
    [worker.name],
  );
}

async function backendsOf(worker: WorkerProcess): Promise<number> {
  return count('select 1 from pg_stat_activity where datname = current_database() and application_name = $1', [
    worker.name,
  ]);
}

/**
 * Waits until `workers` have logged `count` status changes for `ids`: a worker logs a step's
 * changes after its transaction commits, so the database can show them before the log does
 * (a loaded machine may not run the worker between the two).
 */
async function reportedChanges(workers: WorkerProcess[], ids: string[], count: number) {
  await waitFor(
    `${count} 'order status changed' lines from ${workers.map((w) => w.name).join(', ')}`,
    30_000,
    () => statusChanges(workers, ids).length >= count,
    () => workers.map((w) => `--- ${w.name}\n${w.output()}`).join('\n'),
  );
  return statusChanges(workers, ids);
}

/** 'order status changed' log lines of `workers` for the orders `ids`. */
function statusChanges(workers: WorkerProcess[], ids: string[]) {
  const wanted = new Set(ids);
  return workers.flatMap((w) =>
    w
      .logs()
      .filter((l) => l.msg === 'order status changed' && wanted.has(String(l.orderId)))
      .map((l) => ({ worker: w.name, orderId: String(l.orderId), from: l.from, to: l.to })),
  );
}

async function allProcessed(ids: string[]): Promise<boolean> {
  return (
    (await count(`select 1 from orders where id = any($1::uuid[]) and status = 'processed'`, [ids])) === ids.length
  );
}

/** Each of `ids` credited exactly once: one transfer, one processed payment, one event, status processed. */
async function expectCreditedOnce(ids: string[]) {
  const perOrder = await db.query<{
    id: string;
    status: string;
    received: string;
    transfers: number;
    payments: number;
    processed: number;
    events: number;
    event: string | null;
  }>(
    `select o.id, o.status, o.received::text as received,
            (select count(*)::int from chain_transfers c where c.order_id = o.id) as transfers,
            (select count(*)::int from payments p where p.order_id = o.id) as payments,
            (select count(*)::int from payments p where p.order_id = o.id and p.status = 'processed') as processed,
            (select count(*)::int from order_events e where e.order_id = o.id) as events,
            (select string_agg(e.from_status || '>' || e.to_status, ',') from order_events e where e.order_id = o.id) as event
       from orders o where o.id = any($1::uuid[])`,
    [ids],
  );
  expect(perOrder).toHaveLength(ids.length);
  const wrong = perOrder.filter(
    (o) =>
      !(
        o.status === 'processed' &&
        o.received === AMOUNT.toString() &&
        o.transfers === 1 &&
        o.payments === 1 &&
        o.processed === 1 &&
        o.events === 1 &&
        o.event === 'pending>processed'
      ),
  );
  expect(wrong).toEqual([]);
  // And in total, counted over the tables rather than per order.
  expect(await committed(ids)).toEqual({
    transfers: ids.length,
    payments: ids.length,
    events: ids.length,
    ordersChanged: ids.length,
  });
  expect(await count(`select 1 from payments where order_id = any($1::uuid[]) and status = 'processed'`, [ids])).toBe(
    ids.length,
  );
  expect(await count('select distinct order_id from order_events where order_id = any($1::uuid[])', [ids])).toBe(
    ids.length,
  );
}

async function expectCursorAtTip() {
  const head = await sandboxAdapter(db, TRON).head();
  const [cursor] = await db.query<{ height: string; hash: string }>(
    `select height, hash from chain_cursors where network = 'tron' and mode = 'test'`,
  );
  expect({ height: Number(cursor!.height), hash: cursor!.hash }).toEqual({ height: head.height, hash: head.hash });
}

async function stopWithSigterm(workers: WorkerProcess[]) {
  for (const w of workers) w.signal('SIGTERM');
  const exits = await Promise.all(workers.map((w) => w.exited));
  expect(exits, workers.map((w) => w.output()).join('\n')).toEqual(workers.map(() => ({ code: 0, signal: null })));
}

function errorsIn(worker: WorkerProcess): Record<string, unknown>[] {
  return worker.logs().filter((l) => l.level === 'error');
}

interface Crash {
  /** Row lock the test holds on the order at `index` (in the worker's locking order). */
  lock: 'no key update' | 'update';
  index: number;
  /** Where the worker's transaction then waits. */
  blockedIn: RegExp;
  /** Orders the worker has locked in its transaction when it blocks. */
  lockedBefore: number;
}

describe('npm run worker killed while crediting a block', () => {
  it(
    'a block of 200 payments is credited exactly once across three SIGKILLs and a restart',
    { timeout: 120_000 },
    async () => {
      const started = Date.now();
      const ids = await paidOrders(200);
      const [block] = await mine(db, TRON, 2); // SANDBOX_CONFIRMATIONS=2 in the worker: confirmed at the tip
      const heights = await db.query<{ block_height: string; n: number }>(
        `select block_height::text, count(*)::int as n from sandbox_transfers t join orders o on o.address = t.to_address
        where t.network = 'tron' and o.id = any($1::uuid[]) group by block_height`,
        [ids],
      );
      expect(heights).toEqual([{ block_height: String(block!.height), n: 200 }]); // all in one block
      const prepared = Date.now();

      const crashes: Crash[] = [
        // Settling locks the block's orders with one statement, in id order (docs/decisions/040):
        // mid-way through it, 100 orders locked, blocked on the 101st.
        {
          lock: 'no key update',
          index: 100,
          blockedIn: /from "orders" where "orders"."id" = any\(\$1::uuid\[\]\) order by "orders"."id" for update/,
          lockedBefore: 100,
        },
        // On the very last order: all but one locked, transfers recorded and cursor moved in the transaction.
        {
          lock: 'no key update',
          index: 199,
          blockedIn: /from "orders" where "orders"."id" = any\(\$1::uuid\[\]\) order by "orders"."id" for update/,
          lockedBefore: 199,
        },
        // While recording the transfers (the foreign-key check on the order row waits for FOR UPDATE).
        // pg_stat_activity keeps a statement's first 1024 bytes (track_activity_query_size): the
        // insert comes after the matching CTE, so the statement is known by its start.
        { lock: 'update', index: 100, blockedIn: /^with incoming as \(/, lockedBefore: 0 },
      ];
      const killed: WorkerProcess[] = [];
      for (const [round, crash] of crashes.entries()) {
        const holder = new pg.Client({ connectionString: url, application_name: 'worker-crash-test-lock' });
        await holder.connect();
        try {
          const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
          await holder.query('begin');
          await holder.query(`select id from orders where id = $1 for ${crash.lock}`, [ids[crash.index]]);

          const worker = startWorker(url, `worker-crash-${round}`);
          killed.push(worker);
          let blocked: Awaited<ReturnType<typeof backendsInStep>>[number] | undefined;
          await waitFor(
            `worker ${worker.name} to block on the test's lock inside its step`,
            30_000,
            async () => {
              // Seen waiting on the lock, not only named as blocked by it: pg_blocking_pids() reads the
              // lock table live, while a backend's wait event is published a moment later.
              blocked = (await backendsInStep(worker)).find(
                (b) => b.blockers.includes(holderPid) && b.wait_event_type === 'Lock',
              );
              return blocked !== undefined || worker.hasExited();
            },
            () => worker.output(),
          );
          expect(worker.hasExited(), worker.output()).toBe(false);
          expect(blocked).toMatchObject({ state: 'active', wait_event_type: 'Lock', wrote: true });
          expect(blocked!.query).toMatch(crash.blockedIn);
          // Orders the worker holds FOR UPDATE in its open transaction: KEY SHARE ... SKIP LOCKED
          // from here returns the others.
          const free = await count('select id from orders where id = any($1::uuid[]) for key share skip locked', [ids]);
          expect(ids.length - free - (crash.lock === 'update' ? 1 : 0)).toBe(crash.lockedBefore);

          worker.signal('SIGKILL');
          expect(await worker.exited).toEqual({ code: null, signal: 'SIGKILL' });
          await holder.query('rollback');
          // The dead worker's backend gets the row, finds its client gone, and rolls back.
          await waitFor(`the backends of ${worker.name} to end`, 10_000, async () => (await backendsOf(worker)) === 0);
        } finally {
          await holder.end();
        }
        // The step is one transaction: nothing of the block was committed, the cursor did not move.
        expect(await committed(ids)).toEqual({ transfers: 0, payments: 0, events: 0, ordersChanged: 0 });
        expect(await cursorHeight()).toBe(0);
      }
      for (const worker of killed) expect(statusChanges([worker], ids)).toEqual([]);
      const crashed = Date.now();

      const last = startWorker(url, 'worker-crash-restart');
      await waitFor(
        'all 200 orders processed after the restart',
        60_000,
        () => allProcessed(ids),
        () => last.output(),
      );
      const credited = Date.now();
      await expectCreditedOnce(ids);
      await expectCursorAtTip();
      // The restarted worker reported each order's change once.
      const changes = await reportedChanges([last], ids, 200);
      expect(changes).toHaveLength(200);
      expect(new Set(changes.map((c) => c.orderId)).size).toBe(200);
      expect(changes.every((c) => c.from === 'pending' && c.to === 'processed')).toBe(true);
      expect(errorsIn(last)).toEqual([]);
      await stopWithSigterm([last]);
      console.info(
        `worker-crash: prepared 200 paid orders in ${prepared - started} ms, 3 kills in ${crashed - prepared} ms, ` +
          `restart credited the block in ${credited - crashed} ms`,
      );
    },
  );

  it(
    'a worker with one pooled connection takes turns on it: passes wait for it, none fails',
    { timeout: 120_000 },
    async () => {
      // While the tron step waits on the held order with the only connection, every other network's
      // pass waits for that connection, longer than a web server's one second (lib/db/client.ts).
      const worker = startWorker(url, 'worker-one-connection', { DB_POOL_SIZE: '1' });
      const ids = await paidOrders(3);
      const output = () => worker.output();
      await waitFor('the worker to start', 30_000, () => worker.output().includes('workers started'), output);
      const holder = new pg.Client({ connectionString: url, application_name: 'worker-crash-test-lock' });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select id from orders where id = $1 for no key update', [ids[1]]);
        await waitFor(
          'the worker to block on the held order',
          30_000,
          async () => (await backendsInStep(worker)).some((b) => b.wait_event_type === 'Lock'),
          output,
        );
        await mine(db, TRON, 2);
        await sleep(1_500); // the other passes wait for the connection meanwhile
        await holder.query('rollback');
      } finally {
        await holder.end();
      }
      await waitFor('the 3 orders processed', 60_000, () => allProcessed(ids), output);
      await expectCreditedOnce(ids);
      const complaints = worker
        .logs()
        .filter((l) => l.level === 'error' || l.msg === 'watcher pass deferred: database busy');
      expect(complaints).toEqual([]);
      await stopWithSigterm([worker]);
    },
  );

  it(
    'two workers running at once credit a batch of 100 payments exactly once, and stop on SIGTERM',
    { timeout: 120_000 },
    async () => {
      const started = Date.now();
      const opsPort = await freePort();
      const workers = [
        startWorker(url, 'worker-pair-a', { WORKER_OPS_PORT: String(opsPort) }),
        startWorker(url, 'worker-pair-b'),
      ];
      const ids = await paidOrders(100); // in the mempool, while the workers start
      const output = () => workers.map((w) => `--- ${w.name}\n${w.output()}`).join('\n');
      await waitFor(
        'both workers to start',
        30_000,
        () => workers.every((w) => w.output().includes('workers started')),
        output,
      );
      // The first answers the operations endpoints on its own port, about its own watchers.
      const ops = `http://127.0.0.1:${opsPort}`;
      const watched = async () => {
        const answer = await fetch(`${ops}/ops/chains`).catch(() => undefined);
        const body = answer?.ok
          ? ((await answer.json()) as { watching: boolean; networks: { network: string; cursor: number | null }[] })
          : undefined;
        return !!body?.watching && body.networks.some((n) => n.network === TRON.name && n.cursor !== null);
      };
      await waitFor("worker a's /ops/chains to show a pass over tron", 30_000, watched, output);
      expect((await fetch(`${ops}/healthz`)).status).toBe(200);
      expect((await fetch(`${ops}/metrics`)).headers.get('content-type')).toMatch(/^text\/plain/);
      expect((await fetch(`${ops}/dashboard`)).status).toBe(404);

      // Hold one order of the batch: whichever worker settles the batch first blocks inside its
      // step with the tron cursor locked; the other must skip tron meanwhile, not credit it too.
      const holder = new pg.Client({ connectionString: url, application_name: 'worker-crash-test-lock' });
      await holder.connect();
      try {
        const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
        await holder.query('begin');
        await holder.query('select id from orders where id = $1 for no key update', [ids[50]]);
        const waiting = () =>
          db.query<{ name: string; blockers: number[] }>(
            `select application_name as name, pg_blocking_pids(pid) as blockers from pg_stat_activity
            where datname = current_database() and application_name = any($1::text[]) and wait_event_type = 'Lock'`,
            [workers.map((w) => w.name)],
          );
        await waitFor(
          'a worker to block on the held order inside its step',
          30_000,
          async () => (await waiting()).length > 0,
          output,
        );
        await mine(db, TRON, 2); // the batch's block and a confirming block, while the step waits
        await sleep(500); // ten intervals of the other worker
        const blocked = await waiting();
        expect(blocked).toHaveLength(1);
        expect(blocked[0]!.blockers).toEqual([holderPid]);
        expect(await committed(ids)).toMatchObject({ events: 0, ordersChanged: 0 });
        expect(workers.every((w) => !w.hasExited())).toBe(true);
        await holder.query('rollback');
      } finally {
        await holder.end();
      }
      await waitFor('all 100 orders processed', 60_000, () => allProcessed(ids), output);
      const credited = Date.now();
      await sleep(300); // more passes of both over the same blocks change nothing
      await expectCreditedOnce(ids);
      await expectCursorAtTip();
      const changes = await reportedChanges(workers, ids, 100);
      expect(changes).toHaveLength(100);
      expect(new Set(changes.map((c) => c.orderId)).size).toBe(100);
      for (const worker of workers) expect(errorsIn(worker)).toEqual([]);
      await stopWithSigterm(workers);
      const byWorker = Object.fromEntries(
        workers.map((w) => [w.name, changes.filter((c) => c.worker === w.name).length]),
      );
      console.info(
        `worker-pair: credited 100 in ${credited - started} ms from start; status changes reported per worker: ${JSON.stringify(byWorker)}`,
      );
    },
  );
});
