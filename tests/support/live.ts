import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HDKey } from '@scure/bip32';
import { expect } from 'vitest';
import type { LiveAdapter } from '@/lib/chains/live';
import type { Database } from '@/lib/db/client';
import { forgetProcessSlot } from '@/lib/process';
import { noRiskScreen } from '@/lib/risk';
import { watchNetwork, type WatchOptions } from '@/lib/watcher';

/**
 * Live mode in a test process: sets the environment of the live networks and drops the cached
 * configuration and live networks, so that the next config() reads it.
 */
export function configureLive(env: Record<string, string>): void {
  Object.assign(process.env, env);
  forgetProcessSlot('config');
  forgetProcessSlot('liveNetworks');
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
  const options: WatchOptions = { batchBlocks: 100, startAt: 'tip', screen: noRiskScreen, now: now ? () => now : undefined };
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
  const [row] = await db.query<{ n: number }>("select count(*)::int as n from orders where id = any($1::uuid[]) and status <> 'processed'", [ids]);
  return row!.n === 0;
}

/** The scanned heights of `network` are contiguous from the first to the cursor: no block was skipped. Answers the cursor's height. */
export async function expectNoSkippedBlock(db: Database, network: string): Promise<number> {
  const rows = await db.query<{ height: string }>("select height from chain_blocks where network = $1 and mode = 'live' order by height", [network]);
  const heights = rows.map((r) => Number(r.height));
  expect(heights.length).toBeGreaterThan(5);
  heights.forEach((h, i) => i > 0 && expect(h).toBe(heights[i - 1]! + 1));
  const [cursor] = await db.query<{ height: string }>("select height from chain_cursors where network = $1 and mode = 'live'", [network]);
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
  const random = () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32);
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
        const answer = await fetch(new URL(req.url ?? '/', target), { method: 'POST', headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' }, body: Buffer.concat(chunks) });
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
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

/** A webhook receiver on 127.0.0.1 that records what it is sent. */
export async function startWebhookReceiver(): Promise<{ url: string; received: ReceivedWebhook[]; close(): Promise<void> }> {
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
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
