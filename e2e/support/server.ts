/**
 * The gateway under test, started once per Playwright run by global-setup.ts: the production
 * build served by scripts/server.mjs (as `npm start` runs it) on 127.0.0.1 and a free port, on a fresh
 * embedded database in a temporary directory, in test mode with the chain workers running (the
 * sandbox mines blocks and the watcher moves orders, as with `npm start`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIsCurrent, root } from '../../scripts/lib/build.mjs';
import pg from 'pg';
import { freePort } from '../../scripts/lib/postgres.mjs';

/** Fixed for the run: the CLIs need the same one as the server (see cliEnv in gateway.ts). */
export const E2E_APP_SECRET = 'e2e-app-secret-that-is-at-least-32-characters';

export interface GatewayServer {
  baseUrl: string;
  dataDir: string;
  logFile: string;
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 120_000;

/**
 * Starts a gateway under test. `env` overrides its environment (e.g. `{ SANDBOX_BLOCK_SECONDS: '0' }`
 * for a spec that mines every block itself), or is a function of the port it will listen on (e.g.
 * for a PUBLIC_BASE_URL naming it otherwise); the server stops with stop(), or with the process
 * that started it. Its data directory is a fresh temporary one that goes with it, unless `dataDir`
 * names one the caller keeps (to start a gateway again on the same data).
 */
export async function startGatewayServer(
  logFile: string,
  env: Record<string, string> | ((port: number) => Record<string, string>) = {},
  dataDir?: string,
): Promise<GatewayServer> {
  // scripts/test.mjs has just built (E2E_BUILD_ENSURED): sources edited since then, in a shared
  // working tree, must not fail the run. Started any other way, the build must be current.
  const built =
    process.env.E2E_BUILD_ENSURED === '1' ? fs.existsSync(path.join(root, '.next', 'BUILD_ID')) : buildIsCurrent();
  if (!built) {
    throw new Error(
      'The production build is missing or older than the sources: run `npm run test:e2e` (or `npm test`), which builds first.',
    );
  }
  // freePort() closes its probe before next binds: another process may take the port meanwhile.
  for (let attempt = 1; ; attempt++) {
    try {
      const port = await freePort();
      return await startOnce(port, logFile, typeof env === 'function' ? env(port) : env, dataDir);
    } catch (error) {
      if (attempt === 3 || !(error instanceof PortTakenError)) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startOnce(
  port: number,
  logFile: string,
  overrides: Record<string, string>,
  kept: string | undefined,
): Promise<GatewayServer> {
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = kept ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gw-e2e-'));
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, 'w');
  const databaseUrl = 'DATABASE_URL' in overrides ? overrides.DATABASE_URL! : await databaseFor(dataDir);
  fs.writeFileSync(path.join(dataDir, DATABASE_URL_FILE), databaseUrl);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: baseUrl,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl, // empty means unset: the embedded database
    APP_SECRET: E2E_APP_SECRET,
    DEMO_STORE: 'true',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    RUN_WORKERS: 'true',
    SANDBOX_BLOCK_SECONDS: process.env.E2E_SANDBOX_BLOCK_SECONDS ?? '1',
    ADDRESS_POOL_SIZE: '64',
    // Specs receive webhooks on servers of their own on 127.0.0.1 (e2e/dashboard-data.spec.ts).
    WEBHOOK_ALLOWED_TARGETS: '127.0.0.1',
    ...overrides,
    E2E_REMOVE_ON_EXIT: kept ? '' : dataDir,
  };
  const preload = pathToFileURL(path.join(root, 'e2e/support/exit-with-parent.mjs')).href;
  // stdin stays a pipe from this process: the preload stops the server when it closes.
  const child = spawn(process.execPath, ['--import', preload, path.join(root, 'scripts', 'server.mjs')], {
    cwd: root,
    env,
    stdio: ['pipe', log, log],
  });
  fs.closeSync(log);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server: GatewayServer = {
    baseUrl,
    dataDir,
    logFile,
    async stop() {
      await stopProcess(child, exited);
      if (!kept) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await waitUntilServing(baseUrl, exited, logFile);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

async function waitUntilServing(baseUrl: string, exited: Promise<number | null>, logFile: string): Promise<void> {
  let code: number | null | undefined;
  void exited.then((c) => (code = c));
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (code !== undefined) {
      const tail = logTail(logFile);
      const message = `The gateway under test exited with code ${code} while starting. Its log (${logFile}):\n${tail}`;
      throw /EADDRINUSE/.test(tail) ? new PortTakenError(message) : new Error(message);
    }
    // The home page answers once instrumentation.ts has opened and migrated the database.
    const status = await fetch(`${baseUrl}/`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `The gateway under test did not answer at ${baseUrl} within ${STARTUP_TIMEOUT_MS / 1000} s. Its log (${logFile}):\n${logTail(logFile)}`,
  );
}

async function stopProcess(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export function logTail(logFile: string, lines = 40): string {
  try {
    return fs.readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * The gateways under test run on PostgreSQL when the run has a cluster (global-setup.ts starts one
 * and sets E2E_POSTGRES_URL), each in a database of its own; a gateway started with
 * `DATABASE_URL: ''` runs on the embedded database as `npm start` does (e2e/store.spec.ts), and so
 * does every gateway of a run without a cluster (E2E_DATABASE=embedded). PostgreSQL because the
 * embedded database runs its queries on the server's own thread: two browsers waiting on one
 * server cost a fifth more CPU on it (docs/decisions/090). The embedded database itself, and the
 * CLIs beside a server holding it, are tested by the Vitest files that name `pglite`.
 */
const DATABASE_URL_FILE = 'e2e-database-url';

/**
 * The environment of a CLI run against the gateway holding `dataDir`: on the embedded database it
 * finds the server and hands it the command; on PostgreSQL it opens the gateway's database itself.
 */
export function cliEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrlOf(dataDir),
    APP_SECRET: E2E_APP_SECRET,
    LOG_LEVEL: 'warn',
  };
}

/**
 * `npm run <script> -- ...args` against the gateway holding `dataDir`, with `stdin` piped in and
 * `settings` (the gateway's own, e.g. its live networks) in its environment: answers its standard
 * output, or fails with its standard error. Started as package.json's script
 * line starts it, without npm in front (a second Node.js process per run, for nothing here).
 */
export function runCliOn(
  dataDir: string,
  script: string,
  args: readonly string[],
  stdin = '',
  settings: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=react-server', path.join(root, 'scripts/cli.mjs'), script, ...args],
      { cwd: root, env: { ...cliEnv(dataDir), ...settings }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    // No timeout of its own: on a loaded machine a CLI can take a minute; the test's bounds it.
    child.on('close', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`npm run ${script} -- ${args.join(' ')} failed (${code}): ${stderr.trim()}`)),
    );
    child.stdin.end(stdin);
  });
}

/** The DATABASE_URL of the gateway holding `dataDir` ('' for the embedded database). */
export function databaseUrlOf(dataDir: string): string {
  const file = path.join(dataDir, DATABASE_URL_FILE);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

/** A database of its own for the gateway holding `dataDir` (kept across its restarts); '' without a cluster. */
async function databaseFor(dataDir: string): Promise<string> {
  const cluster = process.env.E2E_POSTGRES_URL;
  if (!cluster) return '';
  const kept = databaseUrlOf(dataDir);
  if (kept) return kept;
  const name = `e2e_${path
    .basename(dataDir)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '_')}`;
  const client = new pg.Client({ connectionString: cluster });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(cluster);
  url.pathname = `/${name}`;
  return url.href;
}
