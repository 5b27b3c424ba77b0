/**
 * `npm run bench:page [-- --duration=SECONDS --rate=REQ_PER_S]`: the payment page's weight and
 * its status endpoint's latency (at 50 and 100 requests/s unless --rate), on the production build
 * (`node scripts/start.mjs`, embedded database, test mode).
 *
 * - First-load JavaScript: every script the server's HTML of a page references (`<script src>`
 *   except noModule polyfills, and script preloads), each gzipped, summed; for the payment page of
 *   a fresh order and for the floor of the same build, an empty App Router page (the 404 page of
 *   an unknown path: the root layout and nothing else). Budget: the payment page adds 13 KiB at most.
 * - The "Pay with wallet" code loaded only when the button is pressed (lib/pay/wallet-send, a
 *   dynamic import): the build's chunks that hold it, found by a string only that module has, each
 *   gzipped; none of them may be among the first-load files.
 * - GET /api/pay/{orderId}/status: p50/p99 latency in an open loop at a fixed request rate, for an
 *   order with a payment on it (so the view has a payment to count confirmations for), beside the
 *   same route answering 404 for a malformed id (no database work: what Next.js itself costs).
 */
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as buildHelpers from '../lib/build.mjs';
import * as postgresHelpers from '../lib/postgres.mjs';
import { latencySummary, openLoop } from './load';
import { answers, logTail, startServer, tempDir, waitQuiet } from './servers';

const { ensureBuild, root } = buildHelpers as { ensureBuild(): Promise<void>; root: string };
const { freePort } = postgresHelpers as { freePort(): Promise<number> };

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const DURATION = Number(option('duration') ?? 10);
const RATES = option('rate') ? [Number(option('rate'))] : [50, 100];
if (!(DURATION > 0) || !RATES.every((r) => r > 0)) {
  console.error('usage: npm run bench:page -- [--duration=SECONDS] [--rate=REQ_PER_S]');
  process.exit(2);
}
const BUDGET_BYTES = 13 * 1024;
const CONNECTIONS = 50;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

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

async function get(origin: string, urlPath: string): Promise<{ status: number; body: Buffer }> {
  const response = await fetch(`${origin}${urlPath}`);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

/** The scripts a page's HTML makes the browser load up front, gzipped one by one. */
async function firstLoadJs(
  origin: string,
  urlPath: string,
): Promise<{ status: number; files: { url: string; raw: number; gzip: number }[]; gzip: number }> {
  const page = await get(origin, urlPath);
  const html = page.body.toString('utf8');
  const urls = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*>/g)) {
    const src = /\ssrc="([^"]+)"/.exec(match[0])?.[1];
    // noModule scripts are polyfills for browsers without ES modules: never loaded by current ones.
    if (src && !/\snomodule/i.test(match[0])) urls.add(src);
  }
  for (const match of html.matchAll(/<link\b[^>]*>/g)) {
    const tag = match[0];
    const href = /\shref="([^"]+)"/.exec(tag)?.[1];
    if (
      href &&
      /\srel="(preload|modulepreload)"/.test(tag) &&
      (/\sas="script"/.test(tag) || /rel="modulepreload"/.test(tag))
    )
      urls.add(href);
  }
  const files = [];
  for (const url of urls) {
    const file = await get(origin, url.replace(/&amp;/g, '&'));
    if (file.status !== 200) throw new Error(`${url} answered ${file.status}`);
    files.push({ url, raw: file.body.length, gzip: gzipSync(file.body).length });
  }
  return { status: page.status, files, gzip: files.reduce((sum, f) => sum + f.gzip, 0) };
}

/** A string of lib/pay/wallet-send.ts that survives minification and is in no other module. */
const WALLET_CODE_MARKER = 'wallet_switchEthereumChain';

/** The build's script chunks holding the lazily loaded wallet code, as their URL paths. */
function lazyWalletChunks(): { url: string; raw: number; gzip: number }[] {
  const dir = path.join(root, '.next', 'static');
  const found = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const body = fs.readFileSync(file);
    if (!body.includes(WALLET_CODE_MARKER)) continue;
    found.push({
      url: `/_next/static/${path.relative(dir, file).split(path.sep).join('/')}`,
      raw: body.length,
      gzip: gzipSync(body).length,
    });
  }
  return found;
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

async function main(): Promise<void> {
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
  try {
    const keys = JSON.parse(fs.readFileSync(demoFile, 'utf8')) as { publicKey: string; privateKey: string };
    const order = await signedPost(
      origin,
      'make-order',
      { currency: 'LTC', network: 'litecoin', amount: '0.25', order: `bench-page-${Date.now()}` },
      keys,
    );
    const orderId = order.orderId!;

    const payPage = await firstLoadJs(origin, `/pay/${orderId}`);
    if (payPage.status !== 200) throw new Error(`/pay/${orderId} answered ${payPage.status}`);
    const floor = await firstLoadJs(origin, `/bench-floor-${randomBytes(4).toString('hex')}`);
    const floorUrls = new Set(floor.files.map((f) => f.url));
    const added = payPage.gzip - floor.gzip;
    console.log('First-load JavaScript (gzip, each file compressed on its own):');
    console.log(`  floor (empty App Router page, ${floor.files.length} files): ${kib(floor.gzip)}`);
    console.log(`  payment page (/pay/{orderId}, ${payPage.files.length} files): ${kib(payPage.gzip)}`);
    for (const file of payPage.files.filter((f) => !floorUrls.has(f.url)))
      console.log(`    + ${file.url}  ${kib(file.raw)} raw, ${kib(file.gzip)} gzip`);
    console.log(
      `  added by the payment page: ${kib(added)} (budget ${kib(BUDGET_BYTES)}: ${added <= BUDGET_BYTES ? 'met' : 'NOT met'})`,
    );
    const wallet = lazyWalletChunks();
    const eager = wallet.filter((chunk) => payPage.files.some((f) => f.url.split('?')[0] === chunk.url));
    console.log(
      `  "Pay with wallet" code, loaded when the button is pressed (${wallet.length} files): ${kib(wallet.reduce((sum, f) => sum + f.gzip, 0))}`,
    );
    for (const file of wallet) console.log(`    ${file.url}  ${kib(file.raw)} raw, ${kib(file.gzip)} gzip`);
    if (wallet.length === 0)
      throw new Error(`no chunk of the build holds "${WALLET_CODE_MARKER}": the wallet code was not found`);
    if (eager.length > 0) console.log(`  NOT lazy: ${eager.map((f) => f.url).join(', ')} among the first-load files`);

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
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench:page failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
