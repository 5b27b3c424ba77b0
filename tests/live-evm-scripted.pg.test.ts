/**
 * Live mode on an EVM network against the scripted node of tests/support/scripted-evm-node.ts:
 * the answers a real node (anvil, tests/live-evm.pg.test.ts) gives only by accident, written by the
 * test. A receipts answer missing a transaction's receipt, or holding another block's receipts,
 * must fail the pass rather than read the payment as reverted (issue 32, item 9). A token payment
 * re-mined in another block, after other logs, by a reorganisation is the same payment (item 6).
 */
import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { liveAdapters, type LiveAdapter } from '@/lib/chains/live';
import type { Database } from '@/lib/db/client';
import { createOrder, orderRow } from './support/chain';
import { configureLive, randomChain, watchLive, withLiveNetwork } from './support/live';
import { scriptedEvmNetwork } from './support/live-networks';
import type { TestMerchant } from './support/merchants';
import type { ScriptedEvmNode } from './support/scripted-evm-node';

const CONFIRMATIONS = 3;
const account = () => getAddress(`0x${randomBytes(20).toString('hex')}`);
const USDT = account();
const payer = account();

let node: ScriptedEvmNode;
let db: Database;
let merchant: TestMerchant;
let adapter: LiveAdapter;
withLiveNetwork(
  scriptedEvmNetwork({
    xpub: randomChain("m/44'/60'/0'/0", false).xpub,
    confirmations: CONFIRMATIONS,
    tokens: { USDT },
  }),
  (live) => ({ node, db, merchant, adapter } = live),
);

async function cursorHeight(): Promise<number> {
  const [row] = await db.query<{ height: string }>(
    "select height from chain_cursors where network = 'ethereum' and mode = 'live'",
  );
  return Number(row!.height);
}

/** The error of a watcher pass expected to fail. */
async function failedPass(on: LiveAdapter = adapter): Promise<string> {
  return watchLive(db, on).then(
    () => 'the pass succeeded',
    (error: Error) => error.message,
  );
}

async function transfersOf(orderId: string) {
  return db.query<{ tx_hash: string; output_index: number; currency: string; amount: string; dropped: boolean }>(
    'select tx_hash, output_index, currency, amount, dropped from chain_transfers where order_id = $1 order by output_index',
    [orderId],
  );
}

describe('live ethereum (scripted node): receipts', () => {
  it("eth_getBlockReceipts without the payment's receipt: the pass fails, and the payment counts once it is there", async () => {
    const order = await createOrder(db, merchant.live, { currency: 'ETH', network: 'ethereum', amount: '1' });
    const tx = node.sendNative(payer, order.address, 10n ** 18n);
    node.receiptsMissing.add(tx);
    node.mine(1);
    const cursor = await cursorHeight();
    expect(await failedPass()).toMatch(/the receipts of block \d+ lack 1 of its 1 paying transactions/);
    expect(await cursorHeight()).toBe(cursor);

    node.receiptsMissing.clear();
    node.mine(CONFIRMATIONS - 1);
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: String(10n ** 18n) });
  });

  it('receipts of another block at the same height (status 0 there): the pass fails, and the payment counts', async () => {
    const order = await createOrder(db, merchant.live, { currency: 'ETH', network: 'ethereum', amount: '2' });
    node.sendNative(payer, order.address, 2n * 10n ** 18n);
    node.receiptsFromAnotherBlock = true;
    node.mine(1);
    const cursor = await cursorHeight();
    expect(await failedPass()).toMatch(/a receipt of block \d+ is of another block \(0x[0-9a-f]{64}\)/);
    expect(await cursorHeight()).toBe(cursor);

    node.receiptsFromAnotherBlock = false;
    node.mine(CONFIRMATIONS - 1);
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: String(2n * 10n ** 18n) });
  });

  it('a node without eth_getBlockReceipts: a receipt of another block fails the pass too', async () => {
    node.blockReceipts = false;
    configureLive({ ETHEREUM_RPC_MAX_LAG: '6' }); // new adapters, which find out the node's methods afresh
    const perTransaction = liveAdapters().find((a) => a.network.name === 'ethereum')!;
    try {
      const order = await createOrder(db, merchant.live, { currency: 'ETH', network: 'ethereum', amount: '3' });
      node.sendNative(payer, order.address, 3n * 10n ** 18n);
      node.receiptsFromAnotherBlock = true;
      node.mine(1);
      expect(await failedPass(perTransaction)).toMatch(/is of another block/);
      node.receiptsFromAnotherBlock = false;
      node.mine(CONFIRMATIONS - 1);
      await watchLive(db, perTransaction);
      expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: String(3n * 10n ** 18n) });
      expect(node.calls.get('eth_getTransactionReceipt')).toBeGreaterThan(0);
    } finally {
      node.blockReceipts = true;
      node.receiptsFromAnotherBlock = false;
    }
  });

  it('a reverted payment (status 0 in its own block) credits nothing, and the pass goes on', async () => {
    const order = await createOrder(db, merchant.live, { currency: 'ETH', network: 'ethereum', amount: '4' });
    node.sendNative(payer, order.address, 4n * 10n ** 18n, false);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toEqual([]);
    expect(await cursorHeight()).toBe(node.height());
  });
});

describe('live ethereum (scripted node): token decimals', () => {
  it("a configured contract whose decimals() is not the catalog token's, or that has none, is refused before any scan", async () => {
    const eighteen = account();
    node.decimals.set(eighteen.toLowerCase(), 18);
    const order = await createOrder(db, merchant.live, { currency: 'USDT', network: 'ethereum', amount: '1' });
    try {
      for (const [contract, refusal] of [
        [eighteen, /ETHEREUM_TOKENS: USDT at 0x[0-9a-fA-F]{40} has 18 decimals; USDT on ethereum has 6$/],
        [account(), /ETHEREUM_TOKENS: USDT at 0x[0-9a-fA-F]{40} does not answer decimals\(\)/],
      ] as const) {
        configureLive({ ETHEREUM_TOKENS: `USDT:${contract}` });
        const refused = liveAdapters().find((a) => a.network.name === 'ethereum')!;
        node.sendToken(contract, payer, [{ from: payer, to: order.address, value: 10n ** 18n }]);
        node.mine(CONFIRMATIONS);
        expect(await failedPass(refused)).toMatch(refusal);
        expect(await transfersOf(order.id)).toEqual([]);
      }
    } finally {
      configureLive({ ETHEREUM_TOKENS: `USDT:${USDT}` });
      await watchLive(db, adapter);
    }
  });
});

describe('live ethereum (scripted node): a token payment re-mined in another block', () => {
  const stranger = account();
  /** An unrelated USDT transfer, queued first so that the payment's log comes later in its new block. */
  const otherLogFirst = () => node.sendToken(USDT, payer, [{ from: payer, to: stranger, value: 1n }]);

  async function depositsOf(txHash: string) {
    return db.query<{ kind: string }>('select kind from deposits where in_tx_hash = $1', [txHash]);
  }

  it("one transaction paying two orders among others' transfers: each transfer its own key, from 1", async () => {
    const first = await createOrder(db, merchant.live, { currency: 'USDT', network: 'ethereum', amount: '7' });
    const second = await createOrder(db, merchant.live, { currency: 'USDT', network: 'ethereum', amount: '8' });
    const tx = node.sendToken(USDT, payer, [
      { from: payer, to: stranger, value: 1n },
      { from: payer, to: first.address, value: 7_000_000n },
      { from: payer, to: second.address, value: 8_000_000n },
    ]);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect((await transfersOf(first.id)).map((t) => [t.tx_hash, t.output_index])).toEqual([[tx, 2]]);
    expect((await transfersOf(second.id)).map((t) => [t.tx_hash, t.output_index])).toEqual([[tx, 3]]);
    expect((await orderRow(db, first.id)).status).toBe('processed');
    expect((await orderRow(db, second.id)).status).toBe('processed');
  });

  it('of a final order: the same transfer, still counted; no orphan deposit of money already counted', async () => {
    const order = await createOrder(db, merchant.live, { currency: 'USDT', network: 'ethereum', amount: '5' });
    const tx = node.sendToken(USDT, payer, [{ from: payer, to: order.address, value: 5_000_000n }]);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '5000000' });

    // Its block and the ones after it are replaced; the new first block has another log before it.
    otherLogFirst();
    node.requeue(tx);
    node.reorg(CONFIRMATIONS);
    node.mine(CONFIRMATIONS);
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toEqual([
      { tx_hash: tx, output_index: 1, currency: 'USDT', amount: '5000000', dropped: false },
    ]);
    expect(await depositsOf(tx)).toEqual([]);
    const [payment] = await db.query<{ status: string }>('select status from payments where tx_hash = $1', [tx]);
    expect(payment).toEqual({ status: 'processed' });
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '5000000' });
  });

  // Last: the chain's clock stays past every deadline afterwards.
  it('of a pending order, re-mined after the order expired: still the payment made in time', async () => {
    const order = await createOrder(db, merchant.live, { currency: 'USDT', network: 'ethereum', amount: '6' });
    const tx = node.sendToken(USDT, payer, [{ from: payer, to: order.address, value: 6_000_000n }]);
    node.mine(1);
    await watchLive(db, adapter);
    expect(await transfersOf(order.id)).toHaveLength(1);

    const late = order.expires_at.getTime() + 600_000;
    node.clock = Math.floor(late / 1000);
    otherLogFirst();
    node.requeue(tx);
    node.reorg(1);
    node.mine(CONFIRMATIONS);
    node.clock = undefined;
    await watchLive(db, adapter, new Date(late));
    expect(await transfersOf(order.id)).toEqual([
      { tx_hash: tx, output_index: 1, currency: 'USDT', amount: '6000000', dropped: false },
    ]);
    expect(await depositsOf(tx)).toEqual([]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '6000000' });
  });
});
