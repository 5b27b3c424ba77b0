/**
 * The watcher over scripted chains (support/scripted-chain.ts): what a real chain does now and
 * then and no node of ours can be made to do on demand. A sender only the block names, block
 * times that go backwards or run hours ahead, a fee bump after the deadline, a step under way
 * while the sweeper runs. Each case is what the watcher must decide the same way whatever its
 * timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { denyListScreen, noRiskScreen } from '@/lib/risk';
import { sweepExpired } from '@/lib/watcher';
import { openTestDatabase } from './support/database';
import { after, createOrder, orderRow, watchOnce } from './support/chain';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { waitFor } from './support/live';
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
const LTC = { currency: 'LTC', network: 'litecoin' };

/** A fresh scripted chain for test mode's `name`, its watcher starting at its genesis. */
async function freshChain(name: string) {
  await forgetCursor(db, name);
  return scriptedChain(name);
}

async function depositsOf(orderId: string) {
  return db.query<{ kind: string; amount: string }>('select kind, amount from deposits where order_id = $1', [orderId]);
}

async function firstSeenOf(orderId: string): Promise<Date[]> {
  const rows = await db.query<{ first_seen_at: Date }>(
    'select first_seen_at from chain_transfers where order_id = $1',
    [orderId],
  );
  return rows.map((r) => r.first_seen_at);
}

/** Makes an order of test mode whose deadline is `expiresAt` (make-order's shortest lifetime is 30 minutes). */
async function orderExpiringAt(fields: Record<string, unknown>, expiresAt: Date) {
  const order = await createOrder(db, merchant.test, fields);
  await db.query('update orders set expires_at = $2 where id = $1', [order.id, expiresAt]);
  return { ...order, expires_at: expiresAt };
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

describe('one chain time for the transfers and the sweeper', () => {
  it('a block dated before its parent: the same blocks read in one step or in two decide the order alike', async () => {
    const now = new Date();
    const expiry = after(now, -600);
    // Read in two steps: the block dated after the deadline, then the one dated before it.
    const twoSteps = await freshChain('bitcoin');
    const paidLate = await orderExpiringAt({ ...BTC, amount: '0.5' }, expiry);
    // Read in one step.
    const oneStep = await freshChain('litecoin');
    const alsoLate = await orderExpiringAt({ ...LTC, amount: '0.5' }, expiry);

    for (const [chain, order] of [
      [twoSteps, paidLate],
      [oneStep, alsoLate],
    ] as const) {
      chain.mine(after(expiry, 60));
      if (chain === twoSteps) await watchOnce(db, chain, { now });
      // Dated two minutes before its parent, and before the deadline.
      chain.mine(after(expiry, -60), [{ to: order.address, currency: order.currency, amount: 50_000_000n }]);
      await watchOnce(db, chain, { now });
    }

    // The payment came in a block after one dated past the deadline: late on chain time, an
    // orphan deposit of the order, however the watcher's steps fell.
    const statuses = await Promise.all(
      [paidLate, alsoLate].map(async (order) => (await orderRow(db, order.id)).status),
    );
    expect(statuses).toEqual(['expired', 'expired']);
    for (const order of [paidLate, alsoLate]) {
      expect(await depositsOf(order.id)).toEqual([{ kind: 'ORPHAN', amount: '50000000' }]);
      expect(await firstSeenOf(order.id)).toEqual([after(expiry, 60)]);
    }
  });

  it('a block dated two hours ahead carries chain time no further than the gateway clock allows', async () => {
    const now = new Date();
    const chain = await freshChain('bitcoin');
    const order = await orderExpiringAt({ ...BTC, amount: '0.5' }, after(now, 30 * 60));
    const waiting = await orderExpiringAt({ ...BTC, amount: '0.5' }, after(now, 60 * 60));
    // As far ahead as consensus allows, then an honest block with the payment.
    chain.mine(after(now, 2 * 3600));
    chain.mine(now, [{ to: order.address, currency: 'BTC', amount: 50_000_000n }]);
    await watchOnce(db, chain, { now });

    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '50000000' });
    expect((await orderRow(db, waiting.id)).status).toBe('pending');
    const [seenAt] = await firstSeenOf(order.id);
    expect(seenAt!.getTime()).toBeLessThanOrEqual(after(now, 5 * 60).getTime());
    // The orders still running expire by the blocks of their time, not by that one.
    const hourLater = after(now, 60 * 60 + 1);
    await watchOnce(db, chain, { now: hourLater });
    expect((await orderRow(db, waiting.id)).status).toBe('pending');
    chain.mine(hourLater);
    await watchOnce(db, chain, { now: hourLater });
    expect((await orderRow(db, waiting.id)).status).toBe('expired');
  });
});

describe('a replacement by fee (RBF) after the deadline', () => {
  it('keeps the sighting of the transaction it replaces: same outputs spent, same address paid', async () => {
    const now = new Date();
    const expiry = after(now, -600);
    const chain = await freshChain('bitcoin');
    const order = await orderExpiringAt({ ...BTC, amount: '0.5' }, expiry);
    const stranger = await orderExpiringAt({ ...BTC, amount: '0.5' }, expiry);
    const paid = { to: order.address, currency: 'BTC', amount: 50_000_000n };
    // Broadcast before the deadline with too low a fee.
    chain.showMempool([
      { ...paid, txHash: 'e5'.repeat(32), spentOutpoints: [`${'f6'.repeat(32)}:1`], seenAt: after(expiry, -60) },
    ]);
    await watchOnce(db, chain, { now: after(expiry, -30) });
    // After it, the payer bumps the fee: a new transaction spending the same output, mined at once.
    // A transfer to the other order spending the same output is no replacement of this payment.
    const bump = { ...paid, txHash: 'a7'.repeat(32), spentOutpoints: [`${'f6'.repeat(32)}:1`, `${'b8'.repeat(32)}:0`] };
    chain.showMempool([]);
    chain.mine(after(expiry, 120), [
      bump,
      {
        to: stranger.address,
        currency: 'BTC',
        amount: 50_000_000n,
        outputIndex: 1,
        txHash: bump.txHash,
        spentOutpoints: bump.spentOutpoints,
      },
    ]);
    await watchOnce(db, chain, { now: after(expiry, 180) });

    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '50000000' });
    expect((await orderRow(db, stranger.id)).status).toBe('expired');
    expect(await depositsOf(stranger.id)).toEqual([{ kind: 'ORPHAN', amount: '50000000' }]);
  });
});

describe('the expiry sweeper and a step under way', () => {
  it('judges an order by the cursor the step leaves, not by the one it read before the step', async () => {
    const now = new Date();
    const expiry = after(now, -600);
    await forgetCursor(db, 'dogecoin');
    const chain = scriptedChain('dogecoin', 2);
    const order = await orderExpiringAt({ currency: 'DOGE', network: 'dogecoin', amount: '5' }, expiry);
    const payment = { txHash: 'c3'.repeat(32), to: order.address, currency: 'DOGE', amount: 500_000_000n };
    chain.showMempool([{ ...payment, seenAt: after(expiry, -120) }]);
    await watchOnce(db, chain, { now });
    chain.mine(after(expiry, 60));
    chain.mine(after(expiry, 90), [payment]);
    await watchOnce(db, chain, { now });
    // Paid in time, one confirmation of two: it waits past its deadline.
    expect((await orderRow(db, order.id)).status).toBe('pending');

    // A step under way (the test's transaction, holding the locks a step holds) finds the chain
    // reorganised to a shorter one whose tip has the payment: still one confirmation.
    let sweep: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.query(`select 1 from chain_cursors where network = 'dogecoin' and mode = 'test' for update`);
      await tx.query('select 1 from orders where id = $1 for update', [order.id]);
      await tx.query(`update chain_cursors set height = 1, hash = $1 where network = 'dogecoin' and mode = 'test'`, [
        'd4'.repeat(32),
      ]);
      await tx.query('update chain_transfers set block_height = 1 where order_id = $1', [order.id]);
      sweep = sweepExpired(db, chain, 'test', noRiskScreen, () => now);
      await waitFor('the sweeper to wait for the step', async () => {
        const [row] = await db.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        return row!.n > 0;
      });
    });
    await sweep;
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '0' });
  });
});
