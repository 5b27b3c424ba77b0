/**
 * Live mode on an EVM network against the scripted node of tests/support/scripted-evm-node.ts:
 * the answers a real node (anvil, tests/live-evm.pg.test.ts) gives only by accident, written by the
 * test. A receipts answer missing a transaction's receipt, or holding another block's receipts,
 * must fail the pass rather than read the payment as reverted (issue 32, item 9).
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
