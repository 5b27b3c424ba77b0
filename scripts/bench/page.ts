/**
 * `npm run bench:page [-- --duration=SECONDS --rate=REQ_PER_S --against=REF|none]`: the payment
 * page's weight and its status endpoint's latency (at 50 and 100 requests/s unless --rate), on the
 * production build (`node scripts/start.mjs`, embedded database, test mode).
 *
 * - First-load JavaScript (measured by ../lib/page-weight, as e2e/pay-weight.spec.ts does): the
 *   payment page of a fresh order, the floor of the same build (an empty App Router page), and the
 *   difference against the budget, the floor plus PAGE_BUDGET_BYTES, TanStack Query included
 *   (docs/decisions/055).
 * - By the page's language (`?lang=`, each of LANGUAGES): the first-load JavaScript and the HTML,
 *   gzipped. A page gets its texts in one language as props, in its HTML: a language that changes
 *   the first-load JavaScript (texts that reached a client chunk) is said, and so is what one more
 *   language costs the first load.
 * - The "Pay with wallet" code loaded only when the button is pressed (lib/pay/wallet-send, a
 *   dynamic import): the build's chunks that hold it, each gzipped; none of them may be among the
 *   first-load files.
 * - GET /api/pay/{orderId}/status: p50/p99 latency in an open loop at a fixed request rate, for an
 *   order with a payment on it (so the view has a payment to count confirmations for), beside the
 *   same route answering 404 for a malformed id (no database work: what Next.js itself costs).
 *
 * Before and after: `--against=REF` first runs this benchmark, with the same arguments, on the code
 * of REF checked out in a temporary git worktree (./baseline: it builds there), then on this tree,
 * and ends with both runs' weights. `--json` ends the output with this run's weights as one
 * `BENCH_JSON` line (what the before-run answers).
 */
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import * as buildHelpers from '../lib/build.mjs';
import * as postgresHelpers from '../lib/postgres.mjs';
import { LANGUAGES } from '../../lib/pay/i18n';
import {
  eagerWalletChunks,
  firstLoadJs,
  floorFirstLoad,
  kib,
  lazyWalletChunks,
  PAGE_BUDGET_BYTES,
  WALLET_CODE_MARKERS,
  type ScriptFile,
} from '../lib/page-weight';
import { BENCH_JSON, runAtCommit, shortCommit } from './baseline';
import { latencySummary, openLoop } from './load';
import { answers, logTail, startServer, tempDir, waitQuiet } from './servers';

const { ensureBuild, root } = buildHelpers as { ensureBuild(): Promise<void>; root: string };
const { freePort } = postgresHelpers as { freePort(): Promise<number> };

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const DURATION = Number(option('duration') ?? 10);
const RATES = option('rate') ? [Number(option('rate'))] : [50, 100];
const AGAINST = option('against') ?? 'none';
const JSON_OUTPUT = process.argv.includes('--json');
if (!(DURATION > 0) || !RATES.every((r) => r > 0)) {
  console.error('usage: npm run bench:page -- [--duration=SECONDS] [--rate=REQ_PER_S] [--against=REF|none] [--json]');
  process.exit(2);
}
const CONNECTIONS = 50;

function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  for (const name of [
    'DATABASE_URL',
    'DATA_DIR',
    'APP_SECRET',
    'PORT',
    'HOST',
    'PUBLIC_BASE_URL',
    'NODE_OPTIONS',
    'FRAME_ANCESTORS',
  ])
    delete env[name];
  return env;
}

async function signedPost(
  origin: string,
  operation: string,
  fields: Record<string, unknown>,
  keys: { publicKey: string; privateKey: string },
) {
  const body = JSON.stringify({ ...fields, nonce: `${Date.now()}${randomBytes(3).readUIntBE(0, 3)}` });
  const response = await fetch(`${origin}/api-gateway/${operation}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-public-key': keys.publicKey,
      'x-api-signature': createHmac('sha256', keys.privateKey).update(body).digest('hex'),
    },
    body,
  });
  const json = (await response.json()) as { success: boolean; response: Record<string, string> };
  if (!json.success) throw new Error(`${operation}: ${JSON.stringify(json)}`);
  return json.response;
}

/** Open loop of GETs (see load.ts fixedRate): request i leaves at start + i/rate whatever the answers do. */
async function fixedRateGet(port: number, urlPath: string, rate: number, seconds: number, expected = 200) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let failed = 0;
  const elapsed = await openLoop(rate, seconds, (finish) => {
    const t0 = performance.now();
    const request = http.get({ agent, host: '127.0.0.1', port, path: urlPath, timeout: 10_000 }, (response) => {
      response.resume();
      response.on('end', () => {
        if (response.statusCode === expected) latencies.push(performance.now() - t0);
        else failed++;
        finish();
      });
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => {
      failed++;
      finish();
    });
  });
  agent.destroy();
  return { ok: latencies.length, failed, ...latencySummary(latencies), seconds: elapsed };
}

/** A run's weights, gzip bytes (what `--json` prints and `--against` compares). */
interface Weights {
  floor: number;
  /** The payment page's first-load JavaScript, in English. */
  page: number;
  /** The first-load files the floor does not have. */
  pageFiles: ScriptFile[];
  wallet: ScriptFile[];
  /** Wallet chunks among the first-load files (there must be none). */
  walletEager: string[];
  /** Per language: the page's first-load JavaScript and its HTML (with the page's texts, as props). */
  languages: { language: string; js: number; html: number }[];
}

async function measureWeights(origin: string, orderId: string): Promise<Weights> {
  const payPage = await firstLoadJs(origin, `/pay/${orderId}`);
  if (payPage.status !== 200) throw new Error(`/pay/${orderId} answered ${payPage.status}`);
  const floor = await floorFirstLoad(origin);
  const floorUrls = new Set(floor.files.map((f) => f.url));
  const wallet = lazyWalletChunks(root);
  for (const [module, marker] of Object.entries(WALLET_CODE_MARKERS))
    if (!wallet.some((chunk) => chunk.modules.includes(module)))
      throw new Error(`no chunk of the build holds "${marker}": the wallet code of ${module} was not found`);
  const languages = [];
  for (const language of LANGUAGES) {
    const page = await firstLoadJs(origin, `/pay/${orderId}?lang=${encodeURIComponent(language)}`);
    if (page.status !== 200) throw new Error(`/pay/${orderId}?lang=${language} answered ${page.status}`);
    languages.push({ language, js: page.gzip, html: page.html });
  }
  return {
    floor: floor.gzip,
    page: payPage.gzip,
    pageFiles: payPage.files.filter((f) => !floorUrls.has(f.url)),
    wallet,
    walletEager: eagerWalletChunks(wallet, payPage),
    languages,
  };
}

const verdict = (added: number) =>
  `budget: the floor plus ${kib(PAGE_BUDGET_BYTES)}, ${added <= PAGE_BUDGET_BYTES ? 'met' : 'NOT met'}`;

function printWeights(w: Weights): void {
  const added = w.page - w.floor;
  console.log('First-load JavaScript (gzip, each file compressed on its own):');
  console.log(`  floor (empty App Router page): ${kib(w.floor)}`);
  console.log(`  payment page (/pay/{orderId}): ${kib(w.page)}`);
  for (const file of w.pageFiles) console.log(`    + ${file.url}  ${kib(file.raw)} raw, ${kib(file.gzip)} gzip`);
  console.log(`  added by the payment page: ${kib(added)} (${verdict(added)})`);
  console.log(
    `  "Pay with wallet" code, loaded when the button is pressed (${w.wallet.length} files): ${kib(w.wallet.reduce((sum, f) => sum + f.gzip, 0))}`,
  );
  for (const file of w.wallet) console.log(`    ${file.url}  ${kib(file.raw)} raw, ${kib(file.gzip)} gzip`);
  if (w.walletEager.length > 0) console.log(`  NOT lazy: ${w.walletEager.join(', ')} among the first-load files`);

  const english = w.languages.find((l) => l.language === 'en')!;
  console.log(`\nBy the page's language (?lang=), gzip: first-load JavaScript, and the HTML that carries its texts:`);
  for (const { language, js, html } of w.languages) {
    const more = js - english.js;
    console.log(
      `  ${language.padEnd(8)} ${kib(js)}${more === 0 ? '' : ` (${more > 0 ? '+' : ''}${more} B against English)`}, HTML ${kib(html)}`,
    );
  }
  const most = Math.max(...w.languages.map((l) => l.js - english.js));
  console.log(
    most === 0
      ? `  One more language adds 0 B to the first-load JavaScript: it is the same in all ${w.languages.length} languages (each page gets its own\n` +
          `  language's texts in its HTML, as props: no text is in a client chunk). Its texts reach only its own pages' HTML.`
      : `  NOT the same in every language: up to ${most} B more than English (a language's texts in a client chunk?)`,
  );
}

function printComparison(before: Weights, after: Weights, label: string): void {
  const row = (name: string, b: number, a: number) =>
    console.log(
      `  ${name.padEnd(42)} ${kib(b).padStart(10)} ${kib(a).padStart(10)} ${`${a - b >= 0 ? '+' : ''}${a - b} B`.padStart(9)}`,
    );
  const sum = (files: ScriptFile[]) => files.reduce((total, f) => total + f.gzip, 0);
  const heaviestLanguage = (w: Weights) => Math.max(...w.languages.map((l) => l.js));
  console.log(`\n=== first-load JavaScript, gzip: before (${label}) and after (this tree) ===`);
  console.log(`  ${''.padEnd(42)} ${'before'.padStart(10)} ${'after'.padStart(10)} ${'change'.padStart(9)}`);
  row('floor (empty App Router page)', before.floor, after.floor);
  row('payment page, English', before.page, after.page);
  row('payment page, its heaviest language', heaviestLanguage(before), heaviestLanguage(after));
  row('added by the payment page', before.page - before.floor, after.page - after.floor);
  row('"Pay with wallet" code, loaded on the press', sum(before.wallet), sum(after.wallet));
  console.log(`  after: ${verdict(after.page - after.floor)}`);
}

async function main(): Promise<void> {
  let before: Weights | undefined;
  // Named once: a branch such as main may move while the benchmark runs.
  const againstCommit = AGAINST === 'none' ? undefined : shortCommit(AGAINST);
  if (againstCommit) {
    const args = process.argv.slice(2).filter((a) => !a.startsWith('--against=') && a !== '--json');
    before = await runAtCommit<Weights>(againstCommit, 'scripts/bench/page.ts', [...args, '--against=none', '--json']);
    console.log(`--- after: this tree\n`);
  }
  const cpu = os.cpus();
  console.log(
    `payment page benchmark: ${cpu.length} cores (${cpu[0]?.model.trim() ?? '?'}), Node ${process.version}, production build, embedded database.\n`,
  );
  await ensureBuild();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = tempDir('gw-bench-page-');
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: origin,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DEMO_STORE: 'true',
  };
  const demoFile = path.join(dataDir, 'demo-store.json');
  const server = await startServer(
    'gateway',
    root,
    ['scripts/start.mjs'],
    env,
    port,
    async () => fs.existsSync(demoFile) && answers(port),
  );
  let weights: Weights;
  try {
    const keys = JSON.parse(fs.readFileSync(demoFile, 'utf8')) as { publicKey: string; privateKey: string };
    const order = await signedPost(
      origin,
      'make-order',
      { currency: 'LTC', network: 'litecoin', amount: '0.25', order: `bench-page-${Date.now()}` },
      keys,
    );
    const orderId = order.orderId!;

    weights = await measureWeights(origin, orderId);
    printWeights(weights);

    // A payment on the order, so that the view counts confirmations of something.
    const pay = await fetch(`${origin}/api/sandbox/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId, kind: 'partial' }),
    });
    if (!pay.ok) throw new Error(`sandbox pay answered ${pay.status}`);
    const statusPath = `/api/pay/${orderId}/status`;
    const deadline = Date.now() + 30_000;
    while (((await (await fetch(`${origin}${statusPath}`)).json()) as { payments: unknown[] }).payments.length === 0) {
      if (Date.now() > deadline) throw new Error('the payment did not reach the status endpoint within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await fixedRateGet(port, statusPath, RATES[0]!, 2); // warm-up
    type Run = Awaited<ReturnType<typeof fixedRateGet>>;
    const line = (r: Run, status: number) =>
      `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(1)} ms; ${r.ok} answered ${status}, ${r.failed} other`;
    for (const rate of RATES) {
      await waitQuiet(server);
      const run = await fixedRateGet(port, statusPath, rate, DURATION);
      await waitQuiet(server);
      const floorRun = await fixedRateGet(port, '/api/pay/not-an-order/status', rate, DURATION, 404);
      console.log(`\nGET /api/pay/{orderId}/status, open loop at ${rate} req/s for ${DURATION} s:`);
      console.log(`  order with a payment:            ${line(run, 200)}`);
      console.log(`  malformed id (404, no database): ${line(floorRun, 404)}`);
    }
  } catch (error) {
    throw new Error(`${String(error)}\n${logTail(server.logFile)}`, { cause: error });
  } finally {
    await server.stop();
  }
  if (before) printComparison(before, weights, `${AGAINST} ${againstCommit}`);
  if (JSON_OUTPUT) console.log(`${BENCH_JSON}${JSON.stringify(weights)}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench:page failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
