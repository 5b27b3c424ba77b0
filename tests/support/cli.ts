import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEMPLATE_ENV } from '../../scripts/lib/pglite-template.mjs';
import { waitFor } from './worker-process';

/**
 * The command-line tools and the server (scripts/server.mjs) as an operator runs them, in child processes: for the
 * tests of the CLIs, which must work with and without a server holding the embedded database.
 */
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

/**
 * Node's options for the processes these tests start, which live a command or a few seconds: V8
 * compiles the embedded database's WebAssembly (9 MB) with its baseline compiler only. Its
 * optimizing tier, which pays off in a server that runs for days, costs such a process about a
 * quarter of its CPU in background compilation it never uses (2.5 against 1.8 CPU-seconds for
 * `sandbox mine` offline; 4.8 against 3.7 for a server start on an existing data directory).
 */
export const SHORT_LIVED = ['--liftoff-only'];

/**
 * A new temporary data directory for the processes a test starts: its embedded database a copy of
 * the run's migrated one (scripts/lib/pglite-template.mjs, made by `npm test`), which spares each
 * directory's first process the 3.5 CPU-seconds of initdb; empty when there is none. The tests of
 * a first start on an empty directory make theirs with fs.mkdtempSync.
 */
export function newDataDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const template = process.env[TEMPLATE_ENV];
  if (template) fs.cpSync(template, path.join(dir, 'pglite'), { recursive: true });
  return dir;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run <script> -- ...args` (scripts/<script>.ts): its exit code and output, whether it succeeded or not. */
export function runCli(env: NodeJS.ProcessEnv, script: string, ...args: string[]): Promise<CliResult> {
  return runCliWithInput(env, '', script, ...args);
}

/** runCli with `stdin` piped in (not a terminal), as a password read from standard input. */
export function runCliWithInput(
  env: NodeJS.ProcessEnv,
  stdin: string,
  script: string,
  ...args: string[]
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...SHORT_LIVED, '--conditions=react-server', 'scripts/cli.mjs', script, ...args],
      {
        cwd: ROOT,
        env,
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

export interface StartedServer {
  child: ChildProcess;
  output: () => string;
}

/**
 * Generous: a first start on a new data directory creates the embedded database (initdb), some
 * 20 s of CPU, and on a loaded two-core machine a process gets a fraction of a core.
 */
const SERVER_START_MS = 240_000;

/**
 * scripts/server.mjs (as `npm start` runs it) on the production build on 127.0.0.1:`port` with `env`; resolves once it says "Ready on" (started and listening).
 * `publicBaseUrl`: the origin payment links name, the server's own by default (a proxy's, behind one).
 */
export async function startServer(
  env: NodeJS.ProcessEnv,
  port: number,
  publicBaseUrl = `http://127.0.0.1:${port}`,
): Promise<StartedServer> {
  let output = '';
  const child = spawn(process.execPath, [...SHORT_LIVED, path.join(ROOT, 'scripts/server.mjs')], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: publicBaseUrl },
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  // Ready, or gone (a failed start says why at once rather than at the deadline).
  await waitFor('the server to say "Ready on"', SERVER_START_MS, () => output.includes('Ready on') || exited()).catch(
    () => undefined,
  );
  if (!output.includes('Ready on')) {
    await stopServer(child);
    throw new Error(
      `server did not start (${exited() ? `exited with ${child.exitCode ?? child.signalCode}` : `not ready after ${SERVER_START_MS / 1000} s`}):\n${output}`,
    );
  }
  return { child, output: () => output };
}

/** SIGTERM, and wait for the exit (the embedded database is free again afterwards). */
export async function stopServer(child: ChildProcess): Promise<void> {
  // Gone already (an exit code, or killed by a signal): its 'exit' event has passed.
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

// Each CLI run starts Node (scripts/cli.mjs) and, offline, opens the embedded database: seconds on a quiet
// machine, several times that beside CPU-bound processes. The timeouts only bound a hung run.
export const CLI_TEST_TIMEOUT = 600_000;
