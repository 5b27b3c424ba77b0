/**
 * The production layout of docs/production.md under load, on one PostgreSQL: a reverse proxy spreading
 * make-orders over two web servers (scripts/server.mjs, the production build, RUN_WORKERS=false)
 * and two `npm run worker` processes crediting payments and delivering webhooks. A third of the
 * way through, one web server and one worker are SIGKILLed while requests are in flight and
 * webhooks are being delivered; the load carries on through the survivors.
 *
 * Afterwards nothing is lost and nothing happened twice: every order the client asked for exists
 * once and reached its final state (paid exactly: processed; underpaid: partial once expired),
 * with one transfer and one payment, received equal to what was paid, one status change, and one
 * webhook event delivered to the receiver. Webhooks are at least once: a duplicate is the same
 * event (same id, same bytes) sent by a later claim (a higher x-webhook-attempt), never the same
 * attempt twice. Each process stays within DB_POOL_SIZE connections plus its one LISTEN
 * connection, the arithmetic of the pool sizing in docs/production.md ("Connections").
 *
 * Only rows and HTTP are observed, never how the watcher settles. PostgreSQL only (several
 * processes on one database). docs/decisions/041-production-layout-and-scale-out.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcastMany, mine } from '@/lib/chains/sandbox';
import { GatewayClient, type Order } from '@/lib/client';
import type { Database } from '@/lib/db/client';
import { formatUnits } from '@/lib/money';
import { freePort } from '../scripts/lib/postgres.mjs';
import { network } from './support/chain';
import { startServer, stopServer, type StartedServer } from './support/cli';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { startRoundRobinProxy, type RoundRobinProxy } from './support/round-robin-proxy';
import { startReceiver, verifyWebhook, type Receiver } from './support/webhook-receiver';
import {
  killAllWorkers,
  openSharedTestDatabase,
  startWorker,
  waitFor,
  type WorkerProcess,
} from './support/worker-process';

const TRON = network('tron');
const LITECOIN = network('litecoin');

/** Orders asked for; every UNDERPAID_EVERY-th is a litecoin order paid short, the others USDT on Tron paid exactly. */
const ORDERS = 300;
const UNDERPAID_EVERY = 25;
/** make-orders in flight at once (the proxy spreads them over both servers). */
const CONCURRENCY = 6;
/** The kill comes once this many orders were answered (and webhooks are being delivered). */
const KILL_AFTER = ORDERS / 3;
/** Connections per process (DB_POOL_SIZE): web servers answer requests, workers take turns. */
const WEB_POOL = 8;
const WORKER_POOL = 4;
/** The workers' webhook attempt timeout; a claim's lease is that plus 5 s (lib/webhooks/options.ts). */
const WEBHOOK_TIMEOUT_MS = 1000;
/**
 * Two deliveries of one event at least this far apart: the second claim comes only once the first
 * one's lease (6 s) has run out, less the first attempt's own time and slack for a loaded machine.
 * Two dispatchers holding one event at once would deliver it milliseconds apart.
 */
const REDELIVERY_GAP_MS = 2000;
/** The underpaid orders' lifetime (make-order's minimum): a block dated past it expires them. */
const LIFETIME_S = 1800;

const USDT_PRICE = '10';
const USDT_PAID = 10_000_000n; // 10 USDT in base units (6 decimals): exact
const LTC_PRICE = '0.5';
const LTC_PAID = 20_000_000n; // 0.2 LTC in base units (8 decimals): short of 0.5

interface Made {
  index: number;
  order: Order;
  underpaid: boolean;
}

let db: Database;
let url: string;
let merchant: TestMerchant;
let receiver: Receiver;
let proxy: RoundRobinProxy;
let dataDir: string;
const servers: StartedServer[] = [];

beforeAll(async () => {
  ({ db, url } = await openSharedTestDatabase());
  merchant = await createTestMerchant(db);
  receiver = await startReceiver();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-scale-out-'));
});

afterAll(async () => {
  await killAllWorkers();
  await Promise.all(servers.map((s) => stopServer(s.child)));
  await proxy?.close();
  await receiver?.close();
  await db?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** What every process of the deployment shares: the database, the secret, the public origin. */
function deploymentEnv(publicBaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: url,
    APP_SECRET: process.env.APP_SECRET!,
    PUBLIC_BASE_URL: publicBaseUrl,
    SANDBOX_BLOCK_SECONDS: '0', // the test mines
    SANDBOX_CONFIRMATIONS: '2',
    WEBHOOK_ALLOWED_TARGETS: '127.0.0.1',
  };
}

function startWebServer(port: number, name: string, publicBaseUrl: string): Promise<StartedServer> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...deploymentEnv(publicBaseUrl),
    RUN_WORKERS: 'false',
    DB_POOL_SIZE: String(WEB_POOL),
    PGAPPNAME: name,
    DATA_DIR: dataDir,
    DEMO_STORE: 'false',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ADDRESS_POOL_SIZE: '64',
  };
  return startServer(env, port, publicBaseUrl);
}

function startScaleWorker(name: string, publicBaseUrl: string): WorkerProcess {
  return startWorker(url, name, {
    ...deploymentEnv(publicBaseUrl),
    DB_POOL_SIZE: String(WORKER_POOL),
    WATCH_INTERVAL_MS: '100',
    // A short attempt timeout makes a short lease: a delivery the killed worker had claimed is due again after 6 s.
    WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
    WEBHOOK_POLL_MS: '100',
  });
}

/** Wakes whoever waits for the next change (new orders to pay, the load's end). */
function notifier() {
  let wake: () => void = () => {};
  return {
    next: () => new Promise<void>((resolve) => (wake = resolve)),
    fire: () => wake(),
  };
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await db.query<{ n: number }>(`select count(*)::int as n from (${sql}) s`, params);
  return row!.n;
}

describe('scale-out: two web servers and two workers on one PostgreSQL', () => {
  it(
    `${ORDERS} orders through a proxy while one web server and one worker are SIGKILLed: nothing lost, nothing twice`,
    { timeout: 240_000 },
    async () => {
      const started = Date.now();
      const [portA, portB] = [await freePort(), await freePort()];
      proxy = await startRoundRobinProxy([portA, portB]);
      const names = {
        webA: 'scale-web-a',
        webB: 'scale-web-b',
        workerA: 'scale-worker-a',
        workerB: 'scale-worker-b',
        workerA2: 'scale-worker-a-restarted',
      };
      servers.push(
        ...(await Promise.all([
          startWebServer(portA, names.webA, proxy.url),
          startWebServer(portB, names.webB, proxy.url),
        ])),
      );
      const [webA] = servers as [StartedServer, StartedServer];
      const workers = [startScaleWorker(names.workerA, proxy.url), startScaleWorker(names.workerB, proxy.url)];
      const [workerA, workerB] = workers as [WorkerProcess, WorkerProcess];
      const output = () =>
        [
          ...workers.map((w) => `--- ${w.name}\n${w.output()}`),
          ...servers.map((s, i) => `--- web ${i}\n${s.output()}`),
        ].join('\n');
      await waitFor(
        'both workers to start',
        60_000,
        () => workers.every((w) => w.output().includes('workers started') || w.hasExited()),
        output,
      );
      expect(
        workers.some((w) => w.hasExited()),
        output(),
      ).toBe(false);
      const ready = Date.now();

      // Behind the proxy a request is never loopback: the operations details stay closed to it.
      expect((await fetch(`${proxy.url}/metrics`)).status).toBe(403);
      expect((await fetch(`http://127.0.0.1:${portB}/metrics`)).status).toBe(200);

      const client = new GatewayClient({
        baseUrl: proxy.url,
        ...merchant.test,
        retries: 5,
        retryDelayMs: 100,
        timeoutMs: 30_000,
      });
      const made: Made[] = [];
      const unpaid: Made[] = [];
      const newOrders = notifier();
      let loadDone = false;
      let killed: { answered: number; webhooks: number; workerInTransaction: boolean } | undefined;

      // The kill, as soon as a third of the orders are answered and webhooks are flowing, while the
      // lanes keep requests in flight to both servers.
      const kill = (async () => {
        await waitFor(
          'a third of the orders answered and webhooks delivered',
          120_000,
          () => made.length >= KILL_AFTER && receiver.received.length >= 5,
          output,
        );
        // Best effort: catch worker A inside a transaction (crediting a block, claiming webhooks).
        const inTransaction = () =>
          count(
            `select 1 from pg_stat_activity where datname = current_database() and application_name = $1 and xact_start is not null`,
            [workerA.name],
          ).then((n) => n > 0);
        const workerInTransaction = await waitFor('worker A inside a transaction', 2_000, inTransaction).then(
          () => true,
          () => false,
        );
        webA.child.kill('SIGKILL');
        workerA.signal('SIGKILL');
        killed = { answered: made.length, webhooks: receiver.received.length, workerInTransaction };
        expect(await workerA.exited).toEqual({ code: null, signal: 'SIGKILL' });
        // Its supervisor starts it again: two dispatchers and two watchers share the work once more.
        workers.push(startScaleWorker(names.workerA2, proxy.url));
      })();
      kill.catch(() => undefined); // awaited below; a failure meanwhile is not an unhandled rejection

      // The shop: CONCURRENCY lanes asking for the orders in turn, each retried by the client (a
      // fresh nonce per attempt, the same `order`: a repeat answers the order already made). Should
      // the workers lag far behind, the lanes hold at two thirds until the kill, so that it still
      // comes in the middle of the load.
      let next = 0;
      const lane = async () => {
        while (next < ORDERS) {
          if (!killed && made.length >= 2 * KILL_AFTER) {
            await kill;
            continue;
          }
          const index = next++;
          const underpaid = index % UNDERPAID_EVERY === UNDERPAID_EVERY - 1;
          const order = await client.makeOrder(
            underpaid
              ? {
                  currency: 'LTC',
                  network: 'litecoin',
                  amount: LTC_PRICE,
                  order: `scale-${index}`,
                  lifetime: LIFETIME_S,
                  errorWebhook: receiver.url('/error'),
                }
              : {
                  currency: 'USDT',
                  network: 'tron',
                  amount: USDT_PRICE,
                  order: `scale-${index}`,
                  successWebhook: receiver.url('/success'),
                },
          );
          const entry = { index, order, underpaid };
          made.push(entry);
          unpaid.push(entry);
          newOrders.fire();
        }
      };

      // The payers: every answered order paid at once (one broadcast per batch), a block mined per
      // batch, which also confirms the previous one (SANDBOX_CONFIRMATIONS=2).
      const connections = new Map<string, number>();
      const sampleConnections = async () => {
        const seen = await db.query<{ name: string; n: number }>(
          `select application_name as name, count(*)::int as n from pg_stat_activity
          where datname = current_database() and application_name = any($1::text[]) group by 1`,
          [Object.values(names)],
        );
        for (const { name, n } of seen) connections.set(name, Math.max(connections.get(name) ?? 0, n));
      };
      let blocks = 0;
      const pay = async () => {
        for (;;) {
          if (unpaid.length === 0) {
            if (loadDone) return;
            await newOrders.next();
            continue;
          }
          const batch = unpaid.splice(0);
          const tron = batch.filter((m) => !m.underpaid);
          const litecoin = batch.filter((m) => m.underpaid);
          if (tron.length > 0) {
            await broadcastMany(
              db,
              TRON,
              tron.map((m) => ({ to: m.order.address, currency: 'USDT', amount: USDT_PAID })),
            );
            await mine(db, TRON, 1);
            blocks++;
          }
          if (litecoin.length > 0) {
            await broadcastMany(
              db,
              LITECOIN,
              litecoin.map((m) => ({ to: m.order.address, currency: 'LTC', amount: LTC_PAID })),
            );
            await mine(db, LITECOIN, 1);
            blocks++;
          }
          await sampleConnections();
        }
      };

      const payer = pay();
      payer.catch(() => undefined); // awaited below, after the lanes
      await Promise.all(Array.from({ length: CONCURRENCY }, lane));
      loadDone = true;
      newOrders.fire();
      await payer;
      await kill;
      const loaded = Date.now();
      // The last batch's confirmation; and for the underpaid litecoin orders a block dated past
      // their expiry (chain time decides expiry), which also confirms their last payments.
      await mine(db, TRON, 1);
      await mine(db, LITECOIN, 1, new Date(Date.now() + (LIFETIME_S + 600) * 1000));

      const finalOrders = () =>
        count(`select 1 from orders where merchant_id = $1 and status <> 'pending'`, [merchant.merchantId]);
      const delivered = () =>
        count(`select 1 from webhook_events where merchant_id = $1 and state = 'delivered'`, [merchant.merchantId]);
      await waitFor(
        `all ${ORDERS} orders final and their webhooks delivered`,
        120_000,
        async () => {
          await sampleConnections();
          return receiver.ids().size >= ORDERS && (await finalOrders()) === ORDERS && (await delivered()) === ORDERS;
        },
        () => `final ${ORDERS}? webhooks received ${receiver.ids().size}\n${output()}`,
      );
      const settled = Date.now();
      const restarted = workers[2]!;
      await waitFor(
        'the restarted worker to have started',
        60_000,
        () => restarted.output().includes('workers started') || restarted.hasExited(),
        output,
      );
      expect(restarted.hasExited(), restarted.output()).toBe(false);

      // Killed in the middle: with orders still to make, and deliveries under way.
      expect(killed).toBeDefined();
      expect(killed!.answered).toBeLessThan(ORDERS);
      expect(killed!.webhooks).toBeLessThan(ORDERS);
      expect(webA.child.signalCode).toBe('SIGKILL');
      // Both servers took their share before the kill; the survivor everything after.
      const [servedA, servedB] = [proxy.served.get(portA)!, proxy.served.get(portB)!];
      expect(servedA).toBeGreaterThan(0);
      expect(servedB).toBeGreaterThan(servedA);

      // Every order asked for was answered once and exists once, as answered, with its address.
      const underpaidCount = made.filter((m) => m.underpaid).length;
      expect(made).toHaveLength(ORDERS);
      expect(new Set(made.map((m) => m.order.orderId)).size).toBe(ORDERS);
      expect(made.every((m) => m.order.link.startsWith(`${proxy.url}/pay/`))).toBe(true);
      const perOrder = await db.query<{
        id: string;
        client_order_id: string;
        status: string;
        received: string;
        address: string;
        transfers: number;
        payments: number;
        counted: string;
        events: string | null;
        webhooks: number;
      }>(
        `select o.id, o.client_order_id, o.status, o.received::text as received, o.address,
              (select count(*)::int from chain_transfers c where c.order_id = o.id) as transfers,
              (select count(*)::int from payments p where p.order_id = o.id) as payments,
              (select coalesce(sum(p.amount), 0)::text from payments p where p.order_id = o.id and p.status = 'processed') as counted,
              (select string_agg(e.from_status || '>' || e.to_status, ',') from order_events e where e.order_id = o.id) as events,
              (select count(*)::int from webhook_events w where w.order_id = o.id) as webhooks
         from orders o where o.merchant_id = $1`,
        [merchant.merchantId],
      );
      expect(perOrder).toHaveLength(ORDERS);
      const byId = new Map(perOrder.map((o) => [o.id, o]));
      const wrong = made.flatMap((m) => {
        const row = byId.get(m.order.orderId);
        const [status, paid] = m.underpaid ? ['partial', LTC_PAID] : ['processed', USDT_PAID];
        const expected = {
          client_order_id: `scale-${m.index}`,
          status,
          received: String(paid),
          address: m.order.address,
          transfers: 1,
          payments: 1,
          counted: String(paid),
          events: `pending>${status}`,
          webhooks: 1,
        };
        const actual = row && {
          client_order_id: row.client_order_id,
          status: row.status,
          received: row.received,
          address: row.address,
          transfers: row.transfers,
          payments: row.payments,
          counted: row.counted,
          events: row.events,
          webhooks: row.webhooks,
        };
        return isDeepStrictEqual(actual, expected) ? [] : [{ orderId: m.order.orderId, expected, actual }];
      });
      expect(wrong).toEqual([]);

      // No chain transfer credited twice, counted over the tables rather than per order.
      const ids = made.map((m) => m.order.orderId);
      expect(
        await count(
          `select 1 from chain_transfers where order_id = any($1::uuid[]) group by network, mode, tx_hash, output_index having count(*) > 1`,
          [ids],
        ),
      ).toBe(0);
      expect(
        await count(
          `select 1 from payments where order_id = any($1::uuid[]) group by network, mode, tx_hash, output_index having count(*) > 1`,
          [ids],
        ),
      ).toBe(0);
      expect(
        await count(`select 1 from sandbox_transfers where to_address = any($1::text[])`, [
          made.map((m) => m.order.address),
        ]),
      ).toBe(ORDERS);

      // Every webhook event delivered, none left in the outbox; every event reached the receiver,
      // nothing else did. A duplicate is the same event (same id, same bytes) from a later claim (a
      // higher x-webhook-attempt) once the earlier claim's lease ran out: never two at once.
      const events = await db.query<{
        id: string;
        order_id: string;
        kind: string;
        state: string;
        attempts: number;
        body: string;
      }>(`select id, order_id, kind, state, attempts, body from webhook_events where merchant_id = $1`, [
        merchant.merchantId,
      ]);
      expect(events).toHaveLength(ORDERS);
      expect(events.filter((e) => e.state !== 'delivered')).toEqual([]);
      expect(await count(`select 1 from webhook_events where state <> 'delivered'`)).toBe(0);
      expect(receiver.ids()).toEqual(new Set(events.map((e) => e.id)));
      const eventById = new Map(events.map((e) => [e.id, e]));
      const madeById = new Map(made.map((m) => [m.order.orderId, m]));
      const previous = new Map<string, { attempt: number; at: number }>();
      const problems: string[] = [];
      for (const request of receiver.received) {
        const id = String(request.headers['x-webhook-id']);
        const event = eventById.get(id)!;
        const m = madeById.get(event.order_id)!;
        const attempt = Number(request.headers['x-webhook-attempt']);
        const before = previous.get(id);
        if (before && !(attempt > before.attempt && request.at - before.at >= REDELIVERY_GAP_MS)) {
          problems.push(`${id}: attempt ${attempt} ${request.at - before.at} ms after attempt ${before.attempt}`);
        }
        previous.set(id, { attempt, at: request.at });
        if (request.raw !== event.body) problems.push(`${id}: body differs from the outbox's`);
        if (request.path !== (m.underpaid ? '/error' : '/success')) problems.push(`${id}: sent to ${request.path}`);
        const paid = m.underpaid ? formatUnits(LTC_PAID, 8) : formatUnits(USDT_PAID, 6);
        const body = request.body as { id: string; orderId: string; status: string; received: string };
        if (
          body.id !== id ||
          body.orderId !== m.order.orderId ||
          body.status !== (m.underpaid ? 'partial' : 'processed') ||
          body.received !== paid
        ) {
          problems.push(
            `${id}: body ${JSON.stringify({ id: body.id, orderId: body.orderId, status: body.status, received: body.received })}`,
          );
        }
        const verified = verifyWebhook(request, merchant.test.privateKey);
        if (!verified.apiSignature || !verified.timestamped) problems.push(`${id}: signature`);
      }
      expect(problems).toEqual([]);
      const duplicates = receiver.received.length - events.length;

      // Connections: each process within its pool plus one LISTEN connection per channel it follows
      // (lib/db listen): a web server the keys' changes, a worker the webhooks', the mail's and the
      // sandbox ledger's (test mode's watchers pass when it announces a change).
      const budget = {
        [names.webA]: WEB_POOL + 1,
        [names.webB]: WEB_POOL + 1,
        [names.workerA]: WORKER_POOL + 3,
        [names.workerB]: WORKER_POOL + 3,
        [names.workerA2]: WORKER_POOL + 3,
      };
      const over = Object.entries(budget).filter(([name, most]) => (connections.get(name) ?? 0) > most);
      expect(over).toEqual([]);

      // The workers that lived on complained of nothing. (Not asserted of the web servers: on a loaded
      // machine opening a connection can take longer than their one-second wait, and the
      // planner-statistics refresh logs that as an error and tries again later.)
      expect([workerB, restarted].flatMap((w) => w.logs().filter((l) => l.level === 'error'))).toEqual([]);
      // A repeat that answered an order made already spends a nonce without an order: the answers lost in the kill.
      const answersLost = (await count(`select 1 from api_nonces`)) - ORDERS;

      const changesBy = (w: WorkerProcess) => w.logs().filter((l) => l.msg === 'order status changed').length;
      console.info(
        `scale-out: ${ORDERS} orders made (${ORDERS - underpaidCount} paid exactly -> processed, ${underpaidCount} underpaid -> partial) ` +
          `through a proxy over 2 web servers (answers relayed: A ${servedA}, B ${servedB}) and 2 workers (A restarted after its kill); ${blocks} blocks mined.\n` +
          `  kill: web server A and worker A SIGKILLed after ${killed!.answered} orders answered and ${killed!.webhooks} webhooks received ` +
          `(worker A inside a transaction: ${killed!.workerInTransaction}); failed calls during the kill: ${proxy.badGateway} answered 502 ` +
          `(retried by the client), ${proxy.rerouted} refused connections moved to B; orders made by A whose answer was lost, answered again by B: ${answersLost}.\n` +
          `  after: ${perOrder.reduce((n, o) => n + o.payments, 0)} payments (1 per order, 0 transfers credited twice), ` +
          `${receiver.ids().size} webhook events received in ${receiver.received.length} deliveries (${duplicates} duplicate(s): same id and body, a later attempt after the lease); ` +
          `0 undelivered in the outbox. Status changes reported: worker A ${changesBy(workerA)}, worker B ${changesBy(workerB)}, A restarted ${changesBy(restarted)}.\n` +
          `  connections at most: ${[...connections].map(([n, c]) => `${n} ${c}`).join(', ')} (pools ${WEB_POOL} web, ${WORKER_POOL} worker, +1 LISTEN each).\n` +
          `  time: start ${ready - started} ms, load ${loaded - ready} ms, settle ${settled - loaded} ms.`,
      );
    },
  );
});
