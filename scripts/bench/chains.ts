/**
 * `npm run bench:chains [-- --orders=100 --interval=1000 --family=utxo,evm,tron,xrpl]`: the live
 * adapters on real nodes (litecoind in regtest from Debian's package, ganache from the dev
 * dependencies) or, where none can run here, the tests' fake nodes (java-tron: ./chains-tron.ts;
 * rippled: ./chains-xrpl.ts), on the embedded database, per family:
 *
 * 1. Detection latency: `orders` orders made with a live key and paid (two per block), blocks mined
 *    every 0.7-1.0 s while a watcher loop runs as the workers run it (a pass, then WATCH_INTERVAL_MS,
 *    `--interval`). For each order: from the moment the block that gives its payment the required
 *    confirmations (the network's: 3 here, 1 validated ledger on the XRP Ledger) is mined to the
 *    order's `processed` event. p50 / p99 / max.
 * 2. RPC calls per block with 10 and with 10,000 watched addresses (open orders): 20 blocks,
 *    each with 5 payments to watched addresses, one watcher pass per block; JSON-RPC calls and HTTP
 *    requests counted by the adapter. They must not grow with the addresses: the node is never
 *    asked about them.
 */
import { performance } from 'node:perf_hooks';
import type { Address } from 'viem';
import { startLitecoind, type Litecoind } from '../lib/litecoind.mjs';
import { CHAIN_ID, startEvmNode, type EvmNode } from '../../tests/support/evm';
import { HDKey } from '@scure/bip32';
import { randomBytes } from 'node:crypto';
import { startTronBench } from './chains-tron';
import { startXrplBench, type XrplBench } from './chains-xrpl';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const ORDERS = Number(args.get('orders') ?? 100);
const INTERVAL = Number(args.get('interval') ?? 1000);
const FAMILIES = (args.get('family') ?? 'utxo,evm').split(',');
const CONFIRMATIONS = 3;

const xpub = (path: string) => HDKey.fromMasterSeed(randomBytes(32)).derive(path).publicExtendedKey;

async function main() {
  const ltc: Litecoind | undefined = FAMILIES.includes('utxo') ? await startLitecoind() : undefined;
  const evm: EvmNode | undefined = FAMILIES.includes('evm') ? await startEvmNode() : undefined;
  const tron = FAMILIES.includes('tron') ? await startTronBench(xpub("m/44'/195'/0'/0"), CONFIRMATIONS) : undefined;
  const xrpl: XrplBench | undefined = FAMILIES.includes('xrpl') ? await startXrplBench() : undefined;
  try {
    Object.assign(process.env, {
      APP_SECRET: 'bench-app-secret-that-is-at-least-32-characters',
      LOG_LEVEL: 'silent',
      ADDRESS_POOL_SIZE: '256',
      ...(ltc && {
        LITECOIN_RPC_URL: ltc.url, LITECOIN_RPC_USER: ltc.user, LITECOIN_RPC_PASSWORD: ltc.password, LITECOIN_XPUB: xpub("m/84'/1'/0'/0"),
        LITECOIN_CHAIN: 'regtest', LITECOIN_CONFIRMATIONS: String(CONFIRMATIONS),
      }),
      ...(evm && {
        ETHEREUM_RPC_URL: evm.url, ETHEREUM_XPUB: xpub("m/44'/60'/0'/0"), ETHEREUM_CHAIN_ID: String(CHAIN_ID),
        ETHEREUM_CONFIRMATIONS: String(CONFIRMATIONS), ETHEREUM_TOKENS: 'none', ETHEREUM_HEAD_LAG: '0',
      }),
      ...tron?.env,
      ...xrpl?.env,
    });
    // After the environment: the modules read it once.
    const { liveAdapters } = await import('../../lib/chains/live');
    const lib = await loadLib(xrpl);
    console.log(`bench:chains: ${ORDERS} orders per family, ${CONFIRMATIONS} confirmations (1 validated ledger on xrpl), watcher interval ${INTERVAL} ms, embedded database\n`);
    for (const adapter of liveAdapters()) {
      const family = adapter.network.family;
      const chain: Chain =
        family === 'tron'
          ? tron!.chain
          : family === 'xrpl'
            ? xrpl!
            : family === 'utxo'
              ? { mine: async () => void (await ltc!.mine(1)), pay: async (to, amount) => void (await ltc!.rpc('sendtoaddress', to.address, `0.${amount.toString().padStart(8, '0')}`)) }
              : {
                  mine: () => evm!.mine(1),
                  pay: async (to, amount) => void (await evm!.client.wallet.sendTransaction({ account: evm!.accounts[0]!, to: to.address as Address, value: amount * 10n ** 10n } as never)),
                };
      const latency = await measureLatency(lib, adapter, chain);
      const calls = [];
      for (const watched of [10, 10_000]) calls.push(await measureCalls(lib, adapter, chain, watched));
      console.log(`${family} (${adapter.network.name}):`);
      console.log(`  detection latency, confirming block mined -> order processed (n=${latency.length}): p50 ${pct(latency, 50)} ms, p99 ${pct(latency, 99)} ms, max ${Math.max(...latency)} ms`);
      for (const c of calls) {
        console.log(`  ${String(c.watched).padStart(6)} watched ${adapter.network.usesTags ? 'tags' : 'addresses'}: ${c.callsPerBlock.toFixed(1)} JSON-RPC calls / block, ${c.requestsPerBlock.toFixed(1)} HTTP requests / block (${c.blocks} blocks, ${c.matched} payments matched)`);
      }
      const [few, many] = calls;
      console.log(`  calls per block grow x${(many!.callsPerBlock / few!.callsPerBlock).toFixed(2)} from 10 to 10,000 addresses\n`);
    }
  } finally {
    await tron?.close();
    await xrpl?.close();
    await evm?.close();
    await ltc?.stop();
  }
}

interface Chain {
  mine(): Promise<void>;
  /** Pays `amount` (in 10^-8 coins, or in the units `orderAmount` reads) to an order's destination (its address, and its tag on tag networks). */
  pay(to: { address: string; tag: string | null }, amount: bigint): Promise<void>;
  /** The order amount text of `amount`; 10^-8 coins unless the chain says otherwise. */
  orderAmount?(amount: bigint): string;
}

async function loadLib(xrpl: XrplBench | undefined) {
  const { openDatabase } = await import('../../lib/db/client');
  const { createMerchant, findApiKey } = await import('../../lib/merchants');
  const { makeOrderRequest } = await import('../../lib/protocol');
  const { makeOrder } = await import('../../lib/orders');
  const { fillAddressPool } = await import('../../lib/addresses');
  const { watchNetwork } = await import('../../lib/watcher');
  const { noRiskScreen } = await import('../../lib/risk');
  return { openDatabase, createMerchant, findApiKey, makeOrderRequest, makeOrder, fillAddressPool, watchNetwork, noRiskScreen, xrpl };
}
type Lib = Awaited<ReturnType<typeof loadLib>>;
type Adapter = Awaited<ReturnType<typeof import('../../lib/chains/live').liveAdapters>>[number];

async function freshDatabase(lib: Lib) {
  const db = await lib.openDatabase({ dataDir: 'memory://' });
  await db.migrate();
  const { keys } = await lib.createMerchant(db, 'Bench shop', 'live');
  const key = (await lib.findApiKey(db, keys.publicKey))!;
  await lib.xrpl?.prepare(db);
  return { db, key };
}

const options = (lib: Lib) => ({ batchBlocks: 100, startAt: 'tip' as const, screen: lib.noRiskScreen });

const orderAmount = (chain: Chain, amount: bigint) => chain.orderAmount?.(amount) ?? `0.${amount.toString().padStart(8, '0')}`;

async function measureLatency(lib: Lib, adapter: Adapter, chain: Chain): Promise<number[]> {
  const { db, key } = await freshDatabase(lib);
  await lib.watchNetwork(db, adapter, 'live', options(lib));
  let nonce = Date.now() * 1000;
  const minedAt = new Map<number, number>();
  const paidAt = new Map<string, number>(); // order id -> height of its payment's block
  let stopped = false;
  // The watcher loop, as startWorkers runs it: a pass, then the interval.
  const loop = (async () => {
    while (!stopped) {
      await lib.watchNetwork(db, adapter, 'live', options(lib)).catch((e) => console.error('watcher pass failed', e));
      await new Promise((r) => setTimeout(r, INTERVAL));
    }
  })();
  const ids: string[] = [];
  for (let i = 0; i < ORDERS; i += 2) {
    const height = (await adapter.head()).height + 1;
    for (const _ of [0, 1].slice(0, Math.min(2, ORDERS - i))) {
      // Whole drops: XRP has 6 decimals.
      const amount = BigInt(100_000 + ids.length * 100);
      const input = lib.makeOrderRequest.parse({ order: `bench-${++nonce}`, nonce, currency: adapter.network.currencies[0]!.ticker, network: adapter.network.name, amount: orderAmount(chain, amount) });
      const order = await lib.makeOrder({ db, key, nonce: String(nonce) }, input);
      await chain.pay(order, amount);
      ids.push(order.id);
      paidAt.set(order.id, height);
    }
    await mineTimed();
  }
  for (let i = 0; i < adapter.requiredConfirmations + 1; i++) await mineTimed();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const [row] = await db.query<{ n: number }>("select count(*)::int as n from orders where status = 'processed' and id = any($1::uuid[])", [ids]);
    if (row!.n === ids.length) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  stopped = true;
  await loop;
  const events = await db.query<{ order_id: string; created_at: Date }>("select order_id, created_at from order_events where to_status = 'processed' and order_id = any($1::uuid[])", [ids]);
  await db.close();
  if (events.length !== ids.length) throw new Error(`${adapter.network.name}: only ${events.length} of ${ids.length} orders were processed`);
  return events.map((e) => e.created_at.getTime() - minedAt.get(paidAt.get(e.order_id)! + adapter.requiredConfirmations - 1)!).sort((a, b) => a - b);

  async function mineTimed() {
    // 0.7-1.0 s apart, so blocks fall at any point of the watcher's interval.
    await new Promise((r) => setTimeout(r, 700 + Math.random() * 300));
    await chain.mine();
    minedAt.set((await adapter.head()).height, Date.now());
  }
}

async function measureCalls(lib: Lib, adapter: Adapter, chain: Chain, watched: number) {
  const { db, key } = await freshDatabase(lib);
  // `watched` open orders, each with its deposit address (the pool filled up front).
  await lib.fillAddressPool(db, adapter.network, 'live', watched + 16);
  let nonce = Date.now() * 1000;
  for (let i = 0; i < watched; i++) {
    const input = lib.makeOrderRequest.parse({ order: `watch-${++nonce}`, nonce, currency: adapter.network.currencies[0]!.ticker, network: adapter.network.name, amount: '1' });
    await lib.makeOrder({ db, key, nonce: String(nonce) }, input);
  }
  const addresses = await db.query<{ address: string; tag: string | null }>("select address, tag from orders where network = $1 and mode = 'live'", [adapter.network.name]);
  await lib.watchNetwork(db, adapter, 'live', options(lib));
  const BLOCKS = 20;
  const before = adapter.stats.snapshot();
  for (let b = 0; b < BLOCKS; b++) {
    for (let p = 0; p < 5; p++) await chain.pay(addresses[(b * 5 + p) % addresses.length]!, 10_000n);
    await chain.mine();
    await lib.watchNetwork(db, adapter, 'live', options(lib));
  }
  const after = adapter.stats.snapshot();
  const [matched] = await db.query<{ n: number }>("select count(*)::int as n from chain_transfers where network = $1 and mode = 'live'", [adapter.network.name]);
  await db.close();
  return {
    watched,
    blocks: BLOCKS,
    matched: matched!.n,
    callsPerBlock: (after.calls - before.calls) / BLOCKS,
    requestsPerBlock: (after.requests - before.requests) / BLOCKS,
  };
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const started = performance.now();
main().then(
  () => {
    console.log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    process.exit(0);
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
