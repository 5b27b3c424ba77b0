/**
 * The watcher over scripted chains (support/scripted-chain.ts): what a real chain does now and
 * then and no node of ours can be made to do on demand. A sender only the block names, block
 * times that go backwards or run hours ahead. Each case is what the watcher must decide the same
 * way whatever its timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { denyListScreen } from '@/lib/risk';
import { openTestDatabase } from './support/database';
import { createOrder, orderRow, watchOnce } from './support/chain';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { forgetCursor, scriptedChain } from './support/scripted-chain';

let db: Database;
let merchant: TestMerchant;

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
});
afterAll(async () => {
  await db?.close();
});

const BTC = { currency: 'BTC', network: 'bitcoin' };

/** A fresh scripted chain for test mode's `name`, its watcher starting at its genesis. */
async function freshChain(name: string) {
  await forgetCursor(db, name);
  return scriptedChain(name);
}

describe('risk screening of a payment first seen in the mempool', () => {
  const screen = denyListScreen(['bc1qdenied']);

  it('screens the sender its block names: a deny-listed sender moves the order to error', async () => {
    const chain = await freshChain('bitcoin');
    const order = await createOrder(db, merchant.test, { ...BTC, amount: '0.5', checkRisks: true });
    const payment = { txHash: 'a1'.repeat(32), to: order.address, currency: 'BTC', amount: 50_000_000n };
    // A UTXO node's mempool entry has no prevouts: it names no sender.
    chain.showMempool([{ ...payment, from: null, seenAt: new Date() }]);
    await watchOnce(db, chain, { screen });
    expect((await orderRow(db, order.id)).status).toBe('pending');

    chain.mine(new Date(), [{ ...payment, from: 'bc1qdenied' }]);
    await watchOnce(db, chain, { screen });
    expect(await orderRow(db, order.id)).toMatchObject({
      status: 'error',
      message: 'Sender bc1qdenied is on the deny list.',
      received: '0',
    });
  });

  it('never screens a payment clean when not even its block names the sender', async () => {
    const chain = await freshChain('bitcoin');
    const order = await createOrder(db, merchant.test, { ...BTC, amount: '0.5', checkRisks: true });
    const payment = { txHash: 'a2'.repeat(32), to: order.address, currency: 'BTC', amount: 50_000_000n, from: null };
    chain.showMempool([{ ...payment, seenAt: new Date() }]);
    await watchOnce(db, chain, { screen });
    chain.mine(new Date(), [payment]);
    await watchOnce(db, chain, { screen });
    expect(await orderRow(db, order.id)).toMatchObject({
      status: 'error',
      message: "The chain did not name this payment's sender, so risk screening could not check it.",
    });
  });
});
