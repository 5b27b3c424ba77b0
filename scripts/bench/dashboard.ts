/**
 * `npm run bench:dashboard [-- --orders=N --runs=N --explain]`: the merchant dashboard's queries
 * at a real merchant's scale, on a throw-away PostgreSQL cluster. Seeds one merchant with N orders
 * (default 1,000,000) over 400 days in SQL (generate_series: a spread of statuses, networks and
 * coins, created_at ties in pairs, one deposit address row each as make-order leaves them, a
 * counted payment for every paid order and a webhook for every tenth final order, some failed),
 * then VACUUM ANALYZE, and prints p50/p99 over `runs` calls (default 200) of each query through
 * lib/dashboard itself: the first page, page 500 (reached by following cursors once, then
 * measured with its cursor), each filter, each search key, the overview (and beside it, in the
 * same run, its counts by status the way they were read before order_day_counts, decision 056),
 * the export count, and CSV export throughput over about a fifth of the orders (200,000 rows at
 * the default size). Orders are pending only in the last day, as a running watcher leaves them.
 *
 * `--explain` prints each query's plan (EXPLAIN ANALYZE, BUFFERS) once; `--only=TEXT,...` measures only
 * the queries whose name contains one of the texts. Targets from issue 17:
 * every query p99 under 50 ms, export over 20,000 rows/s. Figures only, no pass/fail.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
// Shared plain-JS helper without declarations: typed by the cast below.
import * as postgresHelpers from '../lib/postgres.mjs';
import { freshDatabase } from './databases';
import { latencySummary } from './load';
import { atExit } from './servers';
import { NETWORKS } from '../../lib/catalog';
import {
  countForExport,
  encodeCursor,
  exportOrdersCsv,
  listDeliveryItems,
  listOrderItems,
  orderDetail,
  ordersByStatusSince,
  overview,
  parseOrderFilters,
} from '../../lib/dashboard';
import type { Database, Queryable } from '../../lib/db/client';
import { createMerchant, type MerchantScope } from '../../lib/merchants';

const { startPostgres } = postgresHelpers as { startPostgres(): Promise<{ url: string; stop(): void }> };

process.env.APP_SECRET ??= 'bench-dashboard-app-secret-at-least-32-characters';
process.env.LOG_LEVEL ??= 'warn';

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const ORDERS = Number(option('orders') ?? 1_000_000);
const RUNS = Number(option('runs') ?? 200);
const EXPLAIN = process.argv.includes('--explain');
/** Measures only the queries whose name contains one of these texts (comma separated; while working on them). */
const ONLY = option('only')?.split(',');
const DAYS = 400;
const PAGE = 50;
const TARGET_P99_MS = 50;
const TARGET_EXPORT_ROWS_PER_S = 20_000;
if (!Number.isSafeInteger(ORDERS) || ORDERS < 2000 || !Number.isSafeInteger(RUNS) || RUNS < 10) {
  console.error('usage: npm run bench:dashboard -- [--orders=N (>= 2000)] [--runs=N (>= 10)] [--explain]');
  process.exit(2);
}

/**
 * 1000 slots of (network, coin) in the proportions a merchant might see: bitcoin and the dollar
 * tokens common, bitcoincash rare (0.3%), base never used, so that a filter on a rare value or
 * on one the merchant has no orders of shows its cost.
 */
function coinSlots(): { network: string; currency: string; decimals: number }[] {
  const weights: Record<string, number> = {
    bitcoin: 315,
    ethereum: 250,
    tron: 200,
    litecoin: 100,
    bsc: 50,
    polygon: 40,
    arbitrum: 20,
    ripple: 15,
    dogecoin: 7,
    bitcoincash: 3,
  };
  const slots: { network: string; currency: string; decimals: number }[] = [];
  for (const network of NETWORKS) {
    const weight = weights[network.name] ?? 0;
    for (let i = 0; i < weight; i++) {
      const coin = network.currencies[i % network.currencies.length]!;
      slots.push({ network: network.name, currency: coin.ticker, decimals: coin.decimals });
    }
  }
  if (slots.length !== 1000) throw new Error(`coin slots: ${slots.length}`);
  return slots;
}

/** Seeds `n` orders of `merchantId` (test mode) ending at `now`; answers the seconds it took. */
async function seed(db: Database, merchantId: string, n: number, now: Date): Promise<number> {
  const started = performance.now();
  const slots = coinSlots();
  const spanMs = DAYS * 86_400_000;
  await db.transaction(async (tx) => {
    await tx.query('set local synchronous_commit = off');
    await tx.query(`set local maintenance_work_mem = '256MB'`);
    await tx.query(`set local work_mem = '64MB'`);
    // Order i: its coin slot, status bucket and time (pairs share a created_at, to the millisecond).
    await tx.query(
      `create temporary table seed on commit drop as
       select i,
              md5('o' || i)::uuid as order_id, md5('a' || i)::uuid as address_id,
              ($2::text[])[1 + ((i * 7919) % 1000)::int] as network, ($3::text[])[1 + ((i * 7919) % 1000)::int] as currency,
              ($4::int[])[1 + ((i * 7919) % 1000)::int] as decimals,
              case when b < 450 then 'processed' when b < 850 then 'expired' when b < 900 then 'partial' when b < 930 then 'overpaid'
                   when b < 935 then 'error'
                   -- Pending only in the last day: an older order has been decided (its lifetime is 30 minutes).
                   when (i / 2) * 2 * ($6::float8 / $1) < 86400000 then 'pending' else 'expired' end as status,
              date_trunc('milliseconds', $5::timestamptz - make_interval(secs => ((i / 2) * 2 * ($6::float8 / $1)) / 1000.0)) as created_at,
              'bench' || md5('addr' || i) as address
         -- The status bucket from a hash of i, independent of the coin slot (i mod 1000).
         from generate_series(1, $1::bigint) as i, lateral (select abs(hashint8(i)) % 1000 as b) as bucket`,
      [n, slots.map((s) => s.network), slots.map((s) => s.currency), slots.map((s) => s.decimals), now, spanMs],
    );
    await tx.query(
      `insert into addresses (id, network, mode, kind, derivation_index, address, merchant_id, assigned_at, created_at)
       select address_id, network, 'test', 'PAY_IN', 1000000000 + i, address, $1, created_at, created_at from seed`,
      [merchantId],
    );
    await tx.query(
      `insert into orders (id, merchant_id, mode, client_order_id, currency, network, amount, tolerance_percent, threshold, received, status,
                           address_id, address, lifetime, expires_at, created_at, updated_at)
       select order_id, $1, 'test', 'shop-' || i, currency, network, amount, 0, amount,
              case status when 'processed' then amount when 'overpaid' then amount * 2 when 'partial' then amount / 2 else 0 end,
              status, address_id, address, 1800, created_at + interval '30 minutes', created_at, created_at + interval '10 minutes'
         from (select *, (1 + i % 5000)::numeric * 10::numeric ^ (decimals - 2) as amount from seed) s`,
      [merchantId],
    );
    await tx.query(
      `insert into payments (id, order_id, merchant_id, mode, address_id, network, currency, tx_hash, output_index, address, amount, status, confirmations, created_at)
       select md5('p' || i)::uuid, order_id, $1, 'test', address_id, network, currency, md5('t' || i) || md5('u' || i), 0, address,
              (1 + i % 5000)::numeric * 10::numeric ^ (decimals - 2), 'processed', 6, created_at + interval '5 minutes'
         from seed where status in ('processed', 'overpaid', 'partial')`,
      [merchantId],
    );
    await tx.query(
      `insert into webhook_events (id, order_id, merchant_id, mode, kind, order_status, url, body, state, attempts, next_attempt_at, created_at, updated_at)
       select md5('w' || i)::uuid, order_id, $1, 'test', case when status in ('processed', 'overpaid') then 'success' else 'error' end, status,
              'https://shop.example/hook', '{}', case when i % 500 = 0 then 'failed' else 'delivered' end, 1, created_at, created_at, created_at
         from seed where i % 10 = 0 and status <> 'pending'`,
      [merchantId],
    );
    await tx.query(
      `insert into chain_cursors (network, mode, height, hash, block_time, chain_time, updated_at)
       select name, 'test', 1000, md5(name), $1::timestamptz - interval '2 seconds', $1::timestamptz - interval '2 seconds', $1
         from unnest($2::text[]) as name`,
      [now, NETWORKS.map((net) => net.name)],
    );
  });
  for (const table of ['addresses', 'orders', 'payments', 'webhook_events', 'chain_cursors'])
    await db.query(`vacuum analyze ${table}`);
  return (performance.now() - started) / 1000;
}

/** A Queryable that remembers the statements sent through it (for --explain). */
function recording(db: Database): { db: Database; statements: { text: string; params?: readonly unknown[] }[] } {
  const statements: { text: string; params?: readonly unknown[] }[] = [];
  return {
    statements,
    db: Object.assign(Object.create(db) as Database, {
      query: (text: string, params?: readonly unknown[]) => {
        statements.push({ text, params });
        return db.query(text, params);
      },
    }),
  };
}

async function explain(
  db: Queryable,
  name: string,
  run: (db: Database) => Promise<unknown>,
  base: Database,
): Promise<void> {
  const recorder = recording(base);
  await run(recorder.db);
  for (const { text, params } of recorder.statements.filter((s) => !s.text.startsWith('explain'))) {
    const plan = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${text}`, params);
    console.log(`\n--- ${name}\n${plan.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
}

interface Figure {
  name: string;
  p50: number;
  p99: number;
  max: number;
  rows: number;
}

async function measure(db: Database, name: string, run: (db: Database) => Promise<number>): Promise<Figure> {
  let rows = 0;
  for (let i = 0; i < 5; i++) rows = await run(db);
  const latencies: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run(db);
    latencies.push(performance.now() - t);
  }
  if (EXPLAIN) await explain(db, name, run, db);
  return { name, rows, ...latencySummary(latencies) };
}

async function main(): Promise<void> {
  console.log(
    `dashboard benchmark: ${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}, PostgreSQL (throw-away cluster).`,
  );
  console.log(
    `${ORDERS.toLocaleString('en')} orders of one merchant over ${DAYS} days; ${RUNS} runs per query after 5 warm-up runs, one caller.`,
  );
  const pg = await startPostgres();
  atExit(() => pg.stop());
  const fresh = await freshDatabase('bench_dashboard', pg.url, 4);
  const db = fresh.db;
  try {
    const { merchant } = await createMerchant(db, 'Bench shop', 'test');
    const scope: MerchantScope = { merchantId: merchant.id, mode: 'test' };
    const now = new Date();
    const seconds = await seed(db, merchant.id, ORDERS, now);
    const [counts] = await db.query<{ orders: number; payments: number; events: number }>(
      `select (select count(*)::int from orders) as orders, (select count(*)::int from payments) as payments, (select count(*)::int from webhook_events) as events`,
    );
    console.log(
      `Seeded ${counts!.orders.toLocaleString('en')} orders, ${counts!.payments.toLocaleString('en')} payments, ${counts!.events.toLocaleString('en')} webhook events in ${seconds.toFixed(1)} s (with VACUUM ANALYZE).`,
    );

    // Page 500 by following cursors once, as a merchant clicking "next" would.
    let after: string | undefined;
    const followed = performance.now();
    for (let page = 1; page < 500; page++) after = (await listOrderItems(db, scope, { after }, PAGE)).next;
    const followSeconds = (performance.now() - followed) / 1000;
    const [at500] = await db.query<{ created_at: Date; id: string }>(
      `select created_at, id from orders where merchant_id = $1 and mode = 'test' order by created_at desc, id desc offset ${499 * PAGE - 1} limit 1`,
      [merchant.id],
    );
    if (encodeCursor(at500!) !== after)
      throw new Error('following cursors did not reach the 500th page where OFFSET does');
    const page500Before = (await listOrderItems(db, scope, { after }, PAGE)).next!;

    // A paid order from the middle of the history, for the searches.
    const [paidSample] = await db.query<{ id: string; client_order_id: string; address: string; tx_hash: string }>(
      `select o.id, o.client_order_id, o.address, p.tx_hash from payments p join orders o on o.id = p.order_id
        where p.merchant_id = $1 order by p.created_at offset ${Math.floor(counts!.payments / 2)} limit 1`,
      [merchant.id],
    );
    const sample = paidSample!;
    const day = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const list = (params: Record<string, string>) => async (d: Database) =>
      (await listOrderItems(d, scope, parseOrderFilters(params), PAGE)).rows.length;

    const figures: Figure[] = [];
    const run = async (name: string, task: (d: Database) => Promise<number>) => {
      if (ONLY && !ONLY.some((text) => name.includes(text))) return;
      const figure = await measure(db, name, task);
      figures.push(figure);
      console.log(
        `  ${name.padEnd(42)} p50 ${figure.p50.toFixed(2).padStart(7)} ms  p99 ${figure.p99.toFixed(2).padStart(7)} ms  max ${figure.max.toFixed(1).padStart(7)} ms  rows ${figure.rows}`,
      );
    };
    console.log(
      `\nPage 500 reached by following cursors: 499 pages in ${followSeconds.toFixed(2)} s (${((followSeconds * 1000) / 499).toFixed(2)} ms a page); it matches OFFSET ${499 * PAGE}.`,
    );
    console.log(`\nQueries (page size ${PAGE}):`);
    await run('first page', list({}));
    await run('page 500 (its cursor)', async (d) => (await listOrderItems(d, scope, { after }, PAGE)).rows.length);
    await run(
      'page 499 backwards from page 500 (before)',
      async (d) => (await listOrderItems(d, scope, { before: page500Before }, PAGE)).rows.length,
    );
    await run('status=processed (45%)', list({ status: 'processed' }));
    await run('status=error (0.5%)', list({ status: 'error' }));
    await run('status=pending (6.5% of the last day), second page', async (d) => {
      const first = await listOrderItems(d, scope, parseOrderFilters({ status: 'pending' }), PAGE);
      return (await listOrderItems(d, scope, { ...parseOrderFilters({ status: 'pending' }), after: first.next }, PAGE))
        .rows.length;
    });
    await run('network=bitcoin (30%)', list({ network: 'bitcoin' }));
    await run('network=bitcoincash (0.3%)', list({ network: 'bitcoincash' }));
    await run('network=base (no orders)', list({ network: 'base' }));
    await run('currency=USDC (~10%)', list({ currency: 'USDC' }));
    await run('currency=BCH (0.3%)', list({ currency: 'BCH' }));
    await run('currency=DOGE (0.7%)', list({ currency: 'DOGE' }));
    await run('date range: 7 days, 200 days ago', list({ from: day(207), to: day(201) }));
    await run('date range + status=error', list({ from: day(207), to: day(201), status: 'error' }));
    await run('status=error + network=tron', list({ status: 'error', network: 'tron' }));
    await run('search: tx hash', list({ q: sample.tx_hash.toUpperCase() }));
    await run('search: order id', list({ q: sample.id }));
    await run("search: merchant's order id", list({ q: sample.client_order_id }));
    await run('search: deposit address', list({ q: sample.address }));
    await run('search: no match', list({ q: 'no-such-thing' }));
    await run('order detail', async (d) => ((await orderDetail(d, scope, sample.id)) ? 1 : 0));
    await run('overview', async (d) => (await overview(d, scope, now)).received.length);
    // Its counts by status alone, then beside them the query they were before order_day_counts
    // (decision 056): every order of the last 30 days, one index range per status.
    const since = new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000 - 29 * 86_400_000);
    await run(
      'overview: orders by status (order_day_counts)',
      async (d) => Object.keys(await ordersByStatusSince(d, scope, since, now)).length,
    );
    await run(
      'overview: orders by status over 30 days of orders (before 056)',
      async (d) =>
        (
          await d.query(
            `select s.status, (select count(*)::int from orders where merchant_id = $1 and mode = 'test' and status = s.status
                                and created_at >= $2 and created_at <= $3) as n
             from unnest($4::text[]) as s(status)`,
            [scope.merchantId, since, now, ['pending', 'processed', 'overpaid', 'partial', 'expired', 'error']],
          )
        ).length,
    );
    await run(
      'webhooks: failed only',
      async (d) => (await listDeliveryItems(d, scope, { failed: true }, PAGE)).rows.length,
    );
    const exportRange = { from: new Date(now.getTime() - (DAYS / 5) * 86_400_000), to: now };
    await run('export count for progress (80 days)', (d) => countForExport(d, scope, exportRange, 'orders'));

    if (ONLY && !ONLY.includes('export')) return;
    console.log('\nCSV export of the last 80 days (keyset batches of 2,000 rows):');
    const [exact] = await db.query<{ n: number }>(
      `select count(*)::int as n from orders where merchant_id = $1 and created_at >= $2 and created_at < $3`,
      [merchant.id, exportRange.from, exportRange.to],
    );
    const expected = exact!.n;
    const throughputs: number[] = [];
    for (let i = 0; i < 2; i++) {
      const t = performance.now();
      let lines = 0;
      let bytes = 0;
      for await (const chunk of exportOrdersCsv(db, scope, exportRange, 'orders')) {
        bytes += chunk.length;
        for (let k = chunk.indexOf('\r\n'); k !== -1; k = chunk.indexOf('\r\n', k + 2)) lines++;
      }
      const s = (performance.now() - t) / 1000;
      if (lines - 1 !== expected) throw new Error(`export had ${lines - 1} rows, count said ${expected}`);
      throughputs.push(expected / s);
      console.log(
        `  run ${i + 1}: ${expected.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(1)} MB in ${s.toFixed(2)} s: ${Math.round(expected / s).toLocaleString('en')} rows/s`,
      );
    }

    const worst = figures.reduce((a, b) => (b.p99 > a.p99 ? b : a));
    console.log(
      `\nSlowest p99: ${worst.name}, ${worst.p99.toFixed(2)} ms (target: every query under ${TARGET_P99_MS} ms).`,
    );
    console.log(
      `Export: best ${Math.round(Math.max(...throughputs)).toLocaleString('en')} rows/s (target over ${TARGET_EXPORT_ROWS_PER_S.toLocaleString('en')} rows/s).`,
    );
  } finally {
    await fresh.dispose();
    pg.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
