/**
 * `npm run bench:api [-- --duration=SECONDS --db=pglite|postgres|both]`: make-order throughput
 * and latency of the real gateway (`node scripts/start.mjs`, production build) against two
 * baselines doing the same minimal work (bench/node-baseline.ts on node:http, and a bare Next.js
 * route handler in bench/next-baseline), on PGlite and on a throw-away PostgreSQL cluster.
 * One server runs at a time, so each has the machine to itself apart from the load generator.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// Shared plain-JS helpers without declarations: typed by the casts below.
import * as buildHelpers from '../lib/build.mjs';
import * as postgresHelpers from '../lib/postgres.mjs';
import {
  burst,
  closedLoop,
  describeFailures,
  failures,
  fixedRate,
  okPerSecond,
  orderBody,
  type LoadResult,
  type Target,
} from './load';
import { answers, atExit, cpuSnapshot, logTail, startServer, tempDir, waitQuiet, type Server } from './servers';

const { ensureBuild, nextBin, root } = buildHelpers as { ensureBuild(): Promise<void>; nextBin: string; root: string };
const { startPostgres, freePort } = postgresHelpers as {
  startPostgres(): Promise<{ url: string; stop(): void }>;
  freePort(): Promise<number>;
};

type Db = 'pglite' | 'postgres';

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const DURATION = Number(option('duration') ?? 10);
const DB_OPTION = option('db') ?? 'both';
if (!(DURATION > 0) || !['pglite', 'postgres', 'both'].includes(DB_OPTION)) {
  console.error('usage: npm run bench:api -- [--duration=SECONDS] [--db=pglite|postgres|both]');
  process.exit(2);
}
const DBS: Db[] = DB_OPTION === 'both' ? ['pglite', 'postgres'] : [DB_OPTION as Db];
const CONNECTIONS = 50;
const RATES = [250, 400] as const;
const WARMUP_SECONDS = 2;
const OVERLOAD = { connections: 400, seconds: Math.min(5, DURATION), timeoutSeconds: 2 };
const TARGET_RATIO = 0.9;
const TARGET_P99_MS = 25;
/** A burst on new connections (issue 14: requests once waited 5-26 s in the accept queue). */
const BURST = { total: 2000, concurrency: 100, targetMaxMs: 1000 };

/** CPU milliseconds per answered request during a closed-loop run. */
interface CpuPerRequest {
  server: number;
  postgres: number;
  machine: number;
}
type Measured = LoadResult & { cpu: CpuPerRequest };

interface Figures {
  throughput: Measured;
  rate: Record<(typeof RATES)[number], LoadResult>;
}
interface GatewayFigures extends Figures {
  repeated: Measured;
  tagNetwork: Measured;
  burst: LoadResult;
  overload?: LoadResult;
}
interface DbFigures {
  node: Figures;
  next: Figures;
  gateway: GatewayFigures;
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
const rps = (r: LoadResult) => `${Math.round(okPerSecond(r))} req/s`;
const pct = (r: LoadResult) => `${fmt(r.p50)}/${fmt(r.p99)} ms`;
const flag = (r: LoadResult) => (failures(r) ? ` [ERRORS: ${describeFailures(r)}]` : '');
const cpuLine = ({ cpu }: Measured) =>
  `CPU/request: server ${fmt(cpu.server, 2)} ms${cpu.postgres ? `, PostgreSQL ${fmt(cpu.postgres, 2)} ms` : ''}, whole machine ${fmt(cpu.machine, 2)} ms`;

/**
 * A closed-loop run with the CPU it cost per answered request: the server's processes (every
 * thread), PostgreSQL's, and the whole machine's (which includes the load generator). Unlike
 * req/s, these hardly move with what else the machine is doing.
 */
async function closedLoopWithCpu(
  server: Server,
  target: Target,
  connections: number,
  seconds: number,
  newOrder: () => string,
): Promise<Measured> {
  const before = cpuSnapshot(server);
  const result = await closedLoop(target, connections, seconds, newOrder);
  const after = cpuSnapshot(server);
  const per = (key: keyof CpuPerRequest) => (after[key] - before[key]) / Math.max(result.ok, 1);
  return { ...result, cpu: { server: per('server'), postgres: per('postgres'), machine: per('machine') } };
}

/** Child environment without the caller's database settings, so nothing leaks into a run. */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'APP_SECRET', 'PORT', 'HOST', 'PUBLIC_BASE_URL', 'NODE_OPTIONS'])
    delete env[name];
  return env;
}

/** Builds bench/next-baseline when its build is missing or older than its sources. */
function ensureBaselineBuild(): void {
  const dir = path.join(root, 'bench', 'next-baseline');
  const buildId = path.join(dir, '.next', 'BUILD_ID');
  const sources = [
    'baseline-store.ts',
    'next-baseline/app/baseline/route.ts',
    'next-baseline/next.config.mjs',
    'next-baseline/instrumentation.ts',
  ].map((f) => `bench/${f}`);
  const mtime = (file: string) => fs.statSync(path.join(root, file)).mtimeMs;
  if (fs.existsSync(buildId) && sources.every((s) => mtime(s) <= fs.statSync(buildId).mtimeMs)) return;
  console.log('Building bench/next-baseline...');
  const build = spawnSync(process.execPath, [nextBin, 'build', dir], {
    cwd: root,
    env: baseEnv(),
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (build.status !== 0) throw new Error(`next build bench/next-baseline failed:\n${build.stdout}${build.stderr}`);
}

/** Warm-up, then closed-loop throughput and the fixed-rate runs, each from a quiet server. */
async function measure(label: string, server: Server, target: Target, newOrder: () => string): Promise<Figures> {
  await closedLoop(target, CONNECTIONS, WARMUP_SECONDS, newOrder);
  await waitQuiet(server);
  const throughput = await closedLoopWithCpu(server, target, CONNECTIONS, DURATION, newOrder);
  console.log(
    `  ${label.padEnd(22)} throughput   ${rps(throughput)} (${CONNECTIONS} conn, closed loop p50/p99 ${pct(throughput)}); ${cpuLine(throughput)}${flag(throughput)}`,
  );
  await waitQuiet(server);
  const rate = {} as Figures['rate'];
  for (const r of RATES) {
    rate[r] = await fixedRate(target, r, DURATION, CONNECTIONS, newOrder);
    console.log(
      `  ${label.padEnd(22)} @${r} req/s  p50/p99 ${pct(rate[r])}, max ${fmt(rate[r].max)} ms${flag(rate[r])}`,
    );
    await waitQuiet(server);
  }
  return { throughput, rate };
}

async function runBaseline(kind: 'node' | 'next', db: Db, pgUrl: string | undefined): Promise<Figures> {
  const port = await freePort();
  const keys = { publicKey: 'pk_bench', privateKey: `sk_bench_${randomBytes(24).toString('hex')}` };
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    PORT: String(port),
    BENCH_PRIVATE_KEY: keys.privateKey,
    BENCH_TABLE: `bench_${kind}_orders`,
  };
  if (pgUrl) env.DATABASE_URL = pgUrl;
  else env.BENCH_DATA_DIR = tempDir(`gw-bench-${kind}-`);
  const args =
    kind === 'node'
      ? ['--import', 'tsx', 'bench/node-baseline.ts']
      : [nextBin, 'start', 'bench/next-baseline', '-p', String(port), '-H', '127.0.0.1'];
  const label = kind === 'node' ? 'baseline node:http' : 'baseline next route';
  const server = await startServer(`${label} (${db})`, root, args, env, port, () => answers(port));
  try {
    return await measure(label, server, { port, path: kind === 'node' ? '/' : '/baseline', ...keys }, () =>
      orderBody(),
    );
  } catch (error) {
    throw new Error(`${label}: ${String(error)}\n${logTail(server.logFile)}`, { cause: error });
  } finally {
    await server.stop();
  }
}

async function runGateway(db: Db, pgUrl: string | undefined): Promise<GatewayFigures> {
  const port = await freePort();
  const dataDir = tempDir('gw-bench-data-');
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DEMO_STORE: 'true',
  };
  if (pgUrl)
    Object.assign(env, { DATABASE_URL: pgUrl, APP_SECRET: `bench-app-secret-${randomBytes(16).toString('hex')}` });
  const demoFile = path.join(dataDir, 'demo-store.json');
  const server = await startServer(
    `gateway (${db})`,
    root,
    ['scripts/start.mjs'],
    env,
    port,
    async () => fs.existsSync(demoFile) && answers(port),
  );
  try {
    const keys = JSON.parse(fs.readFileSync(demoFile, 'utf8')) as { publicKey: string; privateKey: string };
    const target: Target = { port, path: '/api-gateway/make-order', ...keys };
    // Start-up fills every network's address pool in the background: not part of any run.
    await waitQuiet(server, 60_000);
    const label = 'gateway make-order';
    const figures = await measure(label, server, target, () => orderBody());

    const repeatedOrder = `bench-repeated-${Date.now()}`;
    const first = await closedLoop(target, 1, 1, () => orderBody(repeatedOrder));
    if (first.ok === 0) throw new Error(`the repeated order could not be created: ${describeFailures(first)}`);
    await waitQuiet(server);
    const repeated = await closedLoopWithCpu(server, target, CONNECTIONS, DURATION, () => orderBody(repeatedOrder));
    console.log(
      `  ${label.padEnd(22)} repeated     ${rps(repeated)} (same order, fresh nonces); ${cpuLine(repeated)}${flag(repeated)}`,
    );
    await waitQuiet(server);

    // XRP addresses are one shared address with a random tag, refilled into the same pool and taken
    // by the same statement: this run is make-order with no key derivation behind it anywhere,
    // i.e. what an order costs when its address was derived ahead of time.
    const tagNetwork = await closedLoopWithCpu(server, target, CONNECTIONS, DURATION, () =>
      orderBody(undefined, 'XRP', 'ripple'),
    );
    console.log(
      `  ${label.padEnd(22)} XRP/ripple   ${rps(tagNetwork)} (new orders, tag network: no address derivation); ${cpuLine(tagNetwork)}${flag(tagNetwork)}`,
    );
    await waitQuiet(server);

    const burstRun = await burst(target, BURST.total, BURST.concurrency, () => orderBody());
    console.log(`  ${label.padEnd(22)} burst        ${burstLine(burstRun)}`);
    await waitQuiet(server);

    let overload: LoadResult | undefined;
    if (db === 'postgres') {
      overload = await closedLoop(
        target,
        OVERLOAD.connections,
        OVERLOAD.seconds,
        () => orderBody(),
        OVERLOAD.timeoutSeconds,
      );
      console.log(`  ${label.padEnd(22)} overload     ${overloadLine(overload)}`);
    }
    return { ...figures, repeated, tagNetwork, burst: burstRun, overload };
  } catch (error) {
    throw new Error(`gateway: ${String(error)}\n${logTail(server.logFile)}`, { cause: error });
  } finally {
    await server.stop();
  }
}

function burstLine(r: LoadResult): string {
  const met = r.max < BURST.targetMaxMs && failures(r) === 0;
  return (
    `${BURST.total} orders from ${BURST.concurrency} new keep-alive connections: ${Math.round(okPerSecond(r))} req/s, p50/p99 ${pct(r)}, ` +
    `max ${fmt(r.max, 0)} ms (target: none over ${BURST.targetMaxMs} ms, no error: ${met ? 'met' : 'NOT met'})${flag(r)}`
  );
}

function overloadLine(r: LoadResult): string {
  const { '503': shed = 0, ...other } = r.rejected;
  const others =
    Object.entries(other)
      .map(([s, n]) => `${n}x${s}`)
      .join(', ') || 'none';
  return (
    `${OVERLOAD.connections} conn, ${OVERLOAD.seconds} s: ${r.ok} ok, ${shed} x 503, other non-2xx: ${others}, ` +
    `timeouts (> ${OVERLOAD.timeoutSeconds} s): ${r.timeouts}, socket errors: ${r.errors}, max latency ${fmt(r.max, 0)} ms, p99 ${fmt(r.p99, 0)} ms`
  );
}

function report(results: Partial<Record<Db, DbFigures>>): void {
  const line = (f: Figures) =>
    `${rps(f.throughput)} (${CONNECTIONS} conn) | p50/p99 @250: ${pct(f.rate[250])} | @400: ${pct(f.rate[400])}`;
  console.log('\n=== make-order benchmark (2-core machine: load generator, server and PostgreSQL share it) ===');
  let anyErrors = false;
  for (const [db, r] of Object.entries(results) as [Db, DbFigures][]) {
    const g = r.gateway;
    const ratioNext = okPerSecond(g.throughput) / okPerSecond(r.next.throughput);
    const ratioNextReady = okPerSecond(g.tagNetwork) / okPerSecond(r.next.throughput);
    const ratioNode = okPerSecond(g.throughput) / okPerSecond(r.node.throughput);
    const p99 = g.rate[400].p99;
    const met = (ok: boolean) => (db === 'postgres' ? ` (target >= ${TARGET_RATIO}: ${ok ? 'met' : 'NOT met'})` : '');
    console.log(
      `make-order on ${db}: ${line(g)} | repeated order: ${rps(g.repeated)} | XRP (no derivation): ${rps(g.tagNetwork)}`,
    );
    console.log(`  baseline node:http: ${line(r.node)}`);
    console.log(`  baseline next route: ${line(r.next)}`);
    console.log(
      `  ratio vs next route: ${fmt(ratioNext, 2)} with derivation${met(ratioNext >= TARGET_RATIO)}, ${fmt(ratioNextReady, 2)} with addresses ready (XRP)${met(ratioNextReady >= TARGET_RATIO)}` +
        ` | ratio vs node:http: ${fmt(ratioNode, 2)} | gateway p99 @400: ${fmt(p99)} ms (target < ${TARGET_P99_MS} ms: ${p99 < TARGET_P99_MS ? 'met' : 'NOT met'}; next route's own p99 @400: ${fmt(r.next.rate[400].p99)} ms)`,
    );
    console.log(
      `  server CPU per request: make-order ${fmt(g.throughput.cpu.server, 2)} ms (derivation thread included), XRP ${fmt(g.tagNetwork.cpu.server, 2)} ms, ` +
        `repeated ${fmt(g.repeated.cpu.server, 2)} ms; next route ${fmt(r.next.throughput.cpu.server, 2)} ms, node:http ${fmt(r.node.throughput.cpu.server, 2)} ms`,
    );
    console.log(`  burst: ${burstLine(g.burst)}`);
    if (g.overload) console.log(`  overload: ${overloadLine(g.overload)}`);
    const runs: [string, LoadResult][] = [
      ...(['node', 'next'] as const).flatMap((k) => [
        [`${k} throughput`, r[k].throughput] as [string, LoadResult],
        ...RATES.map((rate) => [`${k} @${rate}`, r[k].rate[rate]] as [string, LoadResult]),
      ]),
      ['gateway throughput', g.throughput],
      ...RATES.map((rate) => [`gateway @${rate}`, g.rate[rate]] as [string, LoadResult]),
      ['gateway repeated', g.repeated],
      ['gateway XRP', g.tagNetwork],
    ];
    const failed = runs.filter(([, result]) => failures(result) > 0);
    anyErrors ||= failed.length > 0;
    console.log(
      `  errors: ${failed.length ? `RUNS WITH ERRORS: ${failed.map(([n, result]) => `${n}: ${describeFailures(result)}`).join('; ')}` : 'none'}`,
    );
  }
  if (anyErrors) console.log('Some runs had errors (non-2xx or timeouts): their req/s count only the 2xx answers.');
}

async function main(): Promise<void> {
  const started = Date.now();
  const cpu = os.cpus();
  console.log(
    `make-order benchmark: ${cpu.length} cores (${cpu[0]?.model.trim() ?? '?'}), Node ${process.version}. The load generator, the server under\n` +
      `test and PostgreSQL share these cores, so read the ratios more than the absolute figures.\n` +
      `Throughput: ${CONNECTIONS} connections, closed loop, ${DURATION} s. Latency: open loop at a fixed rate over at most ${CONNECTIONS}\n` +
      `keep-alive connections, ${DURATION} s. Each request: a new order (USDT on tron) and a new nonce, signed.\n`,
  );
  await ensureBuild();
  ensureBaselineBuild();
  const results: Partial<Record<Db, DbFigures>> = {};
  for (const db of DBS) {
    let pgUrl: string | undefined;
    if (db === 'postgres') {
      const pg = await startPostgres();
      atExit(() => pg.stop());
      pgUrl = pg.url;
    }
    console.log(`--- ${db}${pgUrl ? ` (${pgUrl})` : ' (embedded, one process)'}`);
    const node = await runBaseline('node', db, pgUrl);
    const next = await runBaseline('next', db, pgUrl);
    const gateway = await runGateway(db, pgUrl);
    results[db] = { node, next, gateway };
  }
  report(results);
  console.log(`\n(total ${Math.round((Date.now() - started) / 1000)} s)`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench:api failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
