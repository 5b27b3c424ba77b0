/**
 * Contract of the operations the public clients of the API we follow call beyond the seed's
 * (issue 20), over real HTTP: fields, JSON types, nulls, pagination, and scoping to the caller's
 * merchant and mode (another merchant's ids answer 404 or empty). Every success answer is checked
 * against the operation's response schema and the OpenAPI description (./support/contract.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import { openApiDocument, UNSUPPORTED_OPERATIONS } from '@/lib/protocol';
import { dispatcherOptions, startDispatcher, type Dispatcher } from '@/lib/webhooks';
import { network, sandboxChain, watchOnce } from './support/chain';
import { checkedCall } from './support/contract';
import { fakeTxHash, insertDeposit, insertPayment } from './support/fixtures';
import { call, postRaw, withTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';
import { startReceiver, type Receiver } from './support/webhook-receiver';
import { waitFor } from './support/worker-process';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let gateway: TestGateway;
let merchant: TestMerchant;
let stranger: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));
beforeAll(async () => {
  stranger = await createTestMerchant(gateway.db);
});

/** A signed call whose success answer must match the operation's schema and the OpenAPI document. */
const api = (operation: string, body: Record<string, unknown>, keys = merchant.test) =>
  checkedCall(gateway, operation, body, keys);

async function makeOrder(fields: Record<string, unknown>, keys = merchant.test) {
  const made = await api('make-order', fields, keys);
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body.response;
}

describe('operation-by-tx-hash', () => {
  it('answers what find-tx answers, for the caller only', async () => {
    const order = await makeOrder({ currency: 'BTC', network: 'bitcoin', amount: '0.3', order: 'dropin-hash-1' });
    const tx = fakeTxHash();
    await insertPayment(gateway.db, order, {
      merchantId: merchant.merchantId,
      mode: 'test',
      txHash: tx,
      amount: 30_000_000n,
    });
    const byHash = await api('operation-by-tx-hash', { tx });
    expect(byHash.status).toBe(200);
    expect(byHash.body.response).toHaveLength(1);
    expect(byHash.body).toEqual((await api('find-tx', { tx })).body);
    expect((await api('operation-by-tx-hash', { tx }, stranger.test)).body).toEqual({ success: true, response: [] });
    expect((await api('operation-by-tx-hash', { tx }, merchant.live)).body).toEqual({ success: true, response: [] });
  });
});

describe('utils/validate-address and the patterns of available-currencies', () => {
  it('answers isValid and the network pattern, checksum included', async () => {
    const order = await makeOrder({ currency: 'BTC', network: 'bitcoin', amount: '0.1', order: 'dropin-validate-1' });
    const valid = await api('utils/validate-address', { address: order.address, network: 'bitcoin' });
    expect(valid.status).toBe(200);
    expect(Object.keys(valid.body.response).sort()).toEqual(['isValid', 'regex']);
    expect(valid.body.response.isValid).toBe(true);
    expect(order.address).toMatch(new RegExp(valid.body.response.regex));
    // One character changed: still the pattern, no longer the checksum.
    const last = order.address.at(-1) === 'q' ? 'p' : 'q';
    const mangled = await api('utils/validate-address', {
      address: `${order.address.slice(0, -1)}${last}`,
      network: 'BITCOIN',
    });
    expect(mangled.body.response).toEqual({ isValid: false, regex: valid.body.response.regex });
    for (const [networkName, address, isValid] of [
      ['ethereum', '0x52908400098527886E0F7030069857D2E4169EE7', true],
      ['ethereum', '0x52908400098527886E0F7030069857D2E4169EE', false],
      ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', true],
      ['tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', false],
      ['ripple', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', true],
      ['litecoin', order.address, false],
    ] as const) {
      const answer = await api('utils/validate-address', { address, network: networkName });
      expect(answer.body.response.isValid, `${networkName} ${address}`).toBe(isValid);
    }
  });

  it('refuses an unknown network with UNSUPPORTED_CURRENCY and a missing address with VALIDATION_ERROR', async () => {
    const unknown = await api('utils/validate-address', { address: 'x', network: 'dogechain' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatchObject({
      name: 'UNSUPPORTED_CURRENCY',
      details: [{ path: 'network', message: 'is not available' }],
    });
    const missing = await api('utils/validate-address', { network: 'bitcoin' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([{ path: 'address', message: 'is required' }]);
  });

  it('gives every network of available-currencies its addressRegex, and a tagRegex to tag networks', async () => {
    const { body } = await api('available-currencies', {});
    const networks = body.response.flatMap(
      (c: { networks: { network: string; addressRegex: string; tagRegex: string | null }[] }) => c.networks,
    );
    for (const n of networks) {
      expect(typeof n.addressRegex, n.network).toBe('string');
      const tagRegex: Record<string, string> = {
        ripple: '^(0|[1-9][0-9]{0,9})$',
        // A Solana Pay reference, 32 bytes in base58 like an address.
        solana: '^[1-9A-HJ-NP-Za-km-z]{32,44}$',
      };
      expect(n.tagRegex, n.network).toBe(tagRegex[n.network] ?? null);
    }
    const ripple = await makeOrder({ currency: 'XRP', network: 'ripple', amount: '5', order: 'dropin-validate-xrp' });
    const rippleNetwork = networks.find((n: { network: string }) => n.network === 'ripple');
    expect(ripple.address).toMatch(new RegExp(rippleNetwork.addressRegex));
    expect(ripple.tag).toMatch(new RegExp(rippleNetwork.tagRegex));
    const regex = (await api('utils/validate-address', { address: ripple.address, network: 'ripple' })).body.response
      .regex;
    expect(regex).toBe(rippleNetwork.addressRegex);
  });
});

describe('advanced-balance', () => {
  it("answers the caller's fee account, by id or without one, and 404 for another's", async () => {
    const [listed] = (await api('advanced-balances', {})).body.response;
    const byId = await api('advanced-balance', { advancedBalanceId: listed.advancedBalanceId });
    expect(byId.status).toBe(200);
    expect(byId.body.response).toEqual(listed);
    expect((await api('advanced-balance', {})).body.response).toEqual(listed);
    const other = await api('advanced-balance', { advancedBalanceId: listed.advancedBalanceId }, stranger.test);
    expect(other.status).toBe(404);
    expect(other.body.error.name).toBe('NOT_FOUND');
    // The live key's fee account is another one.
    expect((await api('advanced-balance', { advancedBalanceId: listed.advancedBalanceId }, merchant.live)).status).toBe(
      404,
    );
  });
});

describe('orphan-deposits/get-deposits', () => {
  it("lists the caller's orphan deposits newest first, filtered and paged", async () => {
    const shop = await createTestMerchant(gateway.db);
    const first = await makeOrder(
      { currency: 'LTC', network: 'litecoin', amount: '1', order: 'dropin-dep-1' },
      shop.test,
    );
    const second = await makeOrder(
      { currency: 'LTC', network: 'litecoin', amount: '1', order: 'dropin-dep-2' },
      shop.test,
    );
    const scope = { merchantId: shop.merchantId, mode: 'test' as const };
    // A second apart: deposits recorded in the same instant are listed in id order, not insertion order.
    const at = (second: number) => new Date(Date.now() - 60_000 + second * 1000);
    const a = await insertDeposit(gateway.db, first, {
      ...scope,
      txHash: fakeTxHash(),
      amount: 100n,
      createdAt: at(1),
    });
    const b = await insertDeposit(gateway.db, first, {
      ...scope,
      txHash: fakeTxHash(),
      amount: 200n,
      out: { address: 'ltc1qexternal', txHash: fakeTxHash(), amount: 190n, fee: 10n, feeUsdCents: 3n },
      createdAt: at(2),
    });
    const c = await insertDeposit(gateway.db, second, {
      ...scope,
      txHash: fakeTxHash(),
      amount: 300n,
      createdAt: at(3),
    });
    await insertDeposit(gateway.db, second, {
      ...scope,
      kind: 'PERSONAL',
      txHash: fakeTxHash(),
      amount: 400n,
      createdAt: at(4),
    });

    const all = await api('orphan-deposits/get-deposits', {}, shop.test);
    expect(all.status).toBe(200);
    expect(all.body.response.map((d: { id: string }) => d.id)).toEqual([c, b, a]);
    expect(all.body.response[0]).toEqual(
      (await api('orphan-deposits/get-deposit', { id: c }, shop.test)).body.response,
    );
    const ids = async (filter: Record<string, unknown>) =>
      (await api('orphan-deposits/get-deposits', filter, shop.test)).body.response.map((d: { id: string }) => d.id);
    expect(await ids({ orderId: first.orderId })).toEqual([b, a]);
    expect(await ids({ stage: 'WITHDRAWAL' })).toEqual([b]);
    expect(await ids({ status: 'PENDING' })).toEqual([c, a]);
    expect(await ids({ id: a })).toEqual([a]);
    expect(await ids({ limit: 2 })).toEqual([c, b]);
    expect(await ids({ limit: 2, offset: 2 })).toEqual([a]);
    expect(await ids({ id: 'not-a-uuid' })).toEqual([]);
    // Go's client sends offset 0 always and the others null for absent filters.
    expect(await ids({ orderId: null, stage: null, status: null, offset: 0 })).toEqual([c, b, a]);
    expect((await api('orphan-deposits/get-deposits', {}, stranger.test)).body.response).toEqual([]);
    expect((await api('orphan-deposits/get-deposits', { id: a }, shop.live)).body.response).toEqual([]);

    const bad = await api('orphan-deposits/get-deposits', { stage: 'LATER', limit: 0 }, shop.test);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['limit', 'stage']);
  });
});

describe('addresses/find-by-id, find-by-address, transactions', () => {
  it("answers the caller's addresses with what they received, and 404 for another's", async () => {
    const order = await makeOrder({ currency: 'BTC', network: 'bitcoin', amount: '0.5', order: 'dropin-addr-1' });
    const scope = { merchantId: merchant.merchantId, mode: 'test' as const };
    await insertPayment(gateway.db, order, {
      ...scope,
      txHash: fakeTxHash(),
      amount: 20_000_000n,
      status: 'processed',
    });
    await insertPayment(gateway.db, order, { ...scope, txHash: fakeTxHash(), amount: 5_000_000n, status: 'pending' });

    const byId = await api('addresses/find-by-id', { id: order.addressId });
    expect(byId.status).toBe(200);
    expect(byId.body.response).toEqual({
      id: order.addressId,
      type: 'PAY_IN',
      alias: null,
      currency: 'BTC',
      network: 'bitcoin',
      balance: '0.2',
      address: order.address,
      tag: null,
      meta: null,
      isArchived: false,
    });
    expect((await api('addresses/find-by-address', { address: order.address })).body.response).toEqual(
      byId.body.response,
    );

    for (const keys of [stranger.test, merchant.live]) {
      expect((await api('addresses/find-by-id', { id: order.addressId }, keys)).status).toBe(404);
      expect((await api('addresses/find-by-address', { address: order.address }, keys)).status).toBe(404);
      expect((await api('addresses/transactions', { id: order.addressId }, keys)).status).toBe(404);
    }
    expect((await api('addresses/find-by-id', { id: 'nope' })).body.error.name).toBe('NOT_FOUND');
  });

  it('tells orders on a tag network apart by tag', async () => {
    const one = await makeOrder({ currency: 'XRP', network: 'ripple', amount: '1', order: 'dropin-addr-xrp-1' });
    const two = await makeOrder({ currency: 'XRP', network: 'ripple', amount: '2', order: 'dropin-addr-xrp-2' });
    expect(one.address).toBe(two.address);
    const found = await api('addresses/find-by-address', { address: one.address, tag: one.tag });
    expect(found.body.response).toMatchObject({ id: one.addressId, tag: one.tag, currency: 'XRP', balance: '0' });
    expect((await api('addresses/find-by-address', { address: two.address, tag: two.tag })).body.response.id).toBe(
      two.addressId,
    );
  });

  it('lists what went in and out of an address, newest first, filtered and paged', async () => {
    const order = await makeOrder({ currency: 'ETH', network: 'ethereum', amount: '0.5', order: 'dropin-addr-tx' });
    const scope = { merchantId: merchant.merchantId, mode: 'test' as const };
    const paymentTx = `0x${fakeTxHash()}`;
    const paymentId = await insertPayment(gateway.db, order, {
      ...scope,
      txHash: paymentTx,
      amount: 5n * 10n ** 17n,
      status: 'processed',
    });
    const outTx = `0x${fakeTxHash()}`;
    const depositId = await insertDeposit(gateway.db, order, {
      ...scope,
      txHash: `0x${fakeTxHash()}`,
      amount: 10n ** 17n,
      out: {
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        txHash: outTx,
        amount: 6n * 10n ** 17n,
        fee: 10n ** 15n,
        feeUsdCents: 250n,
      },
    });
    const listed = await api('addresses/transactions', { id: order.addressId });
    expect(listed.status).toBe(200);
    const items = listed.body.response;
    expect(items).toHaveLength(3);
    const payment = items.find((t: { id: string }) => t.id === paymentId);
    expect(payment).toEqual({
      id: paymentId,
      status: 'processed',
      type: 'deposit',
      currency: 'ETH',
      network: 'ethereum',
      addressFrom: null,
      addressTo: order.address,
      amount: '0.5',
      tx: paymentTx,
      feeCurrency: 'ETH',
      feeAmount: '0',
      feeAmountUSD: null,
      withdrawalId: null,
      orphanDepositId: null,
      createdAt: payment.createdAt,
    });
    expect(payment.createdAt).toMatch(ISO_MS);
    expect(items.find((t: { id: string }) => t.id === depositId)).toMatchObject({
      type: 'deposit',
      status: 'processed',
      orphanDepositId: depositId,
      amount: '0.1',
    });
    const out = items.find((t: { type: string }) => t.type === 'withdrawal');
    expect(out).toMatchObject({
      status: 'processed',
      addressFrom: order.address,
      addressTo: '0x52908400098527886E0F7030069857D2E4169EE7',
      amount: '0.6',
      tx: outTx,
      feeCurrency: 'ETH',
      feeAmount: '0.001',
      feeAmountUSD: '2.5',
      orphanDepositId: null,
    });
    expect(out.withdrawalId).toBe(out.id);
    const dates = items.map((t: { createdAt: string }) => t.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);

    const only = async (filter: Record<string, unknown>) =>
      (await api('addresses/transactions', { id: order.addressId, ...filter })).body.response.map(
        (t: { tx: string }) => t.tx,
      );
    expect(await only({ type: 'withdrawal' })).toEqual([outTx]);
    expect(await only({ limit: 1, offset: 0 })).toHaveLength(1);
    expect(await only({ limit: 100, offset: 3 })).toEqual([]);
    expect(await only({ status: ['pending'] })).toEqual([]);
    // The Go client's path for the same operation.
    expect((await api('addresses/address-transactions', { id: order.addressId, limit: 100, offset: 0 })).body).toEqual(
      listed.body,
    );
    expect((await api('addresses/transactions', { id: order.addressId, type: 'sideways' })).status).toBe(400);
  });
});

describe('webhooks/get and webhooks/get-verbose', () => {
  let receiver: Receiver;
  let dispatcher: Dispatcher;
  beforeAll(async () => {
    receiver = await startReceiver(() => ({ status: 500, body: 'try later' }));
    dispatcher = startDispatcher(
      gateway.db,
      dispatcherOptions({
        policy: { allowPrivate: false, allowed: ['127.0.0.1'] },
        pollMs: 25,
        retryDelaysMs: [3_600_000],
        jitter: 0,
        timeoutMs: 60_000,
      }),
    );
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await receiver?.close();
  });

  it(
    "answers the body sent and the delivery with its log, for the event's merchant and mode only",
    { timeout: 180_000 },
    async () => {
      const order = await makeOrder({
        currency: 'LTC',
        network: 'litecoin',
        amount: '0.1',
        order: 'dropin-hook-1',
        successWebhook: receiver.url('/hook'),
      });
      await broadcast(gateway.db, {
        network: network('litecoin'),
        to: order.address,
        tag: null,
        currency: 'LTC',
        amount: 10_000_000n,
      });
      await mine(gateway.db, network('litecoin'), 2);
      await watchOnce(gateway.db, sandboxChain(gateway.db, 'litecoin'));
      // The attempt's log row is written after `attempts` counts it: wait for the row.
      await waitFor(
        'a first attempt logged',
        60_000,
        async () =>
          (await call(gateway, 'webhooks/list', { orderId: order.orderId }, merchant.test)).body.response[0]?.log
            .length === 1,
      );
      const [event] = (await call(gateway, 'webhooks/list', { orderId: order.orderId }, merchant.test)).body.response;

      const body = await api('webhooks/get', { webhookId: event.id });
      expect(body.status).toBe(200);
      expect(body.body.response).toEqual(receiver.received[0]!.body);
      expect(body.body.response).toMatchObject({
        event: 'ORDER',
        id: event.id,
        orderId: order.orderId,
        status: 'processed',
      });

      const verbose = await api('webhooks/get-verbose', { webhookId: event.id });
      expect(verbose.status).toBe(200);
      const answer = verbose.body.response;
      expect(Object.keys(answer).sort()).toEqual(
        [
          'attempts',
          'createdAt',
          'event',
          'eventId',
          'id',
          'log',
          'requestBody',
          'requestUrl',
          'responseBody',
          'responseCode',
          'responseStatus',
          'sentAt',
          'state',
          'updatedAt',
        ].sort(),
      );
      expect(answer).toMatchObject({
        id: event.id,
        event: 'ORDER',
        eventId: order.orderId,
        requestUrl: receiver.url('/hook'),
        requestBody: receiver.received[0]!.raw,
        responseStatus: 'ERROR',
        responseCode: 500,
        responseBody: 'try later',
        state: 'pending',
        attempts: 1,
        log: event.log,
      });
      expect(answer.sentAt).toBe(event.log[0].at);
      expect(answer.updatedAt).toMatch(ISO_MS);
      const some = await api('webhooks/get-verbose', {
        webhookId: event.id,
        fields: ['id', 'event', 'responseStatus'],
      });
      expect(some.body.response).toEqual({ id: event.id, event: 'ORDER', responseStatus: 'ERROR' });

      for (const keys of [stranger.test, merchant.live]) {
        expect((await api('webhooks/get', { webhookId: event.id }, keys)).status).toBe(404);
        expect((await api('webhooks/get-verbose', { webhookId: event.id }, keys)).status).toBe(404);
      }
      expect((await api('webhooks/get', { webhookId: 'not-a-uuid' })).body.error.name).toBe('NOT_FOUND');
      expect((await api('webhooks/get-verbose', {})).status).toBe(400);
    },
  );
});

describe('personal-addresses', () => {
  const USER_FIELDS = ['clientEmail', 'clientId', 'clientName', 'createdAt', 'depositWebhookUrl', 'id', 'updatedAt'];

  it('creates a user, answers it by id or clientId, and updates only the fields given', async () => {
    const created = await api('personal-addresses/create-user', {
      clientId: 'dropin-user-1',
      clientEmail: 'one@example.com',
      createAddresses: false,
      groupByBlockchain: false,
      checkRisks: false,
    });
    expect(created.status).toBe(200);
    const user = created.body.response;
    expect(Object.keys(user).sort()).toEqual(USER_FIELDS);
    expect(user).toMatchObject({
      clientId: 'dropin-user-1',
      clientEmail: 'one@example.com',
      clientName: null,
      depositWebhookUrl: null,
    });
    expect(user.createdAt).toMatch(ISO_MS);
    const again = await api('personal-addresses/create-user', {
      clientId: 'dropin-user-1',
      clientName: 'One',
      depositWebhookUrl: 'https://shop.example/deposits',
    });
    expect(again.body.response).toMatchObject({
      id: user.id,
      clientEmail: 'one@example.com',
      clientName: 'One',
      depositWebhookUrl: 'https://shop.example/deposits',
    });
    expect((await api('personal-addresses/get-user', { id: user.id })).body.response).toEqual(again.body.response);
    expect((await api('personal-addresses/get-user', { clientId: 'dropin-user-1' })).body.response).toEqual(
      again.body.response,
    );
    for (const keys of [stranger.test, merchant.live]) {
      expect((await api('personal-addresses/get-user', { id: user.id }, keys)).status).toBe(404);
      expect((await api('personal-addresses/get-user', { clientId: 'dropin-user-1' }, keys)).status).toBe(404);
    }
    const neither = await api('personal-addresses/get-user', {});
    expect(neither.status).toBe(400);
    expect(neither.body.error.details).toEqual([{ path: 'id', message: 'id or clientId is required' }]);
    expect(
      (await api('personal-addresses/create-user', { clientId: 'x', depositWebhookUrl: 'ftp://nope' })).status,
    ).toBe(400);
  });

  it("is the user of make-order's externalUserId: one address per network, the same for its orders and get-user-address", async () => {
    const order = await makeOrder({
      currency: 'USDT',
      network: 'tron',
      amount: '10',
      order: 'dropin-personal-1',
      externalUserId: 'dropin-user-2',
    });
    const user = (await api('personal-addresses/get-user', { clientId: 'dropin-user-2' })).body.response;
    const usdt = await api('personal-addresses/get-user-address', {
      id: user.id,
      currency: 'usdt',
      network: 'tron',
      renewAddress: true,
    });
    expect(usdt.status).toBe(200);
    expect(usdt.body.response).toEqual({
      id: order.addressId,
      userId: user.id,
      currency: 'USDT',
      network: 'tron',
      address: order.address,
      tag: null,
      balance: '0',
      isActive: true,
    });
    const btc = (await api('personal-addresses/get-user-address', { id: user.id, currency: 'BTC', network: 'bitcoin' }))
      .body.response;
    expect(btc.address).toMatch(/^bc1q/);
    // Taken once: asked again, the same address.
    expect(
      (await api('personal-addresses/get-user-address', { id: user.id, currency: 'BTC', network: 'bitcoin' })).body
        .response,
    ).toEqual(btc);
    expect((await api('addresses/find-by-id', { id: btc.id })).body.response).toMatchObject({
      type: 'PERSONAL',
      currency: null,
      address: btc.address,
    });

    const all = (
      await api('personal-addresses/get-user-addresses', { id: user.id, isActive: false, limit: 100, offset: 0 })
    ).body.response;
    expect(all.map((a: { network: string; currency: string }) => `${a.network}/${a.currency}`)).toEqual([
      'bitcoin/BTC',
      'tron/TRX',
      'tron/USDT',
    ]);
    const pick = async (filter: Record<string, unknown>) =>
      (await api('personal-addresses/get-user-addresses', { id: user.id, ...filter })).body.response.map(
        (a: { currency: string }) => a.currency,
      );
    expect(await pick({ network: ['tron'] })).toEqual(['TRX', 'USDT']);
    expect(await pick({ currency: ['usdt', 'btc'] })).toEqual(['BTC', 'USDT']);
    expect(await pick({ limit: 1, offset: 1 })).toEqual(['TRX']);

    expect(
      (await api('personal-addresses/get-user-address', { id: user.id, currency: 'BTC', network: 'tron' })).body.error
        .name,
    ).toBe('UNSUPPORTED_CURRENCY');
    for (const keys of [stranger.test, merchant.live]) {
      expect(
        (await api('personal-addresses/get-user-address', { id: user.id, currency: 'BTC', network: 'bitcoin' }, keys))
          .status,
      ).toBe(404);
      expect((await api('personal-addresses/get-user-addresses', { id: user.id }, keys)).status).toBe(404);
    }
  });

  it("takes an address on every network with createAddresses, under the Go client's path too", async () => {
    const created = await api('personal_addresses/create-user', {
      clientId: 'dropin-user-3',
      createAddresses: true,
      groupByBlockchain: false,
      checkRisks: false,
    });
    expect(created.status).toBe(200);
    const { addresses, ...user } = created.body.response;
    expect(Object.keys(user).sort()).toEqual(USER_FIELDS);
    const pairs = (await api('available-currencies', {})).body.response.flatMap(
      (c: { currency: string; networks: { network: string }[] }) => c.networks.map((n) => `${n.network}/${c.currency}`),
    );
    expect(addresses.map((a: { network: string; currency: string }) => `${a.network}/${a.currency}`).sort()).toEqual(
      pairs.sort(),
    );
    expect((await api('personal_addresses/get-user-addresses', { id: user.id, limit: 100 })).body.response).toEqual(
      addresses,
    );
  });
});

describe('operations that move funds', () => {
  it("answer NOT_SUPPORTED (501) with the reason, after authenticating, on both servers' paths", async () => {
    for (const [path, reason] of Object.entries(UNSUPPORTED_OPERATIONS)) {
      const answer = await api(path, { amount: '1', address: 'x' });
      expect(answer.status, path).toBe(501);
      expect(answer.body.error, path).toEqual({ code: 4002, name: 'NOT_SUPPORTED', message: reason, details: [] });
      expect(reason).toMatch(/not supported/);
    }
    // The PHP client's trailing slash, and no credentials at all.
    expect((await call(gateway, 'make-withdrawal/', {}, merchant.test)).body.error.name).toBe('NOT_SUPPORTED');
    expect((await postRaw(gateway, 'swaps/create', '{}', undefined)).status).toBe(401);
    // An operation nobody has is still not found.
    expect((await api('teleport', {})).body.error.name).toBe('NOT_FOUND');
  });
});

describe('the API description', () => {
  it('serves openapi.json and the API reference page that renders it', async () => {
    const served = await fetch(`${gateway.baseUrl}/api-gateway/openapi.json`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await served.json()) as { paths: Record<string, unknown> };
    expect(document).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    for (const path of [
      '/api-gateway/utils/validate-address',
      '/api-gateway/personal-addresses/get-user-addresses',
      '/api-gateway/make-withdrawal',
    ])
      expect(Object.keys(document.paths)).toContain(path);
    // The page is Scalar's, drawn in the browser from that document (e2e/api-reference.spec.ts
    // reads the operations on it); without JavaScript it links the document itself.
    const page = await fetch(`${gateway.baseUrl}/docs/api`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('"url":"/api-gateway/openapi.json"');
    expect(html).toContain('href="/api-gateway/openapi.json"');
  });
});
