/**
 * Failover on the networks whose nodes cannot run here (decision 038), over the tests' fake
 * java-tron node and fake rippled: three URLs per network, the first a fresh node about 100 blocks
 * (ledgers) behind, set aside; the second the main node behind a proxy, stopped mid-run with a
 * payment on its way; the third the main node itself, on which the watcher carries on in the same
 * pass. Every payment counted, no block or ledger skipped. Then a preferred node back from its
 * backoff a few blocks behind the cursor (within the allowed lag): it is not read from, and no
 * reorganisation is made of its "no block" (issue 32, item 5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveAdapters, type LiveAdapter } from '@/lib/chains/live';
import type { Database } from '@/lib/db/client';
import { parseUnits } from '@/lib/money';
import { createOrder, orderRow } from './support/chain';
import { openTestDatabase } from './support/database';
import { startFakeRippled, type FakeRippled } from './support/fake-rippled';
import { randomTronAccount, startFakeTronNode, type FakeTronNode } from './support/fake-tron-node';
import {
  configureLive,
  expectNoSkippedBlock,
  randomChain,
  startFlakyProxy,
  waitFor,
  watchLive,
  type FlakyProxy,
} from './support/live';
import { createTestMerchant, type TestMerchant } from './support/merchants';

// A valid classic address (the XRP Ledger's documentation's example account).
const ACCOUNT = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';

let tron: { main: FakeTronNode; behind: FakeTronNode; proxy: FlakyProxy };
let xrpl: { main: FakeRippled; behind: FakeRippled; proxy: FlakyProxy };
let db: Database;
let merchant: TestMerchant;
let env: Record<string, string>;
type WithNodes = LiveAdapter & { nodes(): { state: string; error: string | null; retryAt: Date | null }[] };
const adapterOf = (network: string) => liveAdapters().find((a) => a.network.name === network) as WithNodes;
/** "1.5" TRX or XRP in sun or drops (both 6 decimals), never through a float. */
function sixDecimals(amount: string): bigint {
  const units = parseUnits(amount, 6);
  if (!units.ok) throw new Error(`not an amount: ${amount}`);
  return units.value;
}
const states = (adapter: WithNodes) => adapter.nodes().map((n) => n.state);

beforeAll(async () => {
  const [tronMain, tronBehind, rippledMain, rippledBehind] = await Promise.all([
    startFakeTronNode(),
    startFakeTronNode(),
    startFakeRippled(),
    startFakeRippled(),
  ]);
  tronMain.mine(110);
  tronBehind.mine(5);
  for (let i = 0; i < 110; i++) rippledMain.closeLedger();
  tron = { main: tronMain, behind: tronBehind, proxy: await startFlakyProxy(tronMain.url, 5) };
  xrpl = { main: rippledMain, behind: rippledBehind, proxy: await startFlakyProxy(rippledMain.url, 6) };
  env = {
    TRON_RPC_URL: [tron.behind.url, tron.proxy.url, tron.main.url].join(','),
    TRON_XPUB: randomChain("m/44'/195'/0'/0", false).xpub,
    TRON_CONFIRMATIONS: '2',
    TRON_TOKENS: 'none',
    RIPPLE_RPC_URL: [xrpl.behind.url, xrpl.proxy.url, xrpl.main.url].join(','),
    RIPPLE_ADDRESS: ACCOUNT,
    RIPPLE_UNTAGGED_MERCHANT: '00000000-0000-4000-8000-000000000000',
    CHAIN_RPC_TIMEOUT_MS: '3000',
    ADDRESS_POOL_SIZE: '16',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  };
  configureLive(env);
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
  const owner = await createTestMerchant(db, 'Gateway operator');
  env.RIPPLE_UNTAGGED_MERCHANT = owner.merchantId;
  configureLive(env);
  await watchLive(db, adapterOf('tron'));
  await watchLive(db, adapterOf('ripple'));
}, 120_000);

afterAll(async () => {
  await Promise.all([tron?.proxy.close(), xrpl?.proxy.close()]);
  await db?.close();
  await Promise.all([tron?.main.close(), tron?.behind.close(), xrpl?.main.close(), xrpl?.behind.close()]);
});

async function payAndSettle(
  network: 'tron' | 'ripple',
  pay: (order: Awaited<ReturnType<typeof createOrder>>, amount: string) => void,
  mine: () => void,
  proxy: FlakyProxy,
) {
  const adapter = adapterOf(network);
  expect(states(adapter)).toEqual(['lagging', 'in use', 'standby']);
  expect(adapter.nodes()[0]!.error).toMatch(/blocks behind the best node/);
  const currency = network === 'tron' ? 'TRX' : 'XRP';
  const orders = [];
  for (const amount of ['1.5', '2.5']) {
    const order = await createOrder(db, merchant.live, { currency, network, amount });
    orders.push(order);
    pay(order, amount);
    mine();
    await watchLive(db, adapter);
  }
  expect(proxy.passed).toBeGreaterThan(0);
  // The preferred node stops with a payment on its way; the very next pass goes on without it.
  const during = await createOrder(db, merchant.live, { currency, network, amount: '3.5' });
  orders.push(during);
  pay(during, '3.5');
  await proxy.close();
  mine();
  await watchLive(db, adapter);
  expect(states(adapter)).toEqual(['lagging', 'failing', 'in use']);
  for (let i = 0; i < 5; i++) {
    mine();
    await watchLive(db, adapter);
  }
  for (const order of orders) expect((await orderRow(db, order.id)).status, order.amount).toBe('processed');
  await expectNoSkippedBlock(db, network);
}

describe('failover on the fake nodes', () => {
  it('tron: the node 100 blocks behind set aside; the preferred node stopped mid-run; nothing missed', async () => {
    const payer = randomTronAccount();
    await payAndSettle(
      'tron',
      (order, amount) => void tron.main.sendTrx(payer, order.address, sixDecimals(amount)),
      () => tron.main.mine(1),
      tron.proxy,
    );
  });

  it('ripple: the node 100 ledgers behind set aside; the preferred node stopped mid-run; nothing missed', async () => {
    await payAndSettle(
      'ripple',
      (order, amount) =>
        void xrpl.main.pay({ to: ACCOUNT, tag: Number(order.tag), delivered: String(sixDecimals(amount)) }),
      () => void xrpl.main.closeLedger(),
      xrpl.proxy,
    );
  });

  it('tron: the preferred node back from its backoff a few blocks behind the cursor: not read from, no false reorganisation', async () => {
    // A second server of the main chain, preferred: a node, or a provider's backend, of the same chain.
    const replica = await tron.main.replica();
    configureLive({ ...env, TRON_RPC_URL: `${replica.url},${tron.main.url}`, TRON_RPC_MAX_LAG: '5' });
    const adapter = adapterOf('tron');
    const order = await createOrder(db, merchant.live, { currency: 'TRX', network: 'tron', amount: '4.5' });
    const tx = tron.main.sendTrx(randomTronAccount(), order.address, sixDecimals('4.5'));
    tron.main.mine(3); // two confirmations, and the head lag's block
    await watchLive(db, adapter);
    expect((await orderRow(db, order.id)).status).toBe('processed');
    expect(states(adapter)).toEqual(['in use', 'standby']);

    // The preferred node stops; the chain goes on, and so does the watcher, on the other node.
    await replica.stop();
    tron.main.mine(1);
    await watchLive(db, adapter);
    expect(states(adapter)).toEqual(['failing', 'in use']);
    const [cursor] = await db.query<{ height: string }>(
      "select height from chain_cursors where network = 'tron' and mode = 'live'",
    );

    // It comes back 4 blocks behind (within TRON_RPC_MAX_LAG): the payment's block is above its head.
    replica.lag = 4;
    await replica.restart();
    await waitFor('the stopped node out of its backoff', async () => adapter.nodes()[0]!.retryAt === null);
    await watchLive(db, adapter);
    const [transfer] = await db.query<{ dropped: boolean; block_height: string | null }>(
      'select dropped, block_height from chain_transfers where tx_hash = $1',
      [tx],
    );
    expect(transfer).toMatchObject({ dropped: false });
    expect(transfer!.block_height).not.toBeNull();
    const payments = await db.query<{ status: string }>('select status from payments where tx_hash = $1', [tx]);
    expect(payments).toEqual([{ status: 'processed' }]);
    const [after] = await db.query<{ height: string }>(
      "select height from chain_cursors where network = 'tron' and mode = 'live'",
    );
    expect(Number(after!.height)).toBeGreaterThanOrEqual(Number(cursor!.height));
    expect(states(adapter)).toEqual(['standby', 'in use']);

    // Caught up, it is the preferred node again.
    replica.lag = 0;
    tron.main.mine(1);
    await watchLive(db, adapter);
    expect(states(adapter)).toEqual(['in use', 'standby']);
    await expectNoSkippedBlock(db, 'tron');
  });
});
