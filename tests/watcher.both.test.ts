import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcast, drop, faucetAddress, mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import { setDepositKey } from '@/lib/payouts';
import { denyListScreen } from '@/lib/risk';
import { sweepExpired, watchStep } from '@/lib/watcher';
import { openTestDatabase } from './support/database';
import { after, createOrder, eventsOf, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let db: Database;
let merchant: TestMerchant;

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
});
afterAll(async () => {
  await db?.close();
});

const LTC = { currency: 'LTC', network: 'litecoin' };

async function pay(
  to: { address: string; tag: string | null },
  net: string,
  currency: string,
  amount: bigint,
  at?: Date,
  from?: string,
) {
  return (await broadcast(db, { network: network(net), to: to.address, tag: to.tag, currency, amount, at, from }))
    .txHash;
}

async function payments(orderId: string) {
  return db.query<{ tx_hash: string; status: string; confirmations: number; amount: string }>(
    'select tx_hash, status, confirmations, amount from payments where order_id = $1 order by created_at',
    [orderId],
  );
}

async function deposits(where: string, params: unknown[]) {
  return db.query<{
    kind: string;
    order_id: string | null;
    status: string;
    in_tx_hash: string;
    amount: string;
    stage: string;
  }>(`select kind, order_id, status, in_tx_hash, amount, stage from deposits where ${where}`, params);
}

describe('watcher over the sandbox ledger', () => {
  it('detects a payment in the mempool, counts it at the required confirmations, and processes the order once', async () => {
    const chain = sandboxChain(db, 'litecoin');
    const order = await createOrder(db, merchant.test, { ...LTC, amount: '0.5' });
    const tx = await pay(order, 'litecoin', 'LTC', 50_000_000n);

    await watchOnce(db, chain);
    expect(await payments(order.id)).toEqual([
      { tx_hash: tx, status: 'pending', confirmations: 0, amount: '50000000' },
    ]);
    expect((await orderRow(db, order.id)).status).toBe('pending');

    await mine(db, network('litecoin'));
    await watchOnce(db, chain);
    expect((await payments(order.id))[0]).toMatchObject({ status: 'pending', confirmations: 1 });
    expect((await orderRow(db, order.id)).status).toBe('pending');

    await mine(db, network('litecoin'));
    await watchOnce(db, chain);
    const done = await orderRow(db, order.id);
    expect(done).toMatchObject({ status: 'processed', received: '50000000' });
    expect((await payments(order.id))[0]).toMatchObject({ status: 'processed', confirmations: 2 });

    // Scanning again (a restart, a second pass) changes nothing.
    await mine(db, network('litecoin'));
    await watchOnce(db, chain);
    expect(await eventsOf(db, order.id)).toEqual([{ from_status: 'pending', to_status: 'processed' }]);
    const [count] = await db.query<{ n: number }>(
      'select count(*)::int as n from chain_transfers where order_id = $1',
      [order.id],
    );
    expect(count!.n).toBe(1);
  });

  it('rescanning blocks already credited (cursor moved back) credits nothing twice', async () => {
    const chain = sandboxChain(db, 'dogecoin');
    const order = await createOrder(db, merchant.test, { currency: 'DOGE', network: 'dogecoin', amount: '3' });
    await pay(order, 'dogecoin', 'DOGE', 300_000_000n);
    await mine(db, network('dogecoin'), 3);
    await watchOnce(db, chain);
    expect((await orderRow(db, order.id)).status).toBe('processed');
    const before = await db.query('select * from chain_transfers where order_id = $1', [order.id]);
    // A worker that crashed after scanning but before saving its cursor would scan these again.
    const [genesis] = await db.query<{ hash: string }>(
      `select hash from sandbox_blocks where network = 'dogecoin' and height = 0`,
    );
    await db.query(`update chain_cursors set height = 0, hash = $1 where network = 'dogecoin' and mode = 'test'`, [
      genesis!.hash,
    ]);
    await watchOnce(db, chain);
    expect(await db.query('select * from chain_transfers where order_id = $1', [order.id])).toEqual(before);
    expect(await payments(order.id)).toHaveLength(1);
    expect(await eventsOf(db, order.id)).toHaveLength(1);
  });

  it('two partial payments complete an order; an overpayment is overpaid; tolerance lowers the threshold', async () => {
    const chain = sandboxChain(db, 'litecoin');
    const two = await createOrder(db, merchant.test, { ...LTC, amount: '1' });
    const over = await createOrder(db, merchant.test, { ...LTC, amount: '1' });
    const tolerant = await createOrder(db, merchant.test, { ...LTC, amount: '1', paymentTolerancePercent: '1' });
    const short = await createOrder(db, merchant.test, { ...LTC, amount: '1', paymentTolerancePercent: '1' });
    await pay(two, 'litecoin', 'LTC', 40_000_000n);
    await pay(two, 'litecoin', 'LTC', 60_000_000n);
    await pay(over, 'litecoin', 'LTC', 100_000_001n);
    await pay(tolerant, 'litecoin', 'LTC', 99_000_000n);
    await pay(short, 'litecoin', 'LTC', 98_999_999n);
    await mine(db, network('litecoin'), 2);
    await watchOnce(db, chain);
    expect(await orderRow(db, two.id)).toMatchObject({ status: 'processed', received: '100000000' });
    expect(await orderRow(db, over.id)).toMatchObject({ status: 'overpaid', received: '100000001' });
    expect(await orderRow(db, tolerant.id)).toMatchObject({ status: 'processed', received: '99000000' });
    expect(await orderRow(db, short.id)).toMatchObject({ status: 'pending', received: '98999999' });
  });

  it("a merchant's own XRP Ledger test account: its orders take tags under it, paid there on the sandbox ledger (decision 114)", async () => {
    const chain = sandboxChain(db, 'ripple');
    const shop = await createTestMerchant(db, 'Own XRP test account');
    const account = 'rDsbeomae4FXwgQTJp9Rs64Qg9vDiTCdBv';
    await setDepositKey(db, { merchantId: shop.merchantId, network: 'ripple', mode: 'test', key: account });
    const order = await createOrder(db, shop.test, { currency: 'XRP', network: 'ripple', amount: '1.5' });
    expect(order).toMatchObject({ address: account, tag: expect.stringMatching(/^\d+$/) });
    const tx = await pay(order, 'ripple', 'XRP', 1_500_000n);
    await mine(db, network('ripple'), 2);
    await watchOnce(db, chain);
    expect(await payments(order.id)).toMatchObject([{ tx_hash: tx, amount: '1500000' }]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', address: account });
  });

  it('a payment after the order is processed, and another currency to its address, are orphan deposits of the order', async () => {
    const chain = sandboxChain(db, 'tron');
    const order = await createOrder(db, merchant.test, { currency: 'USDT', network: 'tron', amount: '10' });
    await pay(order, 'tron', 'USDT', 10_000_000n);
    await mine(db, network('tron'), 2);
    await watchOnce(db, chain);
    expect((await orderRow(db, order.id)).status).toBe('processed');
    const second = await pay(order, 'tron', 'USDT', 5_000_000n);
    const trx = await pay(order, 'tron', 'TRX', 1_000_000n);
    await watchOnce(db, chain);
    const pending = await deposits('order_id = $1 order by amount', [order.id]);
    expect(pending).toEqual([
      { kind: 'ORPHAN', order_id: order.id, status: 'PENDING', in_tx_hash: trx, amount: '1000000', stage: 'DEPOSIT' },
      {
        kind: 'ORPHAN',
        order_id: order.id,
        status: 'PENDING',
        in_tx_hash: second,
        amount: '5000000',
        stage: 'DEPOSIT',
      },
    ]);
    await mine(db, network('tron'), 2);
    await watchOnce(db, chain);
    expect((await deposits('order_id = $1', [order.id])).map((d) => d.status)).toEqual(['PROCESSED', 'PROCESSED']);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '10000000' });
    expect(await payments(order.id)).toHaveLength(1);
  });

  it('a payment first seen after expiry is an orphan deposit of the expired order', async () => {
    const chain = sandboxChain(db, 'bitcoin');
    const order = await createOrder(db, merchant.test, { currency: 'BTC', network: 'bitcoin', amount: '0.01' });
    const late = after(order.expires_at, 5);
    const tx = await pay(order, 'bitcoin', 'BTC', 1_000_000n, late);
    await mine(db, network('bitcoin'), 2, after(order.expires_at, 10));
    await watchOnce(db, chain, { now: after(order.expires_at, 20) });
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'expired', received: '0' });
    expect(await deposits('order_id = $1', [order.id])).toEqual([
      { kind: 'ORPHAN', order_id: order.id, status: 'PROCESSED', in_tx_hash: tx, amount: '1000000', stage: 'DEPOSIT' },
    ]);
  });

  it('underpaid at expiry is partial; nothing at expiry is expired', async () => {
    const chain = sandboxChain(db, 'bitcoincash');
    const partial = await createOrder(db, merchant.test, { currency: 'BCH', network: 'bitcoincash', amount: '1' });
    const nothing = await createOrder(db, merchant.test, { currency: 'BCH', network: 'bitcoincash', amount: '1' });
    await pay(partial, 'bitcoincash', 'BCH', 30_000_000n);
    await mine(db, network('bitcoincash'), 2);
    await watchOnce(db, chain);
    expect((await orderRow(db, partial.id)).status).toBe('pending');
    await mine(db, network('bitcoincash'), 1, after(nothing.expires_at, 1));
    await watchOnce(db, chain, { now: after(nothing.expires_at, 2) });
    expect(await orderRow(db, partial.id)).toMatchObject({ status: 'partial', received: '30000000' });
    expect(await orderRow(db, nothing.id)).toMatchObject({ status: 'expired', received: '0' });
  });

  it('a stopped watcher never lets an order paid in time expire', async () => {
    const chain = sandboxChain(db, 'ethereum');
    const paid = await createOrder(db, merchant.test, { currency: 'ETH', network: 'ethereum', amount: '0.1' });
    const unpaid = await createOrder(db, merchant.test, { currency: 'ETH', network: 'ethereum', amount: '0.1' });
    await watchOnce(db, chain); // the watcher has a cursor, then stops
    await pay(paid, 'ethereum', 'ETH', 10n ** 17n, after(paid.expires_at, -60));
    await mine(db, network('ethereum'), 1, after(paid.expires_at, -30));
    await mine(db, network('ethereum'), 3, after(paid.expires_at, 600));
    // Long after expiry, the sweeper alone decides nothing: the cursor has not passed expiresAt.
    expect(await sweepExpired(db, chain, 'test', denyListScreen([]), () => after(paid.expires_at, 3600))).toEqual([]);
    expect((await orderRow(db, paid.id)).status).toBe('pending');
    // The watcher comes back.
    await watchOnce(db, chain, { now: after(paid.expires_at, 3600) });
    expect(await orderRow(db, paid.id)).toMatchObject({ status: 'processed', received: String(10n ** 17n) });
    expect((await orderRow(db, unpaid.id)).status).toBe('expired');
    expect(await eventsOf(db, paid.id)).toEqual([{ from_status: 'pending', to_status: 'processed' }]);
  });

  it('a payment seen before expiry and confirmed after it counts', async () => {
    const chain = sandboxChain(db, 'bsc');
    const order = await createOrder(db, merchant.test, { currency: 'BNB', network: 'bsc', amount: '1' });
    await pay(order, 'bsc', 'BNB', 10n ** 18n, after(order.expires_at, -1));
    await watchOnce(db, chain, { now: after(order.expires_at, -1) });
    await mine(db, network('bsc'), 2, after(order.expires_at, 120));
    await watchOnce(db, chain, { now: after(order.expires_at, 130) });
    expect((await orderRow(db, order.id)).status).toBe('processed');
  });

  it('a dropped transaction before finality is un-counted, and the order can still expire', async () => {
    const chain = sandboxChain(db, 'polygon');
    const order = await createOrder(db, merchant.test, { currency: 'POL', network: 'polygon', amount: '2' });
    const tx = await pay(order, 'polygon', 'POL', 2n * 10n ** 18n);
    await mine(db, network('polygon'), 1);
    await watchOnce(db, chain);
    expect((await payments(order.id))[0]).toMatchObject({ status: 'pending', confirmations: 1 });
    await drop(db, network('polygon'), tx);
    await mine(db, network('polygon'), 2);
    await watchOnce(db, chain);
    expect(await payments(order.id)).toEqual([
      { tx_hash: tx, status: 'reversed', confirmations: 0, amount: String(2n * 10n ** 18n) },
    ]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '0' });
    await mine(db, network('polygon'), 1, after(order.expires_at, 5));
    await watchOnce(db, chain, { now: after(order.expires_at, 10) });
    expect((await orderRow(db, order.id)).status).toBe('expired');
    expect(await eventsOf(db, order.id)).toEqual([{ from_status: 'pending', to_status: 'expired' }]);
  });

  it('with checkRisks, a payment from a deny-listed sender moves the order to error', async () => {
    const chain = sandboxChain(db, 'arbitrum');
    const sender = '0x000000000000000000000000000000000000dEaD';
    const flagged = await createOrder(db, merchant.test, {
      currency: 'ETH',
      network: 'arbitrum',
      amount: '0.5',
      checkRisks: true,
    });
    const unchecked = await createOrder(db, merchant.test, { currency: 'ETH', network: 'arbitrum', amount: '0.5' });
    await pay(flagged, 'arbitrum', 'ETH', 5n * 10n ** 17n, undefined, sender);
    await pay(unchecked, 'arbitrum', 'ETH', 5n * 10n ** 17n, undefined, sender);
    await mine(db, network('arbitrum'), 2);
    await watchOnce(db, chain, { screen: denyListScreen([sender.toLowerCase()]) });
    const row = await orderRow(db, flagged.id);
    expect(row.status).toBe('error');
    expect(row.message).toContain(sender);
    expect((await payments(flagged.id))[0]!.status).toBe('rejected');
    expect((await orderRow(db, unchecked.id)).status).toBe('processed');
  });

  it('payments to a personal address go to the pending order; without one they are personal deposits', async () => {
    const chain = sandboxChain(db, 'base');
    const order = await createOrder(db, merchant.test, {
      currency: 'USDC',
      network: 'base',
      amount: '25',
      externalUserId: 'user-42',
    });
    await pay(order, 'base', 'USDC', 25_000_000n);
    await mine(db, network('base'), 2);
    await watchOnce(db, chain);
    expect((await orderRow(db, order.id)).status).toBe('processed');
    const tx = await pay(order, 'base', 'USDC', 7_000_000n);
    await mine(db, network('base'), 2);
    await watchOnce(db, chain);
    expect(await deposits('in_tx_hash = $1', [tx])).toEqual([
      { kind: 'PERSONAL', order_id: null, status: 'PROCESSED', in_tx_hash: tx, amount: '7000000', stage: 'DEPOSIT' },
    ]);
    // The user's next order reuses the address and takes the next payment.
    const next = await createOrder(db, merchant.test, {
      currency: 'USDC',
      network: 'base',
      amount: '5',
      externalUserId: 'user-42',
    });
    expect(next.address).toBe(order.address);
    await pay(next, 'base', 'USDC', 5_000_000n);
    await mine(db, network('base'), 2);
    await watchOnce(db, chain);
    expect((await orderRow(db, next.id)).status).toBe('processed');
  });

  it('records the withdrawal of a settled deposit when the address sends it on', async () => {
    const chain = sandboxChain(db, 'litecoin');
    const order = await createOrder(db, merchant.test, { ...LTC, amount: '0.1' });
    await pay(order, 'litecoin', 'LTC', 10_000_000n);
    await mine(db, network('litecoin'), 2);
    await watchOnce(db, chain);
    const late = await pay(order, 'litecoin', 'LTC', 2_000_000n);
    await mine(db, network('litecoin'), 2);
    await watchOnce(db, chain);
    const sweep = faucetAddress(network('litecoin'));
    const { txHash: out } = await broadcast(db, {
      network: network('litecoin'),
      from: order.address,
      to: sweep,
      currency: 'LTC',
      amount: 1_990_000n,
    });
    await mine(db, network('litecoin'), 1);
    await watchOnce(db, chain);
    const [deposit] = await db.query<{ stage: string; out_tx_hash: string; out_address: string; out_amount: string }>(
      'select stage, out_tx_hash, out_address, out_amount from deposits where in_tx_hash = $1',
      [late],
    );
    expect(deposit).toEqual({ stage: 'WITHDRAWAL', out_tx_hash: out, out_address: sweep, out_amount: '1990000' });
  });

  it('two watchers stepping the same network at once credit each transfer once', async () => {
    const chain = sandboxChain(db, 'litecoin');
    const orders = await Promise.all(
      Array.from({ length: 20 }, () => createOrder(db, merchant.test, { ...LTC, amount: '0.01' })),
    );
    for (const order of orders) await pay(order, 'litecoin', 'LTC', 1_000_000n);
    await mine(db, network('litecoin'), 2);
    const options = { batchBlocks: 100, startAt: 'genesis' as const, screen: denyListScreen([]) };
    await Promise.all([
      watchStep(db, chain, 'test', options),
      watchStep(db, chain, 'test', options),
      watchStep(db, chain, 'test', options),
    ]);
    const ids = orders.map((o) => o.id);
    const [credited] = await db.query<{ n: number }>(
      'select count(*)::int as n from payments where order_id = any($1::uuid[])',
      [ids],
    );
    const [events] = await db.query<{ n: number }>(
      'select count(*)::int as n from order_events where order_id = any($1::uuid[])',
      [ids],
    );
    expect(credited!.n).toBe(20);
    expect(events!.n).toBe(20);
  });

  it('in the sandbox a block dated ahead moves the clock: test orders expire without waiting out their lifetime', async () => {
    // Runs last in this file: dogecoin's blocks stay dated ahead afterwards.
    const chain = sandboxChain(db, 'dogecoin');
    const order = await createOrder(db, merchant.test, { currency: 'DOGE', network: 'dogecoin', amount: '5' });
    await watchOnce(db, chain);
    await mine(db, network('dogecoin'), 1, after(order.expires_at, 1));
    // The sandbox's rule (watchOptions('test')): its block time is the test world's time. (Live
    // chains take a block dated ahead no further than the gateway's clock: watcher-scripted.pg.test.ts.)
    await watchOnce(db, chain, { chainClock: true });
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'expired', received: '0' });
  });
});

describe('payment and expiry racing', () => {
  it('1,000 payments landing within a second of expiry each end in exactly one final status, recorded once', async () => {
    const chain = sandboxChain(db, 'ripple');
    const ripple = network('ripple');
    await watchOnce(db, chain);
    const orders = [];
    for (let i = 0; i < 1000; i++)
      orders.push(await createOrder(db, merchant.test, { currency: 'XRP', network: 'ripple', amount: '1' }));
    const ids = orders.map((o) => o.id);
    // One deadline for all, so that every race is run at the same moment.
    const deadline = new Date(Math.max(...orders.map((o) => o.expires_at.getTime())));
    await db.query('update orders set expires_at = $1 where id = any($2::uuid[])', [deadline, ids]);
    const inTime = new Set<string>();
    for (const [i, order] of orders.entries()) {
      const offsetMs = ((i * 7919) % 2000) - 1000; // -1000..999 ms around the deadline, spread evenly
      if (offsetMs <= 0) inTime.add(order.id);
      await pay(order, 'ripple', 'XRP', 1_000_000n, new Date(deadline.getTime() + offsetMs));
    }
    // The payments' block is past the deadline but they still lack a confirmation: the orders
    // paid in time wait, while those paid late expire at once.
    await mine(db, ripple, 1, after(deadline, 1));
    const now = after(deadline, 2);
    const options = { batchBlocks: 100, startAt: 'genesis' as const, screen: denyListScreen([]), now: () => now };
    await watchStep(db, chain, 'test', options);
    await mine(db, ripple, 1, after(deadline, 2));
    // The confirming block and the expiry sweeper now reach the waiting orders at the same time.
    await Promise.all([
      sweepExpired(db, chain, 'test', options.screen, options.now),
      watchStep(db, chain, 'test', options),
      sweepExpired(db, chain, 'test', options.screen, options.now),
      watchStep(db, chain, 'test', options),
    ]);
    await watchOnce(db, chain, { now });
    const rows = await db.query<{ id: string; status: string }>(
      'select id, status from orders where id = any($1::uuid[])',
      [ids],
    );
    const events = await db.query<{ order_id: string; n: number }>(
      'select order_id, count(*)::int as n from order_events where order_id = any($1::uuid[]) group by order_id',
      [ids],
    );
    expect(events).toHaveLength(1000);
    expect(events.filter((e) => e.n !== 1)).toEqual([]);
    const wrong = rows.filter((row) => row.status !== (inTime.has(row.id) ? 'processed' : 'expired'));
    expect(wrong).toEqual([]);
    const [orphans] = await db.query<{ n: number }>(
      `select count(*)::int as n from deposits where order_id = any($1::uuid[]) and kind = 'ORPHAN'`,
      [ids],
    );
    expect(orphans!.n).toBe(1000 - inTime.size);
  }, 300_000);
});

describe('deposit states (the state machine of lib/deposits/lifecycle)', () => {
  async function depositsOf(orderId: string) {
    return db.query<{
      in_tx_hash: string;
      stage: string;
      status: string;
      in_status: string;
      confirmations: number;
      message: string | null;
      out_tx_hash: string | null;
    }>(
      `select in_tx_hash, stage, status, in_status, confirmations, message, out_tx_hash from deposits where order_id = $1 order by created_at`,
      [orderId],
    );
  }

  it('an outgoing transfer withdraws the PROCESSED deposits of its address only, and each once', async () => {
    const chain = sandboxChain(db, 'bitcoin');
    const btc = network('bitcoin');
    const order = await createOrder(db, merchant.test, { currency: 'BTC', network: 'bitcoin', amount: '0.01' });
    await pay(order, 'bitcoin', 'BTC', 1_000_000n);
    await mine(db, btc, 2);
    await watchOnce(db, chain);
    expect((await orderRow(db, order.id)).status).toBe('processed');
    const settled = await pay(order, 'bitcoin', 'BTC', 20_000n);
    await mine(db, btc, 2);
    await watchOnce(db, chain);
    const confirming = await pay(order, 'bitcoin', 'BTC', 30_000n);
    await watchOnce(db, chain);
    const sweep = faucetAddress(btc);
    const { txHash: first } = await broadcast(db, {
      network: btc,
      from: order.address,
      to: sweep,
      currency: 'BTC',
      amount: 15_000n,
    });
    await mine(db, btc, 1);
    await watchOnce(db, chain);
    expect(
      (await depositsOf(order.id)).map(({ in_tx_hash, stage, status, out_tx_hash }) => ({
        in_tx_hash,
        stage,
        status,
        out_tx_hash,
      })),
    ).toEqual([
      { in_tx_hash: settled, stage: 'WITHDRAWAL', status: 'PROCESSED', out_tx_hash: first },
      // Still short of its confirmations when the transfer left: not its withdrawal.
      { in_tx_hash: confirming, stage: 'DEPOSIT', status: 'PENDING', out_tx_hash: null },
    ]);

    await mine(db, btc, 1);
    await watchOnce(db, chain);
    expect((await depositsOf(order.id))[1]).toMatchObject({ stage: 'DEPOSIT', status: 'PROCESSED', out_tx_hash: null });
    const { txHash: second } = await broadcast(db, {
      network: btc,
      from: order.address,
      to: sweep,
      currency: 'BTC',
      amount: 25_000n,
    });
    await mine(db, btc, 1);
    await watchOnce(db, chain);
    expect(
      (await depositsOf(order.id)).map(({ in_tx_hash, stage, out_tx_hash }) => ({ in_tx_hash, stage, out_tx_hash })),
    ).toEqual([
      { in_tx_hash: settled, stage: 'WITHDRAWAL', out_tx_hash: first },
      { in_tx_hash: confirming, stage: 'WITHDRAWAL', out_tx_hash: second },
    ]);
  });

  it('a withdrawn deposit whose transfer the chain drops is an ERROR and keeps its withdrawal', async () => {
    const chain = sandboxChain(db, 'polygon');
    const pol = network('polygon');
    const order = await createOrder(db, merchant.test, { currency: 'POL', network: 'polygon', amount: '1' });
    await pay(order, 'polygon', 'POL', 10n ** 18n);
    await mine(db, pol, 2);
    await watchOnce(db, chain);
    const late = await pay(order, 'polygon', 'POL', 10n ** 17n);
    await mine(db, pol, 2);
    await watchOnce(db, chain);
    expect(await depositsOf(order.id)).toEqual([
      {
        in_tx_hash: late,
        stage: 'DEPOSIT',
        status: 'PROCESSED',
        in_status: 'processed',
        confirmations: 2,
        message: null,
        out_tx_hash: null,
      },
    ]);
    const { txHash: out } = await broadcast(db, {
      network: pol,
      from: order.address,
      to: faucetAddress(pol),
      currency: 'POL',
      amount: 10n ** 17n,
    });
    await mine(db, pol, 1);
    await watchOnce(db, chain);
    expect((await depositsOf(order.id))[0]).toMatchObject({
      stage: 'WITHDRAWAL',
      status: 'PROCESSED',
      out_tx_hash: out,
    });

    await drop(db, pol, late);
    await mine(db, pol, 1);
    await watchOnce(db, chain);
    expect(await depositsOf(order.id)).toEqual([
      {
        in_tx_hash: late,
        stage: 'WITHDRAWAL',
        status: 'ERROR',
        in_status: 'dropped',
        confirmations: 0,
        message: 'The transfer was dropped by the chain (reorganisation).',
        out_tx_hash: out,
      },
    ]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: String(10n ** 18n) });
  });
});
