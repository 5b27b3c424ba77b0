/**
 * Live mode on the XRP Ledger: the adapter (lib/chains/xrpl) over JSON-RPC against a FAKE rippled
 * (tests/support/fake-rippled.ts: rippled cannot run here; the fake follows xrpl.org's pages), the
 * real watcher, state machine, webhook dispatcher and database, orders made with a live key. Every
 * order shares the gateway's receiving account and has its own destination tag. A refund sent by
 * hand with the payer's destination tag completes by its transaction id (the `tx` method,
 * docs/decisions/092). A merchant that set its own receiving account has its orders paid there, under
 * tags of its own pool (docs/decisions/114).
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { decode, encode, encodeForSigning } from 'ripple-binary-codec';
import { deriveKeypair, generateSeed } from 'ripple-keypairs';
import { describe, expect, it } from 'vitest';
import { fillAddressPool } from '@/lib/addresses';
import { availableCurrencies } from '@/lib/chains';
import { liveNetworks, type LiveAdapter } from '@/lib/chains/live';
import { xrplAddress } from '@/lib/chains/xrpl/address';
import { xrplAccountOfSeed } from '@/lib/chains/xrpl/transactions';
import type { Database } from '@/lib/db/client';
import { listOrphanDeposits, serializeDeposit } from '@/lib/deposits';
import { createKey, findApiKey } from '@/lib/merchants';
import { findOperations } from '@/lib/operations';
import type { OrderRow } from '@/lib/orders/rows';
import { loadPublicView } from '@/lib/pay/public-view';
import { setDepositKey, settleCollections, xrplRefundSightings } from '@/lib/payouts';
import { OPERATIONS, xrplRefundPlanSchema } from '@/lib/protocol';
import { completeRefundByTransaction, confirmClaim, makeRefund, settleRefundPlans } from '@/lib/refunds';
import { readPlan, type GatewayClient } from '../scripts/signer/api';
import { submitSigned } from '../scripts/signer/from-api';
import type { RefundLedger } from '../scripts/signer/refunds';
import {
  nodeXrplPaymentReader,
  signXrplRefundPlan,
  xrplRefundPlanOf,
  xrplSignerConfigSchema,
} from '../scripts/signer/sign-xrpl-refund';
import { callInProcess, inProcessFetch, useDatabaseForApi } from './support/api-in-process';
import { createOrder, orderRow } from './support/chain';
import { expectDocumented } from './support/contract';
import type { FakeRippled, IssuedAmount } from './support/fake-rippled';
import { configureLive, waitFor, watchLive, withLiveNetwork, type WebhookReceiver } from './support/live';
import { fakeRippledNetwork } from './support/live-networks';
import { createTestMerchant, type TestMerchant } from './support/merchants';

/** The XRP Ledger's genesis account: a valid classic address, the gateway's receiving account here. */
const ACCOUNT = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const OTHER_ACCOUNT = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
/** Receiving accounts merchants set as their own (docs/decisions/114). */
const OWN_ACCOUNT = 'rDsbeomae4FXwgQTJp9Rs64Qg9vDiTCdBv';
const LATER_ACCOUNT = 'rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf';
const EARLIER_ACCOUNT = xrplAddress(Uint8Array.of(0x02, ...new Uint8Array(32).fill(7)));
const XRP = { currency: 'XRP', network: 'ripple' };
const RLUSD = { currency: 'RLUSD', network: 'ripple' };
/** The catalog's RLUSD (RIPPLE_TOKENS unset: the default), as the ledger names it: the 40-hex code of "RLUSD" and its issuer. */
const RLUSD_ISSUER = 'rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De';
const RLUSD_CODE = '524C555344000000000000000000000000000000';
const rlusd = (value: string, issuer = RLUSD_ISSUER, currency = RLUSD_CODE): IssuedAmount => ({
  currency,
  issuer,
  value,
});

let node: FakeRippled;
let db: Database;
let merchant: TestMerchant;
/** The merchant untagged deposits go to (RIPPLE_UNTAGGED_MERCHANT): the gateway's operator. */
let owner: TestMerchant;
let adapter: LiveAdapter;
let receiver: WebhookReceiver;
withLiveNetwork(
  fakeRippledNetwork({
    account: ACCOUNT,
    untaggedMerchant: async (db) => (owner = await createTestMerchant(db, 'Gateway operator')).merchantId,
  }),
  (live) => ({ node, db, merchant, adapter, receiver } = live),
);

const tagOf = (order: OrderRow) => Number(order.tag);

async function payments(orderId: string) {
  return db.query<{ tx_hash: string; status: string; amount: string; tag: string | null }>(
    'select tx_hash, status, amount, tag from payments where order_id = $1 order by created_at',
    [orderId],
  );
}

async function depositOf(txHash: string) {
  const [row] = await db.query<{
    kind: string;
    merchant_id: string;
    order_id: string | null;
    amount: string;
    status: string;
    address: string;
    tag: string | null;
  }>(
    'select kind, merchant_id, order_id, amount::text as amount, status, address, tag from deposits where in_tx_hash = $1',
    [txHash],
  );
  return row;
}

/** Closes a ledger with what was paid and lets the watcher read it. */
async function ledgerAndWatch(now?: Date): Promise<void> {
  node.closeLedger();
  await watchLive(db, adapter, now);
}

describe('live XRP Ledger (fake rippled)', () => {
  it('gives every live order the receiving account and a fresh destination tag', async () => {
    expect(liveNetworks().map((n) => n.name)).toEqual(['ripple']);
    expect(availableCurrencies('live')).toMatchObject([
      {
        currency: 'XRP',
        networks: [{ network: 'ripple', decimals: 6, confirmations: 1, tagRequired: true, contract: null }],
      },
      {
        currency: 'RLUSD',
        networks: [{ network: 'ripple', decimals: 6, confirmations: 1, tagRequired: true, contract: RLUSD_ISSUER }],
      },
    ]);
    const a = await createOrder(db, merchant.live, { ...XRP, amount: '1' });
    const b = await createOrder(db, merchant.live, { ...XRP, amount: '1' });
    expect([a.address, b.address]).toEqual([ACCOUNT, ACCOUNT]);
    expect(a.tag).toMatch(/^[1-9]\d*$/);
    expect(a.tag).not.toBe(b.tag);
  });

  it('an exact payment to the order tag in a validated ledger: processed, success webhook, find-tx', async () => {
    const order = await createOrder(db, merchant.live, { ...XRP, amount: '25.5', successWebhook: receiver.url });
    const tx = node.pay({ to: ACCOUNT, tag: tagOf(order), delivered: '25500000' });
    // Closed but not validated yet: not seen.
    node.lag = 1;
    node.closeLedger();
    await watchLive(db, adapter);
    expect(await payments(order.id)).toEqual([]);
    node.lag = 0;
    await watchLive(db, adapter);
    expect(await payments(order.id)).toEqual([
      { tx_hash: tx, status: 'processed', amount: '25500000', tag: order.tag },
    ]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '25500000' });

    const hook = await waitFor('the success webhook', async () =>
      receiver.received.find((r) => JSON.stringify(r.body).includes(order.id)),
    );
    expect(JSON.stringify(hook.body)).toContain('processed');
    const key = (await findApiKey(db, merchant.live.publicKey))!;
    expect(await findOperations(db, key, tx)).toMatchObject([
      { type: 'IN', source: 'ORDER', address: ACCOUNT, result: { tx, status: 'processed', amount: '25.5' } },
    ]);
  });

  it("completes an XRP refund sent by hand by its id: the payer's tag, validated, at least the amount", async () => {
    const order = await createOrder(db, merchant.live, { ...XRP, amount: '3' });
    node.pay({ to: ACCOUNT, tag: tagOf(order), delivered: '3000000' });
    node.closeLedger();
    await watchLive(db, adapter);
    expect((await orderRow(db, order.id)).status).toBe('processed');
    const scope = { merchantId: merchant.merchantId, mode: 'live' as const };
    const made = await makeRefund(db, scope, {
      target: { kind: 'order', id: order.id },
      amount: 1_000_000n,
      createdBy: 'test',
      now: new Date(),
    });
    const token = made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1);
    await confirmClaim(db, token, { address: OTHER_ACCOUNT, tag: '77' }, new Date());
    const complete = (txId: string) =>
      completeRefundByTransaction(db, scope, made.refund.id, txId, { now: new Date(), chain: () => adapter });

    const otherTag = node.pay({ to: OTHER_ACCOUNT, tag: 78, delivered: '1000000' });
    const right = node.pay({ to: OTHER_ACCOUNT, tag: 77, delivered: '1000000' });
    await expect(complete(right)).rejects.toThrow(/does not know this transaction/); // not in a ledger yet
    node.closeLedger();
    await expect(complete(otherTag)).rejects.toThrow(/without its destination tag 77/);
    expect(await complete(right)).toMatchObject({ state: 'confirmed', txId: right, tag: '77' });
    expect((await orderRow(db, order.id)).status).toBe('processed');
  });

  it('reads validated ledgers only: a closed ledger awaiting validation, or one above the head, is no block yet', async () => {
    node.lag = 1;
    const closed = node.closeLedger();
    expect((await adapter.head()).height).toBe(closed - 1);
    expect(await adapter.block(closed)).toBeNull();
    expect(await adapter.block(closed + 5)).toBeNull();
    node.lag = 0;
    expect(await adapter.block(closed)).toMatchObject({
      height: closed,
      parentHash: (await adapter.block(closed - 1))!.hash,
    });
    await watchLive(db, adapter);
  });

  it('one drop short leaves the order unpaid; a tec result credits nothing; other accounts, issued currencies and other transaction types neither', async () => {
    const short = await createOrder(db, merchant.live, { ...XRP, amount: '10' });
    const failed = await createOrder(db, merchant.live, { ...XRP, amount: '3' });
    node.pay({ to: ACCOUNT, tag: tagOf(short), delivered: '9999999' });
    const tec = node.pay({ to: ACCOUNT, tag: tagOf(failed), delivered: '3000000', result: 'tecUNFUNDED_PAYMENT' });
    node.pay({ to: OTHER_ACCOUNT, tag: tagOf(failed), delivered: '3000000' });
    node.pay({ to: ACCOUNT, tag: tagOf(failed), delivered: { currency: 'USD', issuer: OTHER_ACCOUNT, value: '3' } });
    node.queue({
      TransactionType: 'OfferCreate',
      Account: OTHER_ACCOUNT,
      TakerGets: '3000000',
      TakerPays: { currency: 'USD', issuer: OTHER_ACCOUNT, value: '3' },
    });
    await ledgerAndWatch();
    expect(await orderRow(db, short.id)).toMatchObject({ status: 'pending', received: '9999999' });
    expect(await orderRow(db, failed.id)).toMatchObject({ status: 'pending', received: '0' });
    expect(await db.query('select 1 from chain_transfers where tx_hash = $1', [tec])).toEqual([]);
  });

  it('a partial payment with a large Amount credits only its delivered_amount', async () => {
    const order = await createOrder(db, merchant.live, { ...XRP, amount: '50' });
    const tx = node.pay({ to: ACCOUNT, tag: tagOf(order), amount: '50000000', delivered: '1000' });
    await ledgerAndWatch();
    expect(await payments(order.id)).toEqual([{ tx_hash: tx, status: 'processed', amount: '1000', tag: order.tag }]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '1000' });
  });

  it("an exact RLUSD payment (the token's currency code and issuer) to the order tag: processed, success webhook", async () => {
    const order = await createOrder(db, merchant.live, { ...RLUSD, amount: '12.34', successWebhook: receiver.url });
    expect(order.address).toBe(ACCOUNT);
    const tx = node.pay({ to: ACCOUNT, tag: tagOf(order), delivered: rlusd('12.34') });
    await ledgerAndWatch();
    expect(await payments(order.id)).toEqual([
      { tx_hash: tx, status: 'processed', amount: '12340000', tag: order.tag },
    ]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '12340000' });
    const hook = await waitFor('the success webhook', async () =>
      receiver.received.find((r) => JSON.stringify(r.body).includes(order.id)),
    );
    expect(JSON.stringify(hook.body)).toContain('processed');
  });

  it("RLUSD from a look-alike issuer, the issuer's other currency, or a tec result credits nothing", async () => {
    const order = await createOrder(db, merchant.live, { ...RLUSD, amount: '5' });
    const fakes = [
      node.pay({ to: ACCOUNT, tag: tagOf(order), delivered: rlusd('5', OTHER_ACCOUNT) }),
      node.pay({ to: ACCOUNT, tag: tagOf(order), delivered: rlusd('5', RLUSD_ISSUER, 'USD') }),
      node.pay({ to: ACCOUNT, tag: tagOf(order), delivered: rlusd('5'), result: 'tecPATH_PARTIAL' }),
    ];
    await ledgerAndWatch();
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '0' });
    expect(await db.query('select tx_hash from chain_transfers where tx_hash = any($1::text[])', [fakes])).toEqual([]);
  });

  it('a partial RLUSD payment with a large Amount credits only its delivered_amount, rounded down to base units', async () => {
    const order = await createOrder(db, merchant.live, { ...RLUSD, amount: '100' });
    // The code as 40 lower-case hex digits is the same code.
    const tx = node.pay({
      to: ACCOUNT,
      tag: tagOf(order),
      amount: rlusd('100'),
      delivered: rlusd('0.5000009', RLUSD_ISSUER, RLUSD_CODE.toLowerCase()),
    });
    await ledgerAndWatch();
    expect(await payments(order.id)).toEqual([{ tx_hash: tx, status: 'processed', amount: '500000', tag: order.tag }]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '500000' });
  });

  it('a payment without a tag or with a tag of no order is an orphan deposit of the account, never a payment', async () => {
    const order = await createOrder(db, merchant.live, { ...XRP, amount: '7' });
    const unknownTag = tagOf(order) === 4_000_000_000 ? 4_000_000_001 : 4_000_000_000;
    const untagged = node.pay({ to: ACCOUNT, delivered: '7000000' });
    const wrong = node.pay({ to: ACCOUNT, tag: unknownTag, delivered: '7000000' });
    await ledgerAndWatch();
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'pending', received: '0' });
    for (const tx of [untagged, wrong]) {
      expect(await depositOf(tx)).toEqual({
        kind: 'ORPHAN',
        merchant_id: owner.merchantId,
        order_id: null,
        amount: '7000000',
        status: 'PROCESSED',
        address: ACCOUNT,
        tag: null,
      });
      expect(await db.query('select 1 from payments where tx_hash = $1', [tx])).toEqual([]);
    }
    // The owner finds it with its live key like any orphan deposit; the order's merchant does not.
    const ownerKey = (await findApiKey(db, owner.live.publicKey))!;
    expect(await findOperations(db, ownerKey, untagged)).toMatchObject([{ type: 'IN', source: 'ORPHAN_DEPOSIT' }]);
    expect(await findOperations(db, (await findApiKey(db, merchant.live.publicKey))!, untagged)).toEqual([]);

    // The API's orphan deposits answer shows the tag the payer used, which names no order, or null without one.
    const list = OPERATIONS['orphan-deposits/get-deposits'];
    const answer = list.response.parse(
      (await listOrphanDeposits(db, ownerKey, list.request.parse({}))).map(serializeDeposit),
    );
    const inTransaction = (tx: string) => answer.find((d) => d.inTransaction.txId === tx)?.inTransaction;
    expect(inTransaction(wrong)).toMatchObject({ address: ACCOUNT, tag: String(unknownTag) });
    expect(inTransaction(untagged)).toMatchObject({ address: ACCOUNT, tag: null });
    expect(await findOperations(db, ownerKey, wrong)).toMatchObject([
      { result: { inTransaction: { tag: String(unknownTag) } } },
    ]);
  });

  it("XRP of an AccountDelete to the account under the order's tag counts, by its delivered_amount", async () => {
    const order = await createOrder(db, merchant.live, { ...XRP, amount: '20' });
    const tx = node.accountDelete({ to: ACCOUNT, tag: tagOf(order), delivered: 20_000_000n });
    node.accountDelete({ to: OTHER_ACCOUNT, tag: tagOf(order), delivered: 20_000_000n });
    await ledgerAndWatch();
    expect(await payments(order.id)).toEqual([
      { tx_hash: tx, status: 'processed', amount: '20000000', tag: order.tag },
    ]);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '20000000' });
  });

  it('XRP released by an EscrowFinish counts under the tag of the escrow, by the balance the account gained', async () => {
    const byOwner = await createOrder(db, merchant.live, { ...XRP, amount: '30' });
    const byAccount = await createOrder(db, merchant.live, { ...XRP, amount: '31' });
    // Finished by its owner; and by the receiving account itself, which pays the fee out of it.
    const first = node.escrowFinish({ to: ACCOUNT, tag: tagOf(byOwner), drops: 30_000_000n });
    const second = node.escrowFinish({ to: ACCOUNT, tag: tagOf(byAccount), drops: 31_000_000n, submitter: ACCOUNT });
    // Not ours: to another account, or a finish that failed.
    node.escrowFinish({ to: OTHER_ACCOUNT, tag: tagOf(byOwner), drops: 30_000_000n });
    const failed = node.escrowFinish({
      to: ACCOUNT,
      tag: tagOf(byOwner),
      drops: 30_000_000n,
      result: 'tecNO_PERMISSION',
    });
    await ledgerAndWatch();
    expect(await payments(byOwner.id)).toEqual([
      { tx_hash: first, status: 'processed', amount: '30000000', tag: byOwner.tag },
    ]);
    expect(await payments(byAccount.id)).toEqual([
      { tx_hash: second, status: 'processed', amount: '31000000', tag: byAccount.tag },
    ]);
    expect(await db.query('select 1 from chain_transfers where tx_hash = $1', [failed])).toEqual([]);
  });

  it('XRP claimed from a payment channel counts under the tag of the channel; an untagged channel is an orphan deposit', async () => {
    const order = await createOrder(db, merchant.live, { ...XRP, amount: '12' });
    const claim = node.channelClaim({ to: ACCOUNT, tag: tagOf(order), drops: 12_000_000n, submitter: ACCOUNT });
    const closing = node.channelClaim({ to: ACCOUNT, drops: 3_000_000n, close: true });
    await ledgerAndWatch();
    expect(await payments(order.id)).toEqual([
      { tx_hash: claim, status: 'processed', amount: '12000000', tag: order.tag },
    ]);
    expect(await depositOf(closing)).toMatchObject({
      kind: 'ORPHAN',
      merchant_id: owner.merchantId,
      amount: '3000000',
    });
  });

  it("a merchant's own account: its orders pay there under its tags, a stray tag there is its orphan; the gateway's serves the others", async () => {
    const shop = await createTestMerchant(db, 'Own XRP account shop');
    const setAccount = (merchantId: string, key: string) =>
      setDepositKey(db, { merchantId, network: 'ripple', mode: 'live', key });
    await expect(setAccount(shop.merchantId, ACCOUNT)).rejects.toThrow(/the gateway's own key/);
    await setAccount(shop.merchantId, OWN_ACCOUNT);
    await expect(setAccount(merchant.merchantId, OWN_ACCOUNT)).rejects.toThrow(/another merchant of this gateway/);

    const own = await createOrder(db, shop.live, { ...XRP, amount: '2' });
    const gateways = await createOrder(db, merchant.live, { ...XRP, amount: '3' });
    expect([own.address, gateways.address]).toEqual([OWN_ACCOUNT, ACCOUNT]);
    // The payment page and its QR code ask for the merchant's account, under the order's tag.
    expect(await loadPublicView(db, own.id)).toMatchObject({
      address: OWN_ACCOUNT,
      tag: own.tag,
      walletUri: OWN_ACCOUNT,
    });

    const paid = node.pay({ to: OWN_ACCOUNT, tag: tagOf(own), delivered: '2000000' });
    const stray = node.pay({ to: OWN_ACCOUNT, tag: tagOf(gateways), delivered: '1000' });
    const untagged = node.pay({ to: OWN_ACCOUNT, delivered: '2000' });
    const paidGateway = node.pay({ to: ACCOUNT, tag: tagOf(gateways), delivered: '3000000' });
    // The merchant's tag paid to the gateway's account is the gateway's orphan, never the order's.
    const misdirected = node.pay({ to: ACCOUNT, tag: tagOf(own), delivered: '3000' });
    await ledgerAndWatch();
    expect(await payments(own.id)).toEqual([{ tx_hash: paid, status: 'processed', amount: '2000000', tag: own.tag }]);
    expect(await payments(gateways.id)).toEqual([
      { tx_hash: paidGateway, status: 'processed', amount: '3000000', tag: gateways.tag },
    ]);
    for (const [tx, amount] of [
      [stray, '1000'],
      [untagged, '2000'],
    ] as const)
      expect(await depositOf(tx)).toEqual({
        kind: 'ORPHAN',
        merchant_id: shop.merchantId,
        order_id: null,
        amount,
        status: 'PROCESSED',
        address: OWN_ACCOUNT,
        tag: null,
      });
    expect(await depositOf(misdirected)).toMatchObject({
      kind: 'ORPHAN',
      merchant_id: owner.merchantId,
      address: ACCOUNT,
    });
  });

  it('a merchant that changes its account: the earlier one is read until the last order issued to it ends, then no more', async () => {
    const shop = await createTestMerchant(db, 'XRP account changer');
    const setAccount = (key: string) =>
      setDepositKey(db, { merchantId: shop.merchantId, network: 'ripple', mode: 'live', key });
    await setAccount(EARLIER_ACCOUNT);
    const [a, b] = [
      await createOrder(db, shop.live, { ...XRP, amount: '1' }),
      await createOrder(db, shop.live, { ...XRP, amount: '2' }),
    ];
    await setAccount(LATER_ACCOUNT);
    const c = await createOrder(db, shop.live, { ...XRP, amount: '3' });
    expect([a.address, b.address, c.address]).toEqual([EARLIER_ACCOUNT, EARLIER_ACCOUNT, LATER_ACCOUNT]);
    node.pay({ to: EARLIER_ACCOUNT, tag: tagOf(a), delivered: '1000000' });
    node.pay({ to: LATER_ACCOUNT, tag: tagOf(c), delivered: '3000000' });
    await ledgerAndWatch();
    // b is still open under the earlier account: it is still read.
    node.pay({ to: EARLIER_ACCOUNT, tag: tagOf(b), delivered: '2000000' });
    await ledgerAndWatch();
    for (const order of [a, b, c]) expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed' });
    // No order is open there any more (decision 100's rule): a later payment to it is not recorded.
    const later = node.pay({ to: EARLIER_ACCOUNT, tag: tagOf(b), delivered: '1000' });
    await ledgerAndWatch();
    expect(await db.query('select 1 from chain_transfers where tx_hash = $1', [later])).toEqual([]);
  });

  it('a ledger answered without its transactions fails the pass: it is not an empty ledger', async () => {
    const order = await createOrder(db, merchant.live, { ...XRP, amount: '9' });
    node.pay({ to: ACCOUNT, tag: tagOf(order), delivered: '9000000' });
    node.withoutTransactions = true;
    node.closeLedger();
    try {
      await expect(watchLive(db, adapter)).rejects.toThrow(/answered ledger \d+ without its transactions/);
    } finally {
      node.withoutTransactions = false;
    }
    await watchLive(db, adapter);
    expect(await orderRow(db, order.id)).toMatchObject({ status: 'processed', received: '9000000' });
  });

  it('the node failing a third of its calls, then stopped and restarted: every payment counted, no ledger skipped', async () => {
    const orders: OrderRow[] = [];
    node.failRate = 1 / 3;
    let failures = 0;
    for (let round = 0; round < 12; round++) {
      const order = await createOrder(db, merchant.live, { ...XRP, amount: `${round + 1}` });
      orders.push(order);
      node.pay({ to: ACCOUNT, tag: tagOf(order), delivered: String((round + 1) * 1_000_000) });
      for (let i = 0; i <= round % 3; i++) node.closeLedger();
      if (!(await pass())) failures++;
    }
    expect(node.failed).toBeGreaterThan(0);
    expect(failures).toBeGreaterThan(0);

    // Stopped with a payment queued; ledgers close while it is away and once it is back.
    const during = await createOrder(db, merchant.live, { ...XRP, amount: '0.5' });
    orders.push(during);
    node.pay({ to: ACCOUNT, tag: tagOf(during), delivered: '500000' });
    await node.stop();
    node.closeLedger();
    expect(await pass()).toBe(false);
    await node.start();
    node.closeLedger();

    for (let i = 0; i < 60 && !(await allProcessed(orders.map((o) => o.id))); i++) await pass();
    node.failRate = 0;
    await watchLive(db, adapter);
    for (const order of orders) expect((await orderRow(db, order.id)).status, order.amount).toBe('processed');

    const rows = await db.query<{ height: string }>(
      "select height from chain_blocks where network = 'ripple' and mode = 'live' order by height",
    );
    const heights = rows.map((r) => Number(r.height));
    heights.forEach((h, i) => i > 0 && expect(h).toBe(heights[i - 1]! + 1));
    const [cursor] = await db.query<{ height: string }>(
      "select height from chain_cursors where network = 'ripple' and mode = 'live'",
    );
    expect(Number(cursor!.height)).toBe(node.validatedIndex());
    expect(heights[heights.length - 1]).toBe(node.validatedIndex());
  });

  it("an XRP refund by plan: from the merchant's own account to the claimed account and tag, a rewritten plan refused, signed, submitted and confirmed", async () => {
    useDatabaseForApi(db);
    const shop = await createTestMerchant(db, 'XRP refund plans shop');
    const scope = { merchantId: shop.merchantId, mode: 'live' as const };
    const planner = await createKey(db, shop.merchantId, 'live', {
      name: 'Refunds',
      scopes: ['read-only', 'signing-plans'],
    });
    const seed = generateSeed({ entropy: new Uint8Array(16).fill(9), algorithm: 'ecdsa-secp256k1' });
    const own = xrplAccountOfSeed(seed);
    async function claimedRefund(orderId: string, amount: bigint) {
      const made = await makeRefund(db, scope, {
        target: { kind: 'order', id: orderId },
        amount,
        createdBy: 'user:test',
        now: new Date(),
      });
      const token = made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1);
      await confirmClaim(db, token, { address: OTHER_ACCOUNT, tag: '77' }, new Date());
      return made.refund.id;
    }
    const prepare = (refundId: string) => callInProcess('refund-plans/prepare', { refundId }, planner);

    // Paid to the gateway's account, no own account set: refused, naming what to set.
    const early = await createOrder(db, shop.live, { ...XRP, amount: '1' });
    node.pay({ to: ACCOUNT, tag: tagOf(early), delivered: '1000000' });
    await ledgerAndWatch();
    expect((await prepare(await claimedRefund(early.id, 500_000n))).body.error.message).toMatch(
      /no own XRP account is set for ripple.*set it as your deposit key/,
    );

    await setDepositKey(db, { ...scope, network: 'ripple', key: own });
    node.fund(own, 50_000_000n, 7);
    const order = await createOrder(db, shop.live, { ...XRP, amount: '5' });
    expect(order.address).toBe(own);
    const paid = node.pay({ to: own, tag: tagOf(order), delivered: '5000000' });
    await ledgerAndWatch();
    expect((await orderRow(db, order.id)).status).toBe('processed');

    const refundId = await claimedRefund(order.id, 2_000_000n);
    const prepared = await prepare(refundId);
    expect(prepared.body.error).toBeUndefined();
    expectDocumented('refund-plans/prepare', { ...prepared, headers: new Headers() });
    const plan = xrplRefundPlanSchema.parse(prepared.body.response);
    expect(plan).toMatchObject({
      format: 'xrpl',
      account: own,
      transaction: {
        fields: {
          Account: own,
          Destination: OTHER_ACCOUNT,
          DestinationTag: 77,
          Amount: '2000000',
          Fee: '12',
          Sequence: 7,
        },
      },
      refund: { tag: '77', payment: { account: own, tag: order.tag, transactions: [paid] } },
      txid: null,
    });

    const config = xrplSignerConfigSchema.parse({
      network: 'ripple',
      account: own,
      maxFee: '0.001',
      node: { url: node.url },
      refundDailyCaps: { XRP: '10' },
    });
    let ledger: RefundLedger = { refunds: [] };
    /** The gateway as the signer reaches it, in this process; `rewrite` plays attacker on the plan it answers. */
    const client = (rewrite?: (plan: { refund: { destination: string } }) => void): GatewayClient => ({
      baseUrl: 'http://gateway.test',
      key: planner,
      fetch: async (input, init) => {
        const answer = await inProcessFetch(input, init);
        if (!rewrite || !String(input).endsWith('/refund-plans/get')) return answer;
        const body = await answer.json();
        rewrite(body.response);
        return new Response(JSON.stringify(body), { status: answer.status });
      },
    });
    /** `npm run signer -- sign --from-api URL --refund-id ID` in process: read, check, sign, keep the ledger, submit. */
    async function signFromApi(gateway: GatewayClient) {
      const asked = { kind: 'refund' as const, refundId };
      const planText = await readPlan(gateway, asked);
      const sign = () =>
        signXrplRefundPlan(xrplRefundPlanOf(JSON.parse(planText))!, config, seed, {
          ledger,
          readPayment: nodeXrplPaymentReader(node.url),
          confirm: async () => true,
        });
      return submitSigned(gateway, asked, planText, sign, { ledger, keepLedger: (next) => (ledger = next) });
    }

    // The gateway playing attacker: the claim it answers names another account than its transaction pays.
    await expect(
      signFromApi(
        client((answered) => {
          answered.refund.destination = ACCOUNT;
        }),
      ),
    ).rejects.toThrow(`the transaction pays ${OTHER_ACCOUNT}, not the claimed account ${ACCOUNT}`);
    expect(ledger.refunds).toEqual([]);
    expect(node.submitted).toEqual([]);

    const { signed, submitted } = await signFromApi(client());
    expect(submitted).toMatchObject({ planId: plan.planId, kind: 'refund', status: 'prepared', txid: signed.txid });
    expect(ledger.refunds).toEqual([expect.objectContaining({ refundId, txid: signed.txid, currency: 'XRP' })]);
    expect(node.submitted).toEqual([expect.objectContaining({ Destination: OTHER_ACCOUNT, DestinationTag: 77 })]);
    const got = await callInProcess('refund-plans/get', { refundId }, planner);
    expectDocumented('refund-plans/get', { ...got, headers: new Headers() });
    expect(got.body.response).toMatchObject({ status: 'prepared', txid: signed.txid, acceptedAt: expect.any(String) });
    // The same signed transaction again is taken (the node knows it); another signature of the plan is not.
    const submit = (transaction: string) =>
      callInProcess('collections/submit', { id: plan.planId, transaction }, planner);
    expect((await submit(signed.rawTx)).body.response).toMatchObject({ txid: signed.txid });
    const { TxnSignature: _, ...unsigned } = decode(signed.rawTx.toUpperCase());
    const signingHash = sha512(Buffer.from(encodeForSigning(unsigned), 'hex')).subarray(0, 32);
    const otherSignature = secp256k1.sign(signingHash, Buffer.from(deriveKeypair(seed).privateKey.slice(2), 'hex'), {
      lowS: true,
      extraEntropy: true,
      format: 'der',
      prehash: false,
    });
    const resigned = encode({ ...unsigned, TxnSignature: Buffer.from(otherSignature).toString('hex').toUpperCase() });
    expect((await submit(resigned.toLowerCase())).body.error.message).toBe(
      `a signed transaction of this plan was taken already: ${signed.txid}`,
    );

    // The next validated ledger holds it: the refund is confirmed, the order keeps its status.
    await ledgerAndWatch();
    const [refund] = await db.query<{ state: string; txid: string | null }>(
      'select state, txid from refunds where id = $1',
      [refundId],
    );
    expect(refund).toEqual({ state: 'confirmed', txid: signed.txid });
    expect((await callInProcess('refund-plans/get', { refundId }, planner)).body.response.status).toBe('confirmed');
    const events = await db.query<{ type: string }>('select type from events where object_id = $1 order by position', [
      refundId,
    ]);
    expect(events.map((e) => e.type)).toContain('refund.confirmed');
    expect((await orderRow(db, order.id)).status).toBe('processed');

    // A plan never signed can be no more once a validated ledger passes its LastLedgerSequence: it fails, its refund stays ready.
    const unsignedRefund = await claimedRefund(order.id, 1_000_000n);
    const neverSigned = xrplRefundPlanSchema.parse((await prepare(unsignedRefund)).body.response);
    const past = neverSigned.transaction.lastLedgerSequence + 1;
    expect(await xrplRefundSightings(db, adapter.network, 'live', past - 1)).toEqual(
      new Map([[neverSigned.planId, { seen: null, expired: false }]]),
    );
    const xrplRefunds = await xrplRefundSightings(db, adapter.network, 'live', past);
    const changes = await db.transaction(async (tx) => {
      const moved = await settleCollections(tx, adapter.network, 'live', past, {
        transfers: [],
        now: new Date(),
        xrplRefunds,
      });
      await settleRefundPlans(tx, moved, new Date());
      return moved;
    });
    expect(changes).toEqual([expect.objectContaining({ planId: neverSigned.planId, from: 'prepared', to: 'failed' })]);
    const [left] = await db.query<{ state: string }>('select state from refunds where id = $1', [unsignedRefund]);
    expect(left).toEqual({ state: 'ready' });
  });

  it('an XRP refund plan that would take the account below its reserve is refused, naming the numbers, and nothing written; one that leaves it exactly is prepared', async () => {
    useDatabaseForApi(db);
    const shop = await createTestMerchant(db, 'XRP reserve shop');
    const scope = { merchantId: shop.merchantId, mode: 'live' as const };
    const planner = await createKey(db, shop.merchantId, 'live', {
      name: 'Refunds',
      scopes: ['read-only', 'signing-plans'],
    });
    const own = xrplAccountOfSeed(generateSeed({ entropy: new Uint8Array(16).fill(11), algorithm: 'ecdsa-secp256k1' }));
    await setDepositKey(db, { ...scope, network: 'ripple', key: own });
    const order = await createOrder(db, shop.live, { ...XRP, amount: '5' });
    node.pay({ to: own, tag: tagOf(order), delivered: '5000000' });
    await ledgerAndWatch();
    const made = await makeRefund(db, scope, {
      target: { kind: 'order', id: order.id },
      amount: 2_000_000n,
      createdBy: 'user:test',
      now: new Date(),
    });
    await confirmClaim(
      db,
      made.claimUrl.slice(made.claimUrl.lastIndexOf('/') + 1),
      { address: OTHER_ACCOUNT, tag: '78' },
      new Date(),
    );
    const prepare = () => callInProcess('refund-plans/prepare', { refundId: made.refund.id }, planner);
    const written = async () =>
      db.query<{ plans: string; audits: string; nonces: string }>(
        `select (select count(*) from collection_plans where merchant_id = $1)::text as plans,
                (select count(*) from audit_log where merchant_id = $1)::text as audits,
                (select count(*) from api_nonces)::text as nonces`,
        [shop.merchantId],
      );

    // The node's reserve (fake: 1 XRP and 0.2 XRP an object) with 5 objects is 2 XRP; 2 XRP and the
    // 12-drop fee leave it one drop short.
    expect(node.reserve).toEqual({ base: 1_000_000n, increment: 200_000n });
    node.fund(own, 4_000_011n, 3, 5);
    const before = await written();
    const refused = await prepare();
    expect({ status: refused.status, name: refused.body.error?.name }).toEqual({ status: 409, name: 'PLAN_REFUSED' });
    expect(refused.body.error.message).toBe(
      `your account ${own} cannot send this refund now: its balance of 4.000011 XRP less its reserve of 2 XRP (1 XRP and 0.2 XRP for each of its 5 ledger objects) leaves 2.000011 XRP; this plan needs 2.000012 XRP (2 XRP and a fee of 0.000012 XRP): the ledger would refuse it (tecUNFUNDED_PAYMENT)`,
    );
    expect(await written()).toEqual(before);
    const [refund] = await db.query<{ state: string }>('select state from refunds where id = $1', [made.refund.id]);
    expect(refund).toEqual({ state: 'ready' });

    // One drop more leaves the reserve exactly: prepared.
    node.fund(own, 4_000_012n, 3, 5);
    const prepared = await prepare();
    expect(prepared.body.error).toBeUndefined();
    expect(xrplRefundPlanSchema.parse(prepared.body.response).transaction.fields).toMatchObject({
      Account: own,
      Amount: '2000000',
      Fee: '12',
      Sequence: 3,
    });
  });

  // Last: the ledger clock is past every order's deadline from here on.
  it('a payment then expiry by ledger time: partial; an unpaid order expires', async () => {
    const half = await createOrder(db, merchant.live, { ...XRP, amount: '4' });
    const unpaid = await createOrder(db, merchant.live, { ...XRP, amount: '4' });
    node.pay({ to: ACCOUNT, tag: tagOf(half), delivered: '2000000' });
    await ledgerAndWatch();
    expect(await orderRow(db, half.id)).toMatchObject({ status: 'pending', received: '2000000' });
    // The ledgers close past the deadline; a payment in them comes too late for the order.
    const late = new Date(half.expires_at.getTime() + 60_000);
    node.setTime(late);
    const tooLate = node.pay({ to: ACCOUNT, tag: tagOf(half), delivered: '2000000' });
    await ledgerAndWatch(late);
    expect(await orderRow(db, half.id)).toMatchObject({ status: 'partial', received: '2000000' });
    expect((await orderRow(db, unpaid.id)).status).toBe('expired');
    expect(await depositOf(tooLate)).toMatchObject({
      kind: 'ORPHAN',
      order_id: half.id,
      merchant_id: merchant.merchantId,
    });
  });

  it('a merchant id that names no merchant stops the pool fill (start-up) naming its variable', async () => {
    const missing = '11111111-2222-4333-8444-555555555555';
    try {
      configureLive({ RIPPLE_UNTAGGED_MERCHANT: missing });
      await expect(fillAddressPool(db, liveNetworks()[0]!, 'live')).rejects.toThrow(
        `RIPPLE_UNTAGGED_MERCHANT: no merchant has the id ${missing}`,
      );
    } finally {
      configureLive({ RIPPLE_UNTAGGED_MERCHANT: owner.merchantId });
    }
  });

  it('an address with a bad checksum stops start-up naming its variable', () => {
    try {
      configureLive({ RIPPLE_ADDRESS: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTi' });
      expect(() => liveNetworks()).toThrow(/RIPPLE_ADDRESS: the address checksum does not match/);
    } finally {
      configureLive({ RIPPLE_ADDRESS: ACCOUNT });
    }
  });
});

/** A watcher pass that may fail (the node's errors are the point); answers whether it did. */
async function pass(): Promise<boolean> {
  try {
    await watchLive(db, adapter);
    return true;
  } catch {
    return false;
  }
}

async function allProcessed(ids: string[]): Promise<boolean> {
  const [row] = await db.query<{ n: number }>(
    "select count(*)::int as n from orders where id = any($1::uuid[]) and status <> 'processed'",
    [ids],
  );
  return row!.n === 0;
}
