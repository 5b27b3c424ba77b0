/**
 * `npm run bench:invoices [-- --db=pglite|postgres|both --count=N --concurrency=N]`: what an
 * invoice costs beside an order, on PGlite and on a throw-away PostgreSQL cluster, with the fixed
 * rate table (test keys): make-order, make-invoice (every coin offered, and one coin), and the
 * payer's coin choice (which locks the rate and makes the order), each `count` times from
 * `concurrency` callers at once; p50/p99 latency, throughput, and the rate service's cache hit
 * ratio over the run.
 *
 * In process, through the domain code the API calls (lib/orders makeOrder, lib/invoices
 * makeInvoice and chooseCoin), so that the figures are the operations' own: the HTTP edge in front
 * of them is the same for both (bench:api measures it). The operations alternate in rounds so
 * that a busy machine weighs on each alike. Target: make-invoice at most 1.2 x make-order (p50).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
// Shared plain-JS helper without declarations: typed by the cast below.
import * as postgresHelpers from '../lib/postgres.mjs';
import { freshDatabase } from './databases';
import { latencySummary } from './load';
import { atExit } from './servers';
import { fillAddressPool } from '../../lib/addresses';
import { findNetwork } from '../../lib/catalog';
import type { Database } from '../../lib/db/client';
import { chooseCoin, makeInvoice } from '../../lib/invoices';
import { createMerchant, findApiKey, type ApiKey } from '../../lib/merchants';
import { makeOrder } from '../../lib/orders';
import { makeInvoiceRequest, makeOrderRequest } from '../../lib/protocol';
import { rateService } from '../../lib/rates';

const { startPostgres } = postgresHelpers as { startPostgres(): Promise<{ url: string; stop(): void }> };

process.env.APP_SECRET ??= 'bench-invoices-app-secret-at-least-32-characters';
process.env.LOG_LEVEL ??= 'warn';
// The run fills the pool it needs up front (run()); a target below that keeps the background
// refill, which would derive addresses beside the measured calls, from starting at all.
process.env.ADDRESS_POOL_SIZE ??= '16';

type Db = 'pglite' | 'postgres';
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const DB_OPTION = option('db') ?? 'both';
const COUNT = Number(option('count') ?? 600);
const CONCURRENCY = Number(option('concurrency') ?? 8);
const ROUNDS = 6;
const TARGET_RATIO = 1.2;
if (!['pglite', 'postgres', 'both'].includes(DB_OPTION) || !(COUNT >= ROUNDS) || !(CONCURRENCY >= 1)) {
  console.error('usage: npm run bench:invoices -- [--db=pglite|postgres|both] [--count=N (>= 6)] [--concurrency=N]');
  process.exit(2);
}
const DBS: Db[] = DB_OPTION === 'both' ? ['pglite', 'postgres'] : [DB_OPTION as Db];

let nonce = Date.now() * 1000;

/** Runs `task` `count` times from `concurrency` callers; answers each call's milliseconds and the wall time. */
async function timed(
  count: number,
  concurrency: number,
  task: (i: number) => Promise<unknown>,
): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t = performance.now();
        await task(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

interface Figures {
  latencies: number[];
  seconds: number;
}
const merge = (a: Figures | undefined, b: Figures): Figures => ({
  latencies: [...(a?.latencies ?? []), ...b.latencies],
  seconds: (a?.seconds ?? 0) + b.seconds,
});

async function run(db: Database): Promise<Record<string, Figures> & { hitRatio: number }> {
  const { merchant } = await createMerchant(db, 'Bench shop', 'test');
  const [keyRow] = await db.query<{ public_key: string }>('select public_key from api_keys where merchant_id = $1', [
    merchant.id,
  ]);
  const key = (await findApiKey(db, keyRow!.public_key)) as ApiKey;
  // make-order and the coin choices both take tron addresses, plus the warm-up's.
  await fillAddressPool(db, findNetwork('tron')!, 'test', 2 * COUNT + 100);

  const order = () =>
    makeOrder(
      { db, key, nonce: String(++nonce) },
      makeOrderRequest.parse({ currency: 'USDT', network: 'tron', amount: '73.5', order: `bench-${nonce}` }),
    );
  const invoice = (single: boolean) =>
    makeInvoice(
      { db, key, nonce: String(++nonce) },
      makeInvoiceRequest.parse({
        currency: 'USD',
        amount: '73.50',
        lifetime: 60,
        ...(single ? { currencies: [{ currency: 'USDT', networks: ['tron'] }] } : {}),
      }),
    );
  // Warm-up, not measured: statement plans, the rate cache, the JIT.
  for (let i = 0; i < 20; i++)
    await chooseCoin(db, (await invoice(false)).invoice.id, { currency: 'USDT', network: 'tron' }).then(order);

  const rates = rateService('test');
  const before = rates.stats();
  const per = Math.floor(COUNT / ROUNDS);
  const figures: Record<string, Figures> = {};
  for (let round = 0; round < ROUNDS; round++) {
    figures['make-order'] = merge(figures['make-order'], await timed(per, CONCURRENCY, order));
    const made: string[] = [];
    figures['make-invoice (every coin)'] = merge(
      figures['make-invoice (every coin)'],
      await timed(per, CONCURRENCY, async () => made.push((await invoice(false)).invoice.id)),
    );
    figures['make-invoice (one coin)'] = merge(
      figures['make-invoice (one coin)'],
      await timed(per, CONCURRENCY, () => invoice(true)),
    );
    figures['coin choice'] = merge(
      figures['coin choice'],
      await timed(made.length, CONCURRENCY, (i) => chooseCoin(db, made[i]!, { currency: 'USDT', network: 'tron' })),
    );
  }
  const after = rates.stats();
  const hits = after.hits - before.hits;
  const misses = after.misses - before.misses;
  return { ...figures, hitRatio: hits / Math.max(1, hits + misses) } as Record<string, Figures> & { hitRatio: number };
}

async function main(): Promise<void> {
  const cpu = os.cpus();
  console.log(
    `invoice benchmark: ${cpu.length} cores (${cpu[0]?.model.trim() ?? '?'}), Node ${process.version}; ${COUNT} calls per operation from ` +
      `${CONCURRENCY} concurrent callers, in ${ROUNDS} interleaved rounds; fixed rate table (test keys).\n`,
  );
  let anyMissed = false;
  for (const name of DBS) {
    let adminUrl: string | undefined;
    if (name === 'postgres') {
      const pg = await startPostgres();
      atExit(() => pg.stop());
      adminUrl = pg.url;
    }
    const fresh = await freshDatabase(`bench_invoices_${name}`, adminUrl);
    try {
      const { hitRatio, ...figures } = await run(fresh.db);
      console.log(`--- ${name}`);
      for (const [label, f] of Object.entries(figures)) {
        const { p50, p99 } = latencySummary(f.latencies);
        console.log(
          `  ${label.padEnd(26)} p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, ${Math.round(f.latencies.length / f.seconds)} calls/s`,
        );
      }
      const ratio =
        latencySummary(figures['make-invoice (every coin)']!.latencies).p50 /
        latencySummary(figures['make-order']!.latencies).p50;
      const met = ratio <= TARGET_RATIO;
      anyMissed ||= !met;
      console.log(
        `  make-invoice / make-order (p50): ${ratio.toFixed(2)} (target <= ${TARGET_RATIO}: ${met ? 'met' : 'NOT met'})`,
      );
      console.log(
        `  rate service cache hit ratio: ${(hitRatio * 100).toFixed(1)} % (every quote of the measured rounds)`,
      );
    } finally {
      await fresh.dispose();
    }
  }
  if (anyMissed) console.log('\nThe make-invoice target was not met on every database.');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench:invoices failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
