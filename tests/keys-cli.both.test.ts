/**
 * The keys CLI works with and without a running server, and never opens the embedded database
 * from a second process: with the server up it goes through the control endpoint. Keys it
 * prints sign requests the server accepts; the private key is stored only encrypted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../scripts/lib/postgres.mjs';
import { CLI_TEST_TIMEOUT, newDataDir, runCli, startServer, stopServer } from './support/cli';
import { call } from './support/gateway';
import { childEnv } from './support/test-env';

const usePostgres = process.env.TEST_DB === 'postgres';

let env: NodeJS.ProcessEnv;
let dataDir: string;
let databaseName: string | undefined;

beforeAll(async () => {
  dataDir = usePostgres ? fs.mkdtempSync(path.join(os.tmpdir(), 'gw-cli-')) : newDataDir('gw-cli-');
  env = {
    ...childEnv(),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
    DEMO_STORE: 'true',
    ADDRESS_POOL_SIZE: '16',
  };
  if (usePostgres) {
    const pg = (await import('pg')).default;
    databaseName = `gw_cli_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_PG_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${databaseName}`);
    await admin.query(`create database ${databaseName}`);
    await admin.end();
    const url = new URL(process.env.TEST_PG_URL!);
    url.pathname = `/${databaseName}`;
    Object.assign(env, { DATABASE_URL: url.toString(), APP_SECRET: 'cli-test-app-secret-at-least-32-chars!!' });
  }
});

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** `npm run keys -- ...args`: its output once it succeeded (exit 0). */
async function keys(...args: string[]) {
  const result = await runCli(env, 'keys', ...args);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

// Each test runs several CLI processes and a server start: minutes on a two-core machine shared
// with other work (CLI_TEST_TIMEOUT).
describe('npm run keys', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('creates keys with no server running, then through a running server', async () => {
    const offline = JSON.parse(await keys('create', '--name', 'Offline shop', '--mode', 'test', '--json'));
    expect(offline.publicKey).toMatch(/^pk_test_/);
    expect(offline.privateKey).toMatch(/^sk_test_/);

    const port = await freePort();
    const server = await startServer(env, port);
    try {
      // The first start created the demo merchant only when there was none: here there was one.
      expect(server.output()).not.toContain('Created the demo merchant');
      const online = JSON.parse(await keys('create', '--name', 'Online shop', '--mode', 'live', '--json'));
      expect(online.publicKey).toMatch(/^pk_live_/);
      const listed = JSON.parse(await keys('list', '--json'));
      expect(listed.map((m: { name: string }) => m.name)).toEqual(['Offline shop', 'Online shop']);

      // Keys made offline sign requests the server accepts.
      const gateway = { baseUrl: `http://127.0.0.1:${port}` };
      const made = await call(
        gateway,
        'make-order',
        { currency: 'BTC', network: 'bitcoin', amount: '0.01', order: 'cli-1' },
        offline,
      );
      expect(made.status).toBe(200);

      // Revoking through the running server takes effect at once.
      await keys('revoke', offline.publicKey);
      const refused = await call(gateway, 'find-tx', {}, offline);
      expect(refused.status).toBe(401);
      expect(refused.body.error.name).toBe('UNKNOWN_PUBLIC_KEY');
      // Private keys never reach the log.
      expect(server.output()).not.toContain(online.privateKey);
      expect(server.output()).not.toContain(offline.privateKey);
    } finally {
      await stopServer(server.child);
    }
    // And offline again once the server is gone.
    expect(await keys('list')).toContain('Online shop');
  });

  it('refuses bad arguments with a usage message', async () => {
    expect(await runCli(env, 'keys', 'create', '--name', 'X', '--mode', 'sandbox')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--mode must be test or live'),
    });
  });
});

describe('first start', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('creates the demo merchant once, keeps its keys for the demo store and never writes them to the log', async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-first-'));
    const saved = env;
    env = { ...env, DATA_DIR: fresh };
    if (usePostgres) {
      const url = new URL(env.DATABASE_URL!);
      url.pathname = `/${databaseName}_first`;
      const pg = (await import('pg')).default;
      const admin = new pg.Client({ connectionString: process.env.TEST_PG_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${databaseName}_first`);
      await admin.query(`create database ${databaseName}_first`);
      await admin.end();
      env.DATABASE_URL = url.toString();
    }
    const port = await freePort();
    const server = await startServer(env, port);
    try {
      const demo = JSON.parse(fs.readFileSync(path.join(fresh, 'demo-store.json'), 'utf8'));
      // The server's output is a pipe here, as a log is: the keys and the owner's link are in an owner-only file instead.
      expect(server.output()).not.toContain(demo.privateKey);
      expect(server.output()).not.toContain('/dashboard/set-up/');
      expect(server.output()).toContain(path.join(fresh, 'first-start.txt'));
      expect(fs.statSync(path.join(fresh, 'demo-store.json')).mode & 0o077).toBe(0);
      const gateway = { baseUrl: `http://127.0.0.1:${port}` };
      expect((await call(gateway, 'advanced-balances', {}, demo)).status).toBe(200);
    } finally {
      await stopServer(server.child);
      env = saved;
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });
});
