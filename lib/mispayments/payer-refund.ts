import 'server-only';
/**
 * The payer's refund choices (issue 38, docs/decisions/082, 088): "get back what I sent" on an
 * underpaid order instead of paying the rest (or on an expired one paid late, outside the
 * merchant's rule: its late payments), "claim the excess" on an overpaid one. Either makes
 * one refund of the order (lib/refunds), started by the payer: it bears its network fee, asks at
 * least the remainder's minimum, and its claim link goes to the order's `payerEmail` only. Whoever
 * holds the payment link may ask, but only the payer's mailbox receives the link that names the
 * address: holding the payment link never opens a claim. The order itself never changes.
 */
import { deposits, orders, param, refunds, sql, statement, type Database, type Queryable } from '../db';
import { NotFound } from '../errors';
import { parsePercent, type Percent } from '../money';
import { leftToRefund, refundablePayment, writeRefund, type RefundTarget } from '../refunds';
import { isUuid, type RefundResponse } from '../protocol';
import { NoPayerRefund } from './errors';
import { mispaidOrder, type MispaidOrder } from './facts';
import { lateRefundAmount, payerRefundAmount, payerRefundOffer, type PayerRefundKind } from './rules';

/** The order locked: two asks at once make one refund. */
const LOCK_ORDER = statement<{ id: string }, { id: string }>(
  sql`select ${orders.id} as id from ${orders} where ${orders.id} = ${param('id')} for update`,
);
/** The order's confirmed late payments in its coin (orphan deposits: a final order never counts them), oldest first. */
const LATE_DEPOSITS = statement<{ id: string }, { orderId: string; currency: string }>(
  sql`select ${deposits.id} as id from ${deposits}
   where ${deposits.orderId} = ${param('orderId')} and ${deposits.currency} = ${param('currency')}
     and ${deposits.status} = 'PROCESSED' and ${deposits.kind} = 'ORPHAN'
   order by ${deposits.createdAt}, ${deposits.id}`,
);
const PAYER_REFUND = statement<{ id: string }, { orderId: string }>(
  sql`select ${refunds.id} as id from ${refunds}
   where ${refunds.orderId} = ${param('orderId')} and ${refunds.createdBy} = 'payer' and ${refunds.state} not in ('canceled', 'failed')`,
);

/**
 * The payer of `orderId` asks for a refund of `kind`: made once (asked again, the same refund is
 * answered and nothing is mailed twice), its claim link mailed to the order's payer. Refused
 * (NoPayerRefund) when the order offers none or has no payer address to mail.
 */
export async function requestPayerRefund(
  db: Database,
  orderId: string,
  kind: PayerRefundKind,
  now: Date,
): Promise<{ refund: RefundResponse | null; existing: boolean }> {
  if (!isUuid(orderId)) throw new NotFound('Order', orderId);
  return db.transaction(async (tx) => {
    const [locked] = await LOCK_ORDER.run(tx, { id: orderId });
    const order = locked ? await mispaidOrder(tx, orderId) : undefined;
    if (!order) throw new NotFound('Order', orderId);
    const [existing] = await PAYER_REFUND.run(tx, { orderId });
    if (existing) return { refund: null, existing: true };
    if (!order.payer_email) throw new NoPayerRefund(orderId, 'no e-mail address of the payer to send the link to');
    if (order.resolution_kind !== null) throw new NoPayerRefund(orderId, 'its mispayment was settled');
    const scope = { merchantId: order.merchant_id, mode: order.mode };
    // Paid late, outside the merchant's rule (issue 38): each late payment is refunded, one refund each.
    if (kind === 'sent' && order.status === 'expired') return refundLatePayments(tx, order, scope, now);
    const target = { kind: 'order' as const, id: orderId };
    const left = await leftToRefund(tx, await refundablePayment(tx, scope, target));
    const amount = payerRefundAmount(
      kind,
      {
        status: order.status,
        amount: BigInt(order.amount),
        received: BigInt(order.received),
        excessClaimPercent: excessClaimPercentOf(order),
      },
      left,
    );
    if (amount === null)
      throw new NoPayerRefund(
        orderId,
        kind === 'sent'
          ? 'nothing of at least the minimum to give back'
          : "no excess of at least the shop's threshold for claims",
      );
    const made = await writeRefund(tx, scope, { target, amount, createdBy: 'payer', feeFromRefund: true, now });
    return { refund: made.refund, existing: false };
  });
}

/**
 * "Get back what I sent" on an expired order paid late: a refund of what is left of each confirmed
 * late payment (its own claim link each: a refund pays back one payment), when together they reach
 * the minimum; answers the first.
 */
async function refundLatePayments(
  tx: Queryable,
  order: MispaidOrder,
  scope: { merchantId: string; mode: 'live' | 'test' },
  now: Date,
): Promise<{ refund: RefundResponse | null; existing: boolean }> {
  const payments = await arrivedPayments(tx, order, scope);
  const total = payments.reduce((sum, p) => sum + p.left, 0n);
  if (lateRefundAmount(BigInt(order.amount), total) === null)
    throw new NoPayerRefund(order.id, 'no late payment of at least the minimum to give back');
  let first: RefundResponse | null = null;
  for (const { target, left } of payments) {
    if (left === 0n) continue;
    const made = await writeRefund(tx, scope, { target, amount: left, createdBy: 'payer', feeFromRefund: true, now });
    first ??= made.refund;
  }
  return { refund: first, existing: false };
}

/**
 * What arrived for `order` (locked by the caller), payment by payment as refunds draw on them: its
 * counted payments (when it received any) and each confirmed late payment in its coin, with what is
 * left to refund of each.
 */
export async function arrivedPayments(
  tx: Queryable,
  order: MispaidOrder,
  scope: { merchantId: string; mode: 'live' | 'test' },
): Promise<{ target: RefundTarget; left: bigint }[]> {
  const targets: RefundTarget[] = BigInt(order.received) > 0n ? [{ kind: 'order', id: order.id }] : [];
  for (const { id } of await LATE_DEPOSITS.run(tx, { orderId: order.id, currency: order.currency }))
    targets.push({ kind: 'deposit', id });
  const payments: { target: RefundTarget; left: bigint }[] = [];
  for (const target of targets)
    payments.push({ target, left: await leftToRefund(tx, await refundablePayment(tx, scope, target)) });
  return payments;
}

/** The merchant's threshold for excess claims as stored (numeric text), null when it set none. */
function excessClaimPercentOf(order: MispaidOrder): Percent | null {
  return order.excess_claim_percent === null ? null : (parsePercent(order.excess_claim_percent) ?? null);
}

/** What the payment page offers the payer of `orderId` to ask back (./rules `payerRefundOffer`); null for none. */
export async function payerRefundOfferOf(
  db: Queryable,
  orderId: string,
): Promise<{ kind: PayerRefundKind; amount: bigint } | null> {
  const order = await mispaidOrder(db, orderId);
  if (!order) return null;
  return payerRefundOffer({
    status: order.status,
    amount: BigInt(order.amount),
    received: BigInt(order.received),
    late: BigInt(order.late),
    settled: order.resolution_kind !== null,
    excessClaimPercent: excessClaimPercentOf(order),
  });
}
