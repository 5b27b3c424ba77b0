/**
 * The demo store: a merchant's server in miniature, showing how a shop uses the gateway. It knows
 * the gateway only through the typed API client (lib/client) and its webhooks, with the demo
 * merchant's test keys read on the server (data/demo-store.json), as a shop reads its keys from
 * its own environment.
 */
import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { GatewayApiError, GatewayClient, GatewayError, type Invoice, type OrderDetails } from '../client';
import { config, storeGatewayUrl } from '../config';
import {
  bare,
  getDatabase,
  insertValues,
  param,
  placeholders,
  sql,
  statement,
  storeOrders,
  storeWebhookReceipts,
  type Queryable,
  type RowOf,
  type SQL,
} from '../db';
import { FINAL_INVOICE_STATUSES } from '../protocol';
import { readDemoStoreKeys, type DemoStoreKeys } from '../server';
import { cartLines, cartTotalCents, findProduct, MAX_QUANTITY, usdAmount, type Cart } from './catalog';

export {
  cartLines,
  cartTotalCents,
  findProduct,
  formatUsd,
  MAX_QUANTITY,
  parseCart,
  PRODUCTS,
  usdAmount,
  type Cart,
} from './catalog';

/** Why a checkout did not reach the invoice page, in words a shopper understands (see STORE_ERRORS). */
export type StoreErrorCode =
  'not_set_up' | 'empty_cart' | 'prices_unavailable' | 'gateway_unreachable' | 'gateway_refused';

export const STORE_ERRORS: Record<StoreErrorCode, string> = {
  not_set_up: 'The demo store is not set up on this server (it has no merchant keys).',
  empty_cart: 'Your cart is empty: add something before paying.',
  prices_unavailable: 'Prices are unavailable right now. Your cart is kept: please try again in a minute.',
  gateway_unreachable:
    'The payment service cannot be reached right now. Your cart is kept: please try again in a minute.',
  gateway_refused: 'The payment service could not create this payment. Please try again later.',
};

export class StoreError extends Error {
  constructor(readonly code: StoreErrorCode) {
    super(STORE_ERRORS[code]);
    this.name = 'StoreError';
  }
}

// Read once per process: the keys file is written at the first start, before any request.
let storeKeys: DemoStoreKeys | undefined;
let gateway: GatewayClient | undefined;

function keys(): DemoStoreKeys {
  storeKeys ??= readDemoStoreKeys(config().dataDir);
  if (!storeKeys) throw new StoreError('not_set_up');
  return storeKeys;
}

/** The store's base URL: where the gateway sends its webhooks and the shopper returns to. */
const storeUrl = (path: string) => `${config().publicBaseUrl}/store${path}`;

/** One client per process, so that its nonces (strictly increasing) never collide between requests. */
function client(): GatewayClient {
  const { publicKey, privateKey } = keys();
  // The gateway the store talks to: this one by default, over HTTP like any merchant.
  gateway ??= new GatewayClient({ baseUrl: storeGatewayUrl(), publicKey, privateKey, timeoutMs: 8_000, retries: 1 });
  return gateway;
}

function fromGatewayError(error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  // The gateway has no fresh rate to price dollars in coins (the client has already retried once).
  if (error instanceof GatewayApiError)
    return new StoreError(error.errorName === 'RATE_UNAVAILABLE' ? 'prices_unavailable' : 'gateway_refused');
  if (error instanceof GatewayError)
    return new StoreError(error.kind === 'protocol' ? 'gateway_refused' : 'gateway_unreachable');
  throw error;
}

/** How long the shopper has to choose a coin and pay, in minutes (make-invoice's `lifetime`). */
const INVOICE_LIFETIME_MINUTES = 60;

const NEW_ORDER = placeholders(['items', 'totalCents']);
const NEW_ORDER_INSERT = insertValues([
  [storeOrders.items, NEW_ORDER.items],
  [storeOrders.totalCents, NEW_ORDER.totalCents],
]);
const INSERT_STORE_ORDER = statement<Pick<RowOf<typeof storeOrders>, 'id'>, { items: string; totalCents: number }>(
  sql`insert into ${storeOrders} (${NEW_ORDER_INSERT.columns}) values (${NEW_ORDER_INSERT.values}) returning ${bare(storeOrders.id)}`,
);
const KEEP_INVOICE = statement<unknown, { id: string; invoiceId: string; paymentLink: string }>(
  sql`update ${storeOrders} set ${bare(storeOrders.gatewayInvoiceId)} = ${param('invoiceId')}, ${bare(storeOrders.paymentLink)} = ${param('paymentLink')}, ${bare(storeOrders.updatedAt)} = now()
   where ${storeOrders.id} = ${param('id')}`,
);
const MARK_NOT_CREATED = statement<unknown, { id: string }>(
  sql`update ${storeOrders} set ${bare(storeOrders.status)} = 'not_created', ${bare(storeOrders.updatedAt)} = now() where ${storeOrders.id} = ${param('id')}`,
);

/**
 * Records the store's order and asks the gateway for an invoice of its price in US dollars (the
 * store's order id as `externalId` and `order`, so a retried checkout answers the same invoice);
 * answers the invoice link, where the shopper picks the coin to pay in.
 */
export async function checkout(cart: Cart): Promise<string> {
  const lines = cartLines(cart);
  if (lines.length === 0) throw new StoreError('empty_cart');
  const api = client();
  const cents = cartTotalCents(cart);
  const db = await getDatabase();
  const [record] = await INSERT_STORE_ORDER.run(db, {
    items: JSON.stringify(lines.map((l) => ({ sku: l.product.sku, quantity: l.quantity, cents: l.cents }))),
    totalCents: cents,
  });
  const id = record!.id;
  try {
    const invoice = await api.makeInvoice({
      currency: 'USD',
      amount: usdAmount(cents),
      externalId: id,
      order: id,
      description: lines.map((l) => `${l.quantity} × ${l.product.name}`).join(', '),
      // Line by line, for the receipt, its PDF and the paid mail (decision 095).
      items: lines.map((l) => ({ name: l.product.name, quantity: l.quantity, price: usdAmount(l.product.priceCents) })),
      webhookURL: storeUrl('/webhooks'),
      returnURL: storeUrl(`/orders/${id}`),
      lifetime: INVOICE_LIFETIME_MINUTES,
    });
    await KEEP_INVOICE.run(db, { id, invoiceId: invoice.id, paymentLink: invoice.invoiceLink });
    return invoice.invoiceLink;
  } catch (error) {
    await MARK_NOT_CREATED.run(db, { id });
    throw fromGatewayError(error);
  }
}

/** The coin a store order is paid in and the amount asked in it, once known. */
export interface StoreOrderCoin {
  currency: string;
  network: string;
  amount: string;
  /** The gateway's payment page for that coin (`/pay/{orderId}`). */
  orderId: string | null;
  orderLink: string | null;
}

export interface StoreOrderView {
  id: string;
  items: { sku: string; quantity: number; cents: number }[];
  totalCents: number;
  /** The invoice page (where the shopper picks the coin), or the payment page of an order made before invoices. */
  paymentLink: string | null;
  /** What the store's own record says (set by the gateway's webhooks): awaiting_payment, not_created, or a final status. */
  status: string;
  /** What was received and in which coin ("12 USDT on tron"), as the gateway confirmed after its webhook. */
  received: string | null;
  /** The coin chosen: from the gateway's answer while awaiting payment; an old order's own. */
  coin: StoreOrderCoin | null;
  /**
   * While no webhook has arrived: the status the gateway answers now (its invoice's, lower-cased:
   * created, init, pending, ...; or an old order's), with what it received, or why it could not be asked.
   */
  gateway: { status: string; received: string | null } | { error: string } | null;
  /**
   * An expired or underpaid order: money that reached its payment address but could not count for
   * it (after the time ran out, or in another coin), as the gateway's orphan deposits of its order
   * list it. The shopper is told, so that a late payment is never silently ignored.
   */
  latePayments: { amount: string; currency: string; network: string }[];
}

/** The store's final statuses after which money may still arrive at the payment address. */
const LATE_PAYMENT_STATUSES = new Set(['expired', 'partial']);

type StoreOrderRow = Pick<
  RowOf<typeof storeOrders>,
  | 'id'
  | 'total_cents'
  | 'currency'
  | 'network'
  | 'amount'
  | 'gateway_order_id'
  | 'gateway_invoice_id'
  | 'payment_link'
  | 'status'
  | 'received'
> & { items: StoreOrderView['items'] };
const STORE_ORDER = statement<StoreOrderRow, { id: string }>(
  sql`select * from ${storeOrders} where ${storeOrders.id} = ${param('id')}`,
);

/** `received` as the store writes it: "12 USDT on tron"; null before a coin was chosen. */
function receivedOf(invoice: Pick<Invoice, 'receivedAmount' | 'receivedCurrency' | 'receivedNetwork'>): string | null {
  const { receivedAmount, receivedCurrency, receivedNetwork } = invoice;
  return receivedAmount !== null && receivedCurrency !== null
    ? `${receivedAmount} ${receivedCurrency}${receivedNetwork ? ` on ${receivedNetwork}` : ''}`
    : null;
}

/** The coin an invoice's payer chose and the amount its order asks (the invoice's `currencies` carry it). */
function chosenCoin(invoice: Invoice): StoreOrderCoin | null {
  const { receivedCurrency: currency, receivedNetwork: network } = invoice;
  if (!currency || !network) return null;
  const amount = invoice.currencies
    .find((c) => c.currency === currency)
    ?.networks.find((n) => n.name === network)?.amount;
  return amount === undefined
    ? null
    : { currency, network, amount, orderId: invoice.orderId, orderLink: invoice.orderLink };
}

/**
 * A store order's items as a cart, for "Order again" after it expired or went unpaid; undefined
 * for an id the store does not know. Products the store no longer sells are left out.
 */
export async function storeOrderCart(id: string): Promise<Cart | undefined> {
  if (!z.uuid().safeParse(id).success) return undefined;
  const [row] = await STORE_ORDER.run(await getDatabase(), { id });
  if (!row) return undefined;
  return Object.fromEntries(
    row.items.filter((item) => findProduct(item.sku)).map((item) => [item.sku, Math.min(item.quantity, MAX_QUANTITY)]),
  );
}

export async function storeOrder(id: string): Promise<StoreOrderView | undefined> {
  if (!z.uuid().safeParse(id).success) return undefined;
  const db = await getDatabase();
  const [row] = await STORE_ORDER.run(db, { id });
  if (!row) return undefined;
  const view: StoreOrderView = {
    id: row.id,
    items: row.items,
    totalCents: row.total_cents,
    paymentLink: row.payment_link,
    status: row.status,
    gateway: null,
    latePayments: [],
    // An order made before invoices kept its coin, and the amount received in it.
    coin:
      row.currency && row.network && row.amount
        ? {
            currency: row.currency,
            network: row.network,
            amount: row.amount,
            orderId: row.gateway_order_id,
            orderLink: row.payment_link,
          }
        : null,
    received:
      row.received !== null && row.currency && !row.gateway_invoice_id
        ? `${row.received} ${row.currency} on ${row.network}`
        : row.received,
  };
  if (LATE_PAYMENT_STATUSES.has(row.status)) view.latePayments = await latePayments(row);
  if (row.status !== 'awaiting_payment') return view;
  // No webhook yet: ask the gateway, as the shopper may be waiting on a payment being confirmed.
  try {
    if (row.gateway_invoice_id) {
      const invoice = await client().getInvoice(row.gateway_invoice_id);
      view.coin = chosenCoin(invoice);
      view.gateway = { status: invoice.status.toLowerCase(), received: receivedOf(invoice) };
    } else if (row.gateway_order_id) {
      const order = await client().getOrder(row.gateway_order_id);
      view.gateway = { status: order.status, received: `${order.received} ${order.currency} on ${order.network}` };
    }
  } catch (error) {
    view.gateway = { error: fromGatewayError(error).message };
  }
  return view;
}

/**
 * The orphan deposits of the gateway order a store order was paid through (an invoice's latest
 * order). Best effort: when the gateway cannot be asked, the page shows the order without them.
 */
async function latePayments(
  row: Pick<StoreOrderRow, 'gateway_invoice_id' | 'gateway_order_id'>,
): Promise<StoreOrderView['latePayments']> {
  try {
    const orderId = row.gateway_invoice_id
      ? (await client().getInvoice(row.gateway_invoice_id)).orderId
      : row.gateway_order_id;
    if (!orderId) return [];
    const deposits = await client().listDeposits({ orderId });
    return deposits.map(({ amount, currency, network }) => ({ amount, currency, network }));
  } catch {
    return [];
  }
}

/**
 * The fields of the gateway's webhook bodies the store reads: which invoice (or, for a store order
 * made before invoices, which order) and which store order; the status comes from the gateway.
 */
const webhookBody = z.discriminatedUnion('event', [
  z.object({
    event: z.literal('INVOICE'),
    webhookId: z.string().min(1).max(200),
    id: z.uuid(),
    externalId: z.string().min(1).max(255),
  }),
  z.object({
    event: z.literal('ORDER'),
    id: z.string().min(1).max(200),
    orderId: z.uuid(),
    clientOrderId: z.string(),
  }),
]);
type WebhookFields = z.infer<typeof webhookBody>;

export type StoreWebhookAnswer =
  | { status: 200; body: { ok: true; duplicate: boolean } }
  | { status: 400 | 401 | 404 | 409 | 503; body: { ok: false; error: string } };

/** How far a webhook's signing time may be from the store's clock, either way: older is a replay. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * `x-webhook-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the
 * private key, signed within five minutes of now (docs/webhooks.md, "Verifying a webhook"). The untimestamped
 * `x-api-signature` alone is not accepted: a body signed once could be replayed for ever.
 */
function timestampedSignatureValid(
  privateKey: string,
  raw: string,
  header: string | null,
  nowMs = Date.now(),
): boolean {
  const fields = (header ?? '').split(',').map((part) => part.trim().split('='));
  const t = fields.find(([name]) => name === 't')?.[1];
  if (!t || !/^\d{1,12}$/.test(t) || Math.abs(nowMs / 1000 - Number(t)) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', privateKey).update(`${t}.${raw}`, 'utf8').digest();
  return fields.some(
    ([name, value]) =>
      name === 'v1' &&
      value !== undefined &&
      /^[0-9a-f]{64}$/i.test(value) &&
      timingSafeEqual(expected, Buffer.from(value, 'hex')),
  );
}

const refuse = (status: 400 | 401 | 404 | 409 | 503, error: string): StoreWebhookAnswer => ({
  status,
  body: { ok: false, error },
});

/** What the gateway confirmed for a webhook: the store order's new status and what it received. */
interface Confirmed {
  status: string;
  received: string | null;
}

/**
 * One kind of webhook: which store order it names (found by its own id, since a checkout that
 * stopped between the gateway's answer and the store's update has not kept the gateway's id: the
 * signed webhook names both), and how the gateway confirms it.
 */
interface WebhookKind {
  eventId: string;
  /** Store orders the webhook may be for: invoices since the store priced in dollars, orders before. */
  findOrder(q: Queryable, forUpdate: boolean): Promise<{ id: string }[]>;
  /** Asks the gateway; answers the outcome to send back when it does not confirm a final status. */
  confirm(storeOrderId: string): Promise<Confirmed | StoreWebhookAnswer>;
  /** The gateway's id of what the webhook is about, kept on a store order whose checkout did not keep it. */
  gatewayId: { column: 'gateway_invoice_id' | 'gateway_order_id'; value: string };
}

type FoundOrder = Pick<RowOf<typeof storeOrders>, 'id'>;
/** Each finding statement twice: to read, and to lock the row until the transaction ends. */
const readAndLock = <Params extends object>(find: (lock: SQL) => SQL) => ({
  read: statement<FoundOrder, Params>(find(sql``)),
  lock: statement<FoundOrder, Params>(find(sql` for update`)),
});
const INVOICE_STORE_ORDER = readAndLock<{ externalId: string; invoiceId: string }>(
  (
    lock,
  ) => sql`select ${storeOrders.id} from ${storeOrders} where ${storeOrders.id}::text = ${param('externalId')} and ${storeOrders.currency} is null
    and (${storeOrders.gatewayInvoiceId} is null or ${storeOrders.gatewayInvoiceId} = ${param('invoiceId')}::uuid)${lock}`,
);
const ORDER_STORE_ORDER = readAndLock<{ clientOrderId: string; orderId: string }>(
  (
    lock,
  ) => sql`select ${storeOrders.id} from ${storeOrders} where ${storeOrders.id}::text = ${param('clientOrderId')} and ${storeOrders.currency} is not null
    and (${storeOrders.gatewayOrderId} is null or ${storeOrders.gatewayOrderId} = ${param('orderId')}::uuid)${lock}`,
);

function invoiceWebhook(event: Extract<WebhookFields, { event: 'INVOICE' }>): WebhookKind {
  return {
    eventId: event.webhookId,
    findOrder: (q, forUpdate) =>
      INVOICE_STORE_ORDER[forUpdate ? 'lock' : 'read'].run(q, { externalId: event.externalId, invoiceId: event.id }),
    async confirm(storeOrderId) {
      let invoice: Invoice;
      try {
        invoice = await client().getInvoice(event.id);
      } catch (error) {
        if (error instanceof GatewayApiError && error.status === 404)
          return refuse(404, 'the gateway does not know this invoice');
        if (error instanceof GatewayError)
          return refuse(503, 'the gateway cannot confirm the invoice now; send it again later');
        throw error;
      }
      if (invoice.id !== event.id || invoice.externalId !== storeOrderId)
        return refuse(409, 'the gateway reports another invoice');
      if (!FINAL_INVOICE_STATUSES.has(invoice.status))
        return refuse(409, 'the gateway does not report this invoice final');
      return { status: invoice.status.toLowerCase(), received: receivedOf(invoice) };
    },
    gatewayId: { column: 'gateway_invoice_id', value: event.id },
  };
}

/** Webhooks of the store orders made before invoices: a payment order in the coin the store chose. */
function orderWebhook(event: Extract<WebhookFields, { event: 'ORDER' }>): WebhookKind {
  return {
    eventId: event.id,
    findOrder: (q, forUpdate) =>
      ORDER_STORE_ORDER[forUpdate ? 'lock' : 'read'].run(q, {
        clientOrderId: event.clientOrderId,
        orderId: event.orderId,
      }),
    async confirm(storeOrderId) {
      let order: OrderDetails;
      try {
        order = await client().getOrder(event.orderId);
      } catch (error) {
        if (error instanceof GatewayApiError && error.status === 404)
          return refuse(404, 'the gateway does not know this order');
        if (error instanceof GatewayError)
          return refuse(503, 'the gateway cannot confirm the order now; send it again later');
        throw error;
      }
      if (order.orderId !== event.orderId || order.clientOrderId !== storeOrderId)
        return refuse(409, 'the gateway reports another order');
      if (order.status === 'pending') return refuse(409, 'the gateway does not report this order final');
      return { status: order.status, received: order.received };
    },
    gatewayId: { column: 'gateway_order_id', value: event.orderId },
  };
}

const HANDLED = statement<unknown, { webhookId: string }>(
  sql`select 1 from ${storeWebhookReceipts} where ${storeWebhookReceipts.webhookId} = ${param('webhookId')}`,
);
const RECEIPT = placeholders(['webhookId', 'storeOrderId', 'status']);
const RECEIPT_INSERT = insertValues([
  [storeWebhookReceipts.webhookId, RECEIPT.webhookId],
  [storeWebhookReceipts.storeOrderId, RECEIPT.storeOrderId],
  [storeWebhookReceipts.status, RECEIPT.status],
]);
const RECORD_RECEIPT = statement<unknown, { webhookId: string; storeOrderId: string; status: string }>(
  sql`insert into ${storeWebhookReceipts} (${RECEIPT_INSERT.columns}) values (${RECEIPT_INSERT.values}) on conflict do nothing returning 1`,
);
/** A store order takes the confirmed status, and keeps the gateway's id when its checkout did not. */
const settleStatement = (gatewayId: typeof storeOrders.gatewayInvoiceId | typeof storeOrders.gatewayOrderId) =>
  statement<unknown, { id: string; status: string; received: string | null; gatewayId: string }>(
    sql`update ${storeOrders} set ${bare(storeOrders.status)} = ${param('status')}, ${bare(storeOrders.received)} = ${param('received')},
          ${bare(gatewayId)} = coalesce(${gatewayId}, ${param('gatewayId')}::uuid), ${bare(storeOrders.updatedAt)} = now()
     where ${storeOrders.id} = ${param('id')}`,
  );
const SETTLE_STORE_ORDER: Record<WebhookKind['gatewayId']['column'], ReturnType<typeof settleStatement>> = {
  gateway_invoice_id: settleStatement(storeOrders.gatewayInvoiceId),
  gateway_order_id: settleStatement(storeOrders.gatewayOrderId),
};

/**
 * The store's webhook receiver. The webhook is only the trigger: once its timestamped signature
 * is checked over the raw body, the store asks the gateway for the invoice (`get-invoice`, with
 * its own keys; `order` for a store order made before invoices) and takes the status and amount
 * received from that answer, never from the body; then, once per webhook id, its order takes them.
 * A webhook whose invoice the gateway does not report final changes nothing.
 */
export async function receiveWebhook(headers: Headers, raw: string): Promise<StoreWebhookAnswer> {
  const { publicKey, privateKey } = keys();
  if (
    headers.get('x-api-public-key') !== publicKey ||
    !timestampedSignatureValid(privateKey, raw, headers.get('x-webhook-signature'))
  ) {
    return refuse(401, 'bad signature');
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return refuse(400, 'the body is not JSON');
  }
  const parsed = webhookBody.safeParse(json);
  if (!parsed.success) return refuse(400, 'not an INVOICE (or ORDER) webhook');
  const kind = parsed.data.event === 'INVOICE' ? invoiceWebhook(parsed.data) : orderWebhook(parsed.data);
  // The webhook id header and the body's are the same event: a mismatch is not the gateway's.
  if (headers.get('x-webhook-id') !== kind.eventId)
    return refuse(400, 'x-webhook-id differs from the webhook id of the body');

  const db = await getDatabase();
  const [known] = await kind.findOrder(db, false);
  if (!known) return refuse(404, 'no such store order');
  const [handled] = await HANDLED.run(db, { webhookId: kind.eventId });
  if (handled) return { status: 200, body: { ok: true, duplicate: true } };

  // Asked outside any transaction: on the embedded database the gateway answering it shares the
  // store's one connection.
  const confirmed = await kind.confirm(known.id);
  if ('body' in confirmed) return confirmed;

  return db.transaction(async (tx) => {
    const [order] = await kind.findOrder(tx, true);
    if (!order) return refuse(404, 'no such store order');
    const fresh = await RECORD_RECEIPT.run(tx, {
      webhookId: kind.eventId,
      storeOrderId: order.id,
      status: confirmed.status,
    });
    if (fresh.length === 0) return { status: 200, body: { ok: true, duplicate: true } } as const;
    const { column, value } = kind.gatewayId;
    await SETTLE_STORE_ORDER[column].run(tx, {
      id: order.id,
      status: confirmed.status,
      received: confirmed.received,
      gatewayId: value,
    });
    return { status: 200, body: { ok: true, duplicate: false } } as const;
  });
}
