/**
 * Sub-second detection: a new block starts the watcher's pass at once instead of at its next poll.
 * litecoind announces blocks with its `-blocknotify` hook posting to `/ops/new-block/litecoin`;
 * anvil announces them over WebSocket (`eth_subscribe` newHeads, ETHEREUM_WS_URL; anvil serves
 * WebSocket on its HTTP port). The watch interval is ten minutes here, so only an announcement can
 * move an order after the first pass. Where anvil cannot run, the EVM test is skipped and the
 * node not started.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseEther, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { serveOps } from '@/lib/ops';
import { startWorkers, type Workers } from '@/lib/watcher';
import { startLitecoind, type Litecoind } from '../scripts/lib/litecoind.mjs';
import { createOrder, orderRow } from './support/chain';
import { openTestDatabase } from './support/database';
import { CHAIN_ID, evmNodeMissing, startEvmNode, type EvmNode } from './support/evm';
import { configureLive, randomChain, waitFor } from './support/live';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let ltc: Litecoind;
let evm: EvmNode | undefined;
let ops: http.Server;
let db: Database;
let merchant: TestMerchant;
let workers: Workers;
const announced: string[] = [];

beforeAll(async () => {
  // The process's operations endpoints, as the server or a worker serves them.
  ops = http.createServer((req, res) => {
    if (req.url?.startsWith('/ops/new-block/')) announced.push(req.url);
    if (!serveOps(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => ops.listen(0, '127.0.0.1', resolve));
  const opsUrl = `http://127.0.0.1:${(ops.address() as AddressInfo).port}`;
  [ltc, evm] = await Promise.all([
    startLitecoind({ extraArgs: [`-blocknotify=curl -fsS -m 5 -X POST ${opsUrl}/ops/new-block/litecoin`] }),
    evmNodeMissing ? undefined : startEvmNode(),
  ]);
  configureLive({
    LITECOIN_RPC_URL: ltc.url.replace('http://', `http://${ltc.user}:${ltc.password}@`),
    LITECOIN_XPUB: randomChain("m/84'/1'/0'/0").xpub,
    LITECOIN_CHAIN: 'regtest',
    LITECOIN_CONFIRMATIONS: '2',
    ...(evm && {
      ETHEREUM_RPC_URL: evm.url,
      ETHEREUM_WS_URL: evm.url.replace('http://', 'ws://'),
      ETHEREUM_XPUB: randomChain("m/44'/60'/0'/0", false).xpub,
      ETHEREUM_CHAIN_ID: String(CHAIN_ID),
      ETHEREUM_CONFIRMATIONS: '2',
      ETHEREUM_TOKENS: 'none',
      ETHEREUM_HEAD_LAG: '0',
    }),
    ADDRESS_POOL_SIZE: '16',
    WATCH_INTERVAL_MS: '600000',
    SANDBOX_BLOCK_SECONDS: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  });
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
  workers = startWorkers(db);
  // The first pass of each network (at start) sets its cursor at the tip.
  await waitFor('the first passes', async () => {
    const rows = await db.query<{ network: string }>("select network from chain_cursors where mode = 'live'");
    return rows.length === (evm ? 2 : 1);
  });
}, 120_000);

afterAll(async () => {
  await workers?.stop();
  await new Promise((resolve) => ops?.close(resolve));
  await db?.close();
  await evm?.close();
  await ltc?.stop();
});

describe('a new block starts the watcher at once', () => {
  it("litecoind's -blocknotify posting to /ops/new-block/litecoin", async () => {
    const order = await createOrder(db, merchant.live, { currency: 'LTC', network: 'litecoin', amount: '0.25' });
    await ltc.rpc('sendtoaddress', order.address, '0.25');
    await ltc.mine(2);
    await waitFor(
      'the order processed after the announced blocks',
      async () => (await orderRow(db, order.id)).status === 'processed',
    );
    expect(announced.filter((u) => u === '/ops/new-block/litecoin').length).toBeGreaterThanOrEqual(2);
  });

  it.skipIf(evmNodeMissing)('an EVM node announcing newHeads over WebSocket', async () => {
    const node = evm!;
    const order = await createOrder(db, merchant.live, { currency: 'ETH', network: 'ethereum', amount: '0.5' });
    await node.client.wallet.sendTransaction({
      account: node.accounts[0]!,
      to: order.address as Address,
      value: parseEther('0.5'),
    });
    await node.mine(2);
    await waitFor(
      'the order processed after the announced blocks',
      async () => (await orderRow(db, order.id)).status === 'processed',
    );
  });
});

describe('POST /ops/new-block/<network>', () => {
  it('is for POST from loopback (or the metrics token) and names a network of the catalog', async () => {
    const base = `http://127.0.0.1:${(ops.address() as AddressInfo).port}/ops/new-block`;
    const post = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${base}/${path}`, { method: 'POST', headers });
    expect(await (await post('litecoin')).json()).toEqual({ watching: true });
    expect(await (await post('dogecoin')).json()).toEqual({ watching: false });
    expect((await post('nonsense')).status).toBe(404);
    expect((await post('litecoin', { 'x-forwarded-for': '203.0.113.9' })).status).toBe(403);
    expect((await fetch(`${base}/litecoin`)).status).toBe(405);
  });
});
