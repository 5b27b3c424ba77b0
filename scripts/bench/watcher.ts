/**
 * `npm run bench:watcher [-- --db=pglite|postgres|both --blocks=N --transfers=N --matched=N --orders=10,10000 --network=NAME --no-analyze]`:
 * the cost of one watcher step per block with few and with many open orders, on PGlite and on a
 * throw-away PostgreSQL cluster. The figures must stay flat: matching goes through the unique index
 * on (network, mode, address, tag) with one query per batch of blocks, and only the orders that
 * received transfers (or still wait for confirmations) are settled.
 *
 * Each size runs on a fresh database. Set-up (not measured): a merchant and its test key, the
 * address pool filled up front, then N open orders made through the domain code (makeOrder) that
 * are never paid. Then, per block, identically for every size: `matched` new orders are made,
 * a block is mined with `transfers` transfers, `matched` of them paying those orders in full and
 * the rest going to addresses the gateway does not watch (on a tag network: the shared address
 * with unknown tags, and other addresses), and one watcher step (batchBlocks: 1) scans exactly that
 * block. The step is timed, and every statement it sends is counted by a wrapper around the
 * Database (BEGIN and COMMIT of its transaction included); the sandbox ledger's reads (which
 * stand for node RPCs on a live chain) are counted apart. The first blocks warm up and are
 * not measured, so every measured block does the same work: record `matched` new payments,
 * and settle them and the previous blocks' payments still short of their confirmations.
 *
 * The sizes' blocks are interleaved (the machine may be busy with other work). The tables are
 * ANALYZEd during and after set-up, as autovacuum would on PostgreSQL; `--no-analyze` measures
 * them without statistics, as the embedded database (PGlite has no autovacuum) runs in practice.
 *
 * Before and after: `--against=REF` (by default BASELINE, the commit before batched settlement)
 * first runs this same benchmark, with the same arguments, on the code of REF checked out in a
 * temporary git worktree (./baseline), then on this tree, and prints both with their ratios.
 * `--against=none` measures this tree alone; `--json` ends the output with the figures as one
 * `BENCH_JSON` line (what the before-run answers).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
// Shared plain-JS helper without declarations: typed by the cast below.
import * as postgresHelpers from '../lib/postgres.mjs';
import { BENCH_JSON, runAtCommit, shortCommit } from './baseline';
import { freshDatabase } from './databases';
import { atExit } from './servers';
import { fillAddressPool } from '../../lib/addresses';
import { makeOrderRequest } from '../../lib/protocol';
import { findNetwork, type Network } from '../../lib/catalog';
import type { ChainAdapter } from '../../lib/chains/adapter';
import { deriveAddress, testAccountXpub, testTagAccountAddress } from '../../lib/chains/derivation';
import { broadcastMany, mine, sandboxAdapter, type TransferInput } from '../../lib/chains/sandbox';
import type { Database, Queryable } from '../../lib/db/client';
import { createMerchant, findApiKey, type ApiKey } from '../../lib/merchants';
import { makeOrder } from '../../lib/orders';
import type { OrderRow } from '../../lib/orders/rows';
import { noRiskScreen } from '../../lib/risk';
import { watchStep, type WatchOptions } from '../../lib/watcher';

const { startPostgres } = postgresHelpers as { startPostgres(): Promise<{ url: string; stop(): void }> };

process.env.APP_SECRET ??= 'bench-watcher-app-secret-at-least-32-characters';
process.env.LOG_LEVEL ??= 'warn';

type Db = 'pglite' | 'postgres';

/**
 * The "before" of `--against`: the last commit that settled orders one by one (about 5 statements
 * per order, 171 per block of this benchmark's defaults), before docs/decisions/040.
 */
const BASELINE = 'a61cad00c30c4dc3ed463080a1e3f96281fd7fd0';

const USAGE =
  'usage: npm run bench:watcher -- [--db=pglite|postgres|both] [--blocks=N] [--transfers=N] [--matched=N] [--orders=10,10000] [--network=NAME] [--no-analyze] [--against=REF|none] [--json]';
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const DB_OPTION = option('db') ?? 'both';
const BLOCKS = Number(option('blocks') ?? 20);
const TRANSFERS = Number(option('transfers') ?? 50);
const MATCHED = Number(option('matched') ?? 10);
const SIZES = (option('orders') ?? '10,10000').split(',').map(Number);
const NETWORK = findNetwork(option('network') ?? 'ripple');
const ANALYZE = !process.argv.includes('--no-analyze');
const AGAINST = option('against') ?? BASELINE;
const JSON_OUTPUT = process.argv.includes('--json');
const FLAGS = ['--no-analyze', '--json'];
const known = ['db', 'blocks', 'transfers', 'matched', 'orders', 'network', 'against'];
const unknown = process.argv.slice(2).filter((a) => !FLAGS.includes(a) && !known.some((k) => a.startsWith(`--${k}=`)));
if (
  unknown.length > 0 ||
  !['pglite', 'postgres', 'both'].includes(DB_OPTION) ||
  ![BLOCKS, TRANSFERS, MATCHED].every((n) => Number.isSafeInteger(n) && n > 0) ||
  MATCHED > TRANSFERS ||
  SIZES.length < 2 ||
  !SIZES.every((n) => Number.isSafeInteger(n) && n >= 0) ||
  !NETWORK
) {
  console.error(USAGE);
  process.exit(2);
}
const network: Network = NETWORK;
const DBS: Db[] = DB_OPTION === 'both' ? ['pglite', 'postgres'] : [DB_OPTION as Db];
/** Confirmations the bench's chain requires (the sandbox default, SANDBOX_CONFIRMATIONS). */
const CONFIRMATIONS = 2;
/** Blocks scanned before measuring: the first steps have fewer payments waiting for confirmations, and cold caches. */
const WARMUP = CONFIRMATIONS + 2;
/** Addresses the unrelated transfers go to (derived far above any pool position, so never watched). */
const UNRELATED_ADDRESSES = 32;
const UNRELATED_INDEX = 1_000_000;
/** Makes order creation on PostgreSQL faster; PGlite serialises anyway. */
const ORDER_CONCURRENCY = 4;

// --- Counting ----------------------------------------------------------------------------------

interface StatementStats {
  calls: number;
  ms: number;
}

/** Counts (and times) every statement sent through a Database, by statement text. */
class Counter {
  statements = 0;
  readonly byText = new Map<string, StatementStats>();
  enabled = false;

  note(text: string, ms: number): void {
    if (!this.enabled) return;
    this.statements++;
    const key = text.replace(/\s+/g, ' ').trim();
    const stats = this.byText.get(key) ?? { calls: 0, ms: 0 };
    stats.calls++;
    stats.ms += ms;
    this.byText.set(key, stats);
  }

  reset(): void {
    this.statements = 0;
    this.byText.clear();
  }
}

function countingQueryable(inner: Queryable, counter: Counter): Queryable {
  return {
    async query(text, params, name) {
      const started = performance.now();
      try {
        return await inner.query(text, params, name);
      } finally {
        counter.note(text, performance.now() - started);
      }
    },
  };
}

/** The Database with every statement counted: queries, BEGIN and COMMIT, and each statement inside a transaction. */
function countingDatabase(db: Database, counter: Counter): Database {
  return {
    ...db,
    kind: db.kind,
    query: countingQueryable(db, counter).query,
    async transaction(work) {
      // The driver sends BEGIN and COMMIT (or ROLLBACK) itself: counted, their time not split out.
      counter.note('BEGIN', 0);
      try {
        return await db.transaction((tx) => work(countingQueryable(tx, counter)));
      } finally {
        counter.note('COMMIT (or ROLLBACK)', 0);
      }
    },
  };
}

// --- One run -----------------------------------------------------------------------------------

interface RunResult {
  db: Db;
  orders: number;
  setupSeconds: number;
  stepMs: number[];
  queries: number[];
  ledgerReads: number[];
  matched: number[];
  changes: number[];
  byText: Map<string, StatementStats>;
  processed: number;
  paid: number;
}

let nonce = Date.now() * 1000;

async function createOrders(db: Database, key: ApiKey, count: number, concurrency: number): Promise<OrderRow[]> {
  const orders: OrderRow[] = new Array(count);
  const currency = network.currencies[0]!;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const n = ++nonce;
      const input = makeOrderRequest.parse({
        order: `bench-watcher-${n}`,
        nonce: n,
        currency: currency.ticker,
        network: network.name,
        amount: '1',
      });
      orders[i] = await makeOrder({ db, key, nonce: String(n) }, input);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(count, 1)) }, worker));
  return orders;
}

/** Recipients nobody watches: the same for every run. */
function unrelatedRecipients(): { to: string; tag: string | null }[] {
  const derived = Array.from({ length: UNRELATED_ADDRESSES }, (_, j) =>
    deriveAddress(network, testAccountXpub(network), UNRELATED_INDEX + j),
  );
  if (!network.usesTags) return derived.map((to) => ({ to, tag: null }));
  // Half to the shared deposit address with tags no order has (checked per run), half elsewhere.
  const shared = testTagAccountAddress(network);
  return derived.flatMap((to, j) => [
    { to: shared, tag: String(4_000_000_000 + j) },
    { to, tag: null },
  ]);
}

interface Sized {
  size: number;
  db: Database;
  key: ApiKey;
  counter: Counter;
  ledgerCounter: Counter;
  counted: Database;
  chain: ChainAdapter;
  paidOrders: string[];
  result: RunResult;
}

const WATCH: WatchOptions = { batchBlocks: 1, startAt: 'genesis', screen: noRiskScreen };

/** Set-up of one size on its fresh database: pool, merchant, the open orders; the cursor at the tip. */
async function setUp(
  kind: Db,
  db: Database,
  size: number,
  unrelated: { to: string; tag: string | null }[],
): Promise<Sized> {
  const started = performance.now();
  await fillAddressPool(db, network, 'test', size + (WARMUP + BLOCKS) * MATCHED + 300);
  const { keys } = await createMerchant(db, `Watcher bench ${size}`, 'test');
  const key = await findApiKey(db, keys.publicKey);
  if (!key) throw new Error('the bench key cannot be found');
  const concurrency = kind === 'postgres' ? ORDER_CONCURRENCY : 1;
  // Without statistics (PGlite has no autovacuum) make-order slows down as orders pile up; with
  // ANALYZE on, the tables are analyzed early in the set-up too, as autovacuum would.
  const early = ANALYZE ? Math.min(size, 500) : 0;
  if (ANALYZE) await db.query('analyze');
  const open = [...(await createOrders(db, key, early, concurrency))];
  if (ANALYZE) await db.query('analyze');
  open.push(...(await createOrders(db, key, size - early, concurrency)));
  if (open.length !== size) throw new Error('not every open order was made');
  const tags = unrelated.map((u) => u.tag).filter((t): t is string => t !== null);
  const [clash] = await db.query<{ n: number }>(
    `select count(*)::int as n from addresses
      where network = $1 and mode = 'test' and ((address = any($2::text[]) and tag is null) or tag = any($3::text[]))`,
    [network.name, unrelated.filter((u) => u.tag === null).map((u) => u.to), tags],
  );
  if (clash!.n > 0)
    throw new Error('an "unrelated" recipient is one of the pool addresses: the workload would not be the same');
  // The cursor starts at genesis: catch up with the (empty) chain before the first block.
  while ((await watchStep(db, sandboxAdapter(db, network), 'test', WATCH)).scannedBlocks > 0);
  if (ANALYZE) await db.query('analyze');
  const counter = new Counter();
  const ledgerCounter = new Counter();
  return {
    size,
    db,
    key,
    counter,
    ledgerCounter,
    counted: countingDatabase(db, counter),
    chain: { ...sandboxAdapter(countingQueryable(db, ledgerCounter), network), requiredConfirmations: CONFIRMATIONS },
    paidOrders: [],
    result: {
      db: kind,
      orders: size,
      setupSeconds: (performance.now() - started) / 1000,
      stepMs: [],
      queries: [],
      ledgerReads: [],
      matched: [],
      changes: [],
      byText: new Map(),
      processed: 0,
      paid: 0,
    },
  };
}

/** Block `b` of one size: its orders, transfers and block (not measured), then the measured watcher step. */
async function block(run: Sized, b: number, unrelated: { to: string; tag: string | null }[]): Promise<void> {
  const { db, counter, ledgerCounter, result } = run;
  const payees = await createOrders(db, run.key, MATCHED, 1);
  const transfers: TransferInput[] = payees.map((o) => ({
    to: o.address,
    tag: o.tag,
    currency: o.currency,
    amount: BigInt(o.amount),
  }));
  for (let t = 0; transfers.length < TRANSFERS; t++) {
    const u = unrelated[(b * TRANSFERS + t) % unrelated.length]!;
    transfers.push({ to: u.to, tag: u.tag, currency: network.currencies[0]!.ticker, amount: BigInt(1000 + t) });
  }
  await broadcastMany(db, network, transfers);
  await mine(db, network, 1);
  run.paidOrders.push(...payees.map((o) => o.id));

  counter.reset();
  ledgerCounter.reset();
  counter.enabled = ledgerCounter.enabled = true;
  const started = performance.now();
  const step = await watchStep(run.counted, run.chain, 'test', WATCH);
  const ms = performance.now() - started;
  counter.enabled = ledgerCounter.enabled = false;
  if (!step.ran || step.scannedBlocks !== 1)
    throw new Error(`block ${b + 1}: the step scanned ${step.scannedBlocks} blocks (ran: ${step.ran})`);
  if (b < WARMUP) return;
  result.stepMs.push(ms);
  result.queries.push(counter.statements);
  result.ledgerReads.push(ledgerCounter.statements);
  result.matched.push(step.matchedTransfers);
  result.changes.push(step.changes.length);
  for (const [text, stats] of counter.byText) {
    const total = result.byText.get(text) ?? { calls: 0, ms: 0 };
    total.calls += stats.calls;
    total.ms += stats.ms;
    result.byText.set(text, total);
  }
}

/** Sanity: every payment but the last block's (one confirmation short) has processed its order. */
async function finish(run: Sized): Promise<RunResult> {
  const [done] = await run.db.query<{ n: number }>(
    `select count(*)::int as n from orders where id = any($1::uuid[]) and status = 'processed'`,
    [run.paidOrders],
  );
  run.result.processed = done!.n;
  run.result.paid = run.paidOrders.length;
  return run.result;
}

/**
 * All sizes of one database, their blocks interleaved (the order of sizes alternating from block
 * to block), so that load from elsewhere on the machine weighs on every size alike.
 */
async function runDatabase(
  kind: Db,
  adminUrl: string | undefined,
  unrelated: { to: string; tag: string | null }[],
): Promise<RunResult[]> {
  const disposers: (() => Promise<void>)[] = [];
  try {
    const runs: Sized[] = [];
    for (const size of SIZES) {
      const { db, dispose } = await freshDatabase(`watcher_bench_${size}`, adminUrl, 8);
      disposers.push(dispose);
      const run = await setUp(kind, db, size, unrelated);
      console.log(`  ${count(size).padStart(6)} open orders: set-up ${fmt(run.result.setupSeconds)} s`);
      runs.push(run);
    }
    for (let b = 0; b < WARMUP + BLOCKS; b++) {
      for (const run of b % 2 ? [...runs].reverse() : runs) await block(run, b, unrelated);
    }
    const results: RunResult[] = [];
    for (const run of runs) {
      const result = await finish(run);
      console.log(
        `  ${count(result.orders).padStart(6)} open orders: ${fmt(median(result.stepMs), 2)} ms/block (p50), ` +
          `${fmt(mean(result.queries))} queries/block; ${result.processed} of ${result.paid} paid orders processed (the last block's wait for a confirmation)`,
      );
      results.push(result);
    }
    return results;
  } finally {
    for (const dispose of disposers) await dispose().catch(() => undefined);
  }
}

// --- Report ------------------------------------------------------------------------------------

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: number[]) => (xs.length ? sum(xs) / xs.length : NaN);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const count = (n: number) => n.toLocaleString('en-US');
const range = (xs: number[]) => `${fmt(mean(xs))} (${Math.min(...xs)}..${Math.max(...xs)})`;

function printTable(results: RunResult[]): void {
  const header = [
    'db',
    'open orders',
    'blocks',
    'transfers/block',
    'matched/block',
    'ms/block p50 / mean / max',
    'queries/block mean (min..max)',
    'ledger reads/block',
    'set-up',
  ];
  const rows = results.map((r) => [
    r.db,
    count(r.orders),
    String(r.stepMs.length),
    String(TRANSFERS),
    range(r.matched),
    `${fmt(median(r.stepMs), 2)} / ${fmt(mean(r.stepMs), 2)} / ${fmt(Math.max(...r.stepMs), 2)}`,
    range(r.queries),
    range(r.ledgerReads),
    `${fmt(r.setupSeconds)} s`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

const label = (text: string, max = 90) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);

/** Calls and ms per block of every statement in both sizes, the most grown first. */
function statementRows(small: RunResult, large: RunResult) {
  const texts = new Set([...small.byText.keys(), ...large.byText.keys()]);
  const per = (r: RunResult, text: string) => {
    const s = r.byText.get(text) ?? { calls: 0, ms: 0 };
    return { calls: s.calls / r.stepMs.length, ms: s.ms / r.stepMs.length };
  };
  const rows = [...texts].map((text) => ({ text, a: per(small, text), b: per(large, text) }));
  return rows.sort((x, y) => y.b.ms - y.a.ms - (x.b.ms - x.a.ms) || y.b.ms - x.b.ms);
}

/** A statement that takes 1.5 times as long or more, and at least half a millisecond more per block. */
const grew = (a: StatementStats, b: StatementStats) => b.ms > 1.5 * a.ms && b.ms - a.ms > 0.5;

function printStatements(small: RunResult, large: RunResult): void {
  const rows = statementRows(small, large);
  console.log(
    `  per statement (calls/block and ms/block, ${count(small.orders)} -> ${count(large.orders)} open orders; ms inside the transaction, client-side):`,
  );
  for (const { text, a, b } of rows) {
    const grows = a.calls !== b.calls ? '  <-- CALLS DIFFER' : grew(a, b) ? '  <-- SLOWER' : '';
    console.log(
      `    ${fmt(a.calls, 1).padStart(5)} -> ${fmt(b.calls, 1).padEnd(5)} ${fmt(a.ms, 3).padStart(7)} -> ${fmt(b.ms, 3).padEnd(7)} ms  ${label(text)}${grows}`,
    );
  }
}

function verdict(small: RunResult, large: RunResult): boolean {
  const timeP50 = median(large.stepMs) / median(small.stepMs);
  const timeMean = mean(large.stepMs) / mean(small.stepMs);
  const queries = mean(large.queries) / mean(small.queries);
  const sameQueries =
    mean(large.queries) === mean(small.queries) &&
    Math.min(...large.queries) === Math.min(...small.queries) &&
    Math.max(...large.queries) === Math.max(...small.queries);
  const flat = sameQueries && timeP50 < 1.5;
  console.log(
    `  ${small.db}: ${count(large.orders)} vs ${count(small.orders)} open orders: time x${fmt(timeP50, 2)} (p50), x${fmt(timeMean, 2)} (mean); ` +
      `queries/block x${fmt(queries, 3)} -> ${flat ? 'flat' : 'NOT flat'}` +
      `${sameQueries ? '' : ' (queries per block differ)'}${timeP50 >= 1.5 ? ' (time grows)' : ''}`,
  );
  // The whole step may stay under the bar while one statement grows with the open orders: say so.
  for (const { text, a, b } of statementRows(small, large).filter((r) => grew(r.a, r.b))) {
    console.log(
      `    but one statement grows: x${fmt(b.ms / a.ms, 2)} (${fmt(a.ms, 2)} -> ${fmt(b.ms, 2)} ms/block): ${label(text, 70)}`,
    );
  }
  return flat;
}

/** A run's figures as `--json` prints them (the statements' map as entries). */
type Figures = (Omit<RunResult, 'byText'> & { byText: [string, StatementStats][] })[];

const toFigures = (results: RunResult[]): Figures => results.map((r) => ({ ...r, byText: [...r.byText] }));
const fromFigures = (figures: Figures): RunResult[] => figures.map((r) => ({ ...r, byText: new Map(r.byText) }));

/** Before and after per database and size: queries and time per block, with the after/before ratio. */
function printComparison(label: string, before: RunResult[], after: RunResult[]): void {
  console.log(
    `\n=== before (${label}) and after (this tree): same arguments, measured one after the other in this run ===`,
  );
  const header = [
    'db',
    'open orders',
    'queries/block before -> after',
    'ratio',
    'ms/block p50 before -> after',
    'ratio',
  ];
  const rows = after.map((a) => {
    const b = before.find((r) => r.db === a.db && r.orders === a.orders);
    if (!b)
      return [a.db, count(a.orders), `n/a -> ${fmt(mean(a.queries))}`, '', `n/a -> ${fmt(median(a.stepMs), 2)}`, ''];
    return [
      a.db,
      count(a.orders),
      `${fmt(mean(b.queries))} -> ${fmt(mean(a.queries))}`,
      `x${fmt(mean(a.queries) / mean(b.queries), 3)}`,
      `${fmt(median(b.stepMs), 2)} -> ${fmt(median(a.stepMs), 2)}`,
      `x${fmt(median(a.stepMs) / median(b.stepMs), 2)}`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  const started = Date.now();
  let before: RunResult[] | undefined;
  if (AGAINST !== 'none') {
    const args = process.argv.slice(2).filter((a) => !a.startsWith('--against=') && a !== '--json');
    before = fromFigures(
      await runAtCommit<Figures>(AGAINST, 'scripts/bench/watcher.ts', [...args, '--against=none', '--json']),
    );
    console.log(`--- after: this tree\n`);
  }
  const cpu = os.cpus();
  console.log(
    `watcher benchmark: ${cpu.length} cores (${cpu[0]?.model.trim() ?? '?'}), Node ${process.version}. Network ${network.name} (test mode, sandbox ledger),\n` +
      `${CONFIRMATIONS} confirmations. Per block: ${TRANSFERS} transfers, ${MATCHED} of them paying new orders in full, the rest to unwatched\n` +
      `recipients; one watcher step (batchBlocks 1) per block. ${WARMUP} warm-up blocks, then ${BLOCKS} measured. Open orders that are never\n` +
      `paid: ${SIZES.map(count).join(' and ')} (plus the ${MATCHED} paid per block until they are processed). Each size on a fresh database${ANALYZE ? ', ANALYZEd after set-up' : ''};\n` +
      `the sizes' blocks are interleaved so that other load on the machine weighs on them alike.\n` +
      `Queries: every statement the step sends (BEGIN/COMMIT included); ledger reads: the sandbox chain's reads (node RPCs on a live chain).\n`,
  );
  const unrelated = unrelatedRecipients();
  const results = new Map<Db, RunResult[]>();
  for (const kind of DBS) {
    let adminUrl: string | undefined;
    if (kind === 'postgres') {
      const server = await startPostgres();
      atExit(() => server.stop());
      adminUrl = server.url;
    }
    console.log(`--- ${kind}${adminUrl ? ` (${adminUrl})` : ' (embedded, in this process)'}`);
    const runs = await runDatabase(kind, adminUrl, unrelated);
    results.set(kind, runs);
  }

  console.log('\n=== watcher cost per block ===');
  printTable([...results.values()].flat());
  console.log('');
  let allFlat = true;
  for (const runs of results.values()) {
    const small = runs[0]!;
    for (const large of runs.slice(1)) allFlat = verdict(small, large) && allFlat;
  }
  for (const runs of results.values()) {
    const small = runs[0]!;
    const large = runs[runs.length - 1]!;
    console.log(`\n${small.db}:`);
    printStatements(small, large);
  }
  console.log(`\nFlat (equal queries per block, p50 time ratio < 1.5): ${allFlat ? 'yes' : 'NO'}`);
  const after = [...results.values()].flat();
  if (before) printComparison(shortCommit(AGAINST), before, after);
  console.log(`(total ${Math.round((Date.now() - started) / 1000)} s)`);
  if (JSON_OUTPUT) console.log(`${BENCH_JSON}${JSON.stringify(toFigures(after))}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench:watcher failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
