import 'server-only';
/**
 * "Pay the rest" (docs/decisions/069): an underpaid order (or one paid late) gets one remainder
 * order, a new order of the same merchant, coin and network asking for what is left, linked to it
 * by `remainder_of`. Opening it again answers the same order: its `order` (the idempotency key of
 * make-order) is derived from the original's id, and `remainder_of` is unique, so two payers
 * opening it at once make one order and a hundred opens take one address. An invoice's order asks
 * its rest again at the coin's current price (the payer pays the difference at today's rate).
 */
import type { Database, Queryable } from '../db';
import { isDomainErrorOf, NotFound } from '../errors';
import { log } from '../log';
import { formatUnits, parseDecimal } from '../money';
import { decimalsOf, makeOrder } from '../orders';
import { isUuid } from '../protocol';
import { rateService } from '../rates';
import { NoRemainder } from './errors';
import { mispaidOrder, type MispaidOrder } from './facts';
import { remainderAmount, requotedRemainder } from './rules';
import { payerRestStandingOf } from './standing';

/** The remainder's `order` (make-order's idempotency key): one per original, whoever opens it. */
export const remainderClientOrderId = (originalId: string) => `remainder:${originalId}`;

/** What is left of the order for a remainder to ask, from its facts (null: it offers none). */
export function remainderLeft(order: MispaidOrder): bigint | null {
  if (order.resolution_kind !== null || order.remainder_of !== null) return null;
  return remainderAmount({
    status: order.status,
    amount: BigInt(order.amount),
    received: BigInt(order.received),
    late: BigInt(order.late),
  });
}

/**
 * What a remainder asks now: `left` itself for an order priced in its coin; for an invoice's order,
 * `left` asked again at the coin's current price in the invoice's currency (`requotedRemainder`).
 * Throws RateUnavailable when there is no current price.
 */
export async function askedNow(order: MispaidOrder, left: bigint): Promise<bigint> {
  const quoted = order.quote_rate === null ? undefined : parseDecimal(order.quote_rate);
  if (!quoted || order.quote_currency === null) return left;
  const current = parseDecimal((await rateService(order.mode).quote(order.currency, order.quote_currency)).rate);
  if (!current || current.value === 0n) return left;
  return requotedRemainder(left, quoted, current);
}

/**
 * The remainder order of `orderId`, made on the first call. Any payer holding the original's link
 * may call it (the id is the secret, as for the page). Throws NotFound for an unknown order and
 * NoRemainder when the order offers none (a remainder itself offers none: one link per original),
 * or no longer does: what arrived is being refunded to an address given for it (docs/decisions/102),
 * even when the remainder was opened before.
 */
export async function openRemainder(db: Database, orderId: string): Promise<{ orderId: string }> {
  if (!isUuid(orderId)) throw new NotFound('Order', orderId);
  const original = await mispaidOrder(db, orderId);
  if (!original) throw new NotFound('Order', orderId);
  if (payerRestStandingOf(original) === 'refunding') throw new NoRemainder(orderId);
  if (original.rest_id) return { orderId: original.rest_id };
  const left = remainderLeft(original);
  if (left === null) throw new NoRemainder(orderId);
  const made = await makeOrder(
    { db, key: { merchantId: original.merchant_id, mode: original.mode, keyId: original.api_key_id }, nonce: null },
    {
      currency: original.currency,
      network: original.network,
      amount: formatUnits(await askedNow(original, left), decimalsOf(original.network, original.currency)),
      order: remainderClientOrderId(orderId),
      paymentTolerancePercent: original.tolerance_percent,
      successWebhook: original.success_webhook ?? undefined,
      errorWebhook: original.error_webhook ?? undefined,
      returnUrl: original.return_url ?? undefined,
      description: original.description ?? undefined,
      payerEmail: original.payer_email ?? undefined,
      checkRisks: original.check_risks,
      // The network's default: the payer is there now. A pool address, never the payer's personal
      // one (a personal address takes one pending order at a time, and the store's user may have one).
      lifetime: undefined,
      externalUserId: undefined,
      remainderOf: orderId,
    },
  ).catch(async (error: unknown) => {
    // Another open made it first with another amount (a late payment confirmed in between): theirs is the one.
    if (!isDomainErrorOf(error, 'OrderConflict')) throw error;
    return null;
  });
  if (made && made.remainder_of === orderId) return { orderId: made.id };
  const again = await mispaidOrder(db, orderId);
  if (again?.rest_id) return { orderId: again.rest_id };
  // The merchant named an order of its own like a remainder: it is no remainder of this order.
  log.warn('remainder order id taken by another order', { orderId });
  throw new NoRemainder(orderId);
}

/** What the payer's page offers of an order's mispayment (lib/pay): only payer-safe facts. */
export interface PayerRest {
  /** What a remainder would ask, base units; null when there is one already, or none is offered. */
  left: bigint | null;
  /** The remainder order, once opened. */
  orderId: string | null;
  /** The order's mispayment was settled (remainder paid, late payment accepted, or the shop's decision). */
  settled: boolean;
  /** What arrived is being refunded to an address given for it: no remainder is offered (docs/decisions/102). */
  refunding: boolean;
}

/** The "pay the rest" facts of an order that ended expired or underpaid; null when it has none to show. */
export async function payerRest(db: Queryable, orderId: string): Promise<PayerRest | null> {
  const order = await mispaidOrder(db, orderId);
  if (!order || (order.status !== 'partial' && order.status !== 'expired')) return null;
  const standing = payerRestStandingOf(order);
  if (standing === 'refunding') return { left: null, orderId: null, settled: false, refunding: true };
  const left = order.rest_id ? null : remainderLeft(order);
  const rest: PayerRest = {
    // At the current price for an invoice's order; without one, what is left at the quote (opening it
    // then waits for a price: the page's action sends the payer back).
    left: left === null ? null : await askedNow(order, left).catch(() => left),
    orderId: order.rest_id,
    settled: standing === 'settled',
    refunding: false,
  };
  return rest.left === null && rest.orderId === null && !rest.settled ? null : rest;
}
