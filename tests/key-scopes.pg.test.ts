/**
 * Key scopes over real HTTP (lib/protocol/scopes.ts, docs/decisions/048): a read-only key is
 * refused every write of the table with 403 INSUFFICIENT_SCOPE and changes nothing, and is answered
 * every read; an orders-and-invoices key makes orders but reads nothing else of the account. Every
 * answer is checked against the operation's schema and the OpenAPI document (tests/support/contract.ts).
 * The gateway's own operations (`events/list`, `webhook-endpoints/*`, `refunds/*`) answer as the
 * document says; `refunds/make` moves money out, so only a key with the refunds scope may call it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import { createKey } from '@/lib/merchants';
import { OPERATIONS, type OperationName } from '@/lib/protocol';
import { network, sandboxChain, watchOnce } from './support/chain';
import { checkedCall as call } from './support/contract';
import { countRows } from './support/database';
import { fakeTxHash, insertDeposit } from './support/fixtures';
import { withTestGateway, type Keys, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';
import { waitFor } from './support/worker-process';

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));

let readOnly: Keys;
let checkout: Keys;
let refunder: Keys;
/** A valid body of every operation, naming the merchant's own things. */
const bodies = {} as Record<OperationName, Record<string, unknown>>;

async function ok(path: OperationName, body: Record<string, unknown>, keys: Keys = merchant.test) {
  const answer = await call(gateway, path, body, keys);
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
  return answer.body.response;
}

beforeAll(async () => {
  readOnly = await createKey(gateway.db, merchant.merchantId, 'test', { name: 'Reports', scopes: ['read-only'] });
  checkout = await createKey(gateway.db, merchant.merchantId, 'test', {
    name: 'Till',
    scopes: ['orders-and-invoices'],
  });
  refunder = await createKey(gateway.db, merchant.merchantId, 'test', { name: 'Refunds', scopes: ['full', 'refunds'] });
  const order = await ok('make-order', {
    currency: 'LTC',
    network: 'litecoin',
    amount: '0.5',
    order: 'scopes-1',
    successWebhook: 'https://shop.example/hooks/ok',
    externalUserId: 'scoped-user',
  });
  // Paid and settled, so that it has a payment, an event and a webhook to read.
  await broadcast(gateway.db, {
    network: network('litecoin'),
    to: order.address,
    tag: null,
    currency: 'LTC',
    amount: 50_000_000n,
  });
  await mine(gateway.db, network('litecoin'), 2);
  await watchOnce(gateway.db, sandboxChain(gateway.db, 'litecoin'));
  const [paid] = await gateway.db.query<{ id: string; tx: string }>(
    `select w.id, p.tx_hash as tx from webhook_events w join payments p on p.order_id = w.order_id where w.order_id = $1`,
    [order.orderId],
  );
  const { id: webhookId, tx } = paid!;
  const depositId = await insertDeposit(
    gateway.db,
    {
      orderId: order.orderId,
      addressId: order.addressId,
      address: order.address,
      currency: 'LTC',
      network: 'litecoin',
    },
    { merchantId: merchant.merchantId, mode: 'test', txHash: fakeTxHash(), amount: 1000n },
  );
  const refund = await ok('refunds/make', { orderId: order.orderId, amount: '0.01' }, refunder);
  const invoice = await ok('make-invoice', { currency: 'USD', amount: '10', externalId: 'scopes-invoice' });
  const user = await ok('personal-addresses/get-user', { clientId: 'scoped-user' });
  const link = await ok('payment-links/create', { title: 'Scopes', currency: 'USD', amount: '5' });
  const plan = await ok('subscriptions/create-plan', {
    name: 'Scopes',
    currency: 'USD',
    amount: '5',
    interval: 'month',
  });
  const subscription = await ok('subscriptions/create', { planId: plan.id, email: 'scopes@example.com' });
  const { endpoint } = await ok('webhook-endpoints/create', {
    url: 'https://shop.example/hooks/all',
    eventTypes: ['*'],
  });
  // The feed hands an event out once every older transaction on the server has ended (other test
  // files share it): waited for, not assumed.
  let event: { id: string; data: { orderId: string } } | undefined;
  await waitFor("the order's event in the feed", 30_000, async () => {
    [event] = (await ok('events/list', {})).events;
    return event !== undefined;
  });
  expect(event!.data.orderId).toBe(order.orderId);
  Object.assign(bodies, {
    'make-order': { currency: 'LTC', network: 'litecoin', amount: '1', order: 'scopes-2' },
    order: { orderId: order.orderId },
    orders: {},
    'make-invoice': { currency: 'USD', amount: '12', externalId: 'scopes-invoice-2' },
    'get-invoice': { invoiceId: invoice.id },
    'get-invoices': {},
    'price-rate': { from: 'BTC', to: 'USD' },
    'orphan-deposits/get-deposit': { id: depositId },
    'find-tx': { tx },
    'test-signature': {},
    'available-currencies': {},
    'advanced-balances': {},
    'webhooks/list': { orderId: order.orderId },
    'webhooks/resend': { id: webhookId },
    'operation-by-tx-hash': { tx },
    'utils/validate-address': { address: order.address, network: 'litecoin' },
    'advanced-balance': {},
    'orphan-deposits/get-deposits': {},
    'webhooks/get': { webhookId },
    'webhooks/get-verbose': { webhookId },
    'addresses/find-by-id': { id: order.addressId },
    'addresses/find-by-address': { address: order.address },
    'addresses/transactions': { id: order.addressId },
    'personal-addresses/create-user': { clientId: 'scoped-user-2' },
    'personal-addresses/get-user': { clientId: 'scoped-user' },
    'personal-addresses/get-user-address': { id: user.id, currency: 'LTC', network: 'litecoin' },
    'personal-addresses/get-user-addresses': { id: user.id },
    'events/list': { after: event!.id },
    'webhook-endpoints/create': { url: 'https://shop.example/hooks/more', eventTypes: ['order.processed'] },
    'webhook-endpoints/list': {},
    'webhook-endpoints/get': { id: endpoint.id },
    'webhook-endpoints/update': { id: endpoint.id, description: 'All of them' },
    'webhook-endpoints/delete': { id: endpoint.id },
    'webhook-endpoints/roll-secret': { id: endpoint.id, overlapHours: 0 },
    'webhook-endpoints/send-test': { id: endpoint.id },
    'webhook-endpoints/deliveries': { id: endpoint.id },
    'payment-links/create': { title: 'Scopes 2', currency: 'USD', amount: '6' },
    'payment-links/get': { id: link.id },
    'payment-links/list': {},
    'payment-links/disable': { id: link.id },
    'refunds/make': { orderId: order.orderId, amount: '0.02' },
    'refunds/get': { id: refund.id },
    'refunds/list': { orderId: order.orderId },
    'refunds/complete': { id: refund.id, txId: 'a3f1c4e2b8d7960512ce4b7a9d0e3f6a2b1c8d7e6f5a4b3c2d1e0f9a8b7c6d5e' },
    'funds/list': {},
    'funds/check': {},
    'collections/prepare': { network: 'litecoin' },
    'collections/list': {},
    'collections/get': { id: refund.id },
    'collections/submit': { id: refund.id, transaction: '00' },
    'fee-payers/set': { network: 'tron', address: 'TLrpNTBuCpGMrB9TyVwgEhNVRhtWEQPHh4', path: "m/44'/195'/1'/0/0" },
    'fee-payers/list': {},
    'refund-plans/prepare': { refundId: refund.id },
    'refund-plans/get': { refundId: refund.id },
    'subscriptions/create-plan': { name: 'Scopes 2', currency: 'USD', amount: '6', interval: 'week' },
    'subscriptions/update-plan': { id: plan.id, name: 'Scopes renamed' },
    'subscriptions/list-plans': {},
    'subscriptions/create': { planId: plan.id, email: 'scopes2@example.com' },
    'subscriptions/get': { id: subscription.id },
    'subscriptions/list': {},
    'subscriptions/cancel': { id: subscription.id },
    'subscriptions/advance-test-clock': { hours: 1 },
  } satisfies Record<OperationName, Record<string, unknown>>);
});

const WRITES: OperationName[] = [
  'make-order',
  'make-invoice',
  'webhooks/resend',
  'personal-addresses/create-user',
  'personal-addresses/get-user-address',
  'webhook-endpoints/create',
  'webhook-endpoints/update',
  'webhook-endpoints/delete',
  'webhook-endpoints/roll-secret',
  'webhook-endpoints/send-test',
  'payment-links/create',
  'payment-links/disable',
  'refunds/make',
  'refunds/complete',
  'subscriptions/create-plan',
  'subscriptions/update-plan',
  'subscriptions/create',
  'subscriptions/cancel',
  'subscriptions/advance-test-clock',
];
/** Money-out plans: only a key with the signing-plans scope prepares or reads them. */
const PLANS: OperationName[] = [
  'collections/prepare',
  'collections/list',
  'collections/get',
  'collections/submit',
  'refund-plans/prepare',
  'refund-plans/get',
  'fee-payers/set',
  'fee-payers/list',
];
const READS = (Object.keys(OPERATIONS) as OperationName[]).filter(
  (name) => !WRITES.includes(name) && !PLANS.includes(name),
);

describe('a read-only key', () => {
  it('is refused make-order, make-invoice, every other write and the plans with 403 INSUFFICIENT_SCOPE, and nothing changes', async () => {
    for (const name of [...WRITES, ...PLANS]) {
      const before = await countRows(gateway.db);
      const answer = await call(gateway, name, bodies[name], readOnly);
      expect(answer.status, name).toBe(403);
      expect(answer.body.error, name).toMatchObject({
        code: 2006,
        name: 'INSUFFICIENT_SCOPE',
        details: [
          {
            path: 'x-api-public-key',
            // Money out needs its own scope; every other write a full key's.
            message: expect.stringMatching(
              name === 'refunds/make' || name === 'refunds/complete'
                ? /^has scopes read-only; this operation needs refunds/
                : PLANS.includes(name)
                  ? /^has scopes read-only; this operation needs signing-plans$/
                  : /^has scopes read-only; this operation needs full/,
            ),
          },
        ],
      });
      expect(await countRows(gateway.db), name).toEqual(before);
    }
  });

  it('is answered every read', async () => {
    for (const name of READS) await ok(name, bodies[name], readOnly);
  });
});

describe('an orders-and-invoices key', () => {
  it('makes and reads orders and invoices, and reads nothing else of the account', async () => {
    const order = await ok('make-order', { ...bodies['make-order'], order: 'scopes-till' }, checkout);
    await ok('order', { orderId: order.orderId }, checkout);
    await ok('make-invoice', { currency: 'USD', amount: '3', externalId: 'scopes-till-invoice' }, checkout);
    for (const name of ['events/list', 'find-tx', 'webhooks/list', 'webhook-endpoints/list'] as const) {
      const answer = await call(gateway, name, bodies[name], checkout);
      expect(answer.status, name).toBe(403);
      expect(answer.body.error.name).toBe('INSUFFICIENT_SCOPE');
    }
  });
});

describe('a full key', () => {
  it('is answered every operation of the table, the gateway’s own included, but money out', async () => {
    for (const name of Object.keys(OPERATIONS) as OperationName[]) {
      if (name === 'webhook-endpoints/delete') continue; // last, below: the others use the endpoint
      // Money out: a full key is refused it; the same key with the refunds scope besides is answered.
      if (name === 'refunds/make') {
        const refused = await call(gateway, name, bodies[name], merchant.test);
        expect(refused.status, name).toBe(403);
        await ok(name, bodies[name], refunder);
        continue;
      }
      // Completing one by hand too; the refund of `bodies` awaits its address, which the refunds key is told.
      if (name === 'refunds/complete') {
        expect((await call(gateway, name, bodies[name], merchant.test)).status, name).toBe(403);
        const early = await call(gateway, name, bodies[name], refunder);
        expect([early.status, early.body.error?.name], name).toEqual([409, 'REFUND_STATE_CONFLICT']);
        continue;
      }
      // Signing plans too: only the signing-plans scope (tests/plans-api.pglite.test.ts calls them).
      if (PLANS.includes(name)) {
        expect((await call(gateway, name, bodies[name], merchant.test)).status, name).toBe(403);
        continue;
      }
      await ok(name, bodies[name]);
    }
    await ok('webhook-endpoints/delete', bodies['webhook-endpoints/delete']);
    // A plan changed through the API is in the team's audit log, by its key (docs/decisions/079).
    const audited = await gateway.db.query<{ actor: string; detail: Record<string, unknown> }>(
      "select actor, detail from audit_log where action = 'subscription_plan.update' and merchant_id = $1",
      [merchant.merchantId],
    );
    expect(audited).toEqual([
      {
        actor: `API key ${merchant.test.publicKey}`,
        detail: { planId: bodies['subscriptions/update-plan'].id, name: 'Scopes renamed', mode: 'test' },
      },
    ]);
  });
});
