/**
 * Refunds in the database (docs/decisions/071): the cap "refunded <= received" held by the
 * database for concurrent refunds, the claim link's refusals, events in the change's transaction,
 * and the order never moved. On both databases: the cap rests on a row lock and a CHECK, which
 * PostgreSQL's concurrent transactions and PGlite's one connection must both honour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { isDomainErrorOf } from '@/lib/errors';
import {
  approveRefund,
  cancelRefund,
  confirmClaim,
  getRefund,
  listRefunds,
  makeRefund,
  openClaim,
  planRefund,
  reopenRefund,
  setRefundApprovalRule,
} from '@/lib/refunds';
import { createUser } from '@/lib/users';
import type { MerchantScope } from '@/lib/merchants';
import type { ClaimedMail } from '@/lib/mail/claims';
import { renderMail } from '@/lib/mail/render';
import type { OrderRow } from '@/lib/orders/rows';
import { createOrder } from './support/chain';
import { openTestDatabase } from './support/database';
import { createTestMerchant, type TestMerchant } from './support/merchants';

process.env.APP_SECRET ??= 'test-app-secret-that-is-at-least-32-characters';

let db: Database;
let merchant: TestMerchant;
let scope: MerchantScope;
/** A valid litecoin address for the payer (another order's: the test seed's, of the network's format). */
let payerAddress: string;
const now = new Date('2026-11-27T10:00:00.000Z');
const RECEIVED = 300_000_000n;

/** A litecoin order that received `received` and is final (as the watcher leaves a processed order). */
async function paidOrder(received = RECEIVED, status = 'processed'): Promise<OrderRow> {
  const order = await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '3' });
  await db.query(`update orders set status = $2, received = $3 where id = $1`, [order.id, status, received.toString()]);
  return order;
}

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

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
  scope = { merchantId: merchant.merchantId, mode: 'test' };
  payerAddress = (await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' })).address;
});
afterAll(async () => {
  await db?.close();
});

describe('the cap: the sum refunded for a payment never exceeds what it received', () => {
  it('refuses a refund above what was received, and one above what is left', async () => {
    const order = await paidOrder();
    const target = { kind: 'order' as const, id: order.id };
    expect(await refusal(makeRefund(db, scope, { target, amount: RECEIVED + 1n, createdBy: 'test', now }))).toBe(
      'RefundExceedsReceived',
    );
    const digits80 = 10n ** 80n - 1n;
    expect(await refusal(makeRefund(db, scope, { target, amount: digits80, createdBy: 'test', now }))).toBe(
      'RefundExceedsReceived',
    );
    await makeRefund(db, scope, { target, amount: RECEIVED - 10n, createdBy: 'test', now });
    const over = makeRefund(db, scope, { target, amount: 11n, createdBy: 'test', now });
    await expect(over).rejects.toThrow('At most 0.0000001 LTC of this payment is left to refund.');
    await makeRefund(db, scope, { target, amount: 10n, createdBy: 'test', now });
  });

  it('lets exactly as many concurrent refunds pass as the payment covers', async () => {
    const order = await paidOrder();
    const third = RECEIVED / 3n;
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        makeRefund(db, scope, { target: { kind: 'order', id: order.id }, amount: third, createdBy: 'test', now }),
      ),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(refused.every((r) => isDomainErrorOf((r as PromiseRejectedResult).reason, 'RefundExceedsReceived'))).toBe(
      true,
    );
    const [balance] = await db.query<{ refunded: string; received: string }>(
      `select refunded, received from refund_balances where source_id = $1`,
      [order.id],
    );
    expect(balance).toEqual({ refunded: (third * 3n).toString(), received: RECEIVED.toString() });
    const [rows] = await db.query<{ n: number }>(`select count(*)::int as n from refunds where order_id = $1`, [
      order.id,
    ]);
    expect(rows!.n).toBe(3);
  });

  it('is the database that holds it: a statement that would exceed it is refused by the CHECK', async () => {
    const order = await paidOrder();
    await makeRefund(db, scope, { target: { kind: 'order', id: order.id }, amount: 1n, createdBy: 'test', now });
    await expect(
      db.query(`update refund_balances set refunded = received + 1 where source_id = $1`, [order.id]),
    ).rejects.toThrow(/refund_balances_within_received/);
  });

  it('gives a canceled refund its amount back', async () => {
    const order = await paidOrder();
    const target = { kind: 'order' as const, id: order.id };
    const made = await makeRefund(db, scope, { target, amount: RECEIVED, createdBy: 'test', now });
    expect(await refusal(makeRefund(db, scope, { target, amount: 1n, createdBy: 'test', now }))).toBe(
      'RefundExceedsReceived',
    );
    expect((await cancelRefund(db, scope, made.refund.id, now)).state).toBe('canceled');
    expect(await refusal(cancelRefund(db, scope, made.refund.id, now))).toBe('RefundStateConflict');
    await makeRefund(db, scope, { target, amount: RECEIVED, createdBy: 'test', now });
  });

  it('refunds an order only once it is decided, and never moves it', async () => {
    const pending = await paidOrder(RECEIVED, 'pending');
    expect(
      await refusal(
        makeRefund(db, scope, { target: { kind: 'order', id: pending.id }, amount: 1n, createdBy: 'test', now }),
      ),
    ).toBe('NotRefundable');
    const order = await paidOrder();
    const made = await makeRefund(db, scope, {
      target: { kind: 'order', id: order.id },
      amount: RECEIVED,
      createdBy: 'test',
      now,
    });
    await confirmClaim(db, tokenOf(made.claimUrl), { address: payerAddress, tag: '' }, now);
    const [row] = await db.query<{ status: string; received: string }>(
      `select status, received from orders where id = $1`,
      [order.id],
    );
    expect(row).toEqual({ status: 'processed', received: RECEIVED.toString() });
  });
});

describe('the claim link', () => {
  it('opens its refund, takes one confirmed address, and refuses a replay or another address', async () => {
    const order = await paidOrder();
    const made = await makeRefund(db, scope, {
      target: { kind: 'order', id: order.id },
      amount: 100_000_000n,
      createdBy: 'test',
      now,
    });
    const token = tokenOf(made.claimUrl);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [stored] = await db.query<{ claim_token_hash: string }>(
      `select claim_token_hash from refunds where id = $1`,
      [made.refund.id],
    );
    expect(stored!.claim_token_hash).not.toContain(token);
    expect(await openClaim(db, token, now)).toMatchObject({
      state: 'awaiting_address',
      network: 'litecoin',
      currency: 'LTC',
      amount: '1',
      address: null,
    });
    expect(await refusal(confirmClaim(db, token, { address: `${payerAddress}x`, tag: '' }, now))).toBe(
      'ClaimAddressInvalid',
    );
    expect(await refusal(confirmClaim(db, token, { address: payerAddress, tag: '7' }, now))).toBe(
      'ClaimAddressInvalid',
    );
    const confirmed = await confirmClaim(db, token, { address: ` ${payerAddress} `, tag: '' }, now);
    expect(confirmed).toMatchObject({ state: 'ready', address: payerAddress, tag: null });
    // Replayed, or with another address after confirming: refused, and the address stays.
    expect(await refusal(confirmClaim(db, token, { address: payerAddress, tag: '' }, now))).toBe('ClaimLinkInvalid');
    expect(await refusal(confirmClaim(db, token, { address: order.address, tag: '' }, now))).toBe('ClaimLinkInvalid');
    expect((await getRefund(db, scope, made.refund.id)).address).toBe(payerAddress);

    // The merchant reopens: the old link dies, the new one takes an address again.
    const reopened = await reopenRefund(db, scope, made.refund.id, now);
    expect(reopened.refund).toMatchObject({ state: 'awaiting_address', address: null });
    expect(await refusal(openClaim(db, token, now))).toBe('ClaimLinkInvalid');
    const again = await confirmClaim(db, tokenOf(reopened.claimUrl), { address: order.address, tag: '' }, now);
    expect(again).toMatchObject({ state: 'ready', address: order.address });

    const types = await db.query<{ type: string }>(
      `select type from events where object_id = $1 order by tx_id, position`,
      [made.refund.id],
    );
    expect(types.map((e) => e.type)).toEqual(['refund.created', 'refund.ready', 'refund.reopened', 'refund.ready']);
  });

  it('refuses an expired link, a guessed one, and the payment link', async () => {
    const order = await paidOrder();
    const made = await makeRefund(db, scope, {
      target: { kind: 'order', id: order.id },
      amount: 1n,
      createdBy: 'test',
      now,
    });
    const token = tokenOf(made.claimUrl);
    const expired = new Date(Date.parse(made.refund.claim.expiresAt));
    expect(await refusal(openClaim(db, token, expired))).toBe('ClaimLinkInvalid');
    expect(await refusal(confirmClaim(db, token, { address: payerAddress, tag: '' }, expired))).toBe(
      'ClaimLinkInvalid',
    );
    expect(await refusal(openClaim(db, order.id, now))).toBe('ClaimLinkInvalid');
    // One character changed (the last, to another than it is).
    const guessed = `${token.slice(0, 42)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(await refusal(openClaim(db, guessed, now))).toBe('ClaimLinkInvalid');
    expect(await refusal(openClaim(db, `${token}\u0000`, now))).toBe('ClaimLinkInvalid');
  });
});

it("finds no other merchant's refund, and lists a merchant's own", async () => {
  const order = await paidOrder();
  const made = await makeRefund(db, scope, {
    target: { kind: 'order', id: order.id },
    amount: 5n,
    createdBy: 'test',
    now,
  });
  const other = await createTestMerchant(db);
  const theirs: MerchantScope = { merchantId: other.merchantId, mode: 'test' };
  expect(await refusal(getRefund(db, theirs, made.refund.id))).toBe('NotFound');
  expect(await refusal(cancelRefund(db, theirs, made.refund.id, now))).toBe('NotFound');
  expect(await refusal(getRefund(db, { ...scope, mode: 'live' }, made.refund.id))).toBe('NotFound');
  expect(
    await refusal(makeRefund(db, theirs, { target: { kind: 'order', id: order.id }, amount: 1n, createdBy: 't', now })),
  ).toBe('NotFound');
  expect(await listRefunds(db, theirs, { limit: 10, offset: 0 })).toEqual([]);
  expect((await listRefunds(db, scope, { orderId: order.id, limit: 10, offset: 0 })).map((r) => r.id)).toEqual([
    made.refund.id,
  ]);
});

describe('the refund-claim mail', () => {
  async function claimMails(orderId: string) {
    return db.query<ClaimedMail>(
      `select id, merchant_id, mode, kind, order_id, recipient, attempts, 'test' as lease_owner
         from mail_messages where order_id = $1 and kind = 'refund-claim' order by created_at`,
      [orderId],
    );
  }

  it("mails the link to the order's payerEmail, whose link opens the claim until it is reopened", async () => {
    const order = await createOrder(db, merchant.test, {
      currency: 'LTC',
      network: 'litecoin',
      amount: '3',
      payerEmail: 'Payer@Example.com',
    });
    // The payer saw the payment page in Hindi: the claim mail speaks it, and its link opens the page in it.
    await db.query(`update orders set status = 'processed', received = amount, payer_language = 'hi' where id = $1`, [
      order.id,
    ]);
    const made = await makeRefund(db, scope, {
      target: { kind: 'order', id: order.id },
      amount: 150_000_000n,
      createdBy: 'test',
      now,
    });
    expect(made.refund.claim.delivery).toBe('mail');
    const [mail] = await claimMails(order.id);
    expect(mail).toMatchObject({ recipient: 'payer@example.com', kind: 'refund-claim' });
    const rendered = await renderMail(db, mail!);
    expect(rendered.subject).toContain('1.5 LTC');
    expect(rendered.subject).toContain('रिफंड');
    expect(rendered.headers['Content-Language']).toBe('hi');
    const link = /\/refund\/([A-Za-z0-9_-]{43})\?lang=hi\n/.exec(rendered.text)?.[1];
    expect(link).toBeDefined();
    expect(await openClaim(db, link!, now)).toMatchObject({ amount: '1.5', state: 'awaiting_address' });

    // Reopened: a new mail with a new link; the old one is dead, and its message no longer sendable.
    const reopened = await reopenRefund(db, scope, made.refund.id, now);
    expect(reopened.refund.claim.delivery).toBe('mail');
    const mails = await claimMails(order.id);
    expect(mails).toHaveLength(2);
    await expect(renderMail(db, mails[0]!)).rejects.toThrow(/reopened or canceled/);
    const fresh = /\/refund\/([A-Za-z0-9_-]{43})/.exec((await renderMail(db, mails[1]!)).text)?.[1];
    expect(await refusal(openClaim(db, link!, now))).toBe('ClaimLinkInvalid');
    expect((await openClaim(db, fresh!, now)).state).toBe('awaiting_address');
  });

  it('shares the link when the payer unsubscribed from the merchant’s mail', async () => {
    const order = await createOrder(db, merchant.test, {
      currency: 'LTC',
      network: 'litecoin',
      amount: '3',
      payerEmail: 'gone@example.com',
    });
    await db.query(`update orders set status = 'processed', received = amount where id = $1`, [order.id]);
    await db.query(`insert into mail_unsubscribes (merchant_id, recipient) values ($1, 'gone@example.com')`, [
      merchant.merchantId,
    ]);
    const made = await makeRefund(db, scope, {
      target: { kind: 'order', id: order.id },
      amount: 1n,
      createdBy: 'test',
      now,
    });
    expect(made.refund.claim.delivery).toBe('shared');
    expect(await claimMails(order.id)).toEqual([]);
  });
});

describe("a refund above the owner's threshold waits for a second person (decision 082)", () => {
  it('is made `required` above the threshold (at the current rate), and `none` at or below it', async () => {
    await setRefundApprovalRule(db, merchant.merchantId, { above: '100', currency: 'USD' });
    const order = await paidOrder();
    const target = { kind: 'order' as const, id: order.id };
    // The test mode's fixed price: 1 LTC = 80 USD.
    const small = await makeRefund(db, scope, { target, amount: 125_000_000n, createdBy: 'test', now });
    expect(small.refund.approval).toBe('none');
    const large = await makeRefund(db, scope, { target, amount: 125_000_001n, createdBy: 'test', now });
    expect(large.refund.approval).toBe('required');
    await setRefundApprovalRule(db, merchant.merchantId, { above: null, currency: 'USD' });
  });

  it('is approved once, by someone other than who made it; never sent before', async () => {
    await setRefundApprovalRule(db, merchant.merchantId, { above: '1', currency: 'USD' });
    const [maker, second] = await Promise.all(
      ['maker', 'second'].map(async (name) => {
        const { user } = await createUser(db, {
          merchant: merchant.merchantId,
          email: `${name}-${crypto.randomUUID()}@shop.example`,
          role: 'admin',
          password: 'a long and unguessable dashboard password',
        });
        return user.id;
      }),
    );
    const order = await paidOrder();
    const made = await makeRefund(db, scope, {
      target: { kind: 'order', id: order.id },
      amount: 100_000_000n,
      createdBy: `user:${maker}`,
      now,
    });
    expect(made.refund.approval).toBe('required');
    await confirmClaim(db, tokenOf(made.claimUrl), { address: payerAddress, tag: '' }, now);
    expect(await refusal(planRefund(db, scope, made.refund.id, { feeFromRefund: false }))).toBe('RefundStateConflict');
    expect(await refusal(approveRefund(db, scope, made.refund.id, maker!, now))).toBe('RefundStateConflict');
    const other = { merchantId: crypto.randomUUID(), mode: 'test' as const };
    expect(await refusal(approveRefund(db, other, made.refund.id, second!, now))).toBe('NotFound');
    expect(await approveRefund(db, scope, made.refund.id, second!, now)).toMatchObject({ approval: 'approved' });
    expect(await refusal(approveRefund(db, scope, made.refund.id, second!, now))).toBe('RefundStateConflict');
    // Approved: the plan is refused for what test mode lacks (outputs to spend), no longer for the approval.
    expect(await refusal(planRefund(db, scope, made.refund.id, { feeFromRefund: false }))).toBe('CollectionRefused');
    await setRefundApprovalRule(db, merchant.merchantId, { above: null, currency: 'USD' });
  });
});
