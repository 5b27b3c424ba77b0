/**
 * The payer's refund choices (issue 38, docs/decisions/082): "get back what I sent" on an
 * underpaid order, "claim the excess" on an overpaid one (at least the merchant's threshold,
 * decision 091). One refund per order, started by the payer, bearing its fee, its link mailed to
 * the payer only; nothing below the minimum, so dust makes no refund nor remainder; the order's
 * status never moves. The merchant's third decision, "refund what arrived", and a payer's refund
 * that stops the merchant from accepting the payment afterwards (decision 091).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import type { ClaimedMail } from '@/lib/mail/claims';
import { renderMail } from '@/lib/mail/render';
import { updateLatePaymentRule } from '@/lib/merchants';
import {
  decideMispayment,
  mispaymentsOf,
  openRemainder,
  payerRefundOfferOf,
  payerRest,
  requestPayerRefund,
  resolvePaidRemainders,
  setExcessClaimRule,
} from '@/lib/mispayments';
import { loadPublicView } from '@/lib/pay/public-view';
import { applyRefundAction, cancelRefund, lockRefund } from '@/lib/refunds';
import { broadcast, mine } from '@/lib/chains/sandbox';
import { after, createOrder, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { openTestDatabase } from './support/database';
import { createTestMerchant, type TestMerchant } from './support/merchants';

process.env.APP_SECRET ??= 'test-app-secret-that-is-at-least-32-characters';

let db: Database;
let merchant: TestMerchant;
const now = new Date('2026-11-27T10:00:00.000Z');

/** A final litecoin order of `amount` LTC that received `received` base units. */
async function finalOrder(status: string, amount: string, received: bigint, payerEmail?: string) {
  const order = await createOrder(db, merchant.test, {
    currency: 'LTC',
    network: 'litecoin',
    amount,
    ...(payerEmail ? { payerEmail } : {}),
  });
  await db.query('update orders set status = $2, received = $3 where id = $1', [order.id, status, received.toString()]);
  return order;
}

async function refundsOf(orderId: string) {
  return db.query<{ amount: string; created_by: string; fee_from_refund: boolean; claim_delivery: string }>(
    'select amount, created_by, fee_from_refund, claim_delivery from refunds where order_id = $1',
    [orderId],
  );
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as { kind?: string }).kind ?? String(error);
  }
  return 'accepted';
}

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
});
afterAll(async () => {
  await db?.close();
});

describe("the payer's refund choices", () => {
  it('gives an underpaid order back what it received, once, mailed to the payer, the fee borne by the refund', async () => {
    const order = await finalOrder('partial', '3', 100_000_000n, 'payer@example.com');
    const asked = await requestPayerRefund(db, order.id, 'sent', now);
    expect(asked.refund).toMatchObject({ amount: '1', state: 'awaiting_address', claim: { delivery: 'mail' } });
    expect(await requestPayerRefund(db, order.id, 'sent', now)).toEqual({ refund: null, existing: true });
    expect(await refundsOf(order.id)).toEqual([
      { amount: '100000000', created_by: 'payer', fee_from_refund: true, claim_delivery: 'mail' },
    ]);
    expect((await orderRow(db, order.id)).status).toBe('partial');
  });

  it("claims an overpaid order's excess, not what it was paid for", async () => {
    const order = await finalOrder('overpaid', '1', 150_000_000n, 'payer@example.com');
    expect(await refusal(requestPayerRefund(db, order.id, 'sent', now))).toBe('NoPayerRefund');
    expect((await requestPayerRefund(db, order.id, 'excess', now)).refund).toMatchObject({ amount: '0.5' });
    expect((await orderRow(db, order.id)).status).toBe('overpaid');
  });

  it("claims an excess only from the merchant's own threshold up, and the page offers none below it", async () => {
    const shop = await createTestMerchant(db);
    await setExcessClaimRule(db, shop.merchantId, '5');
    const overpaid = async (received: bigint) => {
      const order = await createOrder(db, shop.test, {
        currency: 'LTC',
        network: 'litecoin',
        amount: '1',
        payerEmail: 'payer@example.com',
      });
      await db.query(`update orders set status = 'overpaid', received = $2 where id = $1`, [order.id, received]);
      return order;
    };
    const below = await overpaid(104_999_999n);
    expect(await payerRefundOfferOf(db, below.id)).toBeNull();
    await expect(requestPayerRefund(db, below.id, 'excess', now)).rejects.toMatchObject({
      kind: 'NoPayerRefund',
      message: expect.stringContaining('threshold for claims'),
    });
    expect(await refundsOf(below.id)).toEqual([]);
    const at = await overpaid(105_000_000n);
    expect(await payerRefundOfferOf(db, at.id)).toEqual({ kind: 'excess', amount: 5_000_000n });
    expect((await requestPayerRefund(db, at.id, 'excess', now)).refund).toMatchObject({ amount: '0.05' });
    expect((await orderRow(db, at.id)).status).toBe('overpaid');
  });

  it('makes nothing below the minimum (a hundred dust asks, no refund), without the payer address, or for a processed order', async () => {
    const dust = await finalOrder('overpaid', '1', 100_900_000n, 'payer@example.com');
    for (let i = 0; i < 100; i++)
      expect(await refusal(requestPayerRefund(db, dust.id, 'excess', now))).toBe('NoPayerRefund');
    expect(await refundsOf(dust.id)).toEqual([]);
    const anonymous = await finalOrder('partial', '3', 100_000_000n);
    expect(await refusal(requestPayerRefund(db, anonymous.id, 'sent', now))).toBe('NoPayerRefund');
    const processed = await finalOrder('processed', '1', 100_000_000n, 'payer@example.com');
    expect(await refusal(requestPayerRefund(db, processed.id, 'sent', now))).toBe('NoPayerRefund');
    expect(await refusal(requestPayerRefund(db, crypto.randomUUID(), 'sent', now))).toBe('NotFound');
  });
});

describe('the refund-sent mail (docs/decisions/088)', () => {
  async function sentMails(orderId: string) {
    return db.query<ClaimedMail>(
      `select id, merchant_id, mode, kind, order_id, subscription_id, recipient, detail, attempts, 'test' as lease_owner
         from mail_messages where order_id = $1 and kind = 'refund-sent' order by created_at`,
      [orderId],
    );
  }

  it("mails the payer once, when the refund is confirmed, in the order's language, with amount, address and transaction", async () => {
    const order = await finalOrder('overpaid', '1', 150_000_000n, 'payer@example.com');
    await db.query(`update orders set payer_language = 'de' where id = $1`, [order.id]);
    const { refund } = await requestPayerRefund(db, order.id, 'excess', now);
    const scope = { merchantId: merchant.merchantId, mode: 'test' as const };
    // The payer confirmed an address (lib/refunds confirmClaim); the plan's transaction is then seen.
    const address = 'ltc1qpayerrefundaddress0000000000000000000';
    await db.query(`update refunds set state = 'ready', address = $2, address_confirmed_at = $3 where id = $1`, [
      refund!.id,
      address,
      now,
    ]);
    const txid = 'ab'.repeat(32);
    const step = (confirmations: number) =>
      db.transaction(async (tx) =>
        applyRefundAction(
          tx,
          await lockRefund(tx, scope, refund!.id),
          { type: 'seen', confirmations, required: 6 },
          { txid },
          now,
        ),
      );
    await step(1);
    expect(await sentMails(order.id)).toEqual([]);
    await step(6);
    const [mail, ...more] = await sentMails(order.id);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ recipient: 'payer@example.com', detail: { refundId: refund!.id } });
    const rendered = await renderMail(db, mail!);
    expect(rendered.headers['Content-Language']).toBe('de');
    expect(rendered.subject).toContain('Erstattung');
    expect(rendered.subject).toContain('0,5 LTC');
    expect(rendered.text).toContain(address);
    expect(rendered.text).toContain(txid);
    // A test-mode refund: its transaction is on no public chain, so no explorer link.
    expect(rendered.html).not.toContain('blockchair');
    expect(rendered.headers['List-Unsubscribe']).toContain(`/mail/unsubscribe/${mail!.id}`);
    expect((await orderRow(db, order.id)).status).toBe('overpaid');
  });

  it('mails nobody for an order without the payer address', async () => {
    const order = await finalOrder('processed', '1', 100_000_000n);
    const made = await db.query<{ id: string }>(
      `insert into refunds (id, merchant_id, mode, source_kind, source_id, order_id, network, currency, amount, state,
          claim_token_hash, claim_expires_at, claim_delivery, created_by, address, address_confirmed_at)
       values (gen_random_uuid(), $1, 'test', 'order', $2, $2, 'litecoin', 'LTC', 1000, 'ready', md5(random()::text), $3, 'shared', 'test', 'x', $3)
       returning id`,
      [merchant.merchantId, order.id, now],
    );
    await db.transaction(async (tx) =>
      applyRefundAction(
        tx,
        await lockRefund(tx, { merchantId: merchant.merchantId, mode: 'test' }, made[0]!.id),
        { type: 'seen', confirmations: 6, required: 6 },
        { txid: 'cd'.repeat(32) },
        now,
      ),
    );
    expect(await sentMails(order.id)).toEqual([]);
  });
});

describe("a late payment outside the merchant's rule (issue 38)", () => {
  it('"get back what I sent" refunds each late payment, once, and the expired order stays expired', async () => {
    const chain = sandboxChain(db, 'bitcoincash');
    const order = await createOrder(db, merchant.test, {
      currency: 'BCH',
      network: 'bitcoincash',
      amount: '0.5',
      payerEmail: 'late@example.com',
    });
    const deadline = order.expires_at;
    await mine(db, network('bitcoincash'), 1, after(deadline, 1));
    await watchOnce(db, chain, { now: after(deadline, 2) });
    expect((await orderRow(db, order.id)).status).toBe('expired');
    // No rule: two late payments wait for a decision, and the payer asks for them back.
    for (const at of [60, 120])
      await broadcast(db, {
        network: network('bitcoincash'),
        to: order.address,
        tag: order.tag,
        currency: 'BCH',
        amount: 20_000_000n,
        at: after(deadline, at),
      });
    await mine(db, network('bitcoincash'), 2, after(deadline, 180));
    await watchOnce(db, chain, { now: after(deadline, 181) });

    const asked = await requestPayerRefund(db, order.id, 'sent', now);
    expect(asked.refund).toMatchObject({ amount: '0.2', state: 'awaiting_address', claim: { delivery: 'mail' } });
    const made = await db.query<{ amount: string; source_kind: string; created_by: string; fee_from_refund: boolean }>(
      'select amount, source_kind, created_by, fee_from_refund from refunds where order_id = $1 order by amount',
      [order.id],
    );
    expect(made).toEqual([
      { amount: '20000000', source_kind: 'deposit', created_by: 'payer', fee_from_refund: true },
      { amount: '20000000', source_kind: 'deposit', created_by: 'payer', fee_from_refund: true },
    ]);
    expect(await requestPayerRefund(db, order.id, 'sent', now)).toEqual({ refund: null, existing: true });
    expect(await requestPayerRefund(db, order.id, 'excess', now)).toEqual({ refund: null, existing: true });
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'expired', received: '0' });
  });
});

describe("dust to expired addresses (issue 38's must-show)", () => {
  it('a hundred dust payments to a hundred expired orders open no remainder, take no address and make no refund', async () => {
    // A hundred "pay the rest" opens of one order take one address: tests/mispayments.both.test.ts.
    const shop = await createTestMerchant(db);
    const chain = sandboxChain(db, 'dogecoin');
    const expired = [];
    for (let i = 0; i < 100; i++)
      expired.push(
        await createOrder(db, shop.test, {
          currency: 'DOGE',
          network: 'dogecoin',
          amount: '100',
          payerEmail: 'dust@example.com',
        }),
      );
    const deadline = new Date(Math.max(...expired.map((o) => o.expires_at.getTime())));
    await mine(db, network('dogecoin'), 1, after(deadline, 1));
    await watchOnce(db, chain, { now: after(deadline, 2) });
    // 0.99 DOGE each: below the minimum, 1 % of the amount.
    for (const order of expired)
      await broadcast(db, {
        network: network('dogecoin'),
        to: order.address,
        tag: order.tag,
        currency: 'DOGE',
        amount: 99_000_000n,
        at: after(deadline, 60),
      });
    await mine(db, network('dogecoin'), 2, after(deadline, 120));
    await watchOnce(db, chain, { now: after(deadline, 121) });

    for (const order of expired) {
      await expect(openRemainder(db, order.id)).rejects.toMatchObject({ kind: 'NoRemainder' });
      await expect(requestPayerRefund(db, order.id, 'sent', now)).rejects.toMatchObject({ kind: 'NoPayerRefund' });
    }
    expect(await payerRest(db, expired[0]!.id)).toBeNull();
    expect(await payerRefundOfferOf(db, expired[0]!.id)).toBeNull();
    // Nor does dust flag the orders "needs a decision" (decision 102): the list shows none of them.
    const facts = await mispaymentsOf(
      db,
      { merchantId: shop.merchantId, mode: 'test' },
      expired.map((o) => o.id),
    );
    expect([...facts.values()].filter((f) => f.waiting)).toEqual([]);
    const [counts] = await db.query<{ orders: number; late: number; refunds: number }>(
      `select (select count(*)::int from orders where merchant_id = $1) as orders,
              (select count(*)::int from deposits where merchant_id = $1 and status = 'PROCESSED') as late,
              (select count(*)::int from refunds where merchant_id = $1) as refunds`,
      [shop.merchantId],
    );
    expect(counts).toEqual({ orders: 100, late: 100, refunds: 0 });
    expect(await orderRow(db, expired[0]!.id)).toMatchObject({ status: 'expired', received: '0' });
  });
});

describe("the merchant's decision and the payer's refund (docs/decisions/091)", () => {
  it('"refund what arrived" refunds each payment less its fee, settles the order once and tells the store', async () => {
    const chain = sandboxChain(db, 'litecoin');
    const order = await createOrder(db, merchant.test, {
      currency: 'LTC',
      network: 'litecoin',
      amount: '1',
      payerEmail: 'short@example.com',
    });
    const deadline = order.expires_at;
    const pay = (amount: bigint, at: Date) =>
      broadcast(db, { network: network('litecoin'), to: order.address, tag: order.tag, currency: 'LTC', amount, at });
    await pay(30_000_000n, after(deadline, -120));
    await mine(db, network('litecoin'), 2, after(deadline, -60));
    await mine(db, network('litecoin'), 1, after(deadline, 1));
    await watchOnce(db, chain, { now: after(deadline, 2) });
    await pay(20_000_000n, after(deadline, 60));
    await mine(db, network('litecoin'), 2, after(deadline, 120));
    await watchOnce(db, chain, { now: after(deadline, 121) });
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'partial', received: '30000000' });

    const scope = { merchantId: merchant.merchantId, mode: 'test' as const };
    const user = { ...scope, userId: crypto.randomUUID() };
    const decided = await decideMispayment(db, user, order.id, 'refund', now);
    expect(decided.resolution).toMatchObject({ kind: 'refunded', decidedBy: 'merchant', totalReceived: '0.5' });
    expect(decided.refunds.map((made) => made.refund.amount).sort()).toEqual(['0.2', '0.3']);
    const made = await db.query<{
      amount: string;
      source_kind: string;
      created_by: string;
      fee_from_refund: boolean;
      claim_delivery: string;
    }>(
      'select amount, source_kind, created_by, fee_from_refund, claim_delivery from refunds where order_id = $1 order by amount',
      [order.id],
    );
    expect(made).toEqual([
      {
        amount: '20000000',
        source_kind: 'deposit',
        created_by: `user:${user.userId}`,
        fee_from_refund: true,
        claim_delivery: 'mail',
      },
      {
        amount: '30000000',
        source_kind: 'order',
        created_by: `user:${user.userId}`,
        fee_from_refund: true,
        claim_delivery: 'mail',
      },
    ]);
    const resolved = await db.query<{ data: { kind: string } }>(
      `select data::json as data from events where type = 'order.resolved' and object_id = $1`,
      [order.id],
    );
    expect(resolved.map((e) => e.data.kind)).toEqual(['refunded']);
    expect((await mispaymentsOf(db, scope, [order.id])).get(order.id)).toMatchObject({
      waiting: false,
      settlement: { kind: 'refunded', decidedBy: 'merchant', totalReceived: '0.5' },
    });
    // Once: no second decision, nor a payer's refund on top.
    await expect(decideMispayment(db, user, order.id, 'accept', now)).rejects.toMatchObject({
      kind: 'NothingToDecide',
    });
    await expect(decideMispayment(db, user, order.id, 'refund', now)).rejects.toMatchObject({
      kind: 'NothingToDecide',
    });
    await expect(requestPayerRefund(db, order.id, 'sent', now)).rejects.toMatchObject({ kind: 'NoPayerRefund' });
    expect(await refundsOf(order.id)).toHaveLength(2);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'partial', received: '30000000' });
  });

  it("a payer's refund of a late payment stops acceptance, by the merchant or the rule, until it is canceled", async () => {
    const shop = await createTestMerchant(db);
    await updateLatePaymentRule(db, shop.merchantId, { minutes: 30, rateMovePercent: '2' });
    const chain = sandboxChain(db, 'bitcoincash');
    const order = await createOrder(db, shop.test, {
      currency: 'BCH',
      network: 'bitcoincash',
      amount: '0.5',
      payerEmail: 'late@example.com',
    });
    const deadline = order.expires_at;
    const pay = (amount: bigint, at: Date) =>
      broadcast(db, {
        network: network('bitcoincash'),
        to: order.address,
        tag: order.tag,
        currency: 'BCH',
        amount,
        at,
      });
    await mine(db, network('bitcoincash'), 1, after(deadline, 1));
    await watchOnce(db, chain, { now: after(deadline, 2) });
    // Half of it, late: short for the rule, so it waits; the payer asks for it back.
    await pay(25_000_000n, after(deadline, 60));
    await mine(db, network('bitcoincash'), 2, after(deadline, 120));
    await watchOnce(db, chain, { now: after(deadline, 121) });
    const scope = { merchantId: shop.merchantId, mode: 'test' as const };
    expect((await mispaymentsOf(db, scope, [order.id])).get(order.id)).toMatchObject({ waiting: true });
    const { refund } = await requestPayerRefund(db, order.id, 'sent', now);
    expect((await mispaymentsOf(db, scope, [order.id])).get(order.id)).toMatchObject({
      waiting: false,
      refundedBy: 'payer',
      settlement: null,
    });
    // The other half, within the rule's 30 minutes: the rule would take it, but not while a refund stands.
    await pay(25_000_000n, after(deadline, 180));
    await mine(db, network('bitcoincash'), 2, after(deadline, 240));
    await watchOnce(db, chain, { now: after(deadline, 241) });
    const settled = () => db.query('select kind from order_resolutions where order_id = $1', [order.id]);
    expect(await settled()).toEqual([]);

    const user = { ...scope, userId: crypto.randomUUID() };
    for (const decision of ['accept', 'leave', 'refund'] as const)
      await expect(decideMispayment(db, user, order.id, decision, now)).rejects.toMatchObject({
        kind: 'PaymentBeingRefunded',
        message: expect.stringContaining('its payer asked for it back'),
      });
    expect(await settled()).toEqual([]);
    expect(
      await db.query(`select id from events where type = 'order.resolved' and object_id = $1`, [order.id]),
    ).toEqual([]);
    expect(await db.query('select id from refunds where order_id = $1', [order.id])).toHaveLength(1);

    // Canceled (the payer never gave an address): the order waits again, and the merchant may accept.
    await cancelRefund(db, scope, refund!.id, now);
    expect((await mispaymentsOf(db, scope, [order.id])).get(order.id)).toMatchObject({
      waiting: true,
      refundedBy: null,
    });
    expect((await decideMispayment(db, user, order.id, 'accept', now)).resolution).toMatchObject({
      kind: 'accepted',
      totalReceived: '0.5',
    });
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'expired', received: '0' });
  });
});

describe('"pay the rest" and the payer\'s refund of an underpaid order (docs/decisions/102)', () => {
  const claimed = (refundId: string) =>
    db.query(
      `update refunds set state = 'ready', address = 'ltc1qpayeraddress', address_confirmed_at = $2 where id = $1`,
      [refundId, now],
    );
  const refundState = async (refundId: string) =>
    (await db.query<{ state: string }>('select state from refunds where id = $1', [refundId]))[0]!.state;
  const paid = async (restId: string) => {
    await db.query(`update orders set status = 'processed', received = amount where id = $1`, [restId]);
    return db.transaction((tx) => resolvePaidRemainders(tx, [restId], now));
  };

  it('stays open while the refund waits for its address; once given, the page says it is being refunded and opens none', async () => {
    const order = await finalOrder('partial', '3', 100_000_000n, 'payer@example.com');
    const { refund } = await requestPayerRefund(db, order.id, 'sent', now);
    // Asked, nobody claimed it: the page shows what it showed before (decision 088 answers alike).
    expect(await payerRest(db, order.id)).toEqual({
      left: 200_000_000n,
      orderId: null,
      settled: false,
      refunding: false,
    });
    const { orderId: restId } = await openRemainder(db, order.id);

    await claimed(refund!.id);
    expect(await payerRest(db, order.id)).toEqual({ left: null, orderId: null, settled: false, refunding: true });
    const view = await loadPublicView(db, order.id);
    expect(view).toMatchObject({ rest: { refunding: true, left: null, orderId: null }, refundOffer: null });
    expect(JSON.stringify(view)).not.toContain('payer@example.com');
    await expect(openRemainder(db, order.id)).rejects.toMatchObject({ kind: 'NoRemainder' });
    // The remainder opened before and paid anyway settles nothing: the money goes back, the store is not told to ship.
    expect(await paid(restId)).toEqual([]);
    expect(await db.query('select kind from order_resolutions where order_id = $1', [order.id])).toEqual([]);
    expect(await refundState(refund!.id)).toBe('ready');
    expect((await orderRow(db, order.id)).status).toBe('partial');
  });

  it('paying the rest settles the order and cancels the refund nobody claimed, its link dead', async () => {
    const order = await finalOrder('partial', '3', 100_000_000n, 'payer@example.com');
    const { refund } = await requestPayerRefund(db, order.id, 'sent', now);
    const { orderId: restId } = await openRemainder(db, order.id);
    expect(await paid(restId)).toMatchObject([{ orderId: order.id, kind: 'remainder_paid', decidedBy: 'payer' }]);
    expect(await refundState(refund!.id)).toBe('canceled');
    expect(
      await db.query(`select type from events where type like 'refund.%' and object_id = $1 order by created_at`, [
        refund!.id,
      ]),
    ).toEqual([{ type: 'refund.created' }, { type: 'refund.canceled' }]);
    expect((await orderRow(db, order.id)).status).toBe('partial');
  });
});
