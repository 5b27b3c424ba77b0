/**
 * Batched settlement (docs/decisions/040): one watcher step settles every order of a block with
 * one statement per kind of row. Fifty orders paid in one block with five outcomes, each order of
 * its own amount, so that a result written to the wrong order shows in its status, its received
 * sum, its payment or its webhook.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcastMany, mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import { formatUnits } from '@/lib/money';
import type { OrderRow } from '@/lib/orders/rows';
import { denyListScreen } from '@/lib/risk';
import { watchStep, type WatchOptions } from '@/lib/watcher';
import { openTestDatabase } from './support/database';
import { createOrder, network, sandboxChain, watchOnce } from './support/chain';
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

const BASE = network('base');
const DENIED = '0x000000000000000000000000000000000000dEaD';

type Outcome = 'exact' | 'over' | 'partial' | 'short' | 'flagged';
const OUTCOMES: Outcome[] = ['exact', 'over', 'partial', 'short', 'flagged'];

/** What each outcome pays for an order of `amount`, and what the step must leave. */
const EXPECTED: Record<
  Outcome,
  {
    paid: (amount: bigint) => bigint;
    status: string;
    received: (paid: bigint) => bigint;
    payment: string;
    webhook: string | null;
  }
> = {
  exact: { paid: (a) => a, status: 'processed', received: (p) => p, payment: 'processed', webhook: 'success' },
  over: { paid: (a) => a + 12_345n, status: 'overpaid', received: (p) => p, payment: 'processed', webhook: 'success' },
  partial: { paid: (a) => a / 3n, status: 'pending', received: (p) => p, payment: 'processed', webhook: null },
  short: { paid: (a) => a - 1n, status: 'pending', received: (p) => p, payment: 'processed', webhook: null },
  flagged: { paid: (a) => a, status: 'error', received: () => 0n, payment: 'rejected', webhook: 'error' },
};

interface Case {
  order: OrderRow;
  outcome: Outcome;
  paid: bigint;
  txHash: string;
}

describe('batched settlement', () => {
  it('settles 50 orders of one block in one step, each with its own outcome, payment, event and webhook', async () => {
    const chain = sandboxChain(db, 'base');
    await watchOnce(db, chain); // the cursor at the tip: the step below scans the payments' blocks only
    const cases: Omit<Case, 'txHash'>[] = [];
    for (let i = 0; i < 50; i++) {
      const outcome = OUTCOMES[i % OUTCOMES.length]!;
      // Each order its own amount: 0.01 ETH, 0.02 ETH, ...
      const order = await createOrder(db, merchant.test, {
        currency: 'ETH',
        network: 'base',
        amount: formatUnits(BigInt(i + 1) * 10n ** 16n, 18),
        checkRisks: outcome === 'flagged',
        successWebhook: `https://shop.example/hooks/ok/${i}`,
        errorWebhook: `https://shop.example/hooks/error/${i}`,
      });
      cases.push({ order, outcome, paid: EXPECTED[outcome].paid(BigInt(order.amount)) });
    }
    // Every payment from the denied sender: only the orders that ask for screening are flagged.
    const sent = await broadcastMany(
      db,
      BASE,
      cases.map((c) => ({ to: c.order.address, currency: 'ETH', amount: c.paid, from: DENIED })),
    );
    const paid: Case[] = cases.map((c, i) => ({ ...c, txHash: sent[i]!.txHash }));
    await mine(db, BASE, 2); // the required confirmations: final in this one step

    const options: WatchOptions = {
      batchBlocks: 100,
      startAt: 'genesis',
      screen: denyListScreen([DENIED.toLowerCase()]),
    };
    const step = await watchStep(db, chain, 'test', options);
    expect(step).toMatchObject({ ran: true, scannedBlocks: 2, matchedTransfers: 50 });
    const ids = new Set(paid.map((c) => c.order.id));
    const expectedChanges = paid
      .filter((c) => EXPECTED[c.outcome].status !== 'pending')
      .map((c) => ({ orderId: c.order.id, from: 'pending', to: EXPECTED[c.outcome].status }))
      .sort((a, b) => (a.orderId < b.orderId ? -1 : 1));
    expect(step.changes.filter((c) => ids.has(c.orderId))).toEqual(expectedChanges);
    expect(expectedChanges).toHaveLength(30);

    const wrong: string[] = [];
    for (const c of paid) {
      const expected = EXPECTED[c.outcome];
      const what = `${c.outcome} order ${c.order.id}`;
      const [order] = await db.query<OrderRow>('select * from orders where id = $1', [c.order.id]);
      if (order!.status !== expected.status) wrong.push(`${what}: status ${order!.status}`);
      if (order!.received !== expected.received(c.paid).toString()) wrong.push(`${what}: received ${order!.received}`);
      if (c.outcome === 'flagged' && !order!.message?.includes(DENIED))
        wrong.push(`${what}: message ${order!.message}`);
      const payments = await db.query<{ tx_hash: string; amount: string; status: string; confirmations: number }>(
        'select tx_hash, amount, status, confirmations from payments where order_id = $1',
        [c.order.id],
      );
      expect(payments, what).toEqual([
        { tx_hash: c.txHash, amount: c.paid.toString(), status: expected.payment, confirmations: 2 },
      ]);
      const events = await db.query<{ from_status: string; to_status: string }>(
        'select from_status, to_status from order_events where order_id = $1',
        [c.order.id],
      );
      expect(events, what).toEqual(
        expected.status === 'pending' ? [] : [{ from_status: 'pending', to_status: expected.status }],
      );
      const hooks = await db.query<{ kind: string; order_status: string; url: string; body: string }>(
        'select kind, order_status, url, body from webhook_events where order_id = $1',
        [c.order.id],
      );
      if (!expected.webhook) {
        expect(hooks, what).toEqual([]);
        continue;
      }
      expect(hooks, what).toHaveLength(1);
      const [hook] = hooks;
      expect(hook, what).toMatchObject({
        kind: expected.webhook,
        order_status: expected.status,
        url: expected.webhook === 'success' ? c.order.success_webhook : c.order.error_webhook,
      });
      const body = JSON.parse(hook!.body) as {
        orderId: string;
        status: string;
        received: string;
        transactions: { tx: string; status: string }[];
      };
      expect(body, what).toMatchObject({
        orderId: c.order.id,
        status: expected.status,
        received: formatUnits(expected.received(c.paid), 18),
      });
      expect(body.transactions, what).toEqual([expect.objectContaining({ tx: c.txHash, status: expected.payment })]);
    }
    expect(wrong).toEqual([]);
    // The deposits of none of them: every transfer was a payment of its order.
    const [orphans] = await db.query<{ n: number }>(
      'select count(*)::int as n from deposits where order_id = any($1::uuid[])',
      [[...ids]],
    );
    expect(orphans!.n).toBe(0);

    // Another block: the confirmations move on, nothing is decided or announced a second time.
    await mine(db, BASE, 1);
    const again = await watchStep(db, chain, 'test', options);
    expect(again.changes.filter((c) => ids.has(c.orderId))).toEqual([]);
    const [counts] = await db.query<{ events: number; hooks: number; payments: number; confirmed: number }>(
      `select (select count(*)::int from order_events where order_id = any($1::uuid[])) as events,
              (select count(*)::int from webhook_events where order_id = any($1::uuid[])) as hooks,
              (select count(*)::int from payments where order_id = any($1::uuid[])) as payments,
              (select count(*)::int from payments where order_id = any($1::uuid[]) and confirmations = 3) as confirmed`,
      [[...ids]],
    );
    expect(counts).toEqual({ events: 30, hooks: 30, payments: 50, confirmed: 50 });
    // Payments of the still pending orders and of the final ones: the final orders' transfers keep their settled role.
    const settled = await db.query<{ settled_role: string | null; n: number }>(
      'select settled_role, count(*)::int as n from chain_transfers where order_id = any($1::uuid[]) group by settled_role order by settled_role',
      [[...ids]],
    );
    expect(settled).toEqual([
      { settled_role: 'counted', n: 20 },
      { settled_role: 'rejected', n: 10 },
      { settled_role: null, n: 20 },
    ]);
  });
});
