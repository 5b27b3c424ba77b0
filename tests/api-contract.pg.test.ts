/**
 * Contract of the three seed operations over real HTTP: every field of seed sections 2.2-2.4,
 * its name, JSON type, null when absent, timestamp format, and the SPEC's derived values.
 */
import { describe, expect, it } from 'vitest';
import { checkedCall as call } from './support/contract';
import { withTestGateway, type TestGateway } from './support/gateway';
import { fakeTxHash, insertDeposit, insertPayment } from './support/fixtures';
import type { TestMerchant } from './support/merchants';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));

const ORDER_FIELDS = [
  'status',
  'link',
  'amount',
  'paymentTolerancePercent',
  'currency',
  'network',
  'address',
  'addressId',
  'tag',
  'orderId',
  'clientOrderId',
  'externalUserId',
  'payerEmail',
  'description',
  'successWebhook',
  'errorWebhook',
  'returnUrl',
  'expiresAt',
  'createdAt',
];

describe('make-order (seed 2.1, 2.2, 4.1)', () => {
  it('answers every field of the order with the request values', async () => {
    const request = {
      currency: 'usdt',
      network: 'Tron',
      amount: '125.50',
      order: 'contract-full-1',
      paymentTolerancePercent: '1.5',
      errorWebhook: 'https://shop.example/hooks/error',
      successWebhook: 'https://shop.example/hooks/ok',
      returnUrl: 'https://shop.example/orders/1',
      description: 'Two mugs',
      lifetime: 3600,
      checkRisks: true,
      externalUserId: 'user-42',
      payerEmail: 'payer@example.com',
    };
    const { status, body } = await call(gateway, 'make-order', request, merchant.test);
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    const order = body.response;
    expect(Object.keys(order).sort()).toEqual([...ORDER_FIELDS].sort());
    expect(order).toMatchObject({
      status: 'pending',
      amount: '125.5',
      paymentTolerancePercent: '1.5',
      currency: 'USDT',
      network: 'tron',
      tag: null,
      clientOrderId: 'contract-full-1',
      externalUserId: 'user-42',
      payerEmail: 'payer@example.com',
      description: 'Two mugs',
      successWebhook: request.successWebhook,
      errorWebhook: request.errorWebhook,
      returnUrl: request.returnUrl,
    });
    expect(order.orderId).toMatch(UUID);
    expect(order.addressId).toMatch(UUID);
    expect(order.link).toBe(`${gateway.baseUrl}/pay/${order.orderId}`);
    expect(order.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(order.createdAt).toMatch(ISO_MS);
    expect(order.expiresAt).toMatch(ISO_MS);
    expect(Date.parse(order.expiresAt) - Date.parse(order.createdAt)).toBe(3600 * 1000);
  });

  it('answers null for every optional field that was absent, and the network default lifetime', async () => {
    const { status, body } = await call(
      gateway,
      'make-order',
      { currency: 'BTC', network: 'bitcoin', amount: '0.001', order: 'contract-min-1' },
      merchant.test,
    );
    expect(status).toBe(200);
    const order = body.response;
    for (const field of [
      'externalUserId',
      'payerEmail',
      'description',
      'successWebhook',
      'errorWebhook',
      'returnUrl',
      'tag',
    ]) {
      expect(order[field], field).toBeNull();
    }
    expect(order.paymentTolerancePercent).toBe('0');
    expect(order.address).toMatch(/^bc1q[02-9ac-hj-np-z]{38}$/);
    expect(Date.parse(order.expiresAt) - Date.parse(order.createdAt)).toBe(7200 * 1000);
  });

  it('treats null as absent and accepts returnURL as an alias of returnUrl', async () => {
    const { status, body } = await call(
      gateway,
      'make-order',
      {
        currency: 'LTC',
        network: 'litecoin',
        amount: '1',
        order: 'contract-alias-1',
        description: null,
        lifetime: null,
        returnURL: 'https://shop.example/back',
        advancedBalanceId: 'ignored-unknown-field',
      },
      merchant.test,
    );
    expect(status).toBe(200);
    expect(body.response.description).toBeNull();
    expect(body.response.returnUrl).toBe('https://shop.example/back');
    expect(body.response.address).toMatch(/^ltc1q/);
    expect(Date.parse(body.response.expiresAt) - Date.parse(body.response.createdAt)).toBe(3600 * 1000);
  });

  it('gives each order a fresh address, and a tag network one address with a fresh tag', async () => {
    const addresses = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const { body } = await call(
        gateway,
        'make-order',
        { currency: 'ETH', network: 'ethereum', amount: '0.5', order: `fresh-${i}` },
        merchant.test,
      );
      expect(body.response.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      addresses.add(body.response.address);
    }
    expect(addresses.size).toBe(5);
    const tags = new Set<string>();
    const xrpAddresses = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const { body } = await call(
        gateway,
        'make-order',
        { currency: 'XRP', network: 'ripple', amount: '20', order: `xrp-${i}` },
        merchant.test,
      );
      expect(body.response.tag).toMatch(/^[1-9]\d*$/);
      expect(BigInt(body.response.tag)).toBeLessThan(2n ** 32n);
      tags.add(body.response.tag);
      xrpAddresses.add(body.response.address);
    }
    expect(tags.size).toBe(3);
    expect(xrpAddresses.size).toBe(1);
    expect([...xrpAddresses][0]).toMatch(/^r[1-9A-HJ-NP-Za-km-z]{24,34}$/);
  });

  it('answers the existing order for a repeated order with the same values', async () => {
    const request = { currency: 'DOGE', network: 'dogecoin', amount: '100', order: 'contract-repeat-1' };
    const first = await call(gateway, 'make-order', request, merchant.test);
    const second = await call(
      gateway,
      'make-order',
      { ...request, amount: '100.000', description: 'differs but is not part of the key' },
      merchant.test,
    );
    expect(second.status).toBe(200);
    expect(second.body.response).toEqual(first.body.response);
  });

  it("reserves one personal address per user and network, reused by the user's orders", async () => {
    const make = (order: string, currency: string, network: string, user = 'personal-user-1') =>
      call(
        gateway,
        'make-order',
        { currency, network, amount: '5', order, externalUserId: user, payerEmail: 'p1@example.com' },
        merchant.test,
      );
    const first = await make('personal-1', 'USDT', 'tron');
    const otherCurrency = await make('personal-2', 'TRX', 'tron');
    expect(first.status).toBe(200);
    expect(otherCurrency.body.response.address).toBe(first.body.response.address);
    expect(otherCurrency.body.response.addressId).toBe(first.body.response.addressId);
    const otherNetwork = await make('personal-3', 'USDT', 'ethereum');
    expect(otherNetwork.body.response.address).toMatch(/^0x/);
    const otherUser = await make('personal-4', 'USDT', 'tron', 'personal-user-2');
    expect(otherUser.body.response.address).not.toBe(first.body.response.address);
    const [user] = await gateway.db.query<{ email: string }>(
      `select email from external_users where external_user_id = 'personal-user-1'`,
    );
    expect(user!.email).toBe('p1@example.com');
    const [address] = await gateway.db.query<{ kind: string }>('select kind from addresses where id = $1', [
      first.body.response.addressId,
    ]);
    expect(address!.kind).toBe('PERSONAL');
  });

  it('refuses a second pending order on a personal address and currency, naming the pending one', async () => {
    const request = { currency: 'BTC', network: 'bitcoin', amount: '0.01', externalUserId: 'busy-user' };
    const first = await call(gateway, 'make-order', { ...request, order: 'busy-1' }, merchant.test);
    const second = await call(gateway, 'make-order', { ...request, order: 'busy-2' }, merchant.test);
    expect(second.status).toBe(409);
    expect(second.body.error.name).toBe('PERSONAL_ADDRESS_BUSY');
    expect(second.body.error.message).toContain(first.body.response.orderId);
  });
});

describe('orphan-deposits/get-deposit (seed 2.3, 4.2)', () => {
  it('answers every field of the deposit and its transactions', async () => {
    const made = await call(
      gateway,
      'make-order',
      { currency: 'USDT', network: 'ethereum', amount: '10', order: 'deposit-contract-1' },
      merchant.test,
    );
    const order = made.body.response;
    const inTx = `0x${fakeTxHash()}`;
    const outTx = `0x${fakeTxHash()}`;
    const id = await insertDeposit(gateway.db, order, {
      merchantId: merchant.merchantId,
      mode: 'test',
      txHash: inTx,
      amount: 2_500_000n,
      out: {
        address: '0x000000000000000000000000000000000000dEaD',
        txHash: outTx,
        amount: 2_400_000n,
        fee: 100_000n,
        feeUsdCents: 12n,
      },
    });
    const { status, body } = await call(gateway, 'orphan-deposits/get-deposit', { id }, merchant.test);
    expect(status).toBe(200);
    const deposit = body.response;
    expect(Object.keys(deposit).sort()).toEqual(
      [
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
      ].sort(),
    );
    expect(deposit).toMatchObject({
      id,
      organizationId: merchant.merchantId,
      orderId: order.orderId,
      stage: 'WITHDRAWAL',
      status: 'PROCESSED',
      message: null,
      currency: 'USDT',
      network: 'ethereum',
      amount: '2.5',
      canWithdrawal: false,
    });
    expect(deposit.createdAt).toMatch(ISO_MS);
    expect(deposit.inTransaction).toEqual({
      addressType: 'PAY_IN',
      addressId: order.addressId,
      address: order.address,
      tag: null,
      txId: inTx,
      amount: '2.5',
      status: 'processed',
    });
    expect(Object.keys(deposit.outTransactions).sort()).toEqual(
      ['address', 'txId', 'amount', 'status', 'feeAmount', 'feeAmountUSD', 'withdrawalId', 'createdAt'].sort(),
    );
    expect(deposit.outTransactions).toMatchObject({
      address: '0x000000000000000000000000000000000000dEaD',
      txId: outTx,
      amount: '2.4',
      status: 'processed',
      feeAmount: '0.1',
      feeAmountUSD: '0.12',
    });
    expect(deposit.outTransactions.withdrawalId).toMatch(UUID);
    expect(deposit.outTransactions.createdAt).toMatch(ISO_MS);
  });

  it('answers outTransactions null for a deposit nothing has left yet', async () => {
    const made = await call(
      gateway,
      'make-order',
      { currency: 'BTC', network: 'bitcoin', amount: '0.2', order: 'deposit-contract-2' },
      merchant.test,
    );
    const id = await insertDeposit(gateway.db, made.body.response, {
      merchantId: merchant.merchantId,
      mode: 'test',
      txHash: fakeTxHash(),
      amount: 5000n,
    });
    const { body } = await call(gateway, 'orphan-deposits/get-deposit', { id }, merchant.test);
    expect(body.response).toMatchObject({
      stage: 'DEPOSIT',
      status: 'PENDING',
      amount: '0.00005',
      canWithdrawal: false,
      outTransactions: null,
    });
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
      const { status, body } = await call(gateway, 'orphan-deposits/get-deposit', { id }, merchant.test);
      expect(status).toBe(404);
      expect(body.error.name).toBe('NOT_FOUND');
    }
  });
});

describe('find-tx (seed 2.4, 4.3)', () => {
  it('answers the ORDER item of a payment with every field', async () => {
    const made = await call(
      gateway,
      'make-order',
      { currency: 'BTC', network: 'bitcoin', amount: '0.3', order: 'findtx-1' },
      merchant.test,
    );
    const order = made.body.response;
    const tx = fakeTxHash();
    const paymentId = await insertPayment(gateway.db, order, {
      merchantId: merchant.merchantId,
      mode: 'test',
      txHash: tx,
      amount: 30_000_000n,
    });
    const { status, body } = await call(gateway, 'find-tx', { tx: tx.toUpperCase() }, merchant.test);
    expect(status).toBe(200);
    expect(body.response).toHaveLength(1);
    const [item] = body.response;
    expect(item).toEqual({
      type: 'IN',
      source: 'ORDER',
      address: order.address,
      result: {
        id: paymentId,
        addressId: order.addressId,
        currency: 'BTC',
        network: 'bitcoin',
        tx,
        status: 'pending',
        address: order.address,
        tag: null,
        amount: '0.3',
        feeCurrency: 'BTC',
        feeSource: 'advanced_balance',
        feeAmount: '0',
        createdAt: item.result.createdAt,
      },
    });
    expect(item.result.createdAt).toMatch(ISO_MS);
  });

  it('answers orphan deposits by their incoming hash', async () => {
    const made = await call(
      gateway,
      'make-order',
      { currency: 'ETH', network: 'base', amount: '0.01', order: 'findtx-2' },
      merchant.test,
    );
    const tx = `0x${fakeTxHash()}`;
    const id = await insertDeposit(gateway.db, made.body.response, {
      merchantId: merchant.merchantId,
      mode: 'test',
      txHash: tx,
      amount: 10n ** 15n,
    });
    const { body } = await call(gateway, 'find-tx', { tx }, merchant.test);
    expect(body.response).toHaveLength(1);
    expect(body.response[0]).toMatchObject({
      type: 'IN',
      source: 'ORPHAN_DEPOSIT',
      address: made.body.response.address,
      result: { id, amount: '0.001' },
    });
  });

  it('answers [] for an unknown hash and for no tx', async () => {
    expect((await call(gateway, 'find-tx', { tx: fakeTxHash() }, merchant.test)).body).toEqual({
      success: true,
      response: [],
    });
    expect((await call(gateway, 'find-tx', {}, merchant.test)).body).toEqual({ success: true, response: [] });
  });
});

describe('client operations', () => {
  it('order answers the order with received and transactions', async () => {
    const made = await call(
      gateway,
      'make-order',
      { currency: 'LTC', network: 'litecoin', amount: '2', order: 'op-order-1' },
      merchant.test,
    );
    const tx = fakeTxHash();
    await insertPayment(gateway.db, made.body.response, {
      merchantId: merchant.merchantId,
      mode: 'test',
      txHash: tx,
      amount: 50_000_000n,
    });
    const { status, body } = await call(gateway, 'order', { orderId: made.body.response.orderId }, merchant.test);
    expect(status).toBe(200);
    expect(body.response).toMatchObject({ ...made.body.response, received: '0' });
    expect(body.response.transactions).toEqual([expect.objectContaining({ tx, amount: '0.5', status: 'pending' })]);
  });

  it('orders lists newest first with a status filter and paging', async () => {
    const { body } = await call(gateway, 'orders', { status: ['pending'], limit: 2, offset: 1 }, merchant.test);
    expect(body.response.orders).toHaveLength(2);
    expect(body.response.total).toBeGreaterThan(3);
    const times = body.response.orders.map((o: { createdAt: string }) => Date.parse(o.createdAt));
    expect(times[0]).toBeGreaterThanOrEqual(times[1]);
    const none = await call(gateway, 'orders', { status: ['expired'] }, merchant.test);
    expect(none.body.response).toEqual({ orders: [], total: 0, limit: 20, offset: 0 });
  });

  it('advanced-balances answers a non-empty array with the fee account', async () => {
    const { body } = await call(gateway, 'advanced-balances', {}, merchant.test);
    expect(body.response).toHaveLength(1);
    expect(body.response[0]).toMatchObject({ currency: 'USD', balance: '0' });
    expect(body.response[0].advancedBalanceId).toMatch(UUID);
    expect(body.response[0].availableCurrenciesForDeposit).toContain('USDT');
  });

  it('available-currencies lists every test network, and nothing for live keys until a chain is configured', async () => {
    const test = await call(gateway, 'available-currencies', {}, merchant.test);
    const usdt = test.body.response.find((c: { currency: string }) => c.currency === 'USDT');
    expect(usdt.networks.map((n: { network: string }) => n.network)).toEqual([
      'ethereum',
      'bsc',
      'polygon',
      'arbitrum',
      'tron',
      'solana',
    ]);
    expect(usdt.networks[0]).toMatchObject({ decimals: 6, contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7' });
    const live = await call(gateway, 'available-currencies', {}, merchant.live);
    expect(live.body.response).toEqual([]);
  });
});
