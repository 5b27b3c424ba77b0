/**
 * Live mode on Tron: the Tron adapter over HTTP against the fake java-tron node of
 * tests/support/fake-tron-node.ts (no Tron node can run here; the fake follows the public API
 * documentation and says which pages), with the real watcher, state machine, database and webhook
 * dispatcher. TRX and a configured USDT contract; a look-alike contract emits the same event.
 */
import { describe, expect, it } from 'vitest';
import { liveAdapters, liveNetworks, type LiveAdapter } from '@/lib/chains/live';
import type { Database } from '@/lib/db/client';
import { loadPublicView } from '@/lib/pay/public-view';
import { createOrder, orderRow } from './support/chain';
import { randomTronAccount, type FakeTronNode } from './support/fake-tron-node';
import {
  allProcessed,
  configureLive,
  expectNoSkippedBlock,
  randomChain,
  tryWatchLive,
  waitFor,
  watchLive,
  withLiveNetwork,
  type WebhookReceiver,
} from './support/live';
import { fakeTronNetwork } from './support/live-networks';
import type { TestMerchant } from './support/merchants';

const CONFIRMATIONS = 3;
const API_KEY = 'test-tron-pro-api-key';
const USDT = randomTronAccount();
const LOOK_ALIKE = randomTronAccount();
const payer = randomTronAccount();

let node: FakeTronNode;
let db: Database;
let merchant: TestMerchant;
let adapter: LiveAdapter;
let receiver: WebhookReceiver;
withLiveNetwork(
  fakeTronNetwork({
    apiKey: API_KEY,
    xpub: randomChain("m/44'/195'/0'/0", false).xpub,
    confirmations: CONFIRMATIONS,
    tokens: `USDT:${USDT}`,
  }),
  (live) => ({ node, db, merchant, adapter, receiver } = live),
);

async function cursorHeight(): Promise<number> {
  const [row] = await db.query<{ height: string }>(
    "select height from chain_cursors where network = 'tron' and mode = 'live'",
  );
  return Number(row!.height);
}

async function transfersOf(orderId: string) {
  return db.query<{ tx_hash: string; currency: string; amount: string; dropped: boolean }>(
    'select tx_hash, currency, amount, dropped from chain_transfers where order_id = $1 order by tx_hash',
    [orderId],
  );
}

describe('live tron (fake java-tron node)', () => {
  it('an exact TRX payment is processed at the required confirmations, with its success webhook', async () => {
    const order = await createOrder(db, merchant.live, {
      currency: 'TRX',
      network: 'tron',
      amount: '150.5',
      successWebhook: receiver.url,
    });
    expect(order.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const tx = node.sendTrx(payer, order.address, 150_500_000n);
    node.mine(1);
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toEqual([
      { tx_hash: tx, currency: 'TRX', amount: '150500000', dropped: false },
    ]);
    expect((await orderRow(db, order.id)).status).toBe('pending');

    node.mine(CONFIRMATIONS - 1);
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '150500000' });
    const hook = await waitFor('the success webhook', async () =>
      receiver.received.find((r) => JSON.stringify(r.body).includes(order.id)),
    );
    expect(JSON.stringify(hook.body)).toContain('processed');
    expect(hook.headers['x-api-signature']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('an exact USDT-TRC20 payment from the configured contract is processed; the page shows the configured contract', async () => {
    const order = await createOrder(db, merchant.live, {
      currency: 'USDT',
      network: 'tron',
      amount: '25.5',
      successWebhook: receiver.url,
    });
    const page = await loadPublicView(db, order.id);
    expect(page!.requiredConfirmations).toBe(CONFIRMATIONS);
    const tx = node.sendToken(USDT, payer, order.address, 25_500_000n);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toEqual([
      { tx_hash: tx, currency: 'USDT', amount: '25500000', dropped: false },
    ]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '25500000' });
    await waitFor('the USDT success webhook', async () =>
      receiver.received.find((r) => JSON.stringify(r.body).includes(order.id)),
    );
  });

  it('REVERT, OUT_OF_ENERGY and a look-alike contract emitting Transfer credit nothing', async () => {
    const order = await createOrder(db, merchant.live, { currency: 'USDT', network: 'tron', amount: '5' });
    node.sendToken(USDT, payer, order.address, 5_000_000n, 'REVERT');
    node.sendToken(USDT, payer, order.address, 5_000_000n, 'OUT_OF_ENERGY');
    node.sendToken(LOOK_ALIKE, payer, order.address, 5_000_000n);
    node.mine(CONFIRMATIONS + 1);
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toEqual([]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '0' });
  });

  it('a TRX amount beyond 2^53 sun is read exactly (never through a float)', async () => {
    const order = await createOrder(db, merchant.live, {
      currency: 'TRX',
      network: 'tron',
      amount: '9007199254.740993',
    });
    node.sendTrx(payer, order.address, 9_007_199_254_740_993n);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '9007199254740993' });
  });

  it('a reorganisation before solidification un-counts the payment', async () => {
    const order = await createOrder(db, merchant.live, {
      currency: 'USDT',
      network: 'tron',
      amount: '7',
      successWebhook: receiver.url,
    });
    const tx = node.sendToken(USDT, payer, order.address, 7_000_000n);
    node.mine(CONFIRMATIONS - 1);
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toMatchObject([{ tx_hash: tx, dropped: false }]);

    // The two newest blocks (the payment's among them) are replaced by three without it.
    node.reorg(CONFIRMATIONS - 1);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toMatchObject([{ tx_hash: tx, dropped: true }]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '0' });
    expect(receiver.received.some((r) => JSON.stringify(r.body).includes(order.id))).toBe(false);
  });

  it('a transfer out of a deposit address is recorded as the withdrawal of its deposit', async () => {
    const order = await createOrder(db, merchant.live, { currency: 'TRX', network: 'tron', amount: '1' });
    node.sendTrx(payer, order.address, 1_000_000n);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect((await orderRow(db, order.id)).status).toBe('processed');
    const late = node.sendTrx(payer, order.address, 2_000_000n);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    const sweepTo = randomTronAccount();
    const out = node.sendTrx(order.address, sweepTo, 1_990_000n);
    node.mine(1);
    await watchLive(db, adapter);
    const [deposit] = await db.query<{ kind: string; stage: string; out_tx_hash: string; out_address: string }>(
      'select kind, stage, out_tx_hash, out_address from deposits where in_tx_hash = $1',
      [late],
    );
    expect(deposit).toEqual({ kind: 'ORPHAN', stage: 'WITHDRAWAL', out_tx_hash: out, out_address: sweepTo });
  });

  it('the node failing a third of its calls, then stopped and restarted: no payment missed, no block skipped', async () => {
    const orders = [];
    node.failRate = 1 / 3;
    let failures = 0;
    for (let round = 0; round < 16; round++) {
      // A TRX and a USDT payment each round, in blocks 1 to 3 apart.
      const trx = await createOrder(db, merchant.live, { currency: 'TRX', network: 'tron', amount: `${round + 1}` });
      const usdt = await createOrder(db, merchant.live, { currency: 'USDT', network: 'tron', amount: `${round + 1}` });
      orders.push(trx, usdt);
      node.sendTrx(payer, trx.address, BigInt(round + 1) * 1_000_000n);
      node.sendToken(USDT, payer, usdt.address, BigInt(round + 1) * 1_000_000n);
      node.mine(1 + (round % 3));
      if (!(await tryWatchLive(db, adapter))) failures++;
    }
    // Every method the adapter calls failed at least once.
    expect([...node.failedCalls.keys()].sort()).toEqual([
      '/wallet/getblock',
      '/wallet/getblockbylimitnext',
      '/wallet/gettransactioninfobyblocknum',
    ]);
    expect(failures).toBeGreaterThan(0);

    // Stopped while a payment's block comes; blocks are produced on while it is down.
    const during = await createOrder(db, merchant.live, { currency: 'USDT', network: 'tron', amount: '50' });
    orders.push(during);
    node.sendToken(USDT, payer, during.address, 50_000_000n);
    node.mine(1);
    await node.stop();
    expect(await tryWatchLive(db, adapter)).toBe(false);
    node.mine(2);
    await node.restart();
    node.mine(CONFIRMATIONS);

    for (
      let i = 0;
      i < 40 &&
      !(await allProcessed(
        db,
        orders.map((o) => o.id),
      ));
      i++
    )
      await tryWatchLive(db, adapter);
    node.failRate = 0;
    node.mine(1);
    await watchLive(db, adapter);
    for (const order of orders)
      expect((await orderRow(db, order.id)).status, `${order.currency} ${order.amount}`).toBe('processed');
    expect(await expectNoSkippedBlock(db, 'tron')).toBe(node.height());
  });

  it('a node that falls behind the cursor (lag) and catches up: no reorganisation, nothing un-counted, no block skipped', async () => {
    const counted = await createOrder(db, merchant.live, { currency: 'USDT', network: 'tron', amount: '2' });
    node.sendToken(USDT, payer, counted.address, 2_000_000n);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect((await orderRow(db, counted.id)).status).toBe('processed');
    const order = await createOrder(db, merchant.live, { currency: 'USDT', network: 'tron', amount: '3' });
    node.sendToken(USDT, payer, order.address, 3_000_000n);
    node.mine(1);
    await watchLive(db, adapter);
    const before = await transfersOf(order.id);
    const cursor = await cursorHeight();

    // The node answers as if 4 blocks behind: both payments' blocks are above its head. It has
    // "no block" at the cursor, which is no fork.
    node.lag = 4;
    await watchLive(db, adapter);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect(await cursorHeight()).toBe(cursor);
    expect(await transfersOf(order.id)).toEqual(before);
    expect((await orderRow(db, order.id)).status).toBe('pending');
    const payments = await db.query<{ status: string }>('select status from payments where order_id = $1', [
      counted.id,
    ]);
    expect(payments).toEqual([{ status: 'processed' }]);

    node.lag = 0;
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '3000000' });
    expect(await transfersOf(order.id)).toHaveLength(1);
    expect(await expectNoSkippedBlock(db, 'tron')).toBe(node.height());
  });

  it('a reorganisation to a shorter chain (no block at the cursor, another at the head) un-counts the payment', async () => {
    const order = await createOrder(db, merchant.live, { currency: 'TRX', network: 'tron', amount: '11' });
    const tx = node.sendTrx(payer, order.address, 11_000_000n);
    node.mine(2);
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toMatchObject([{ tx_hash: tx, dropped: false }]);
    // The three newest blocks, the payment's among them, are replaced by one without it.
    node.reorg(3, 1);
    expect(node.height()).toBeLessThan(await cursorHeight());
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toMatchObject([{ tx_hash: tx, dropped: true }]);
    expect(await cursorHeight()).toBe(node.height());
  });

  it('execution results behind the blocks ([] or {}): the scan fails until they come, and the USDT payment counts', async () => {
    for (const empty of ['[]', '{}'] as const) {
      const order = await createOrder(db, merchant.live, { currency: 'USDT', network: 'tron', amount: '4' });
      const tx = node.sendToken(USDT, payer, order.address, 4_000_000n);
      // A provider whose results backend is a block behind its blocks: the payment's block, the
      // newest, has "no results" yet.
      node.resultsLag = 1;
      node.emptyResults = empty;
      node.mine(1);
      const cursor = await cursorHeight();
      expect(await tryWatchLive(db, adapter), `results answered ${empty}`).toBe(false);
      expect(await cursorHeight()).toBe(cursor);
      node.resultsLag = 0;
      node.mine(CONFIRMATIONS - 1);
      await watchLive(db, adapter);
      expect(await transfersOf(order.id)).toEqual([
        { tx_hash: tx, currency: 'USDT', amount: '4000000', dropped: false },
      ]);
      expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '4000000' });
    }
    node.emptyResults = '[]';
  });

  it("a USDT payment made by a contract's constructor (CreateSmartContract) counts", async () => {
    const order = await createOrder(db, merchant.live, { currency: 'USDT', network: 'tron', amount: '6' });
    const tx = node.deployPaying(USDT, payer, order.address, 6_000_000n);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toEqual([{ tx_hash: tx, currency: 'USDT', amount: '6000000', dropped: false }]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '6000000' });
  });

  it('TRON_HEAD_LAG unset (1 block): results a block behind never fail a pass', async () => {
    delete process.env.TRON_HEAD_LAG;
    configureLive({});
    const lagged = liveAdapters().find((a) => a.network.name === 'tron')!;
    try {
      const order = await createOrder(db, merchant.live, { currency: 'USDT', network: 'tron', amount: '8' });
      node.resultsLag = 1;
      node.sendToken(USDT, payer, order.address, 8_000_000n);
      node.mine(1);
      await watchLive(db, lagged);
      expect(await cursorHeight()).toBe(node.height() - 1);
      node.mine(CONFIRMATIONS);
      await watchLive(db, lagged);
      expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '8000000' });
    } finally {
      node.resultsLag = 0;
      configureLive({ TRON_HEAD_LAG: '0' });
      await watchLive(db, adapter);
    }
  });

  it('asks the node only the documented methods, with the API key, and never about addresses', () => {
    expect([...node.calls.keys()].sort()).toEqual([
      '/wallet/getblock',
      '/wallet/getblockbylimitnext',
      '/wallet/gettransactioninfobyblocknum',
      '/wallet/triggerconstantcontract',
    ]);
  });

  it("a configured contract whose decimals() is not the catalog token's, or that has none, is refused before any scan", async () => {
    const eighteen = randomTronAccount();
    node.tokenDecimals.set(eighteen, 18);
    const order = await createOrder(db, merchant.live, { currency: 'USDT', network: 'tron', amount: '1' });
    try {
      for (const [contract, refusal] of [
        [eighteen, /TRON_TOKENS: USDT at T\w+ has 18 decimals; USDT on tron has 6$/],
        [randomTronAccount(), /TRON_TOKENS: USDT at T\w+ does not answer decimals\(\) \(CONTRACT_VALIDATE_ERROR: /],
      ] as const) {
        configureLive({ TRON_TOKENS: `USDT:${contract}` });
        const refused = liveAdapters().find((a) => a.network.name === 'tron')!;
        node.sendToken(contract, payer, order.address, 1_000_000_000_000n);
        node.mine(CONFIRMATIONS);
        const error = await watchLive(db, refused).then(
          () => null,
          (e: Error) => e.message,
        );
        expect(error).toMatch(refusal);
        expect(await transfersOf(order.id)).toEqual([]);
      }
    } finally {
      configureLive({ TRON_TOKENS: `USDT:${USDT}` });
      await watchLive(db, adapter);
    }
  });

  it('TRON_CONFIRMATIONS=solid: a payment counts once its block is solidified, and only then', async () => {
    configureLive({ TRON_CONFIRMATIONS: 'solid' });
    node.solidDistance = 5;
    const solid = liveAdapters().find((a) => a.network.name === 'tron')!;
    expect(solid.requiredConfirmations).toBe(1);
    expect(liveNetworks().find((n) => n.name === 'tron')!.confirmations).toBe(1);
    node.mine(node.solidDistance); // the cursor (the old head) is solidified now
    const order = await createOrder(db, merchant.live, { currency: 'TRX', network: 'tron', amount: '2' });
    node.sendTrx(payer, order.address, 2_000_000n);
    node.mine(node.solidDistance);
    await watchLive(db, solid);
    expect(await transfersOf(order.id)).toEqual([]);
    node.mine(1);
    await watchLive(db, solid);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '2000000' });
    expect(node.calls.get('/walletsolidity/getblock')).toBeGreaterThan(0);
  });

  it('a wrong API key is refused with a message naming the variable, without the key', async () => {
    configureLive({ TRON_API_KEY: 'not-the-key', TRON_CONFIRMATIONS: String(CONFIRMATIONS) });
    const wrong = liveAdapters().find((a) => a.network.name === 'tron')!;
    const error = await wrong.head().then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(
      /^tron node at http:\/\/127\.0\.0\.1:\d+ refused the API key \(HTTP 401\): check TRON_API_KEY$/,
    );
    configureLive({ TRON_API_KEY: API_KEY });
  });

  it('a token contract with a bad checksum or an unusable extended public key stops start-up naming its variable', () => {
    const xpub = process.env.TRON_XPUB!;
    try {
      configureLive({ TRON_TOKENS: `USDT:${USDT.slice(0, -1)}${USDT.endsWith('1') ? '2' : '1'}` });
      expect(() => liveNetworks()).toThrow(/TRON_TOKENS: USDT:T\w+ is not a valid Tron address \(checksum\)/);
      configureLive({ TRON_TOKENS: `USDT:${USDT}`, TRON_XPUB: xpub.slice(0, -2) });
      expect(() => liveNetworks()).toThrow(/TRON_XPUB: /);
    } finally {
      configureLive({ TRON_TOKENS: `USDT:${USDT}`, TRON_XPUB: xpub });
    }
  });

  // Last: the chain's clock stays past every deadline afterwards.
  it('by chain time: partial then expiry is partial, one sun short is unpaid then partial, nothing paid expires', async () => {
    const half = await createOrder(db, merchant.live, { currency: 'TRX', network: 'tron', amount: '10' });
    const short = await createOrder(db, merchant.live, { currency: 'USDT', network: 'tron', amount: '10' });
    const unpaid = await createOrder(db, merchant.live, { currency: 'TRX', network: 'tron', amount: '3' });
    node.sendTrx(payer, half.address, 5_000_000n);
    node.sendToken(USDT, payer, short.address, 9_999_999n);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect(await orderRow(db, half.id)).toMatchObject({ status: 'pending', received: '5000000' });
    expect(await orderRow(db, short.id)).toMatchObject({ status: 'pending', received: '9999999' });

    // The chain's clock passes every deadline.
    const late = half.expires_at.getTime() + 600_000;
    node.clock = late;
    node.mine(CONFIRMATIONS);
    node.clock = undefined;
    await watchLive(db, adapter, new Date(late));
    expect(await orderRow(db, half.id)).toMatchObject({ status: 'partial', received: '5000000' });
    expect(await orderRow(db, short.id)).toMatchObject({ status: 'partial', received: '9999999' });
    expect((await orderRow(db, unpaid.id)).status).toBe('expired');
  });
});
