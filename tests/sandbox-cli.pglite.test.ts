/**
 * `npm run sandbox` as an operator runs it: through a running server that holds the embedded
 * database (the CLI goes through the control endpoint), and offline (the CLI opens the database
 * itself). A payment it prints is on the sandbox ledger in base units and reaches the order
 * through the server's watcher; mistakes exit 2 with a readable message, never a stack trace. A
 * signed transaction handed on by `broadcast-raw` is taken and its id printed.
 *
 * Each path shows one refusal as a process (exit 2, the words on stderr, no stack trace), and one
 * argument mistake does (the usage); the other refusals' words are the command's, whichever
 * process runs it, and are checked here in the test's process on the same database (`refusalOf`),
 * the other argument mistakes in scripts/lib/cli-requests.test.ts: without a CLI process each
 * (docs/decisions/128).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommand, runAdminCommand, type AdminCommand } from '@/lib/admin';
import { findNetwork } from '@/lib/catalog';
import { faucetAddress } from '@/lib/chains/sandbox';
import { openDatabase } from '@/lib/db/client';
import { freePort } from '../scripts/lib/postgres.mjs';
import { CLI_TEST_TIMEOUT, newDataDir, runCli, startServer, stopServer, type StartedServer } from './support/cli';
import { call, type Keys } from './support/gateway';
import { spendOf } from './support/sandbox-spends';
import { waitFor } from './support/worker-process';
import { childEnv } from './support/test-env';

const LTC_HASH = /^[0-9a-f]{64}$/;
const STACK_FRAME = /^\s+at\s/m;
const TOO_LARGE = new RegExp(
  `Amount "${'1'.repeat(80)}" is too large for LTC: at most 69 digits before the decimal point`,
);
/** The server's watcher passes every 100 ms when idle; generous for a loaded machine. */
const WATCHER_MS = 120_000;

let env: NodeJS.ProcessEnv;
let dataDir: string;
let keys: Keys;

/** The sandbox CLI's exit code, stdout and stderr, whether it succeeded or not. */
const sandboxExit = (...args: string[]) => runCli(env, 'sandbox', ...args);

/** The server's watcher moves orders; no block timer, so that only the CLI mines. */
const serverEnv = () => ({ ...env, RUN_WORKERS: 'true', WATCH_INTERVAL_MS: '100', SANDBOX_BLOCK_SECONDS: '0' });

/** Reads the data directory's embedded database; only while no other process holds it. */
async function withDatabase<T>(work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>): Promise<T> {
  const db = await openDatabase({ dataDir });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

/**
 * Why the command is refused, as the CLI run offline reaches it (scripts/cli-runtime.ts: checked,
 * then run on the database it opened) and prints it; in this process, on the data directory's
 * database (withDatabase), while no other process holds it.
 */
async function refusalOf(db: Awaited<ReturnType<typeof openDatabase>>, command: AdminCommand): Promise<string> {
  const parsed = adminCommand.safeParse(command);
  if (!parsed.success) return parsed.error.message;
  return runAdminCommand(db, command).then(
    (result) => {
      throw new Error(`not refused: ${JSON.stringify(result)}`);
    },
    (error: unknown) => (error as Error).message,
  );
}

interface TransferRow {
  network: string;
  currency: string;
  amount: string;
  to_address: string;
  tag: string | null;
  block_height: string | null;
}

function transferOf(db: Awaited<ReturnType<typeof openDatabase>>, txHash: string): Promise<TransferRow[]> {
  return db.query<TransferRow>(
    'select network, currency, amount::text as amount, to_address, tag, block_height::text as block_height from sandbox_transfers where tx_hash = $1',
    [txHash],
  );
}

/** Checks an error exit: code 2, a message on stderr, no stack trace, nothing on stdout. */
function expectUsageError(result: { code: number; stdout: string; stderr: string }, message: RegExp) {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(STACK_FRAME);
}

describe('npm run sandbox (embedded database)', () => {
  const orders: { served: { orderId: string; address: string }; offline: { orderId: string; address: string } } =
    {} as never;
  let servedHash: string;
  /**
   * One server for the two tests through a running server (a start is seconds of CPU): the first
   * starts it, the second (reset-clock) stops it, before the offline tests.
   */
  let server: StartedServer | undefined;
  let gateway: { baseUrl: string };

  beforeAll(async () => {
    dataDir = newDataDir('gw-sandbox-cli-');
    env = {
      ...childEnv(),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      DEMO_STORE: 'false',
      ADDRESS_POOL_SIZE: '16',
    };
    delete env.DATABASE_URL;
  });

  afterAll(async () => {
    if (server) await stopServer(server.child);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    "pays and mines through a running server, and the server's watcher processes the order",
    { timeout: CLI_TEST_TIMEOUT },
    async () => {
      const port = await freePort();
      server = await startServer(serverEnv(), port);
      gateway = { baseUrl: `http://127.0.0.1:${port}` };
      // Through the server (the CLI then opens no database of its own: a second of CPU less).
      keys = JSON.parse(
        (await runCli(env, 'keys', 'create', '--name', 'Sandbox CLI shop', '--mode', 'test', '--json')).stdout,
      );
      expect(keys.publicKey).toMatch(/^pk_test_/);
      for (const [name, order] of [
        ['served', 'cli-served-1'],
        ['offline', 'cli-offline-1'],
      ] as const) {
        const made = await call(
          gateway,
          'make-order',
          { currency: 'LTC', network: 'litecoin', amount: '0.25', order },
          keys,
        );
        expect(made.status, JSON.stringify(made.body)).toBe(200);
        orders[name] = made.body.response;
      }

      const paid = await sandboxExit('pay', orders.served.orderId, '0.25');
      expect(paid.code, paid.stderr).toBe(0);
      expect(paid.stdout).toMatch(/^[0-9a-f]{64}\n$/);
      servedHash = paid.stdout.trim();
      expect(servedHash).toMatch(LTC_HASH);
      expect(paid.stderr).toContain(`Sent 0.25 LTC on litecoin (sandbox) to ${orders.served.address}`);
      // The command went through the server: the CLI never took the data directory.
      expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'owner.json'), 'utf8')).pid).toBe(server.child.pid);

      const mined = await sandboxExit('mine', 'litecoin', '3');
      expect(mined.code, mined.stderr).toBe(0);
      expect(mined.stdout).toBe('litecoin: mined to height 3\n');

      // The server's watcher finds the transfer on the ledger and counts it.
      let order:
        | { status: string; received: string; transactions: { tx: string; amount: string; confirmations: number }[] }
        | undefined;
      await waitFor("the server's watcher to move the order", WATCHER_MS, async () => {
        order = (await call(gateway, 'order', { orderId: orders.served.orderId }, keys)).body.response;
        return order?.status !== 'pending';
      });
      expect(order).toMatchObject({ status: 'processed', received: '0.25' });
      expect(order!.transactions).toEqual([
        expect.objectContaining({ tx: servedHash, amount: '0.25', confirmations: 3 }),
      ]);
      // The other order saw nothing.
      expect((await call(gateway, 'order', { orderId: orders.offline.orderId }, keys)).body.response).toMatchObject({
        status: 'pending',
        received: '0',
      });

      const unknown = crypto.randomUUID();
      expectUsageError(await sandboxExit('pay', unknown, '0.25'), new RegExp(`Order ${unknown} was not found`));
      // More than the ledger's amount column holds: the reason, not "Unexpected end of JSON input".
      expectUsageError(await sandboxExit('pay', orders.offline.orderId, '1'.repeat(80)), TOO_LARGE);
      // The control endpoint checks what a CLI could never send too (argv cannot hold a NUL).
      const { controlUrl } = JSON.parse(fs.readFileSync(path.join(dataDir, 'owner.json'), 'utf8'));
      const refused = await fetch(controlUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${fs.readFileSync(path.join(dataDir, 'control-token'), 'utf8').trim()}` },
        body: JSON.stringify({ command: 'sandbox.pay', target: `addr\u0000`, amount: '1' }),
      });
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toMatch(/NUL/);
    },
  );

  it(
    'reset-clock undoes mine --at: through a running server, orders made afterwards wait out their lifetime again; offline too',
    { timeout: CLI_TEST_TIMEOUT },
    async () => {
      expect(server, 'the first test started the server').toBeDefined();
      const running = server!;
      const orderOf = async (orderId: string) =>
        (await call(gateway, 'order', { orderId }, keys)).body.response as {
          status: string;
          transactions: { confirmations: number }[];
        };
      /** Polls the order until `done` holds (the server's watcher passes every 100 ms). */
      const waitForOrder = async (orderId: string, done: (o: Awaited<ReturnType<typeof orderOf>>) => boolean) => {
        let order = await orderOf(orderId);
        await waitFor(
          `order ${orderId} to move`,
          WATCHER_MS,
          async () => done((order = await orderOf(orderId))),
          () => JSON.stringify(order),
        );
        return order;
      };
      const makeDoge = async (order: string) => {
        const made = await call(
          gateway,
          'make-order',
          { currency: 'DOGE', network: 'dogecoin', amount: '10', order },
          keys,
        );
        expect(made.status, JSON.stringify(made.body)).toBe(200);
        return made.body.response.orderId as string;
      };
      try {
        const expiring = await makeDoge('cli-clock-1');
        const ahead = await sandboxExit('mine', 'dogecoin', '1', '--at', '2030-01-01T00:00:00Z');
        expect(ahead.code, ahead.stderr).toBe(0);
        expect((await waitForOrder(expiring, (o) => o.status !== 'pending')).status).toBe('expired');

        const reset = await sandboxExit('reset-clock', 'dogecoin');
        expect(reset.code, reset.stderr).toBe(0);
        expect(reset.stdout).toMatch(
          /^dogecoin: removed 1 block\(s\) dated ahead of now; tip at height 0 \(1970-01-01T00:00:00.000Z\), the next block is dated now\n$/,
        );
        // Through the server: the CLI never took the data directory.
        expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'owner.json'), 'utf8')).pid).toBe(running.child.pid);

        // An order made after the reset, partly paid: each watcher pass that counts a confirmation
        // judges it, and would make it `partial` at once if the clock were still in 2030.
        const fresh = await makeDoge('cli-clock-2');
        expect((await sandboxExit('pay', fresh, '1')).code).toBe(0);
        expect((await sandboxExit('mine', 'dogecoin', '2')).code).toBe(0);
        const seen = await waitForOrder(fresh, (o) => o.status !== 'pending' || o.transactions[0]?.confirmations === 2);
        expect(seen).toMatchObject({ status: 'pending', transactions: [{ confirmations: 2 }] });
        // One more pass, with its expiry sweep, after the one that counted the second confirmation.
        expect((await sandboxExit('mine', 'dogecoin', '1')).code).toBe(0);
        const later = await waitForOrder(
          fresh,
          (o) => o.status !== 'pending' || o.transactions[0]?.confirmations === 3,
        );
        expect(later).toMatchObject({ status: 'pending', transactions: [{ confirmations: 3 }] });
        expect((await orderOf(expiring)).status).toBe('expired');
      } finally {
        await stopServer(running.child);
        server = undefined;
      }
      // Stopping is logged: the signal, then that it stopped (the output may trail the exit a little).
      await waitFor('the server to say it stopped', 10_000, () => running.output().includes('Stopped.'));
      expect(running.output()).toMatch(/Stopping \(SIGTERM\): no new connections[\s\S]*\nStopped\.\n/);

      // Offline: the CLI opens the embedded database itself.
      expect(fs.existsSync(path.join(dataDir, 'owner.json'))).toBe(false);
      expect((await sandboxExit('mine', 'dogecoin', '2', '--at', '2031-01-01T00:00:00Z')).code).toBe(0);
      const offline = await sandboxExit('reset-clock', 'dogecoin');
      expect(offline.code, offline.stderr).toBe(0);
      expect(offline.stdout).toMatch(/^dogecoin: removed 2 block\(s\) dated ahead of now; tip at height 3 \(/);
      await withDatabase(async (db) => {
        const [row] = await db.query<{ top: string; latest: Date }>(
          "select max(height)::text as top, max(mined_at) as latest from sandbox_blocks where network = 'dogecoin'",
        );
        expect(row!.top).toBe('3');
        expect(row!.latest.getTime()).toBeLessThanOrEqual(Date.now());
        expect(await refusalOf(db, { command: 'sandbox.reset-clock', network: 'nowhere' })).toMatch(
          /Unknown network "nowhere"/,
        );
      });
      const nothing = await sandboxExit('reset-clock', 'dogecoin');
      expect(nothing.stdout).toBe('dogecoin: no block is dated ahead of now; tip at height 3\n');
    },
  );

  it(
    'every CLI answers --help with its usage (exit 0), and an unknown option with what was wrong and the usage',
    {
      timeout: CLI_TEST_TIMEOUT,
    },
    async () => {
      const clis = ['sandbox', 'keys', 'users', 'webhooks', 'db', 'chains', 'collect', 'signer', 'worker'];
      const helps = await Promise.all(clis.map((cli) => runCli(env, cli, '--help')));
      for (const [i, help] of helps.entries()) {
        expect(help.code, `${clis[i]}: ${help.stderr}`).toBe(0);
        expect(help.stdout).toMatch(new RegExp(`usage:[\\s\\S]*npm run ${clis[i]}\\b`));
      }
      expectUsageError(await sandboxExit('pay', '--bogus'), /Unknown option '--bogus'[\s\S]*usage:/);
    },
  );

  it('pays and mines offline, opening the embedded database itself', { timeout: CLI_TEST_TIMEOUT }, async () => {
    expect(servedHash, 'the served test made the orders').toMatch(LTC_HASH);
    // No server: nobody holds the data directory.
    expect(fs.existsSync(path.join(dataDir, 'owner.json'))).toBe(false);

    const paid = await sandboxExit('pay', orders.offline.orderId, '0.125');
    expect(paid.code, paid.stderr).toBe(0);
    expect(paid.stdout).toMatch(/^[0-9a-f]{64}\n$/);
    const offlineHash = paid.stdout.trim();
    expect(offlineHash).not.toBe(servedHash);

    await withDatabase(async (db) => {
      expect(await transferOf(db, offlineHash)).toEqual([
        {
          network: 'litecoin',
          currency: 'LTC',
          amount: '12500000',
          to_address: orders.offline.address,
          tag: null,
          block_height: null,
        },
      ]);
      // What the server's CLI run wrote is there too, mined at height 1.
      expect(await transferOf(db, servedHash)).toEqual([
        {
          network: 'litecoin',
          currency: 'LTC',
          amount: '25000000',
          to_address: orders.served.address,
          tag: null,
          block_height: '1',
        },
      ]);
    });

    const mined = await sandboxExit('mine', 'litecoin', '3');
    expect(mined.code, mined.stderr).toBe(0);
    expect(mined.stdout).toBe('litecoin: mined to height 6\n');
    const unknown = crypto.randomUUID();
    expectUsageError(await sandboxExit('pay', unknown, '0.25'), new RegExp(`Order ${unknown} was not found`));

    const [deposit] = await withDatabase(async (db) => {
      expect((await transferOf(db, offlineHash))[0]?.block_height).toBe('4');
      const pay = (amount: string) =>
        refusalOf(db, {
          command: 'sandbox.pay',
          target: orders.offline.orderId,
          amount,
          currency: undefined,
          tag: undefined,
        });
      expect(await pay('abc')).toMatch(/Amount "abc"/);
      expect(await pay('0.000000001')).toMatch(/at most 8 decimal places/);
      expect(await pay('1'.repeat(80))).toMatch(TOO_LARGE);
      expect(await refusalOf(db, { command: 'sandbox.mine', network: 'nowhere', count: 1 })).toMatch(
        /Unknown network "nowhere"/,
      );
      // The refused payments wrote nothing.
      const [row] = await db.query<{ n: number }>(
        "select count(*)::int as n from sandbox_transfers where network = 'litecoin'",
      );
      expect(row!.n).toBe(2);
      // The deposit's key, for the signed transaction below.
      return db.query<{ index: number }>('select derivation_index::int as index from addresses where address = $1', [
        orders.offline.address,
      ]);
    });

    // A signed transaction of the test seed spending the payment (docs/decisions/109; its refusals:
    // tests/collections-sandbox): taken by the sandbox, its id printed, its output in the mempool.
    const to = faucetAddress(findNetwork('litecoin')!);
    const spend = spendOf(
      [{ txid: offlineHash, vout: 0, amount: 12_500_000n, index: deposit!.index }],
      to,
      12_400_000n,
    );
    const taken = await sandboxExit('broadcast-raw', '--network', 'litecoin', spend.toUpperCase());
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stdout).toMatch(/^[0-9a-f]{64}\n$/);
    expect(taken.stderr).toContain("Taken by the sandbox's litecoin");
    await withDatabase(async (db) => {
      expect(await transferOf(db, taken.stdout.trim())).toEqual([
        { network: 'litecoin', currency: 'LTC', amount: '12400000', to_address: to, tag: null, block_height: null },
      ]);
    });
  });
});
