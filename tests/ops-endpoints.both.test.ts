/**
 * /healthz, /readyz and /metrics on the servers' request listener (scripts/lib/http-server.mjs)
 * with a stand-in for Next.js: alive and not ready while start-up runs; then ready with the
 * database's figures; details and metrics only for loopback without a proxy, or with the token;
 * a database short of its migrations is not ready and says so. Runs on PGlite and PostgreSQL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { setProcessSlot } from '@/lib/process';
import { gatewayRequestListener } from '../scripts/lib/http-server.mjs';
import { createOrder } from './support/chain';
import { openTestDatabase } from './support/database';
import { postRaw } from './support/gateway';
import { createTestMerchant } from './support/merchants';

const TOKEN = 'metrics-token-for-the-test-0123456789';
Object.assign(process.env, {
  APP_SECRET: 'test-app-secret-that-is-at-least-32-characters',
  RUN_WORKERS: 'false',
  METRICS_TOKEN: TOKEN,
  LOG_LEVEL: 'silent',
  DEMO_STORE: 'false',
});

const NOT_THE_FRONT = 599;
let db: Database;
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  db = await openTestDatabase();
  setProcessSlot('database', Promise.resolve(db));
  server = http.createServer(gatewayRequestListener(async (_req, res) => void res.writeHead(NOT_THE_FRONT).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await db?.close();
});

async function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(baseUrl + path, { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

describe('the operations endpoints', () => {
  it('before start-up has finished: alive, not ready, and metrics wait for the front', async () => {
    expect(await get('/healthz')).toMatchObject({ status: 200, text: '{"status":"ok"}' });
    const ready = await get('/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toEqual({ ready: false, problems: ['starting: start-up has not finished'] });
    expect((await get('/metrics')).status).toBe(NOT_THE_FRONT);
  });

  it('once started: ready with its details for loopback, only the verdict through a proxy', async () => {
    const { installApiFront } = await import('@/lib/api');
    installApiFront({ publicBaseUrl: baseUrl });
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    const body = JSON.parse(ready.text);
    expect(body).toMatchObject({
      ready: true,
      problems: [],
      workers: { configured: false, running: false },
      networks: [],
    });
    expect(body.database.migrationsApplied).toBe(body.database.migrationsExpected);
    expect(body.database.migrationsExpected).toBeGreaterThan(5);
    expect(JSON.parse((await get('/readyz', { 'x-forwarded-for': '203.0.113.9' })).text)).toEqual({ ready: true });
    expect((await get('/healthz?probe=1')).status).toBe(200);
    const post = await fetch(`${baseUrl}/healthz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('metrics: to loopback or the token only; API requests, orders and the webhook queue counted', async () => {
    await postRaw({ baseUrl }, 'available-currencies', '{}', undefined);

    const metrics = await get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.type).toContain('text/plain; version=0.0.4');
    expect(metrics.text).toMatch(/^gateway_api_requests_total\{operation="available-currencies",status="401"\} 1$/m);
    expect(metrics.text).toMatch(/^gateway_api_request_duration_seconds_count\{operation="available-currencies"\} 1$/m);
    expect(metrics.text).toMatch(/^gateway_api_in_flight 0$/m);
    expect(metrics.text).toMatch(/^gateway_webhook_queue_depth 0$/m);
    expect(metrics.text).toMatch(/^process_resident_memory_bytes \d+/m);
    // A pool only on PostgreSQL (tests/support/database.ts opens 20 connections).
    if (db.kind === 'postgres') expect(metrics.text).toMatch(/^gateway_db_pool_connections\{state="max"\} 20$/m);
    else expect(metrics.text).not.toContain('gateway_db_pool_connections{');

    const proxied = await get('/metrics', { 'x-forwarded-for': '203.0.113.9' });
    expect(proxied.status).toBe(403);
    expect(proxied.text).not.toContain('gateway_');
    expect(
      (
        await get('/metrics', {
          forwarded: 'for=203.0.113.9',
          authorization: 'Bearer wrong-token-of-the-same-size-0123',
        })
      ).status,
    ).toBe(403);
    expect((await get('/metrics', { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${TOKEN}` })).status).toBe(
      200,
    );
  });

  it('orders by status come from the database, whichever process made them', async () => {
    const before = await get('/metrics');
    const count = (text: string) =>
      Number(text.match(/^gateway_orders\{mode="test",status="pending"\} (\d+)$/m)?.[1] ?? 0);
    const merchant = await createTestMerchant(db);
    await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '0.1' });
    expect(count((await get('/metrics')).text)).toBe(count(before.text) + 1);
  });
});

describe('readiness of a database short of its migrations', () => {
  it('is not ready and names how many migrations ran', async () => {
    const { readiness } = await import('@/lib/ops');
    const rolledBack = new Error('rolled back');
    const outcome = db.transaction(async (tx) => {
      await tx.query(
        'delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)',
      );
      const ready = await readiness(new Date(), async () => tx);
      expect(ready.ready).toBe(false);
      expect(ready.problems).toEqual([expect.stringMatching(/^database: (\d+) of (\d+) migrations applied$/)]);
      const [, applied, expected] = ready.problems[0]!.match(/(\d+) of (\d+)/)!;
      expect(Number(applied)).toBe(Number(expected) - 1);
      throw rolledBack;
    });
    await expect(outcome).rejects.toBe(rolledBack);
  });
});

describe('readiness of a process that runs the workers', () => {
  it('names a network too far behind its tip, or without a good pass for too long', async () => {
    const { readiness } = await import('@/lib/ops');
    const { reportHealth } = await import('@/lib/watcher/health');
    // As startWorkers records it (lib/watcher), without running the loops: the test sets where they got to.
    setProcessSlot('workers', { count: 1, watched: [{ network: 'litecoin', mode: 'live' }] });
    try {
      reportHealth('litecoin', 'live', null, { head: 100, cursor: 80 });
      const behind = await readiness(new Date(), async () => db);
      expect(behind.problems).toEqual(['live/litecoin: 20 blocks behind the tip (READY_MAX_LAG_BLOCKS 10)']);
      expect(behind.networks).toEqual([
        expect.objectContaining({ network: 'litecoin', ready: false, head: 100, cursor: 80, lagBlocks: 20 }),
      ]);

      reportHealth('litecoin', 'live', null, { head: 101, cursor: 95 });
      expect(await readiness(new Date(), async () => db)).toMatchObject({ ready: true, problems: [] });
      const later = new Date(Date.now() + 200_000);
      expect((await readiness(later, async () => db)).problems).toEqual([
        'live/litecoin: last good pass 200 s ago (READY_MAX_PASS_AGE_SECONDS 120)',
      ]);
    } finally {
      setProcessSlot('workers', { count: 0, watched: [] });
    }
  });
});
