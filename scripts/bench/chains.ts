/**
 * `npm run bench:chains [-- --orders=100 --interval=1000 --family=utxo,evm,tron,xrpl,solana]`: the
 * live adapters on real nodes (litecoind in regtest from Debian's package, anvil from its npm
 * platform package) or, where none can run here, the tests' fake nodes (java-tron: ./chains-tron.ts;
 * rippled: ./chains-xrpl.ts; Solana: the facade over litesvm, ./chains-solana.ts), on the embedded
 * database, per family:
 *
 * 1. Detection latency: `orders` orders made with a live key and a success webhook to a receiver
 *    on 127.0.0.1, and paid (two per block), blocks mined every 0.7-1.0 s while the workers run as
 *    the server runs them (lib/watcher startWorkers: every network's watcher, the webhook
 *    dispatcher). For each order, from the moment the block that gives its payment the required
 *    confirmations (the network's: 3 here, 1 validated ledger on the XRP Ledger) is mined to the
 *    order's `processed` event (its transaction's time) and to the webhook's receipt. p50 / p99 /
 *    max. Twice in the same run on litecoind and the EVM node, to compare:
 *    - polling: the watcher passes every `interval` ms (WATCH_INTERVAL_MS) and hears of nothing;
 *    - announced: the node announces each block (litecoind's `-blocknotify` posting to
 *      /ops/new-block/litecoin; anvil's `eth_subscribe` newHeads over WebSocket,
 *      ETHEREUM_WS_URL) and the watcher polls only every 60 s, so only announcements move orders.
 *    Tron and the XRP Ledger announce nothing: polling only.
 * 2. RPC calls per block with 10 and with 10,000 watched addresses (open orders): 20 blocks,
 *    each with 5 payments to watched addresses, one watcher pass per block; JSON-RPC calls and HTTP
 *    requests counted by the adapter. They must not grow with the addresses: the node is never
 *    asked about them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Address } from 'viem';
import { startLitecoind, type Litecoind } from '../lib/litecoind.mjs';
import { CHAIN_ID, startEvmNode, type EvmNode } from '../../tests/support/evm';
import { HDKey } from '@scure/bip32';
import { randomBytes } from 'node:crypto';
import { startTronBench } from './chains-tron';
import { startSolanaBench, type SolanaBench } from './chains-solana';
import { startXrplBench, type XrplBench } from './chains-xrpl';
import { startReceiver, type Receiver } from '../../tests/support/webhook-receiver';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const ORDERS = Number(args.get('orders') ?? 100);
const INTERVAL = Number(args.get('interval') ?? 1000);
const FAMILIES = (args.get('family') ?? 'utxo,evm').split(',');
const CONFIRMATIONS = 3;
/** The watch interval while blocks are announced: long enough that only an announcement moves an order. */
const ANNOUNCED_INTERVAL = 60_000;
/** Bound of each measurement's wait for its orders and webhooks: the benchmark fails rather than hangs. */
const DEADLINE_MS = 180_000;

type Detection = 'polling' | 'announced';

const xpub = (path: string) => HDKey.fromMasterSeed(randomBytes(32)).derive(path).publicExtendedKey;

async function main() {
  const announcements = await startAnnouncementEndpoint();
  const ltc: Litecoind | undefined = FAMILIES.includes('utxo')
    ? await startLitecoind({
        extraArgs: [`-blocknotify=curl -fsS -m 5 -X POST ${announcements.url}/ops/new-block/litecoin`],
      })
    : undefined;
  const evm: EvmNode | undefined = FAMILIES.includes('evm') ? await startEvmNode() : undefined;
  const tron = FAMILIES.includes('tron') ? await startTronBench(xpub("m/44'/195'/0'/0"), CONFIRMATIONS) : undefined;
  const xrpl: XrplBench | undefined = FAMILIES.includes('xrpl') ? await startXrplBench() : undefined;
  const solana: SolanaBench | undefined = FAMILIES.includes('solana') ? await startSolanaBench() : undefined;
  const receiver = await startReceiver();
  try {
    Object.assign(process.env, {
      APP_SECRET: 'bench-app-secret-that-is-at-least-32-characters',
      LOG_LEVEL: 'silent',
      ADDRESS_POOL_SIZE: '256',
      SANDBOX_BLOCK_SECONDS: '0',
      WEBHOOK_ALLOWED_TARGETS: '127.0.0.1',
      ...(ltc && {
        LITECOIN_RPC_URL: ltc.url,
        LITECOIN_RPC_USER: ltc.user,
        LITECOIN_RPC_PASSWORD: ltc.password,
        LITECOIN_XPUB: xpub("m/84'/1'/0'/0"),
        LITECOIN_CHAIN: 'regtest',
        LITECOIN_CONFIRMATIONS: String(CONFIRMATIONS),
      }),
      ...(evm && {
        ETHEREUM_RPC_URL: evm.url,
        ETHEREUM_XPUB: xpub("m/44'/60'/0'/0"),
        ETHEREUM_CHAIN_ID: String(CHAIN_ID),
        ETHEREUM_CONFIRMATIONS: String(CONFIRMATIONS),
        ETHEREUM_TOKENS: 'none',
        ETHEREUM_HEAD_LAG: '0',
      }),
      ...tron?.env,
      ...xrpl?.env,
      ...solana?.env,
    });
    // After the environment: the modules read it once.
    const lib = await loadLib(xrpl, solana);
    announcements.forwardTo(lib.serveOps);
    console.log(
      `bench:chains: ${ORDERS} orders per family and way of detection, ${CONFIRMATIONS} confirmations (1 validated ledger on xrpl), ` +
        `polling every ${INTERVAL} ms, announced blocks with polling every ${ANNOUNCED_INTERVAL / 1000} s, embedded database\n`,
    );
    for (const family of FAMILIES) {
      const chain: Chain =
        family === 'tron'
          ? tron!.chain
          : family === 'xrpl'
            ? xrpl!
            : family === 'solana'
              ? solana!
              : family === 'utxo'
                ? {
                    mine: async () => void (await ltc!.mine(1)),
                    pay: async (to, amount) =>
                      void (await ltc!.rpc('sendtoaddress', to.address, `0.${amount.toString().padStart(8, '0')}`)),
                  }
                : {
                    mine: () => evm!.mine(1),
                    pay: async (to, amount) =>
                      void (await evm!.client.wallet.sendTransaction({
                        account: evm!.accounts[0]!,
                        to: to.address as Address,
                        value: amount * 10n ** 10n,
                      } as never)),
                  };
      const detections: Detection[] = family === 'utxo' || family === 'evm' ? ['polling', 'announced'] : ['polling'];
      const latencies = [];
      for (const detection of detections) {
        const adapter = await adapterWatching(lib, family, detection, evm);
        latencies.push({
          detection,
          ...(await measureLatency(lib, adapter, chain, receiver, announcements, detection === 'announced')),
        });
      }
      const adapter = await adapterWatching(lib, family, 'polling', evm);
      const calls = [];
      for (const watched of [10, 10_000]) calls.push(await measureCalls(lib, adapter, chain, watched));
      console.log(
        `${family} (${adapter.network.name}): confirming block mined -> order processed, and -> webhook received`,
      );
      for (const l of latencies) {
        const how =
          l.detection === 'polling'
            ? `polling every ${INTERVAL} ms`
            : family === 'utxo'
              ? 'announced (-blocknotify)'
              : 'announced (newHeads over WebSocket)';
        console.log(
          `  ${how.padEnd(36)} n=${l.processed.length}  processed p50 ${pct(l.processed, 50)} ms, p99 ${pct(l.processed, 99)} ms, max ${Math.max(...l.processed)} ms;  webhook p50 ${pct(l.webhook, 50)} ms, p99 ${pct(l.webhook, 99)} ms, max ${Math.max(...l.webhook)} ms`,
        );
      }
      if (latencies.length === 2) {
        const [polled, announced] = latencies;
        console.log(
          `  announced / polling at p99: processed x${ratio(announced!.processed, polled!.processed)}, webhook x${ratio(announced!.webhook, polled!.webhook)}`,
        );
      }
      for (const c of calls) {
        console.log(
          `  ${String(c.watched).padStart(6)} watched ${adapter.network.usesTags ? 'tags' : 'addresses'}: ${c.callsPerBlock.toFixed(1)} JSON-RPC calls / block, ${c.requestsPerBlock.toFixed(1)} HTTP requests / block (${c.blocks} blocks, ${c.matched} payments matched)${family === 'solana' ? ', measured against the litesvm facade, one pass per block' : ''}`,
        );
      }
      const [few, many] = calls;
      console.log(
        `  calls per block grow x${(many!.callsPerBlock / few!.callsPerBlock).toFixed(2)} from 10 to 10,000 addresses\n`,
      );
    }
  } finally {
    await receiver.close();
    await announcements.close();
    await tron?.close();
    await xrpl?.close();
    await solana?.close();
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

async function loadLib(xrpl: XrplBench | undefined, solana: SolanaBench | undefined) {
  const { openDatabase } = await import('../../lib/db/client');
  const { createMerchant, findApiKey } = await import('../../lib/merchants');
  const { makeOrderRequest } = await import('../../lib/protocol');
  const { makeOrder } = await import('../../lib/orders');
  const { fillAddressPool } = await import('../../lib/addresses');
  const { watchNetwork, startWorkers } = await import('../../lib/watcher');
  const { noRiskScreen } = await import('../../lib/risk');
  const { serveOps } = await import('../../lib/ops');
  const { forgetProcessSlot } = await import('../../lib/process');
  const { liveAdapters } = await import('../../lib/chains/live');
  return {
    openDatabase,
    createMerchant,
    findApiKey,
    makeOrderRequest,
    makeOrder,
    fillAddressPool,
    watchNetwork,
    startWorkers,
    noRiskScreen,
    serveOps,
    forgetProcessSlot,
    liveAdapters,
    xrpl,
    solana,
  };
}
type Lib = Awaited<ReturnType<typeof loadLib>>;
type Adapter = ReturnType<Lib['liveAdapters']>[number];

/**
 * The family's adapter with the configuration of `detection`: the watch interval, and on EVM the
 * WebSocket URL (without it the adapter subscribes to nothing). The configuration and the
 * adapters are read once per process: both are forgotten so that they are read again.
 */
async function adapterWatching(
  lib: Lib,
  family: string,
  detection: Detection,
  evm: EvmNode | undefined,
): Promise<Adapter> {
  Object.assign(process.env, {
    WATCH_INTERVAL_MS: String(detection === 'polling' ? INTERVAL : ANNOUNCED_INTERVAL),
    ETHEREUM_WS_URL: detection === 'announced' && evm ? evm.url.replace('http://', 'ws://') : '',
  });
  lib.forgetProcessSlot('config');
  lib.forgetProcessSlot('liveNetworks');
  return lib.liveAdapters().find((a) => a.network.family === family)!;
}

async function freshDatabase(lib: Lib) {
  const db = await lib.openDatabase({ dataDir: 'memory://' });
  await db.migrate();
  const { keys } = await lib.createMerchant(db, 'Bench shop', 'live');
  const key = (await lib.findApiKey(db, keys.publicKey))!;
  await lib.xrpl?.prepare(db);
  await lib.solana?.prepare(db);
  return { db, key };
}

const options = (lib: Lib) => ({ batchBlocks: 100, startAt: 'tip' as const, screen: lib.noRiskScreen });

const orderAmount = (chain: Chain, amount: bigint) =>
  chain.orderAmount?.(amount) ?? `0.${amount.toString().padStart(8, '0')}`;

/**
 * The endpoint litecoind's -blocknotify posts to, started before litecoind: it hands the posts to
 * the gateway's operations handler (which wakes the watcher) only while blocks are to be announced,
 * and answers the others itself, as if the hook were not configured.
 */
async function startAnnouncementEndpoint() {
  let handler: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | undefined;
  let forwarding = false;
  const server = http.createServer((req, res) => {
    if (forwarding && handler?.(req, res)) return;
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwardTo(serve: typeof handler) {
      handler = serve;
    },
    set forwarding(on: boolean) {
      forwarding = on;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type Announcements = Awaited<ReturnType<typeof startAnnouncementEndpoint>>;

/** When each order's webhook first reached the receiver (Date.now()), by order id. */
function firstReceipts(receiver: Receiver): Map<string, number> {
  const at = new Map<string, number>();
  for (const r of receiver.received)
    if (typeof r.body?.orderId === 'string' && !at.has(r.body.orderId)) at.set(r.body.orderId, r.at);
  return at;
}

async function measureLatency(
  lib: Lib,
  adapter: Adapter,
  chain: Chain,
  receiver: Receiver,
  announcements: Announcements,
  announced: boolean,
): Promise<{ processed: number[]; webhook: number[] }> {
  const { db, key } = await freshDatabase(lib);
  const network = adapter.network.name;
  // Set-up, not measured: every order's address derived up front.
  await lib.fillAddressPool(db, adapter.network, 'live', ORDERS + 16);
  announcements.forwarding = announced;
  // The workers as the server runs them: this network's watcher among the others, the dispatcher.
  const workers = lib.startWorkers(db);
  let nonce = Date.now() * 1000;
  const minedAt = new Map<number, number>();
  const paidAt = new Map<string, number>(); // order id -> height of its payment's block
  const ids: string[] = [];
  try {
    // Its first pass puts the cursor at the tip: payments before that would not be seen.
    await waitUntil(
      `the first pass on ${network}`,
      async () =>
        (await db.query("select 1 from chain_cursors where network = $1 and mode = 'live'", [network])).length > 0,
    );
    for (let i = 0; i < ORDERS; i += 2) {
      const height = (await adapter.head()).height + 1;
      for (const _ of [0, 1].slice(0, Math.min(2, ORDERS - i))) {
        // Whole drops: XRP has 6 decimals.
        const amount = BigInt(100_000 + ids.length * 100);
        const input = lib.makeOrderRequest.parse({
          order: `bench-${++nonce}`,
          nonce,
          currency: adapter.network.currencies[0]!.ticker,
          network,
          amount: orderAmount(chain, amount),
          successWebhook: receiver.url(),
        });
        const order = await lib.makeOrder({ db, key, nonce: String(nonce) }, input);
        await chain.pay(order, amount);
        ids.push(order.id);
        paidAt.set(order.id, height);
      }
      await mineTimed();
    }
    for (let i = 0; i < adapter.requiredConfirmations + 1; i++) await mineTimed();
    await waitUntil(`${ids.length} orders processed and their webhooks received on ${network}`, async () => {
      const received = firstReceipts(receiver);
      if (!ids.every((id) => received.has(id))) return false;
      const [row] = await db.query<{ n: number }>(
        "select count(*)::int as n from orders where status = 'processed' and id = any($1::uuid[])",
        [ids],
      );
      return row!.n === ids.length;
    });
  } finally {
    announcements.forwarding = false;
    await workers.stop();
  }
  const events = await db.query<{ order_id: string; created_at: Date }>(
    "select order_id, created_at from order_events where to_status = 'processed' and order_id = any($1::uuid[])",
    [ids],
  );
  await db.close();
  const receivedAt = firstReceipts(receiver);
  const confirmedAt = (id: string) => minedAt.get(paidAt.get(id)! + adapter.requiredConfirmations - 1)!;
  return {
    processed: events.map((e) => e.created_at.getTime() - confirmedAt(e.order_id)).sort((a, b) => a - b),
    webhook: ids.map((id) => receivedAt.get(id)! - confirmedAt(id)).sort((a, b) => a - b),
  };

  async function mineTimed() {
    // 0.7-1.0 s apart, so blocks fall at any point of the watcher's interval.
    await new Promise((r) => setTimeout(r, 700 + Math.random() * 300));
    // The time before mining: a latency is never counted from after the block existed.
    const before = Date.now();
    await chain.mine();
    minedAt.set((await adapter.head()).height, before);
  }
}

async function waitUntil(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function measureCalls(lib: Lib, adapter: Adapter, chain: Chain, watched: number) {
  const { db, key } = await freshDatabase(lib);
  // `watched` open orders, each with its deposit address (the pool filled up front).
  await lib.fillAddressPool(db, adapter.network, 'live', watched + 16);
  let nonce = Date.now() * 1000;
  for (let i = 0; i < watched; i++) {
    const input = lib.makeOrderRequest.parse({
      order: `watch-${++nonce}`,
      nonce,
      currency: adapter.network.currencies[0]!.ticker,
      network: adapter.network.name,
      amount: '1',
    });
    await lib.makeOrder({ db, key, nonce: String(nonce) }, input);
  }
  const addresses = await db.query<{ address: string; tag: string | null }>(
    "select address, tag from orders where network = $1 and mode = 'live'",
    [adapter.network.name],
  );
  await lib.watchNetwork(db, adapter, 'live', options(lib));
  const BLOCKS = 20;
  const before = adapter.stats.snapshot();
  for (let b = 0; b < BLOCKS; b++) {
    for (let p = 0; p < 5; p++) await chain.pay(addresses[(b * 5 + p) % addresses.length]!, 10_000n);
    await chain.mine();
    await lib.watchNetwork(db, adapter, 'live', options(lib));
  }
  const after = adapter.stats.snapshot();
  const [matched] = await db.query<{ n: number }>(
    "select count(*)::int as n from chain_transfers where network = $1 and mode = 'live'",
    [adapter.network.name],
  );
  await db.close();
  return {
    watched,
    blocks: BLOCKS,
    matched: matched!.n,
    callsPerBlock: (after.calls - before.calls) / BLOCKS,
    requestsPerBlock: (after.requests - before.requests) / BLOCKS,
  };
}

/** p99 of `a` over p99 of `b`. */
const ratio = (a: number[], b: number[]) => (pct(a, 99) / pct(b, 99)).toFixed(2);

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
