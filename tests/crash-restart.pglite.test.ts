/**
 * The server killed with SIGKILL starts again at once on the same data directory, every time,
 * and keeps every order it had answered. The killed server is left unreaped (a zombie, as under a
 * container init that does not wait for its children): its pid still looks alive to kill(pid, 0),
 * yet the embedded database's lock, which the kernel dropped with the process, lets the next start
 * through (docs/decisions/013-a-lock-the-kernel-releases.md). Embedded database only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../scripts/lib/postgres.mjs';
import { call, type Keys } from './support/gateway';
import { newDataDir, SHORT_LIVED } from './support/cli';
import { childEnv } from './support/test-env';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// The lock is the kernel's (released with the process, never by a race), so each round shows the
// same thing: eight show it holds with a zombie left behind every time, at a third of twenty's
// cost (each server start is seconds of CPU, and CI's time is shared by every test).
const ROUNDS = 8;

let dataDir: string;
/** The servers started, and the `sleep` processes they run under (killing one lets init reap its dead server). */
const servers: number[] = [];
const parents: ChildProcess[] = [];

/** One-letter state of process `pid` from /proc (Z: dead, not yet reaped), or undefined once it is gone. */
function processState(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
  } catch {
    return undefined;
  }
}

/** How a dead, unreaped process ended (/proc/<pid>/stat field 52, the wait status), for failure messages. */
function exitStatus(pid: number): string {
  try {
    const status = Number(
      fs
        .readFileSync(`/proc/${pid}/stat`, 'utf8')
        .replace(/^.*\) /s, '')
        .split(' ')[49],
    );
    return status & 0x7f ? `killed by signal ${status & 0x7f}` : `exit code ${status >> 8}`;
  } catch {
    return 'reaped';
  }
}

const dead = (pid: number) => ['Z', 'X', undefined].includes(processState(pid));

async function until(what: string, ms: number, check: () => boolean, context: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}\n${context()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Server {
  pid: number;
  output: () => string;
}

/**
 * scripts/server.mjs on the production build, as the child of a `sleep` that never waits for it
 * (sh starts the server, then execs sleep); resolves once it has started the gateway (database
 * open) and listens.
 */
async function startServer(port: number, what: string): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...childEnv(),
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DEMO_STORE: 'true',
    ADDRESS_POOL_SIZE: '16',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
  };
  delete env.DATABASE_URL;
  const parent = spawn(
    'sh',
    [
      '-c',
      '"$0" "$@" & echo "server pid $!"; exec sleep 3600',
      process.execPath,
      ...SHORT_LIVED,
      path.join(ROOT, 'scripts/server.mjs'),
    ],
    { cwd: ROOT, env },
  );
  parents.push(parent);
  let output = '';
  parent.stdout!.on('data', (d) => (output += d));
  parent.stderr!.on('data', (d) => (output += d));
  await until(`the pid of the ${what}`, 10_000, () => /^server pid \d+$/m.test(output));
  const pid = Number(output.match(/^server pid (\d+)$/m)![1]);
  servers.push(pid);
  const started = () => output.includes('gateway started') && /^Ready on http/m.test(output);
  await until(
    `the ${what}`,
    120_000,
    () => started() || dead(pid),
    () => output,
  );
  if (dead(pid)) throw new Error(`the ${what} failed (${exitStatus(pid)}):\n${output}`);
  return { pid, output: () => output };
}

describe('the server killed with SIGKILL', () => {
  beforeAll(() => {
    dataDir = newDataDir('gw-crash-');
  });

  afterAll(() => {
    // A server still running after a failure first (its pid cannot have been reused: until its
    // parent is killed, a dead server stays a zombie), then the parents.
    for (const pid of servers) if (!dead(pid)) process.kill(pid, 'SIGKILL');
    for (const parent of parents) parent.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // ROUNDS + 1 server starts at a few seconds each: under a minute on this two-core machine at a
  // load average of 6-9, a few minutes at 10-17.
  it(
    `starts again at once on the same data directory, ${ROUNDS} times, and keeps every order`,
    { timeout: 900_000 },
    async () => {
      const port = await freePort();
      const gateway = { baseUrl: `http://127.0.0.1:${port}` };
      let keys: Keys | undefined;
      const made: { orderId: string; clientOrderId: string; address: string }[] = [];

      for (let round = 0; round < ROUNDS; round++) {
        const server = await startServer(port, `start ${round + 1}`);
        keys ??= JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-store.json'), 'utf8')) as Keys;
        // Every order made before any of the crashes is still there.
        const listed = await call(gateway, 'orders', { limit: 100 }, keys);
        expect(listed.status, JSON.stringify(listed.body)).toBe(200);
        expect(listed.body.response.total, `round ${round}`).toBe(made.length);

        const answer = await call(
          gateway,
          'make-order',
          { currency: 'BTC', network: 'bitcoin', amount: '0.01', order: `crash-${round}` },
          keys,
        );
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        const { orderId, clientOrderId, address } = answer.body.response;
        made.push({ orderId, clientOrderId, address });

        process.kill(server.pid, 'SIGKILL');
        await until(`server ${server.pid} to die`, 10_000, () => dead(server.pid));
        // Its parent never waits for it: the dead server stays a zombie while the next one starts.
        expect(processState(server.pid)).toBe('Z');
      }

      const last = await startServer(port, `start ${ROUNDS + 1}`);
      try {
        const listed = await call(gateway, 'orders', { limit: 100 }, keys!);
        expect(listed.body.response.total).toBe(ROUNDS);
        for (const order of made) {
          const found = await call(gateway, 'order', { orderId: order.orderId }, keys!);
          expect(found.status, JSON.stringify(found.body)).toBe(200);
          expect(found.body.response).toMatchObject({ ...order, amount: '0.01', status: 'pending' });
        }
        expect(new Set(made.map((o) => o.address)).size).toBe(ROUNDS);
      } finally {
        process.kill(last.pid, 'SIGTERM');
        await until('the last server to exit', 30_000, () => dead(last.pid), last.output);
      }
      // An owner that exits normally leaves no owner.json behind.
      expect(fs.existsSync(path.join(dataDir, 'owner.json'))).toBe(false);
    },
  );
});
