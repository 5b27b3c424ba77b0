/**
 * The demo store: a merchant's server in miniature, showing how a shop uses the gateway. It knows
 * the gateway only through the typed API client (lib/client) and its webhooks, with the demo
 * merchant's test keys read on the server (data/demo-store.json), as a shop reads its keys from
 * its own environment.
 */
import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { GatewayApiError, GatewayClient, GatewayError, type OrderDetails } from '../client';
import { config, storeGatewayUrl } from '../config';
import { getDatabase, type Queryable } from '../db';
import { readDemoStoreKeys, type DemoStoreKeys } from '../server';
import { cartLines, cartTotalCents, priceIn, type Cart } from './catalog';

export { cartLines, cartTotalCents, findProduct, formatUsd, MAX_QUANTITY, parseCart, PRODUCTS, type Cart } from './catalog';

/** Why a checkout did not reach the payment page, in words a shopper understands (see STORE_ERRORS). */
export type StoreErrorCode = 'not_set_up' | 'empty_cart' | 'unsupported_coin' | 'gateway_unreachable' | 'gateway_refused';

export const STORE_ERRORS: Record<StoreErrorCode, string> = {
  not_set_up: 'The demo store is not set up on this server (it has no merchant keys).',
  empty_cart: 'Your cart is empty: add something before paying.',
  unsupported_coin: 'This coin cannot be used to pay here. Please choose another one.',
  gateway_unreachable: 'The payment service cannot be reached right now. Your cart is kept: please try again in a minute.',
  gateway_refused: 'The payment service could not create this payment. Please try again or choose another coin.',
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
  if (error instanceof GatewayApiError) return new StoreError(error.errorName === 'UNSUPPORTED_CURRENCY' ? 'unsupported_coin' : 'gateway_refused');
  if (error instanceof GatewayError) return new StoreError(error.kind === 'protocol' ? 'gateway_refused' : 'gateway_unreachable');
  throw error;
}

export interface PaymentOption {
  currency: string;
  currencyName: string;
  network: string;
  networkName: string;
  amount: string;
  tagRequired: boolean;
}

/** The coins and networks the gateway accepts for this store (available-currencies) that the store has a price for. */
export async function paymentOptions(cart: Cart): Promise<PaymentOption[]> {
  const cents = cartTotalCents(cart);
  try {
    const available = await client().availableCurrencies();
    return available.flatMap((c) =>
      c.networks.flatMap((n) => {
        const amount = priceIn(cents, c.currency, n.decimals);
        return amount ? [{ currency: c.currency, currencyName: c.name, network: n.network, networkName: n.name, amount, tagRequired: n.tagRequired }] : [];
      }),
    );
  } catch (error) {
    throw fromGatewayError(error);
  }
}

const checkoutChoice = z.object({ currency: z.string().trim().min(1).max(16), network: z.string().trim().min(1).max(32) });

/**
 * Records the store's order, asks the gateway for a payment order (the store's order id as
 * `order`, so a retried checkout answers the same payment), and answers the payment link.
 */
export async function checkout(cart: Cart, choice: { currency: unknown; network: unknown }): Promise<string> {
  const lines = cartLines(cart);
  if (lines.length === 0) throw new StoreError('empty_cart');
  const parsed = checkoutChoice.safeParse(choice);
  if (!parsed.success) throw new StoreError('unsupported_coin');
  const { currency, network } = parsed.data;
  const api = client();
  let decimals: number | undefined;
  try {
    decimals = (await api.availableCurrencies()).find((c) => c.currency === currency.toUpperCase())?.networks.find((n) => n.network === network)?.decimals;
  } catch (error) {
    throw fromGatewayError(error);
  }
  const cents = cartTotalCents(cart);
  const amount = decimals === undefined ? undefined : priceIn(cents, currency, decimals);
  if (!amount) throw new StoreError('unsupported_coin');

  const db = await getDatabase();
  const [record] = await db.query<{ id: string }>(
    `insert into store_orders (items, total_cents, currency, network, amount) values ($1, $2, $3, $4, $5) returning id`,
    [JSON.stringify(lines.map((l) => ({ sku: l.product.sku, quantity: l.quantity, cents: l.cents }))), cents, currency.toUpperCase(), network, amount],
  );
  const id = record!.id;
  try {
    const order = await api.makeOrder({
      currency,
      network,
      amount,
      order: id,
      description: lines.map((l) => `${l.quantity} × ${l.product.name}`).join(', '),
      successWebhook: storeUrl('/webhooks'),
      errorWebhook: storeUrl('/webhooks'),
      returnUrl: storeUrl(`/orders/${id}`),
    });
    await db.query(`update store_orders set gateway_order_id = $2, payment_link = $3, updated_at = now() where id = $1`, [id, order.orderId, order.link]);
    return order.link;
  } catch (error) {
    await db.query(`update store_orders set status = 'not_created', updated_at = now() where id = $1`, [id]);
    throw fromGatewayError(error);
  }
}

export interface StoreOrderView {
  id: string;
  items: { sku: string; quantity: number; cents: number }[];
  totalCents: number;
  currency: string;
  network: string;
  amount: string;
  paymentLink: string | null;
  /** What the store's own record says (set by the gateway's webhooks). */
  status: string;
  received: string | null;
  /** When no webhook has arrived yet: what the gateway's `order` answers now, or why it could not be asked. */
  gateway: { status: OrderDetails['status']; received: string } | { error: string } | null;
}

export async function storeOrder(id: string): Promise<StoreOrderView | undefined> {
  if (!z.uuid().safeParse(id).success) return undefined;
  const db = await getDatabase();
  const [row] = await db.query<{
    id: string; items: StoreOrderView['items']; total_cents: number; currency: string; network: string; amount: string;
    gateway_order_id: string | null; payment_link: string | null; status: string; received: string | null;
  }>('select * from store_orders where id = $1', [id]);
  if (!row) return undefined;
  let gateway: StoreOrderView['gateway'] = null;
  if (row.status === 'awaiting_payment' && row.gateway_order_id) {
    try {
      const order = await client().getOrder(row.gateway_order_id);
      gateway = { status: order.status, received: order.received };
    } catch (error) {
      gateway = { error: fromGatewayError(error).message };
    }
  }
  return {
    id: row.id, items: row.items, totalCents: row.total_cents, currency: row.currency, network: row.network, amount: row.amount,
    paymentLink: row.payment_link, status: row.status, received: row.received, gateway,
  };
}

/** The fields of the gateway's webhook body the store reads: which order; its status comes from the gateway. */
const webhookBody = z.object({
  id: z.string().min(1).max(200),
  event: z.literal('ORDER'),
  orderId: z.uuid(),
  clientOrderId: z.string(),
});

export type WebhookOutcome =
  | { status: 200; body: { ok: true; duplicate: boolean } }
  | { status: 400 | 401 | 404 | 409 | 503; body: { ok: false; error: string } };

/** How far a webhook's signing time may be from the store's clock, either way: older is a replay. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * `x-webhook-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with the
 * private key, signed within five minutes of now (README "Verifying a webhook"). The untimestamped
 * `x-api-signature` alone is not accepted: a body signed once could be replayed for ever.
 */
function timestampedSignatureValid(privateKey: string, raw: string, header: string | null, nowMs = Date.now()): boolean {
  const fields = (header ?? '').split(',').map((part) => part.trim().split('='));
  const t = fields.find(([name]) => name === 't')?.[1];
  if (!t || !/^\d{1,12}$/.test(t) || Math.abs(nowMs / 1000 - Number(t)) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', privateKey).update(`${t}.${raw}`, 'utf8').digest();
  return fields.some(([name, value]) => name === 'v1' && value !== undefined && /^[0-9a-f]{64}$/i.test(value) && timingSafeEqual(expected, Buffer.from(value, 'hex')));
}

const refuse = (status: 400 | 401 | 404 | 409 | 503, error: string): WebhookOutcome => ({ status, body: { ok: false, error } });

/**
 * The store's webhook receiver. The webhook is only the trigger: once its timestamped signature
 * is checked over the raw body, the store asks the gateway for the order (`order`, with its own
 * keys) and takes the status and amount received from that answer, never from the body; then,
 * once per webhook id, its order takes them. A webhook whose order the gateway does not report
 * final changes nothing.
 */
export async function receiveWebhook(headers: Headers, raw: string): Promise<WebhookOutcome> {
  const { publicKey, privateKey } = keys();
  if (headers.get('x-api-public-key') !== publicKey || !timestampedSignatureValid(privateKey, raw, headers.get('x-webhook-signature'))) {
    return refuse(401, 'bad signature');
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return refuse(400, 'the body is not JSON');
  }
  const parsed = webhookBody.safeParse(json);
  if (!parsed.success) return refuse(400, 'not an ORDER webhook');
  const event = parsed.data;
  // The webhook id header and the body's id are the same event: a mismatch is not the gateway's.
  if (headers.get('x-webhook-id') !== null && headers.get('x-webhook-id') !== event.id) {
    return refuse(400, 'x-webhook-id differs from the body id');
  }
  const db = await getDatabase();
  // A store order whose checkout stopped after make-order but before it kept the gateway's order
  // id (a crash, a lost answer) is still found by its own id: the signed webhook names both.
  const findOrder = (q: Queryable, forUpdate: boolean) =>
    q.query<{ id: string }>(
      `select id from store_orders where id::text = $1 and (gateway_order_id is null or gateway_order_id::text = $2)${forUpdate ? ' for update' : ''}`,
      [event.clientOrderId, event.orderId],
    );
  const [known] = await findOrder(db, false);
  if (!known) return refuse(404, 'no such store order');
  const [handled] = await db.query('select 1 from store_webhook_receipts where webhook_id = $1', [event.id]);
  if (handled) return { status: 200, body: { ok: true, duplicate: true } };

  // Asked outside any transaction: on the embedded database the gateway answering it shares the
  // store's one connection.
  let confirmed: OrderDetails;
  try {
    confirmed = await client().getOrder(event.orderId);
  } catch (error) {
    if (error instanceof GatewayApiError && error.status === 404) return refuse(404, 'the gateway does not know this order');
    if (error instanceof GatewayError) return refuse(503, 'the gateway cannot confirm the order now; send it again later');
    throw error;
  }
  if (confirmed.orderId !== event.orderId || confirmed.clientOrderId !== known.id) return refuse(409, 'the gateway reports another order');
  if (confirmed.status === 'pending') return refuse(409, 'the gateway does not report this order final');

  return db.transaction(async (tx) => {
    const [order] = await findOrder(tx, true);
    if (!order) return refuse(404, 'no such store order');
    const fresh = await tx.query(
      'insert into store_webhook_receipts (webhook_id, store_order_id, status) values ($1, $2, $3) on conflict do nothing returning 1',
      [event.id, order.id, confirmed.status],
    );
    if (fresh.length === 0) return { status: 200, body: { ok: true, duplicate: true } } as const;
    await tx.query(
      'update store_orders set status = $2, received = $3, gateway_order_id = coalesce(gateway_order_id, $4::uuid), updated_at = now() where id = $1',
      [order.id, confirmed.status, confirmed.received, event.orderId],
    );
    return { status: 200, body: { ok: true, duplicate: false } } as const;
  });
}
