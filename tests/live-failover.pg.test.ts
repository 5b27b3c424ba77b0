/**
 * Failover between a network's nodes (lib/chains/failover.ts) on real litecoind (regtest), through
 * the configuration an operator writes: `LITECOIN_RPC_URL` listing three nodes. The first is a
 * separate litecoind far behind (its own short chain): set aside as lagging. The second is the
 * main node behind a proxy, stopped mid-run: the watcher carries on with the third (the same node
 * directly) in the same pass, nothing missed, no block skipped. Then the status of each node, as
 * `/ops/chains` and `npm run chains -- status` show it from the process running the watchers.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveAdapters, type LiveAdapter } from '@/lib/chains/live';
import type { Database } from '@/lib/db/client';
import { serveOps } from '@/lib/ops';
import { startWorkers } from '@/lib/watcher';
import { startLitecoind, type Litecoind } from '../scripts/lib/litecoind.mjs';
import { createOrder, orderRow } from './support/chain';
import { openTestDatabase } from './support/database';
import {
  allProcessed,
  configureLive,
  randomChain,
  startFlakyProxy,
  waitFor,
  watchLive,
  type FlakyProxy,
} from './support/live';
import { createTestMerchant, type TestMerchant } from './support/merchants';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

let main: Litecoind;
let behind: Litecoind;
let proxy: FlakyProxy;
let db: Database;
let merchant: TestMerchant;
let litecoin: LiveAdapter & { nodes(): { node: string; state: string; height: number | null; error: string | null }[] };
const withCredentials = (node: Litecoind, url: string) =>
  url.replace('http://', `http://${node.user}:${node.password}@`);

beforeAll(async () => {
  // The lagging node has its own regtest chain of 10 blocks; the main one 101 and more.
  [main, behind] = await Promise.all([startLitecoind(), startLitecoind({ matureBlocks: 10 })]);
  proxy = await startFlakyProxy(main.url, 3);
  configureLive({
    LITECOIN_RPC_URL: [
      withCredentials(behind, behind.url),
      withCredentials(main, proxy.url),
      withCredentials(main, main.url),
    ].join(','),
    LITECOIN_XPUB: randomChain("m/84'/1'/0'/0").xpub,
    LITECOIN_CHAIN: 'regtest',
    LITECOIN_CONFIRMATIONS: '2',
    LITECOIN_RPC_MAX_LAG: '5',
    CHAIN_RPC_TIMEOUT_MS: '3000',
    ADDRESS_POOL_SIZE: '16',
    WATCH_INTERVAL_MS: '100',
    SANDBOX_BLOCK_SECONDS: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  });
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
  litecoin = liveAdapters().find((a) => a.network.name === 'litecoin') as typeof litecoin;
  await watchLive(db, litecoin);
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await db?.close();
  await Promise.all([main?.stop(), behind?.stop()]);
});

const states = () => litecoin.nodes().map((n) => n.state);

describe('failover between the nodes of a network', () => {
  it('sets aside the node far behind, and carries on without the node stopped mid-run: every payment counted, no block skipped', async () => {
    expect(states()).toEqual(['lagging', 'in use', 'standby']);
    expect(litecoin.nodes()[0]!.error).toMatch(/blocks behind the best node/);

    const orders = [];
    for (let round = 0; round < 3; round++) {
      const order = await createOrder(db, merchant.live, {
        currency: 'LTC',
        network: 'litecoin',
        amount: `0.0${round + 1}`,
      });
      orders.push(order);
      await main.rpc('sendtoaddress', order.address, `0.0${round + 1}`);
      await main.mine(1);
      await watchLive(db, litecoin);
    }
    expect(proxy.passed).toBeGreaterThan(0);

    // The preferred node stops with a payment waiting to be mined.
    const during = await createOrder(db, merchant.live, { currency: 'LTC', network: 'litecoin', amount: '0.5' });
    orders.push(during);
    await main.rpc('sendtoaddress', during.address, '0.5');
    await proxy.close();
    await main.mine(1);
    const asked = proxy.passed;
    // Not a single failed pass: the stopped node costs one refused request and the pass goes on.
    await watchLive(db, litecoin);
    expect(states()).toEqual(['lagging', 'failing', 'in use']);
    expect(litecoin.nodes()[1]!.error).toBeTruthy();

    await main.mine(2);
    for (
      let i = 0;
      i < 20 &&
      !(await allProcessed(
        db,
        orders.map((o) => o.id),
      ));
      i++
    )
      await watchLive(db, litecoin);
    for (const order of orders) expect((await orderRow(db, order.id)).status, order.amount).toBe('processed');
    expect(proxy.passed).toBe(asked);

    const rows = await db.query<{ height: string }>(
      "select height from chain_blocks where network = 'litecoin' and mode = 'live' order by height",
    );
    const heights = rows.map((r) => Number(r.height));
    heights.forEach((h, i) => i > 0 && expect(h).toBe(heights[i - 1]! + 1));
    expect(heights[heights.length - 1]).toBe(Number(await main.rpc('getblockcount')));
  });

  it('shows each node at /ops/chains and in `npm run chains -- status`, from the process running the watchers', async () => {
    const workers = startWorkers(db);
    const server = http.createServer((req, res) => void (serveOps(req, res) || res.writeHead(404).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      type Status = {
        networks: {
          network: string;
          mode: string;
          healthy: boolean;
          cursor: number | null;
          nodes: { node: string; state: string }[] | null;
          usableNodes: number | null;
        }[];
      };
      const live = await waitFor('the live litecoin watcher to pass', async () => {
        const status = (await (await fetch(`${base}/ops/chains`)).json()) as Status;
        const ltc = status.networks.find((n) => n.network === 'litecoin' && n.mode === 'live');
        return ltc?.healthy && ltc.cursor !== null ? ltc : undefined;
      });
      expect(live.nodes!.map((n) => n.state)).toEqual(['lagging', 'failing', 'in use']);
      expect(live.usableNodes).toBe(1);
      // Origins only: never the credentials each URL carries.
      expect(JSON.stringify(live)).not.toContain(main.password);
      // Through a proxy the details are refused, as /metrics.
      expect((await fetch(`${base}/ops/chains`, { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(403);

      // The stopped node is `failing` while it backs off and `standby` for the moment between its
      // backoff's end and the next pass asking it again: on a loaded machine the CLI can start in
      // such a moment (seen), so it is asked again until it shows the node backing off.
      const cli = await waitFor('the CLI to show the stopped node backing off', async () => {
        const answer = await runChainsCli(['status', '--url', base]);
        expect(answer.code, answer.stderr).toBe(0);
        return /nodes 1 of 3 usable/.test(answer.stdout) && answer;
      });
      expect(cli.stdout).toMatch(
        /live\/litecoin: healthy, head \d+, cursor \d+, lag \d+, last pass \d+ s ago, nodes 1 of 3 usable/,
      );
      expect(cli.stdout).toContain(`${new URL(behind.url).origin}  lagging`);
      expect(cli.stdout).toMatch(/failing, height \d+, asked again in \d+ s: /);
      expect(cli.stdout).not.toContain(main.password);

      const json = await runChainsCli(['status', '--url', base, '--json']);
      expect(JSON.parse(json.stdout).networks.some((n: { network: string }) => n.network === 'litecoin')).toBe(true);
      const nobody = await runChainsCli(['status', '--url', 'http://127.0.0.1:9']);
      expect(nobody.code).toBe(2);
      expect(nobody.stderr).toMatch(/Nothing answers at http:\/\/127\.0\.0\.1:9/);
    } finally {
      await workers.stop();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

function runChainsCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--conditions=react-server', path.join(ROOT, 'scripts/cli.mjs'), 'chains', ...args],
      {
        cwd: ROOT,
        env: { ...process.env, METRICS_TOKEN: undefined },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
