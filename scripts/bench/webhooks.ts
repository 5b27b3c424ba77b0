/**
 * `npm run bench:webhooks [-- --db=pglite|postgres|both --events=1000 --step=25 --interval=500]`: how long a
 * webhook takes from the status change that causes it to its receipt by the merchant, and how
 * many webhooks per second the dispatcher delivers.
 *
 * Set-up (not measured), per database (PGlite in a temporary directory, or a throw-away PostgreSQL
 * cluster): a merchant, 2 x `events` ripple orders made through the domain code, each with a
 * success webhook to a receiver on 127.0.0.1 that answers 200 at once, and the dispatcher running
 * with the default settings (127.0.0.1 allowed).
 *
 * - latency: the first `events` orders are paid `step` at a time, a step every `interval` ms (by
 *   default 25 every 500 ms, 50 status changes per second: on the embedded database, where the
 *   watcher and the dispatcher share one connection and one thread, webhooks must still arrive
 *   within half a second at the median, docs/decisions/040); each step mines a block and runs one
 *   watcher step, whose commit writes the status changes and their outbox rows. Latency is from the
 *   moment that commit returned to the moment the receiver had the body, per webhook.
 * - throughput: with the dispatcher stopped, the other `events` orders are settled in one step;
 *   then the dispatcher starts and the time until the receiver has all of them gives the rate.
 *
 * Everything runs in this process on 127.0.0.1, and every phase has a deadline: the benchmark
 * stops by itself.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import * as postgresHelpers from '../lib/postgres.mjs';
import { freshDatabase } from './databases';
import { atExit } from './servers';
import { fillAddressPool } from '../../lib/addresses';
import { makeOrderRequest } from '../../lib/protocol';
import { findNetwork, type Network } from '../../lib/catalog';
import { broadcastMany, mine, sandboxAdapter } from '../../lib/chains/sandbox';
import type { Database } from '../../lib/db/client';
import { createMerchant, findApiKey, type ApiKey } from '../../lib/merchants';
import { makeOrder } from '../../lib/orders';
import type { OrderRow } from '../../lib/orders/rows';
import { noRiskScreen } from '../../lib/risk';
import { watchStep, type WatchOptions } from '../../lib/watcher';
import { dispatcherOptions, startDispatcher, type Dispatcher } from '../../lib/webhooks';

const { startPostgres } = postgresHelpers as { startPostgres(): Promise<{ url: string; stop(): void }> };

process.env.APP_SECRET ??= 'bench-webhooks-app-secret-at-least-32-characters';
process.env.LOG_LEVEL ??= 'error';

type Db = 'pglite' | 'postgres';
const USAGE =
  'usage: npm run bench:webhooks -- [--db=pglite|postgres|both] [--events=1000] [--step=25] [--interval=500]';
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const DB_OPTION = option('db') ?? 'both';
const EVENTS = Number(option('events') ?? 1000);
const STEP = Number(option('step') ?? 25);
const INTERVAL_MS = Number(option('interval') ?? 500);
const known = ['db', 'events', 'step', 'interval'];
if (
  process.argv.slice(2).some((a) => !known.some((k) => a.startsWith(`--${k}=`))) ||
  !['pglite', 'postgres', 'both'].includes(DB_OPTION) ||
  !Number.isSafeInteger(EVENTS) ||
  EVENTS < 10 ||
  EVENTS > 10_000 ||
  !Number.isSafeInteger(STEP) ||
  STEP < 1 ||
  STEP > EVENTS ||
  !Number.isSafeInteger(INTERVAL_MS) ||
  INTERVAL_MS < 0 ||
  INTERVAL_MS > 10_000
) {
  console.error(USAGE);
  process.exit(2);
}
const DBS: Db[] = DB_OPTION === 'both' ? ['pglite', 'postgres'] : [DB_OPTION as Db];
const network: Network = findNetwork('ripple')!;
const WATCH: WatchOptions = { batchBlocks: 10, startAt: 'genesis', screen: noRiskScreen };
/** Deadline of each phase: the benchmark fails rather than waits forever. */
const PHASE_DEADLINE_MS = 120_000;

// --- The merchant's receiver ---------------------------------------------------------------------

interface Receiver {
  url: string;
  /** performance.now() at receipt, by order id (the first receipt). */
  receivedAt: Map<string, number>;
  duplicates: number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receivedAt = new Map<string, number>();
  let duplicates = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const { orderId } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { orderId: string };
      if (receivedAt.has(orderId)) duplicates++;
      else receivedAt.set(orderId, at);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    receivedAt,
    get duplicates() {
      return duplicates;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// --- Set-up --------------------------------------------------------------------------------------

let nonce = Date.now() * 1000;

async function createOrders(db: Database, key: ApiKey, count: number, hook: string): Promise<OrderRow[]> {
  const orders: OrderRow[] = [];
  for (let i = 0; i < count; i++) {
    const n = ++nonce;
    const input = makeOrderRequest.parse({
      order: `bench-webhooks-${n}`,
      nonce: n,
      currency: 'XRP',
      network: 'ripple',
      amount: '1',
      successWebhook: hook,
    });
    orders.push(await makeOrder({ db, key, nonce: String(n) }, input));
  }
  return orders;
}

async function waitUntil(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + PHASE_DEADLINE_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

// --- Phases --------------------------------------------------------------------------------------

interface Result {
  db: Db;
  /** Paying, mining and settling one step of the latency phase (the database is busy with it meanwhile). */
  stepMs: number[];
  latencyMs: number[];
  burstLatencyMs: number[];
  burstSeconds: number;
  duplicates: number;
  attempts: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function run(kind: Db, adminUrl: string | undefined): Promise<Result> {
  const { db, dispose } = await freshDatabase('webhooks_bench', kind === 'pglite' ? undefined : adminUrl);
  const receiver = await startReceiver();
  let dispatcher: Dispatcher | undefined;
  try {
    await fillAddressPool(db, network, 'test', 2 * EVENTS + 64);
    const { keys } = await createMerchant(db, 'Webhooks bench', 'test');
    const key = (await findApiKey(db, keys.publicKey))!;
    const orders = await createOrders(db, key, 2 * EVENTS, receiver.url);
    const chain = { ...sandboxAdapter(db, network), requiredConfirmations: 1 };
    while ((await watchStep(db, chain, 'test', WATCH)).scannedBlocks > 0);
    const options = dispatcherOptions({ policy: { allowPrivate: false, allowed: ['127.0.0.1'] } });

    // Latency: `STEP` orders settle per watcher step while the dispatcher runs.
    dispatcher = startDispatcher(db, options);
    const committedAt = new Map<string, number>();
    const stepMs: number[] = [];
    const trickle = orders.slice(0, EVENTS);
    const paceStart = performance.now();
    for (let i = 0; i < trickle.length; i += STEP) {
      const due = paceStart + (i / STEP) * INTERVAL_MS;
      if (performance.now() < due) await new Promise((r) => setTimeout(r, due - performance.now()));
      const batch = trickle.slice(i, i + STEP);
      const stepStarted = performance.now();
      await broadcastMany(
        db,
        network,
        batch.map((o) => ({ to: o.address, tag: o.tag, currency: 'XRP', amount: 1_000_000n })),
      );
      await mine(db, network, 1);
      const step = await watchStep(db, chain, 'test', WATCH);
      const at = performance.now();
      stepMs.push(at - stepStarted);
      for (const change of step.changes) committedAt.set(change.orderId, at);
    }
    if (committedAt.size !== EVENTS) throw new Error(`latency phase: ${committedAt.size} of ${EVENTS} orders settled`);
    await waitUntil("the latency phase's webhooks", () => trickle.every((o) => receiver.receivedAt.has(o.id)));
    await dispatcher.stop();
    dispatcher = undefined;
    const latencyMs = trickle.map((o) => receiver.receivedAt.get(o.id)! - committedAt.get(o.id)!).sort((a, b) => a - b);

    // Throughput: everything due at once.
    const burst = orders.slice(EVENTS);
    await broadcastMany(
      db,
      network,
      burst.map((o) => ({ to: o.address, tag: o.tag, currency: 'XRP', amount: 1_000_000n })),
    );
    await mine(db, network, 1);
    let settled = 0;
    for (;;) {
      const step = await watchStep(db, chain, 'test', WATCH);
      settled += step.changes.length;
      if (step.scannedBlocks === 0) break;
    }
    if (settled !== EVENTS) throw new Error(`throughput phase: ${settled} of ${EVENTS} orders settled`);
    const started = performance.now();
    dispatcher = startDispatcher(db, options);
    await waitUntil("the throughput phase's webhooks", () => burst.every((o) => receiver.receivedAt.has(o.id)));
    const burstSeconds = (performance.now() - started) / 1000;
    const burstLatencyMs = burst.map((o) => receiver.receivedAt.get(o.id)! - started).sort((a, b) => a - b);
    await dispatcher.stop();
    dispatcher = undefined;
    const [attempts] = await db.query<{ n: number }>('select count(*)::int as n from webhook_attempts');
    return {
      db: kind,
      stepMs: stepMs.sort((a, b) => a - b),
      latencyMs,
      burstLatencyMs,
      burstSeconds,
      duplicates: receiver.duplicates,
      attempts: attempts!.n,
    };
  } finally {
    await dispatcher?.stop();
    await receiver.close();
    await dispose();
  }
}

async function main(): Promise<void> {
  const defaults = dispatcherOptions();
  console.log(
    `bench:webhooks: ${EVENTS} events per phase, ${STEP} status changes per watcher step every ${INTERVAL_MS} ms; dispatcher defaults ` +
      `(concurrency ${defaults.concurrency}, per merchant ${defaults.merchantConcurrency}, poll ${defaults.pollMs} ms, timeout ${defaults.timeoutMs} ms); ` +
      `${os.cpus().length} CPUs, Node ${process.version}`,
  );
  let postgres: { url: string; stop(): void } | undefined;
  try {
    for (const kind of DBS) {
      if (kind === 'postgres' && !postgres) {
        postgres = await startPostgres();
        const started = postgres;
        atExit(() => started.stop());
      }
      const r = await run(kind, postgres?.url);
      const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
      console.log(`\n${kind}`);
      console.log(
        `  status change -> receipt (${r.latencyMs.length} events, ${STEP} every ${INTERVAL_MS} ms): p50 ${fmt(percentile(r.latencyMs, 50))}, ` +
          `p99 ${fmt(percentile(r.latencyMs, 99))}, max ${fmt(r.latencyMs.at(-1)!)}`,
      );
      console.log(
        `  (a step of the latency phase: pay, mine, settle ${STEP} orders: p50 ${fmt(percentile(r.stepMs, 50))}, p99 ${fmt(percentile(r.stepMs, 99))})`,
      );
      console.log(
        `  throughput (${r.burstLatencyMs.length} due at once): ${(r.burstLatencyMs.length / r.burstSeconds).toFixed(0)} webhooks/s ` +
          `(all received in ${r.burstSeconds.toFixed(2)} s; p50 ${fmt(percentile(r.burstLatencyMs, 50))}, p99 ${fmt(percentile(r.burstLatencyMs, 99))} after the start)`,
      );
      console.log(`  attempts recorded: ${r.attempts} for ${2 * EVENTS} events; duplicate receipts: ${r.duplicates}`);
    }
  } finally {
    postgres?.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : String(error));
    process.exit(1);
  },
);
