/**
 * `npm start` on the embedded database runs the chain workers inside the server: a simulated
 * payment reaches `processed` with nobody driving the watcher or the ledger by hand.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../scripts/lib/postgres.mjs';
import { call, type Keys } from './support/gateway';
import { waitFor } from './support/worker-process';
import { newDataDir, SHORT_LIVED } from './support/cli';
import { childEnv } from './support/test-env';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

let dataDir: string;
let child: ChildProcess | undefined;
let output = '';
let gateway: { baseUrl: string };
let keys: Keys;

async function orderStatus(
  orderId: string,
): Promise<{ status: string; received: string; transactions: { tx: string }[] }> {
  const answer = await call(gateway, 'order', { orderId }, keys);
  expect(answer.status).toBe(200);
  return answer.body.response;
}

// The embedded database is the case where the server runs the workers itself.
describe('the server runs its workers on the embedded database', () => {
  beforeAll(async () => {
    dataDir = newDataDir('gw-workers-');
    const port = await freePort();
    gateway = { baseUrl: `http://127.0.0.1:${port}` };
    const env: NodeJS.ProcessEnv = {
      ...childEnv(),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      DEMO_STORE: 'true',
      ADDRESS_POOL_SIZE: '16',
      SANDBOX_BLOCK_SECONDS: '0.3',
      WATCH_INTERVAL_MS: '100',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: gateway.baseUrl,
    };
    for (const name of ['DATABASE_URL', 'APP_SECRET', 'RUN_WORKERS']) delete env[name];
    child = spawn(process.execPath, [...SHORT_LIVED, path.join(ROOT, 'scripts/server.mjs')], { cwd: ROOT, env });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    // A first start creates the embedded database (initdb): many seconds on a loaded machine.
    await waitFor(
      'the server to start its workers',
      240_000,
      () => output.includes('workers started') || child!.exitCode !== null,
      () => output,
    );
    if (!output.includes('workers started')) throw new Error(`server did not start its workers:\n${output}`);
    keys = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-store.json'), 'utf8')) as Keys;
  }, 300_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child!.once('exit', resolve));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'a simulated payment is detected, confirmed and processes the order on its own',
    { timeout: 120_000 },
    async () => {
      const made = await call(
        gateway,
        'make-order',
        { currency: 'LTC', network: 'litecoin', amount: '0.5', order: `workers-${Date.now()}` },
        keys,
      );
      expect(made.status).toBe(200);
      const orderId = made.body.response.orderId as string;
      const paid = await fetch(`${gateway.baseUrl}/api/sandbox/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, kind: 'full' }),
      });
      expect(paid.status).toBe(200);
      const { txHash } = (await paid.json()) as { txHash: string };
      expect(txHash).toMatch(/^[0-9a-f]{64}$/);

      // The server's own block timer and watcher move it: 0.3 s blocks, a pass every 100 ms.
      let order = await orderStatus(orderId);
      await waitFor(
        'the order to leave pending',
        60_000,
        async () => (order = await orderStatus(orderId)).status !== 'pending',
      );
      expect(order.status).toBe('processed');
      expect(order.received).toBe('0.5');
      expect(order.transactions.map((t) => t.tx)).toEqual([txHash]);
      expect(output).toContain('order status changed');
    },
  );
});
