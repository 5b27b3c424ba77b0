/**
 * The order lifecycle end to end over real HTTP: an order made with make-order, paid through the
 * payment page's "Simulate payment" endpoint (POST /api/sandbox/pay) or straight on the sandbox
 * ledger, seen by the watcher, and then answered by `order`, find-tx and get-deposit field by field
 * (seed 2.2-2.4, SPEC "Order lifecycle" and "find-tx").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import { after, network, sandboxChain, watchOnce } from './support/chain';
import { call, withTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { sandboxTransferCount, simulatePay } from './support/sandbox-http';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UTXO_HASH = /^[0-9a-f]{64}$/;
const SEARCH_ITEM_FIELDS = ['type', 'source', 'address', 'result'];
const OPERATION_FIELDS = [
  'id',
  'addressId',
  'currency',
  'network',
  'tx',
  'status',
  'address',
  'tag',
  'amount',
  'feeCurrency',
  'feeSource',
  'feeAmount',
  'createdAt',
];
const DEPOSIT_FIELDS = [
  'id',
  'organizationId',
  'orderId',
  'stage',
  'status',
  'message',
  'currency',
  'network',
  'amount',
  'canWithdrawal',
  'inTransaction',
  'outTransactions',
  'createdAt',
];

let gateway: TestGateway;
let merchant: TestMerchant;
let stranger: TestMerchant;

withTestGateway((started) => ({ gateway, merchant } = started));
beforeAll(async () => {
  stranger = await createTestMerchant(gateway.db);
});

async function makeOrder(fields: Record<string, unknown>, keys = merchant.test) {
  const made = await call(gateway, 'make-order', fields, keys);
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body.response;
}

async function getOrder(orderId: string, keys = merchant.test) {
  const answer = await call(gateway, 'order', { orderId }, keys);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.response;
}

async function findTx(tx: string, keys = merchant.test) {
  const answer = await call(gateway, 'find-tx', { tx }, keys);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.success).toBe(true);
  return answer.body.response;
}

async function paymentIds(orderId: string): Promise<string[]> {
  const rows = await gateway.db.query<{ id: string }>(
    'select id from payments where order_id = $1 order by created_at, id',
    [orderId],
  );
  return rows.map((r) => r.id);
}

describe('order lifecycle over HTTP (sandbox)', () => {
  it('a full simulated payment is detected, counted at 2 confirmations, and answered by order and find-tx', async () => {
    const order = await makeOrder({
      currency: 'LTC',
      network: 'litecoin',
      amount: '0.25',
      order: 'e2e-full-1',
      description: 'One mug',
    });
    const chain = sandboxChain(gateway.db, 'litecoin');

    const paid = await simulatePay(gateway, { orderId: order.orderId, kind: 'full' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toEqual({
      txHash: paid.body.txHash,
      network: 'litecoin',
      currency: 'LTC',
      amount: '0.25',
      address: order.address,
      tag: null,
    });
    const txHash: string = paid.body.txHash;
    expect(txHash).toMatch(UTXO_HASH);

    // Nothing moves before the watcher has seen the transfer.
    const untouched = await getOrder(order.orderId);
    expect(untouched).toMatchObject({ status: 'pending', received: '0', transactions: [] });

    // In the mempool: detected, 0 confirmations, not counted.
    await watchOnce(gateway.db, chain);
    const detected = await getOrder(order.orderId);
    expect(detected).toMatchObject({ status: 'pending', received: '0' });
    expect(detected.transactions).toEqual([
      {
        id: expect.stringMatching(UUID),
        tx: txHash,
        amount: '0.25',
        currency: 'LTC',
        network: 'litecoin',
        status: 'pending',
        confirmations: 0,
        createdAt: expect.stringMatching(ISO_MS),
      },
    ]);

    // Two blocks: the required confirmations.
    await mine(gateway.db, network('litecoin'), 2);
    await watchOnce(gateway.db, chain);
    const done = await getOrder(order.orderId);
    expect(done).toMatchObject({
      status: 'processed',
      received: '0.25',
      amount: '0.25',
      orderId: order.orderId,
      clientOrderId: 'e2e-full-1',
    });
    expect(done.transactions).toHaveLength(1);
    expect(done.transactions[0]).toMatchObject({ tx: txHash, amount: '0.25', status: 'processed', confirmations: 2 });

    // find-tx: exactly one ORDER item with every field of seed 2.4.
    const [paymentId] = await paymentIds(order.orderId);
    expect(paymentId).toBe(done.transactions[0].id);
    const found = await findTx(txHash);
    expect(found).toHaveLength(1);
    const [item] = found;
    expect(Object.keys(item).sort()).toEqual([...SEARCH_ITEM_FIELDS].sort());
    expect(Object.keys(item.result).sort()).toEqual([...OPERATION_FIELDS].sort());
    expect(item).toEqual({
      type: 'IN',
      source: 'ORDER',
      address: order.address,
      result: {
        id: paymentId,
        addressId: order.addressId,
        currency: 'LTC',
        network: 'litecoin',
        tx: txHash,
        status: 'processed',
        address: order.address,
        tag: null,
        amount: '0.25',
        feeCurrency: 'LTC',
        feeSource: 'advanced_balance',
        feeAmount: '0',
        createdAt: item.result.createdAt,
      },
    });
    expect(typeof item.result.amount).toBe('string');
    expect(item.result.createdAt).toMatch(ISO_MS);
    expect(item.result.createdAt).toBe(done.transactions[0].createdAt);

    // Hex is matched case-insensitively.
    expect(txHash.toUpperCase()).not.toBe(txHash);
    expect(await findTx(txHash.toUpperCase())).toEqual(found);
  });

  it('a payment first seen after expiry leaves the order expired and is an orphan deposit answered by find-tx and get-deposit', async () => {
    const order = await makeOrder({ currency: 'BCH', network: 'bitcoincash', amount: '0.5', order: 'e2e-late-1' });
    const chain = sandboxChain(gateway.db, 'bitcoincash');
    const expiresAt = new Date(order.expiresAt);

    const { txHash } = await broadcast(gateway.db, {
      network: network('bitcoincash'),
      to: order.address,
      tag: order.tag,
      currency: 'BCH',
      amount: 50_000_000n,
      at: after(expiresAt, 5),
    });
    // Seen in the mempool after expiry, not yet confirmed: a pending orphan deposit, never a payment of the order.
    await watchOnce(gateway.db, chain, { now: after(expiresAt, 6) });
    const [pending] = await findTx(txHash);
    expect(pending).toMatchObject({
      type: 'IN',
      source: 'ORPHAN_DEPOSIT',
      result: { stage: 'DEPOSIT', status: 'PENDING', canWithdrawal: false },
    });

    await mine(gateway.db, network('bitcoincash'), 2, after(expiresAt, 10));
    await watchOnce(gateway.db, chain, { now: after(expiresAt, 20) });

    const expired = await getOrder(order.orderId);
    expect(expired).toMatchObject({ status: 'expired', received: '0', transactions: [] });
    expect(await paymentIds(order.orderId)).toEqual([]);

    const found = await findTx(txHash);
    expect(found).toHaveLength(1);
    const [item] = found;
    expect(Object.keys(item).sort()).toEqual([...SEARCH_ITEM_FIELDS].sort());
    expect(item).toMatchObject({ type: 'IN', source: 'ORPHAN_DEPOSIT', address: order.address });

    const [row] = await gateway.db.query<{ id: string }>('select id from deposits where in_tx_hash = $1', [txHash]);
    expect(row).toBeDefined();
    expect(item.result.id).toBe(row!.id);

    const answer = await call(gateway, 'orphan-deposits/get-deposit', { id: row!.id }, merchant.test);
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(true);
    const deposit = answer.body.response;
    expect(Object.keys(deposit).sort()).toEqual([...DEPOSIT_FIELDS].sort());
    expect(deposit).toEqual({
      id: row!.id,
      organizationId: merchant.merchantId,
      orderId: order.orderId,
      stage: 'DEPOSIT',
      status: 'PROCESSED',
      message: null,
      currency: 'BCH',
      network: 'bitcoincash',
      amount: '0.5',
      canWithdrawal: true,
      inTransaction: {
        addressType: 'PAY_IN',
        addressId: order.addressId,
        address: order.address,
        tag: null,
        txId: txHash,
        amount: '0.5',
        status: 'processed',
      },
      outTransactions: null,
      createdAt: deposit.createdAt,
    });
    expect(deposit.createdAt).toMatch(ISO_MS);
    // find-tx carries the same deposit object (SPEC find-tx: result per seed 2.3).
    expect(item.result).toEqual(deposit);
  });

  it('a partial payment then at once a full one (the remainder) processes the order with two transactions', async () => {
    const order = await makeOrder({ currency: 'DOGE', network: 'dogecoin', amount: '3', order: 'e2e-partial-1' });
    const chain = sandboxChain(gateway.db, 'dogecoin');

    const partial = await simulatePay(gateway, { orderId: order.orderId, kind: 'partial' });
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({
      amount: '1.5',
      currency: 'DOGE',
      network: 'dogecoin',
      address: order.address,
    });
    // The second click comes before the watcher saw the first payment: "full" is still the remainder.
    const rest = await simulatePay(gateway, { orderId: order.orderId, kind: 'full' });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ amount: '1.5', currency: 'DOGE', address: order.address });
    expect(rest.body.txHash).not.toBe(partial.body.txHash);

    await mine(gateway.db, network('dogecoin'), 2);
    await watchOnce(gateway.db, chain);
    const done = await getOrder(order.orderId);
    expect(done).toMatchObject({ status: 'processed', received: '3', amount: '3' });
    expect(done.transactions).toHaveLength(2);
    expect(done.transactions.map((t: { tx: string }) => t.tx).sort()).toEqual(
      [partial.body.txHash, rest.body.txHash].sort(),
    );
    for (const t of done.transactions)
      expect(t).toMatchObject({ amount: '1.5', status: 'processed', confirmations: 2 });
  });

  it('refuses an unknown order (404) and a malformed body (400), writing nothing to the ledger', async () => {
    const before = await sandboxTransferCount(gateway.db);

    for (const orderId of [crypto.randomUUID(), 'not-a-uuid']) {
      const unknown = await simulatePay(gateway, { orderId, kind: 'full' });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toContain(orderId);
    }
    const order = await makeOrder({ currency: 'LTC', network: 'litecoin', amount: '1', order: 'e2e-refused-1' });
    const malformed: unknown[] = [
      '{"orderId": ', // not JSON
      { orderId: order.orderId }, // no kind
      { orderId: order.orderId, kind: 'double' },
      { kind: 'full' },
      { orderId: '', kind: 'full' },
      [order.orderId, 'full'],
    ];
    for (const body of malformed) {
      const refused = await simulatePay(gateway, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error, JSON.stringify(body)).toEqual(expect.stringContaining('orderId'));
    }
    expect(await sandboxTransferCount(gateway.db)).toBe(before);

    // The 409 case (a live order) cannot be reached through the API: live networks are not configured.
    const live = await call(
      gateway,
      'make-order',
      { currency: 'LTC', network: 'litecoin', amount: '1', order: 'e2e-live-1' },
      merchant.live,
    );
    expect(live.status).toBe(422);

    // The same count check can fail: a simulation that is done adds a row.
    expect((await simulatePay(gateway, { orderId: order.orderId, kind: 'over' })).status).toBe(200);
    expect(await sandboxTransferCount(gateway.db)).toBe(before + 1);
  });

  it('find-tx shows a payment only to its merchant and mode', async () => {
    const order = await makeOrder({ currency: 'ETH', network: 'ethereum', amount: '0.1', order: 'e2e-isolation-1' });
    const paid = await simulatePay(gateway, { orderId: order.orderId, kind: 'full' });
    expect(paid.status).toBe(200);
    const txHash: string = paid.body.txHash;
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
    await watchOnce(gateway.db, sandboxChain(gateway.db, 'ethereum'));

    expect(await findTx(txHash)).toEqual([
      expect.objectContaining({ source: 'ORDER', result: expect.objectContaining({ tx: txHash }) }),
    ]);
    expect(await findTx(txHash, stranger.test)).toEqual([]);
    expect(await findTx(txHash.toUpperCase().replace(/^0X/, '0x'), stranger.test)).toEqual([]);
    expect(await findTx(txHash, merchant.live)).toEqual([]);
    const foreign = await call(gateway, 'order', { orderId: order.orderId }, stranger.test);
    expect(foreign.status).toBe(404);
  });
});
