/**
 * The watcher survives its node: with a third of the RPC calls failing (503 or a cut connection)
 * for a while, and with the node stopped and restarted, no payment is missed and the cursor never
 * skips a block. A network whose node is unreachable reports itself unhealthy while the other
 * networks' workers go on. Real litecoind (regtest) and anvil, behind a failing proxy. Where anvil
 * cannot run, the tests that need the EVM node are skipped and it is not started.
 */
import { parseEther, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveAdapters, type LiveAdapter } from '@/lib/chains/live';
import type { Database } from '@/lib/db/client';
import { metricsText, readiness } from '@/lib/ops';
import { chainHealth, startWorkers } from '@/lib/watcher';
import { startLitecoind, type Litecoind } from '../scripts/lib/litecoind.mjs';
import { createOrder, orderRow } from './support/chain';
import { openTestDatabase } from './support/database';
import { CHAIN_ID, evmNodeMissing, startEvmNode, type EvmNode } from './support/evm';
import {
  allProcessed,
  configureLive,
  expectNoSkippedBlock,
  randomChain,
  startFlakyProxy,
  tryWatchLive,
  waitFor,
  watchLive,
  type FlakyProxy,
} from './support/live';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let ltc: Litecoind;
let evm: EvmNode | undefined;
let ltcProxy: FlakyProxy;
let evmProxy: FlakyProxy | undefined;
let db: Database;
let merchant: TestMerchant;
let litecoin: LiveAdapter;
let ethereum: LiveAdapter | undefined;

beforeAll(async () => {
  [ltc, evm] = await Promise.all([startLitecoind(), evmNodeMissing ? undefined : startEvmNode()]);
  ltcProxy = await startFlakyProxy(ltc.url, 7);
  evmProxy = evm && (await startFlakyProxy(evm.url, 11));
  configureLive({
    LITECOIN_RPC_URL: ltcProxy.url.replace('http://', `http://${ltc.user}:${ltc.password}@`),
    LITECOIN_XPUB: randomChain("m/84'/1'/0'/0").xpub,
    LITECOIN_CHAIN: 'regtest',
    LITECOIN_CONFIRMATIONS: '2',
    ...(evmProxy && {
      ETHEREUM_RPC_URL: evmProxy.url,
      ETHEREUM_XPUB: randomChain("m/44'/60'/0'/0", false).xpub,
      ETHEREUM_CHAIN_ID: String(CHAIN_ID),
      ETHEREUM_CONFIRMATIONS: '2',
      ETHEREUM_TOKENS: 'none',
      ETHEREUM_HEAD_LAG: '1',
    }),
    CHAIN_RPC_TIMEOUT_MS: '3000',
    ADDRESS_POOL_SIZE: '16',
    WATCH_INTERVAL_MS: '100',
    SANDBOX_BLOCK_SECONDS: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  });
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
  litecoin = liveAdapters().find((a) => a.network.name === 'litecoin')!;
  ethereum = liveAdapters().find((a) => a.network.name === 'ethereum');
  await watchLive(db, litecoin);
  if (ethereum) await watchLive(db, ethereum);
}, 120_000);

afterAll(async () => {
  await ltcProxy?.close();
  await evmProxy?.close();
  await db?.close();
  await evm?.close();
  await ltc?.stop();
});

const pass = (adapter: LiveAdapter) => tryWatchLive(db, adapter);

describe('the watcher survives its node', () => {
  it('litecoind: a third of the calls failing, then the node stopped and restarted: every payment counted, no block skipped', async () => {
    const orders = [];
    ltcProxy.failRate = 1 / 3;
    let failures = 0;
    for (let round = 0; round < 12; round++) {
      const order = await createOrder(db, merchant.live, {
        currency: 'LTC',
        network: 'litecoin',
        amount: `0.0${round + 1}`,
      });
      orders.push(order);
      await ltc.rpc('sendtoaddress', order.address, `0.0${round + 1}`);
      // Some payments are mined at once, some wait in the mempool over several passes.
      if (round % 3 !== 1) await ltc.mine(1 + (round % 2));
      if (!(await pass(litecoin))) failures++;
    }
    expect(ltcProxy.failed).toBeGreaterThan(0);
    expect(failures).toBeGreaterThan(0);

    // The node stops with a payment in its mempool; blocks are mined once it is back.
    const during = await createOrder(db, merchant.live, { currency: 'LTC', network: 'litecoin', amount: '0.5' });
    orders.push(during);
    await ltc.rpc('sendtoaddress', during.address, '0.5');
    await ltc.halt();
    expect(await pass(litecoin)).toBe(false);
    await ltc.restart();
    await ltc.mine(3);

    for (
      let i = 0;
      i < 40 &&
      !(await allProcessed(
        db,
        orders.map((o) => o.id),
      ));
      i++
    )
      await pass(litecoin);
    ltcProxy.failRate = 0;
    await ltc.mine(1);
    await watchLive(db, litecoin);
    for (const order of orders) expect((await orderRow(db, order.id)).status, order.amount).toBe('processed');
    await expectNoSkippedBlock(db, 'litecoin');
  });

  it.skipIf(evmNodeMissing)(
    'EVM node: a third of the calls failing: every payment counted, no block skipped',
    async () => {
      const [node, proxy, adapter] = [evm!, evmProxy!, ethereum!];
      const payer = node.accounts[0]!;
      const orders = [];
      proxy.failRate = 1 / 3;
      for (let round = 0; round < 12; round++) {
        const order = await createOrder(db, merchant.live, {
          currency: 'ETH',
          network: 'ethereum',
          amount: `0.${round + 1}`,
        });
        orders.push(order);
        await node.client.wallet.sendTransaction({
          account: payer,
          to: order.address as Address,
          value: parseEther(`0.${round + 1}`),
        } as never);
        await node.mine(1 + (round % 3));
        await pass(adapter);
      }
      expect(proxy.failed).toBeGreaterThan(0);
      await node.mine(3);
      for (
        let i = 0;
        i < 40 &&
        !(await allProcessed(
          db,
          orders.map((o) => o.id),
        ));
        i++
      )
        await pass(adapter);
      proxy.failRate = 0;
      await watchLive(db, adapter);
      for (const order of orders) expect((await orderRow(db, order.id)).status, order.amount).toBe('processed');
      await expectNoSkippedBlock(db, 'ethereum');
    },
  );

  // The network that goes on is ethereum: without anvil there is no other one.
  it.skipIf(evmNodeMissing)(
    'an unreachable node marks its network unhealthy while the other network goes on',
    async () => {
      const node = evm!;
      const workers = startWorkers(db);
      try {
        ltcProxy.down = true;
        const order = await createOrder(db, merchant.live, { currency: 'ETH', network: 'ethereum', amount: '0.05' });
        await node.client.wallet.sendTransaction({
          account: node.accounts[0]!,
          to: order.address as Address,
          value: parseEther('0.05'),
        } as never);
        await node.mine(4);
        await waitFor('the ethereum order', async () => (await orderRow(db, order.id)).status === 'processed');
        const health = await waitFor('litecoin unhealthy', async () =>
          chainHealth().find((h) => h.network === 'litecoin' && h.mode === 'live' && !h.healthy),
        );
        expect(health.error).toMatch(/litecoin node at http:\/\/127\.0\.0\.1:\d+\/ is unreachable/);
        expect(health.error).not.toContain(ltc.password);
        expect(chainHealth().find((h) => h.network === 'ethereum' && h.mode === 'live')).toMatchObject({
          healthy: true,
        });
        // /readyz of this process (it runs the workers) names the failing network and only it.
        const ready = await readiness(new Date(), async () => db);
        expect(ready.ready).toBe(false);
        expect(ready.problems.filter((p) => p.startsWith('live/'))).toEqual([
          expect.stringMatching(/^live\/litecoin: node failing: litecoin node at .* is unreachable/),
        ]);
        const ethereumReady = ready.networks.find((n) => n.network === 'ethereum' && n.mode === 'live')!;
        expect(ethereumReady).toMatchObject({ ready: true, lagBlocks: 0 });
        expect(ethereumReady.head).toBe(ethereumReady.cursor);
        expect(await metricsText()).toMatch(/^gateway_chain_healthy\{network="litecoin",mode="live"\} 0$/m);

        ltcProxy.down = false;
        await waitFor('litecoin healthy again', async () =>
          chainHealth().find((h) => h.network === 'litecoin' && h.mode === 'live' && h.healthy),
        );
        await waitFor('litecoin ready again', async () =>
          (await readiness(new Date(), async () => db)).networks.find(
            (n) => n.network === 'litecoin' && n.mode === 'live' && n.ready,
          ),
        );
      } finally {
        ltcProxy.down = false;
        await workers.stop();
      }
    },
  );
});
