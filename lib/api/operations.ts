import 'server-only';
/**
 * Every merchant API operation by path under /api-gateway/, each one call to its domain. One table
 * for both servers that answer them: the node:http front (http-front.ts, the production path) and
 * Next.js's one catch-all route in app/api-gateway (`next dev`, and any server started without the
 * front). The operations, their requests and their responses are lib/protocol's OPERATIONS.
 */
import { findExternalUser, personalAddressesOf, serializeUser, upsertExternalUser, userAddress } from '../addresses';
import { findCurrency } from '../catalog';
import { availableCurrencies, enabledNetworks, networkFor } from '../chains';
import type { Database, Queryable } from '../db';
import { getDeposit, listOrphanDeposits, serializeDeposit } from '../deposits';
import { getInvoice, listInvoices, makeInvoice, serializeInvoice } from '../invoices';
import {
  createPaymentLink,
  disablePaymentLink,
  getPaymentLink,
  listPaymentLinks,
  serializePaymentLink,
} from '../links';
import { listAdvancedBalances, type ApiKey } from '../merchants';
import {
  cancelSubscription,
  createPlan,
  createSubscription,
  getSubscription,
  listPlans,
  listSubscriptions,
  moveTestClock,
  runRenewals,
  updatePlan,
  withInvoiceQuotes,
  serializePlan,
  serializeSubscription,
  subscriptionNow,
  type SubscriptionWithPlan,
} from '../subscriptions';
import {
  addressTransactions,
  findAddressById,
  findAddressByText,
  findOperations,
  validateAddress,
} from '../operations';
import {
  getOrder,
  listOrders,
  makeOrder,
  NoAddressAvailable,
  NonceReused,
  serializeOrder,
  serializeOrderDetails,
  UnsupportedCurrency,
} from '../orders';
import {
  isUuid,
  OPERATION_ALIASES,
  SUBMISSION_BODY_LIMIT_BYTES,
  UNSUPPORTED_OPERATIONS,
  type OperationName,
  type ResponseOf,
} from '../protocol';
import { rateService, withUsdPrices } from '../rates';
import { config } from '../config';
import { listEvents } from '../events';
import {
  checkFundsAgainstNode,
  collectedCurrency,
  collectionPlan,
  feePayersOf,
  fundsReport,
  gasLeftOnWire,
  listMoneyOutPlans,
  newestRefundPlan,
  prepareAnyCollection,
  setFeePayer,
  submitPlan,
  type PlanWrite,
} from '../payouts';
import {
  completeRefundByTransaction,
  getRefund,
  listRefunds,
  planRefund,
  priceRefund,
  refundablePayment,
  writeRefund,
  type RefundTarget,
} from '../refunds';
import { parseUnits } from '../money';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  getWebhookBody,
  getWebhookVerbose,
  listEndpointDeliveries,
  listEndpoints,
  listOrderDeliveries,
  resendWebhook,
  rollEndpointSecret,
  sendTestEvent,
  updateEndpoint,
} from '../webhooks';
import { ApiError } from './errors';
import { consumeNonce } from './nonces';
import { apiOperation, unsupportedOperation, type ApiOperation } from './route';
import { testSignature } from './test-signature';
import { found } from '../errors';
import { recordAudit } from '../users';

export const API_OPERATIONS = {
  'make-order': apiOperation('make-order', async (ctx, input) => serializeOrder(await makeOrder(ctx, input)), {
    nonce: 'handler',
  }),
  order: apiOperation('order', async ({ db, key }, { orderId }) => {
    const { order, payments } = await getOrder(db, key, orderId);
    return serializeOrderDetails(order, payments);
  }),
  orders: apiOperation('orders', async ({ db, key }, filter) => {
    const { orders, total } = await listOrders(db, key, filter);
    return { orders: orders.map(serializeOrder), total, limit: filter.limit, offset: filter.offset };
  }),
  'make-invoice': apiOperation('make-invoice', async (ctx, input) => serializeInvoice(await makeInvoice(ctx, input)), {
    nonce: 'handler',
  }),
  'get-invoice': apiOperation('get-invoice', async ({ db, key }, { invoiceId }) =>
    serializeInvoice(await getInvoice(db, key, invoiceId)),
  ),
  'get-invoices': apiOperation('get-invoices', async ({ db, key }, filter) => {
    const { invoices, total } = await listInvoices(db, key, filter);
    return { total, invoices: invoices.map(serializeInvoice) };
  }),
  'price-rate': apiOperation(
    'price-rate',
    async ({ key }, { from, to }) => (await rateService(key.mode).quote(from, to)).rate,
  ),
  'orphan-deposits/get-deposit': apiOperation('orphan-deposits/get-deposit', async ({ db, key }, { id }) =>
    serializeDeposit(await getDeposit(db, key, id)),
  ),
  'find-tx': apiOperation('find-tx', ({ db, key }, { tx }) => findOperations(db, key, tx)),
  'test-signature': apiOperation('test-signature', (ctx) => testSignature(ctx), { verifySignature: false }),
  'available-currencies': apiOperation('available-currencies', ({ key }) =>
    withUsdPrices(rateService(key.mode), availableCurrencies(key.mode)),
  ),
  'advanced-balances': apiOperation('advanced-balances', ({ db, key }) => listAdvancedBalances(db, key)),
  'webhooks/list': apiOperation('webhooks/list', async ({ db, key }, { orderId }) => {
    const { order } = await getOrder(db, key, orderId); // another merchant's or mode's order: 404
    return listOrderDeliveries(db, order.id, { merchantId: key.merchantId, mode: key.mode });
  }),
  'webhooks/resend': apiOperation(
    'webhooks/resend',
    ({ db, key, nonce }, { id }) =>
      withNonce(db, key, nonce, async (tx) =>
        found(isUuid(id) ? await resendWebhook(tx, id, key) : undefined, 'Webhook event', id),
      ),
    { nonce: 'handler' },
  ),
  'operation-by-tx-hash': apiOperation('operation-by-tx-hash', ({ db, key }, { tx }) => findOperations(db, key, tx)),
  'utils/validate-address': apiOperation('utils/validate-address', async ({ key }, { address, network }) => {
    const answer = validateAddress(key, network, address);
    if (!answer) throw new UnsupportedCurrency(`Network ${network} is not available.`, { network: 'is not available' });
    return answer;
  }),
  'advanced-balance': apiOperation('advanced-balance', async ({ db, key }, { advancedBalanceId }) => {
    // The clients send the id they read from advanced-balances; there is one per merchant and mode.
    const balance = (await listAdvancedBalances(db, key)).find(
      (b) => advancedBalanceId === undefined || b.advancedBalanceId === advancedBalanceId,
    );
    return found(balance, 'Advanced balance', String(advancedBalanceId));
  }),
  'orphan-deposits/get-deposits': apiOperation('orphan-deposits/get-deposits', async ({ db, key }, filter) =>
    (await listOrphanDeposits(db, key, filter)).map(serializeDeposit),
  ),
  'webhooks/get': apiOperation('webhooks/get', async ({ db, key }, { webhookId }) => {
    const body = found(isUuid(webhookId) ? await getWebhookBody(db, webhookId, key) : undefined, 'Webhook', webhookId);
    return body as ResponseOf<'webhooks/get'>; // written by the serializers typed by the same schemas
  }),
  'webhooks/get-verbose': apiOperation('webhooks/get-verbose', async ({ db, key }, { webhookId, fields }) => {
    return found(
      isUuid(webhookId) ? await getWebhookVerbose(db, webhookId, key, fields) : undefined,
      'Webhook',
      webhookId,
    );
  }),
  'addresses/find-by-id': apiOperation('addresses/find-by-id', async ({ db, key }, { id }) => {
    return found(await findAddressById(db, key, id), 'Address', id);
  }),
  'addresses/find-by-address': apiOperation('addresses/find-by-address', async ({ db, key }, { address, tag }) => {
    return found(await findAddressByText(db, key, address, tag), 'Address', address);
  }),
  'addresses/transactions': apiOperation('addresses/transactions', async ({ db, key }, filter) => {
    return found(await addressTransactions(db, key, filter), 'Address', filter.id);
  }),
  'personal-addresses/create-user': apiOperation(
    'personal-addresses/create-user',
    async ({ db, key, nonce }, input) => {
      const user = await withNonce(db, key, nonce, (tx) =>
        upsertExternalUser(tx, key, input.clientId, {
          email: input.clientEmail,
          name: input.clientName,
          depositWebhookUrl: input.depositWebhookUrl,
        }),
      );
      if (!input.createAddresses) return serializeUser(user);
      for (const network of enabledNetworks(key.mode)) {
        if (!(await userAddress(db, key, user.id, network))) throw new NoAddressAvailable(network.name);
      }
      return serializeUser(user, await personalAddressesOf(db, key, user.id));
    },
    { nonce: 'handler' },
  ),
  'personal-addresses/get-user': apiOperation('personal-addresses/get-user', async ({ db, key }, by) =>
    serializeUser(await userOf(db, key, by)),
  ),
  'personal-addresses/get-user-address': apiOperation(
    'personal-addresses/get-user-address',
    async ({ db, key }, { id, currency, network }) => {
      const user = await userOf(db, key, { id });
      const chain = networkFor(key.mode, network);
      if (!chain || !findCurrency(chain, currency)) {
        throw new UnsupportedCurrency(`${currency.toUpperCase()} on ${network} is not available.`, {
          currency,
          network,
        });
      }
      if (!(await userAddress(db, key, user.id, chain))) throw new NoAddressAvailable(chain.name);
      const [address] = await personalAddressesOf(db, key, user.id, { currency: [currency], network: [chain.name] });
      return address!;
    },
  ),
  'personal-addresses/get-user-addresses': apiOperation(
    'personal-addresses/get-user-addresses',
    async ({ db, key }, filter) => {
      const user = await userOf(db, key, { id: filter.id });
      const addresses = await personalAddressesOf(db, key, user.id, filter);
      return addresses.slice(filter.offset, filter.offset + filter.limit);
    },
  ),
  // This gateway's own operations: the event feed and the webhook endpoints (docs/decisions/050).
  'events/list': apiOperation('events/list', ({ db, key }, query) =>
    listEvents(db, key, query, config().eventRetentionDays),
  ),
  'webhook-endpoints/create': apiOperation(
    'webhook-endpoints/create',
    ({ db, key, nonce }, input) => withNonce(db, key, nonce, (tx) => createEndpoint(tx, key, input)),
    { nonce: 'handler' },
  ),
  'webhook-endpoints/list': apiOperation('webhook-endpoints/list', ({ db, key }) => listEndpoints(db, key)),
  'webhook-endpoints/get': apiOperation('webhook-endpoints/get', ({ db, key }, { id }) => getEndpoint(db, key, id)),
  'webhook-endpoints/update': apiOperation(
    'webhook-endpoints/update',
    ({ db, key, nonce }, input) => withNonce(db, key, nonce, (tx) => updateEndpoint(tx, key, input)),
    { nonce: 'handler' },
  ),
  'webhook-endpoints/delete': apiOperation(
    'webhook-endpoints/delete',
    ({ db, key, nonce }, { id }) => withNonce(db, key, nonce, (tx) => deleteEndpoint(tx, key, id)),
    { nonce: 'handler' },
  ),
  'webhook-endpoints/roll-secret': apiOperation(
    'webhook-endpoints/roll-secret',
    ({ db, key, nonce }, { id, overlapHours }) =>
      withNonce(db, key, nonce, (tx) => rollEndpointSecret(tx, key, id, overlapHours)),
    { nonce: 'handler' },
  ),
  'webhook-endpoints/send-test': apiOperation(
    'webhook-endpoints/send-test',
    ({ db, key, nonce }, { id }) => withNonce(db, key, nonce, (tx) => sendTestEvent(tx, key, id)),
    { nonce: 'handler' },
  ),
  'webhook-endpoints/deliveries': apiOperation('webhook-endpoints/deliveries', ({ db, key }, query) =>
    listEndpointDeliveries(db, key, query),
  ),
  // Operations of our own (docs/payment-links.md). A write and its nonce commit together: a refused request writes nothing.
  'refunds/make': apiOperation(
    'refunds/make',
    async ({ db, key, nonce }, request) => {
      const target: RefundTarget = request.orderId
        ? { kind: 'order', id: request.orderId }
        : request.invoiceId
          ? { kind: 'invoice', id: request.invoiceId }
          : { kind: 'deposit', id: request.depositId! };
      // Priced before the transaction: the current rate may wait on a market-data source.
      const payment = await refundablePayment(db, key, target);
      const priced = await priceRefund(db, key.mode, payment, {
        amount: request.amount,
        ...(request.currency !== undefined && { currency: request.currency, rate: request.rate ?? 'invoice' }),
      });
      const to = request.to ?? 'claim';
      const made = await withNonce(db, key, nonce, async (tx) => {
        const refund = await writeRefund(tx, key, {
          target,
          ...priced,
          to,
          createdBy: `api:${key.keyId}`,
          now: new Date(),
        });
        // As the dashboard audits a refund it makes: who, how much, and where it goes.
        await recordAudit(tx, {
          merchantId: key.merchantId,
          actor: `API key ${key.publicKey}`,
          action: 'refund.create',
          detail: {
            refundId: refund.refund.id,
            amount: refund.refund.amount,
            currency: refund.refund.currency,
            to,
            mode: key.mode,
          },
        });
        return refund;
      });
      return { ...made.refund, claimUrl: made.claimUrl };
    },
    { nonce: 'handler' },
  ),
  'refunds/get': apiOperation('refunds/get', ({ db, key }, { id }) => getRefund(db, key, id)),
  // Verified on chain before anything is written; the completion, its event and the nonce commit together.
  'refunds/complete': apiOperation(
    'refunds/complete',
    ({ db, key, nonce }, { id, txId }) =>
      completeRefundByTransaction(db, { merchantId: key.merchantId, mode: key.mode }, id, txId, {
        now: new Date(),
        within: async (tx, refund) => {
          if (!(await consumeNonce(tx, key.keyId, nonce))) throw new NonceReused();
          await recordAudit(tx, {
            merchantId: key.merchantId,
            actor: `API key ${key.publicKey}`,
            action: 'refund.complete',
            detail: { refundId: refund.id, txId: refund.txid, state: refund.state, mode: key.mode },
          });
        },
      }),
    { nonce: 'handler' },
  ),
  'refunds/list': apiOperation('refunds/list', async ({ db, key }, query) => ({
    refunds: await listRefunds(db, key, query),
  })),
  'funds/list': apiOperation('funds/list', async ({ db, key }) => ({
    funds: await fundsReport(db, key.merchantId, key.mode),
    gasLeft: await gasLeftOnWire(db, key.merchantId, key.mode),
  })),
  'funds/check': apiOperation('funds/check', async ({ db, key }) => ({
    checks: await checkFundsAgainstNode(db, key.merchantId, key.mode),
  })),
  // Money out (docs/collections.md): a plan, its nonce and its audit entry commit together.
  'collections/prepare': apiOperation(
    'collections/prepare',
    async ({ db, key, nonce }, request) =>
      prepareAnyCollection(
        db,
        {
          merchantId: key.merchantId,
          mode: key.mode,
          network: request.network,
          ...(request.feeRate !== undefined && { feeRate: BigInt(request.feeRate) }),
          ...(request.minimum !== undefined && {
            minimum: minimumOf(key, request.network, request.currency, request.minimum),
          }),
          ...(request.currency !== undefined && { currency: request.currency }),
          ...(request.feePayer !== undefined && { feePayer: request.feePayer }),
        },
        planWrite(key, nonce, 'collection.prepare'),
      ),
    { nonce: 'handler' },
  ),
  'collections/list': apiOperation('collections/list', async ({ db, key }, query) => ({
    plans: await listMoneyOutPlans(db, key.merchantId, key.mode, { kind: 'collection', ...query }),
  })),
  'collections/get': apiOperation('collections/get', async ({ db, key }, { id }) => {
    const plan = await collectionPlan(db, key.merchantId, key.mode, id);
    return found(plan?.kind === 'collection' ? plan : null, 'Collection plan', id);
  }),
  // A collection's or a refund's plan: checked against the plan, broadcast, then its txid, nonce and audit entry together.
  'collections/submit': apiOperation(
    'collections/submit',
    ({ db, key, nonce }, request) =>
      submitPlan(db, { merchantId: key.merchantId, mode: key.mode, ...request }, planWrite(key, nonce, 'plan.submit')),
    { nonce: 'handler', bodyLimitBytes: SUBMISSION_BODY_LIMIT_BYTES },
  ),
  // The fee payer a prepare without one uses (docs/decisions/107): the Funds form's rules
  // (lib/payouts setFeePayer), the change, its nonce and its audit entry in one transaction.
  'fee-payers/set': apiOperation(
    'fee-payers/set',
    ({ db, key, nonce }, request) =>
      withNonce(db, key, nonce, async (tx) => {
        const kept = await setFeePayer(tx, { merchantId: key.merchantId, mode: key.mode, ...request });
        await recordAudit(tx, {
          merchantId: key.merchantId,
          actor: `API key ${key.publicKey}`,
          action: 'fee-payer.set',
          detail: { ...kept, mode: key.mode },
        });
        return kept;
      }),
    { nonce: 'handler' },
  ),
  'fee-payers/list': apiOperation('fee-payers/list', async ({ db, key }) => ({
    feePayers: await feePayersOf(db, key.merchantId, key.mode),
  })),
  'refund-plans/prepare': apiOperation(
    'refund-plans/prepare',
    ({ db, key, nonce }, request) =>
      planRefund(db, { merchantId: key.merchantId, mode: key.mode }, request.refundId, {
        feeFromRefund: request.feeFromRefund,
        ...(request.feeRate !== undefined && { feeRate: BigInt(request.feeRate) }),
        ...planWrite(key, nonce, 'refund.plan'),
      }),
    { nonce: 'handler' },
  ),
  'refund-plans/get': apiOperation('refund-plans/get', async ({ db, key }, { id, refundId }) => {
    if (refundId !== undefined)
      return found(await newestRefundPlan(db, key.merchantId, key.mode, refundId), 'Refund plan', refundId);
    const plan = await collectionPlan(db, key.merchantId, key.mode, id!);
    return found(plan?.kind === 'refund' ? plan : null, 'Refund plan', id!);
  }),
  'payment-links/create': apiOperation(
    'payment-links/create',
    async ({ db, key, nonce }, input) =>
      serializePaymentLink(await withNonce(db, key, nonce, (tx) => createPaymentLink(tx, key, input))),
    { nonce: 'handler' },
  ),
  'payment-links/get': apiOperation('payment-links/get', async ({ db, key }, { id }) =>
    serializePaymentLink(await getPaymentLink(db, key, id)),
  ),
  'payment-links/list': apiOperation('payment-links/list', async ({ db, key }, page) => {
    const { links, total } = await listPaymentLinks(db, key, page);
    return { total, links: links.map((link) => serializePaymentLink(link)) };
  }),
  'payment-links/disable': apiOperation(
    'payment-links/disable',
    async ({ db, key, nonce }, { id }) =>
      serializePaymentLink(await withNonce(db, key, nonce, (tx) => disablePaymentLink(tx, key, id))),
    { nonce: 'handler' },
  ),
  // Subscriptions (docs/subscriptions.md): a write and its nonce commit together, events and mails with them.
  'subscriptions/create-plan': apiOperation(
    'subscriptions/create-plan',
    async ({ db, key, nonce }, input) =>
      serializePlan(await withNonce(db, key, nonce, (tx) => createPlan(tx, key, input))),
    { nonce: 'handler' },
  ),
  'subscriptions/update-plan': apiOperation(
    'subscriptions/update-plan',
    async ({ db, key, nonce }, { id, ...change }) =>
      serializePlan(
        await withNonce(db, key, nonce, async (tx) => {
          const plan = await updatePlan(tx, key, { id, ...change });
          // In the team's audit log beside the dashboard's own changes of plans.
          await recordAudit(tx, {
            merchantId: key.merchantId,
            // The public key, as the Keys page shows it.
            actor: `API key ${key.publicKey}`,
            action: 'subscription_plan.update',
            detail: { planId: plan.id, ...change, mode: key.mode },
          });
          return plan;
        }),
      ),
    { nonce: 'handler' },
  ),
  'subscriptions/list-plans': apiOperation('subscriptions/list-plans', async ({ db, key }, page) => {
    const { plans, total } = await listPlans(db, key, page);
    return { total, plans: plans.map(serializePlan) };
  }),
  'subscriptions/create': apiOperation(
    'subscriptions/create',
    async ({ db, key, nonce }, input) =>
      answerSubscription(
        db,
        key,
        // The first invoice's rates are quoted before the transaction (lib/subscriptions/quotes.ts).
        await withInvoiceQuotes((quotes) =>
          withNonce(db, key, nonce, (tx) => createSubscription(tx, key, input, quotes)),
        ),
      ),
    { nonce: 'handler' },
  ),
  'subscriptions/get': apiOperation('subscriptions/get', async ({ db, key }, { id }) =>
    answerSubscription(db, key, await getSubscription(db, key, id)),
  ),
  'subscriptions/list': apiOperation('subscriptions/list', async ({ db, key }, query) => {
    const { subscriptions, total } = await listSubscriptions(db, key, query);
    const now = await subscriptionNow(db, key.merchantId, key.mode);
    return { total, subscriptions: subscriptions.map((row) => serializeSubscription(row, now)) };
  }),
  'subscriptions/cancel': apiOperation(
    'subscriptions/cancel',
    async ({ db, key, nonce }, { id }) => {
      const row = await withNonce(db, key, nonce, async (tx) => {
        await cancelSubscription(tx, (await getSubscription(tx, key, id)).id, 'merchant');
        return getSubscription(tx, key, id);
      });
      return answerSubscription(db, key, row);
    },
    { nonce: 'handler' },
  ),
  'subscriptions/advance-test-clock': apiOperation(
    'subscriptions/advance-test-clock',
    async ({ db, key, nonce }, { days, hours }) => {
      const offsetMs = await withNonce(db, key, nonce, (tx) =>
        moveTestClock(tx, key.merchantId, key.mode, (days * 24 + hours) * 3_600_000),
      );
      // The renewals the move made due, now: a test waits for nothing.
      const { changed } = await runRenewals(db, { scope: key, wait: true });
      return { now: (await subscriptionNow(db, key.merchantId, key.mode)).toISOString(), offsetMs, changed };
    },
    { nonce: 'handler' },
  ),
} satisfies Record<OperationName, ApiOperation>;

/** A subscription as subscriptions/* answers it, at its merchant's clock. */
async function answerSubscription(db: Queryable, key: ApiKey, row: SubscriptionWithPlan) {
  return serializeSubscription(row, await subscriptionNow(db, key.merchantId, key.mode));
}

/**
 * A write and its request's nonce in one transaction: a refused write spends no nonce, a replayed
 * request writes nothing.
 */
function withNonce<T>(db: Database, key: ApiKey, nonce: string, write: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    if (!(await consumeNonce(tx, key.keyId, nonce))) throw new NonceReused();
    return write(tx);
  });
}

/** In a plan's own transaction: the request's nonce spent (or NONCE_REUSED, and no plan), and the audit log's entry. */
function planWrite(key: ApiKey, nonce: string, action: string): PlanWrite {
  return {
    within: async (tx, planId) => {
      if (!(await consumeNonce(tx, key.keyId, nonce))) throw new NonceReused();
      await recordAudit(tx, {
        merchantId: key.merchantId,
        actor: `API key ${key.publicKey}`,
        action,
        detail: { planId, mode: key.mode },
      });
    },
  };
}

/**
 * collections/prepare's `minimum`, in the currency collected (the network's coin, or on an account
 * chain the token asked for or its first), as base units; VALIDATION_ERROR beyond its decimals.
 */
function minimumOf(
  key: ApiKey,
  networkName: string,
  currency: string | undefined,
  minimum: string,
): bigint | undefined {
  const network = networkFor(key.mode, networkName);
  const coin = network && collectedCurrency(network, currency);
  // An unknown network or currency: the prepare refuses it by name.
  if (!coin) return undefined;
  const parsed = parseUnits(minimum, coin.decimals);
  if (!parsed.ok)
    throw new ApiError('VALIDATION_ERROR', undefined, [
      { path: 'minimum', message: `must be an amount of ${coin.ticker} with at most ${coin.decimals} decimals` },
    ]);
  return parsed.value;
}

/** One of the caller's personal-address users, or NotFound. */
async function userOf(db: Queryable, key: ApiKey, by: { id?: string; clientId?: string }) {
  return found(await findExternalUser(db, key, by), 'User', String(by.id ?? by.clientId));
}

/**
 * Every path under /api-gateway/ that answers: the operations, the clients' other spellings of
 * them, and the operations refused with NOT_SUPPORTED. The node:http front and the Next.js
 * catch-all route look paths up here.
 */
export const API_PATHS: ReadonlyMap<string, ApiOperation> = new Map([
  ...Object.entries(API_OPERATIONS),
  ...Object.entries(OPERATION_ALIASES).map(([alias, name]): [string, ApiOperation] => [alias, API_OPERATIONS[name]]),
  ...Object.entries(UNSUPPORTED_OPERATIONS).map(([path, reason]): [string, ApiOperation] => [
    path,
    unsupportedOperation(path, reason),
  ]),
]);
