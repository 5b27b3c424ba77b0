import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '@/lib/db/client';
import { setProcessSlot } from '@/lib/process';
import { openTestDatabase } from './database';
import { createTestMerchant, type TestMerchant } from './merchants';

/**
 * The gateway as merchants meet it: the production build of the app served over real HTTP on
 * 127.0.0.1, in this process so that the test can look into the same database the server
 * writes (an embedded database can only be opened by one process).
 */
export interface TestGateway {
  baseUrl: string;
  db: Database;
  close(): Promise<void>;
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/**
 * The worker's gateway server: the HTTP server and the Next.js app, started by the first gateway
 * file the worker runs and serving every later one (the `-gateway` projects share a process per
 * worker, vitest.config.ts): preparing the app and loading its pages was most of such a file's
 * set-up. One server on one port for the worker, because Next.js fetches a proxy.ts rewrite from
 * the port it was created with. Kept on globalThis under a name of its own, which no file's
 * clean-up empties (support/process-state.ts empties the gateway's slots but the front's).
 */
const WORKER_SERVER = 'cryptogateTestGatewayServer';
interface WorkerServer {
  baseUrl: string;
  port: number;
}

/**
 * The worker's server, started with `configure(port)` run between listening and preparing the app
 * (whose instrumentation starts the gateway up in the background, on the settings it finds);
 * later files get the running one, `configure` run first, and start the gateway up again.
 */
async function workerServer(configure: (port: number) => void): Promise<WorkerServer> {
  const holder = globalThis as { [WORKER_SERVER]?: WorkerServer };
  const running = holder[WORKER_SERVER];
  if (running) {
    configure(running.port);
    // Next.js runs the instrumentation once per process: its register() again, from the module
    // Next.js loaded, starts the gateway up on this file's database and settings.
    const instrumentation = createRequire(import.meta.url)(
      path.join(ROOT, '.next', 'server', 'instrumentation.js'),
    ) as {
      register(): Promise<void>;
    };
    await instrumentation.register();
    return running;
  }
  const { createGatewayServer } = await import('../../scripts/lib/http-server.mjs');
  let nextHandler: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;
  // The server the gateway's processes run (its timeouts included); Next.js is plugged in once prepared.
  const http = createGatewayServer((req, res) => nextHandler!(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  configure(port);
  const { default: next } = await import('next');
  const app = next({ dev: false, dir: ROOT, hostname: '127.0.0.1', port });
  await app.prepare();
  nextHandler = app.getRequestHandler();
  return (holder[WORKER_SERVER] = { baseUrl: `http://127.0.0.1:${port}`, port });
}

export async function startTestGateway(): Promise<TestGateway> {
  const { buildIsCurrent } = await import('../../scripts/lib/build.mjs');
  if (!buildIsCurrent())
    throw new Error('The production build is missing or older than the sources: run `npm test`, which builds first.');
  const db = await openTestDatabase();
  // The server's modules find this database through the process-wide slot (lib/db/index.ts).
  setProcessSlot('database', Promise.resolve(db));
  const server = await workerServer((port) =>
    Object.assign(process.env, {
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'gw-test-')),
      DEMO_STORE: 'false',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      APP_SECRET: 'test-app-secret-that-is-at-least-32-characters',
      ADDRESS_POOL_SIZE: '32',
      // Tests drive the watcher themselves (tests/support/chain.ts), so that every step is deterministic.
      RUN_WORKERS: 'false',
      PORT: String(port),
    }),
  );
  const { gatewayStarted } = await import('../../scripts/lib/http-server.mjs');
  await gatewayStarted();
  return {
    baseUrl: server.baseUrl,
    db,
    async close() {
      await db.close();
    },
  };
}

export interface GatewayWithMerchant {
  gateway: TestGateway;
  /** A merchant with a test and a live key. */
  merchant: TestMerchant;
}

/**
 * The usual set-up of a test file: a test gateway with one merchant, started before the file's
 * first test and closed after its last (this registers the file's beforeAll and afterAll).
 * `ready` receives them, e.g. `withTestGateway((started) => ({ gateway, merchant } = started))`;
 * `env` is set before the gateway starts (settings the file is about). A file's own beforeAll,
 * registered after this call, runs after it.
 */
export function withTestGateway(
  ready: (started: GatewayWithMerchant) => void,
  options: { merchantName?: string; env?: Record<string, string> } = {},
): void {
  let gateway: TestGateway | undefined;
  beforeAll(async () => {
    if (options.env) Object.assign(process.env, options.env);
    gateway = await startTestGateway();
    ready({ gateway, merchant: await createTestMerchant(gateway.db, options.merchantName) });
  });
  afterAll(() => gateway?.close());
}

export interface Keys {
  publicKey: string;
  privateKey: string;
}

let nonceCounter = 0;
/** Distinct across calls: a millisecond timestamp times 1000 plus a counter. */
export function freshNonce(): number {
  nonceCounter = (nonceCounter + 1) % 1000;
  return Date.now() * 1000 + nonceCounter;
}

export function sign(privateKey: string, body: string): string {
  return createHmac('sha256', privateKey).update(body).digest('hex');
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
}

/** POSTs `raw` (exact bytes) signed with `keys`; headers can be overridden per test. */
export async function postRaw(
  gateway: { baseUrl: string },
  operation: string,
  raw: string,
  keys: Keys | undefined,
  headers: Record<string, string> = {},
): Promise<ApiAnswer> {
  const response = await fetch(`${gateway.baseUrl}/api-gateway/${operation}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(keys ? { 'x-api-public-key': keys.publicKey, 'x-api-signature': sign(keys.privateKey, raw) } : {}),
      ...headers,
    },
    body: raw,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** POSTs `body` with a fresh nonce (unless it has one), signed over the exact bytes sent. */
export function call(
  gateway: { baseUrl: string },
  operation: string,
  body: Record<string, unknown>,
  keys: Keys,
): Promise<ApiAnswer> {
  return postRaw(gateway, operation, JSON.stringify({ nonce: freshNonce(), ...body }), keys);
}
