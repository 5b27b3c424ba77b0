import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HDKey } from '@scure/bip32';
import { afterAll, beforeAll, expect } from 'vitest';
import { liveAdapters, type LiveAdapter } from '@/lib/chains/live';
import type { Database } from '@/lib/db/client';
import { forgetProcessSlot } from '@/lib/process';
import { noRiskScreen } from '@/lib/risk';
import { watchNetwork, type WatchOptions } from '@/lib/watcher';
import { startDispatcher, type Dispatcher } from '@/lib/webhooks';
import { openTestDatabase } from './database';
import { createTestMerchant, type TestMerchant } from './merchants';

/**
 * Live mode in a test process: sets the environment of the live networks and drops the cached
 * configuration and live networks, so that the next config() reads it.
 */
export function configureLive(env: Record<string, string>): void {
  Object.assign(process.env, env);
  forgetProcessSlot('config');
  forgetProcessSlot('liveNetworks');
}

/** A node a live test starts; either way of stopping it. */
interface StoppableNode {
  close?(): Promise<void> | void;
  stop?(): Promise<void> | void;
}

/** How a live test reaches one network's node: the node kind's helper (e.g. `litecoindNetwork`) writes it. */
export interface LiveNetworkSpec<Node extends StoppableNode> {
  /** The catalog network the adapter watches. */
  network: string;
  start(): Promise<Node>;
  /** The network's live settings for `node` (its <NETWORK>_RPC_URL, XPUB...). */
  env(node: Node): Record<string, string>;
  /** Settings that need the database (the XRP Ledger's untagged-deposit merchant), after it opens. */
  afterDatabase?(db: Database): Promise<Record<string, string>>;
}

export interface LiveNetwork<Node> {
  node: Node;
  db: Database;
  /** A merchant with a test and a live key. */
  merchant: TestMerchant;
  adapter: LiveAdapter;
  /** With `webhooks`: a receiver on 127.0.0.1, and the dispatcher delivering to it. */
  receiver: WebhookReceiver;
  dispatcher: Dispatcher;
}

/**
 * The set-up of a live-chain test file: starts the node, configures live mode for it, opens the
 * test database with a merchant, starts a webhook receiver and the dispatcher, and runs a first
 * watcher pass (the cursor starts at the node's tip). Registers the file's beforeAll and afterAll;
 * `ready` receives what it started, e.g. `withLiveNetwork(litecoindNetwork(), (live) => ({ node, db } = live))`.
 */
export function withLiveNetwork<Node extends StoppableNode>(
  spec: LiveNetworkSpec<Node>,
  ready: (live: LiveNetwork<Node>) => void,
  extraEnv: Record<string, string> = {},
): void {
  let started: Partial<LiveNetwork<Node>> = {};
  beforeAll(async () => {
    const node = await spec.start();
    started = { node, receiver: await startWebhookReceiver() };
    const env = {
      ADDRESS_POOL_SIZE: '16',
      WEBHOOK_ALLOWED_TARGETS: '127.0.0.1',
      WEBHOOK_POLL_MS: '100',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      ...spec.env(node),
      ...extraEnv,
    };
    configureLive(env);
    const db = (started.db = await openTestDatabase());
    const merchant = await createTestMerchant(db);
    if (spec.afterDatabase) configureLive({ ...env, ...(await spec.afterDatabase(db)) });
    const adapter = liveAdapters().find((a) => a.network.name === spec.network);
    if (!adapter) throw new Error(`live mode has no ${spec.network} adapter with these settings`);
    started = { ...started, merchant, adapter, dispatcher: startDispatcher(db) };
    await watchLive(db, adapter); // the cursor starts at the node's tip
    ready(started as LiveNetwork<Node>);
  }, 120_000);
  afterAll(async () => {
    await started.dispatcher?.stop();
    await started.receiver?.close();
    await started.db?.close();
    await (started.node?.close ?? started.node?.stop)?.call(started.node);
  });
}

/**
 * A fresh wallet's external chain (…/0): its watch-only key for the gateway, as `tpub` (test
 * chains) or `xpub`, and the node to sign with in tests that spend from deposit addresses.
 */
export function randomChain(path: string, testChain = true): { xpub: string; node: HDKey } {
  const versions = testChain ? { private: 0x04358394, public: 0x043587cf } : undefined;
  const node = HDKey.fromMasterSeed(randomBytes(32), versions).derive(path);
  return { xpub: node.publicExtendedKey, node };
}

/** One watcher pass of live mode with a chosen clock (scan to the tip, then the expiry sweep). */
export function watchLive(db: Database, adapter: LiveAdapter, now?: Date): Promise<unknown> {
  const options: WatchOptions = {
    batchBlocks: 100,
    startAt: 'tip',
    screen: noRiskScreen,
    now: now ? () => now : undefined,
  };
  return watchNetwork(db, adapter, 'live', options);
}

/** A watcher pass that may fail (a failing node is the point of the test); answers whether it did. */
export async function tryWatchLive(db: Database, adapter: LiveAdapter): Promise<boolean> {
  try {
    await watchLive(db, adapter);
    return true;
  } catch {
    return false;
  }
}

/** Whether every order of `ids` is processed. */
export async function allProcessed(db: Database, ids: string[]): Promise<boolean> {
  const [row] = await db.query<{ n: number }>(
    "select count(*)::int as n from orders where id = any($1::uuid[]) and status <> 'processed'",
    [ids],
  );
  return row!.n === 0;
}

/** The scanned heights of `network` are contiguous from the first to the cursor: no block was skipped. Answers the cursor's height. */
export async function expectNoSkippedBlock(db: Database, network: string): Promise<number> {
  const rows = await db.query<{ height: string }>(
    "select height from chain_blocks where network = $1 and mode = 'live' order by height",
    [network],
  );
  const heights = rows.map((r) => Number(r.height));
  expect(heights.length).toBeGreaterThan(5);
  heights.forEach((h, i) => i > 0 && expect(h).toBe(heights[i - 1]! + 1));
  const [cursor] = await db.query<{ height: string }>(
    "select height from chain_cursors where network = $1 and mode = 'live'",
    [network],
  );
  expect(Number(cursor!.height)).toBe(heights[heights.length - 1]);
  return Number(cursor!.height);
}

/**
 * An HTTP proxy on 127.0.0.1 in front of a node that can fail calls on purpose: `failRate` of the
 * requests answered 503 or cut, and `down` refusing every connection (as a stopped node).
 */
export interface FlakyProxy {
  url: string;
  failRate: number;
  down: boolean;
  failed: number;
  passed: number;
  close(): Promise<void>;
}

export async function startFlakyProxy(target: string, seed = 1): Promise<FlakyProxy> {
  // A small deterministic generator, so a failing run can be replayed.
  let state = seed >>> 0 || 1;
  const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const proxy: FlakyProxy = { url: '', failRate: 0, down: false, failed: 0, passed: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    if (proxy.down) return req.socket.destroy();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (random() < proxy.failRate) {
        proxy.failed++;
        // Half the failures are a server error, half a connection cut mid-way.
        if (random() < 0.5) return void res.writeHead(503).end('unavailable');
        return req.socket.destroy();
      }
      proxy.passed++;
      try {
        // The request's path is kept: JSON-RPC nodes answer at one path, java-tron at many.
        const answer = await fetch(new URL(req.url ?? '/', target), {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
          body: Buffer.concat(chunks),
        });
        res
          .writeHead(answer.status, { 'content-type': 'application/json' })
          .end(Buffer.from(await answer.arrayBuffer()));
      } catch {
        req.socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
type ReceivedWebhook = { headers: http.IncomingHttpHeaders; body: any };

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that records what it is sent. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Polls `probe` until it gives a value; the bound only ends a failure (generous: node restarts beside CPU-bound work take long). */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
