/**
 * REUSE_PORT=true (scripts/server.mjs, decision 042): several web servers on one PostgreSQL listen
 * on one port and the kernel spreads the connections among them, so a machine runs a server per
 * core without a proxy between them, and the port goes on answering when one of them dies. It
 * needs Node.js 22.12 or later: on an older one the server refuses the setting at start, saying so,
 * rather than failing on the second listen. PostgreSQL only: the embedded database has one owner.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { freePort } from '../scripts/lib/postgres.mjs';
import { startServer, stopServer, type StartedServer } from './support/cli';
import { openSharedTestDatabase, waitFor } from './support/worker-process';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const nodeHasReusePort = major >= 24 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);

let db: Database;
let env: NodeJS.ProcessEnv;
const servers: StartedServer[] = [];

beforeAll(async () => {
  const shared = await openSharedTestDatabase();
  db = shared.db;
  env = {
    ...process.env,
    DATABASE_URL: shared.url,
    APP_SECRET: 'reuse-port-test-app-secret-at-least-32-characters',
    DEMO_STORE: 'false',
    LOG_LEVEL: 'warn',
    REUSE_PORT: 'true',
  };
});

afterAll(async () => {
  await Promise.all(servers.map((s) => stopServer(s.child)));
  await db?.close();
});

/** GET /healthz on a new connection each time, so that the kernel chooses a listener each time. */
async function healthz(port: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { connection: 'close' } });
  await response.arrayBuffer();
  return response.status;
}

it.runIf(nodeHasReusePort)(
  'two servers share a port, and it goes on answering when one is killed',
  { timeout: 600_000 },
  async () => {
    const port = await freePort();
    const first = await startServer(env, port);
    servers.push(first);
    // Without SO_REUSEPORT on both sockets this second listen fails: "cannot listen ... EADDRINUSE".
    const second = await startServer(env, port);
    servers.push(second);
    for (let i = 0; i < 20; i++) expect(await healthz(port)).toBe(200);

    first.child.kill('SIGKILL');
    await waitFor('the first server to exit', 30_000, () => first.child.signalCode !== null);
    for (let i = 0; i < 20; i++) expect(await healthz(port)).toBe(200);
    expect(second.child.exitCode).toBeNull();
  },
);

it.runIf(nodeHasReusePort)(
  'without REUSE_PORT a second server on the port is refused',
  { timeout: 600_000 },
  async () => {
    const port = await freePort();
    servers.push(await startServer({ ...env, REUSE_PORT: 'false' }, port));
    await expect(startServer({ ...env, REUSE_PORT: 'false' }, port)).rejects.toThrow(
      /cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/,
    );
  },
);

it.skipIf(nodeHasReusePort)(`is refused at start on Node.js ${process.version}, with the reason`, async () => {
  const failed = await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/server.mjs')], {
    cwd: ROOT,
    env: { ...env, PORT: String(await freePort()) },
  }).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toContain(`REUSE_PORT: needs Node.js 22.12 or later (this is ${process.version})`);
});

it('refuses a REUSE_PORT that is not true or false', async () => {
  const failed = await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/server.mjs')], {
    cwd: ROOT,
    env: { ...env, REUSE_PORT: 'yes' },
  }).then(
    () => undefined,
    (error: { code: number; stderr: string }) => error,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toMatch(/Invalid configuration:\n\s+REUSE_PORT: must be true or false/);
});
