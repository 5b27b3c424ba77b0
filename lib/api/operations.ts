import 'server-only';
/**
 * Every merchant API operation by path under /api-gateway/, each one call to its domain. One table
 * for both servers that answer them: the node:http front (http-front.ts, the production path) and
 * Next.js's route handlers in app/api-gateway (`next dev`, and any server started without the
 * front). The operations, their requests and their responses are lib/protocol's OPERATIONS.
 */
import { availableCurrencies } from '../chains';
import { getDeposit, serializeDeposit } from '../deposits';
import { getInvoice, listInvoices, makeInvoice, serializeInvoice } from '../invoices';
import { advancedBalances } from '../merchants';
import { findOperations } from '../operations';
import { getOrder, isUuid, listOrders, makeOrder, serializeOrder, serializeOrderDetails } from '../orders';
import type { OperationName } from '../protocol';
import { rateService, withUsdPrices } from '../rates';
import { listDeliveries, resendWebhook } from '../webhooks';
import { ApiError } from './errors';
import { consumeNonce } from './nonces';
import { apiOperation, type ApiOperation } from './route';
import { testSignature } from './test-signature';

export const API_OPERATIONS = {
  'make-order': apiOperation('make-order', async (ctx, input) => serializeOrder(await makeOrder(ctx, input)), { nonce: 'handler' }),
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
  'get-invoice': apiOperation('get-invoice', async ({ db, key }, { invoiceId }) => serializeInvoice(await getInvoice(db, key, invoiceId))),
  'get-invoices': apiOperation('get-invoices', async ({ db, key }, filter) => {
    const { invoices, total } = await listInvoices(db, key, filter);
    return { total, invoices: invoices.map(serializeInvoice) };
  }),
  'price-rate': apiOperation('price-rate', async ({ key }, { from, to }) => (await rateService(key.mode).quote(from, to)).rate),
  'orphan-deposits/get-deposit': apiOperation('orphan-deposits/get-deposit', async ({ db, key }, { id }) => serializeDeposit(await getDeposit(db, key, id))),
  'find-tx': apiOperation('find-tx', ({ db, key }, { tx }) => findOperations(db, key, tx)),
  'test-signature': apiOperation('test-signature', (ctx) => testSignature(ctx), { verifySignature: false }),
  'available-currencies': apiOperation('available-currencies', ({ key }) => withUsdPrices(rateService(key.mode), availableCurrencies(key.mode))),
  'advanced-balances': apiOperation('advanced-balances', ({ db, key }) => advancedBalances(db, key)),
  'webhooks/list': apiOperation('webhooks/list', async ({ db, key }, { orderId }) => {
    const { order } = await getOrder(db, key, orderId); // another merchant's or mode's order: 404
    return listDeliveries(db, order.id, { merchantId: key.merchantId, mode: key.mode });
  }),
  'webhooks/resend': apiOperation(
    'webhooks/resend',
    ({ db, key, nonce }, { id }) =>
      // The nonce and the re-send commit together: a refused re-send writes nothing, a replayed one re-sends nothing.
      db.transaction(async (tx) => {
        if (!(await consumeNonce(tx, key.keyId, nonce))) throw new ApiError('NONCE_REUSED');
        const event = isUuid(id) ? await resendWebhook(tx, id, { merchantId: key.merchantId, mode: key.mode }) : undefined;
        if (!event) throw new ApiError('NOT_FOUND', `Webhook event ${id} was not found.`);
        return event;
      }),
    { nonce: 'handler' },
  ),
} satisfies Record<OperationName, ApiOperation>;
