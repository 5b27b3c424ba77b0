import 'server-only';
/**
 * The payer's refund choices (issue 38, docs/decisions/082): "get back what I sent" on an
 * underpaid order instead of paying the rest, "claim the excess" on an overpaid one. Either makes
 * one refund of the order (lib/refunds), started by the payer: it bears its network fee, asks at
 * least the remainder's minimum, and its claim link goes to the order's `payerEmail` only. Whoever
 * holds the payment link may ask, but only the payer's mailbox receives the link that names the
 * address: holding the payment link never opens a claim. The order itself never changes.
 */
import { orders, param, refunds, sql, statement, type Database, type Queryable } from '../db';
import { NotFound } from '../errors';
import { leftToRefund, refundablePayment, writeRefund } from '../refunds';
import { isUuid, type RefundResponse } from '../protocol';
import { NoPayerRefund } from './errors';
import { mispaidOrder } from './facts';
import { payerRefundAmount, payerRefundOffer, type PayerRefundKind } from './rules';

/** The order locked: two asks at once make one refund. */
const LOCK_ORDER = statement<{ id: string }, { id: string }>(
  sql`select ${orders.id} as id from ${orders} where ${orders.id} = ${param('id')} for update`,
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
    const target = { kind: 'order' as const, id: orderId };
    const left = await leftToRefund(tx, await refundablePayment(tx, scope, target));
    const amount = payerRefundAmount(
      kind,
      { status: order.status, amount: BigInt(order.amount), received: BigInt(order.received) },
      left,
    );
    if (amount === null)
      throw new NoPayerRefund(orderId, `nothing of at least the minimum to ${kind === 'sent' ? 'give back' : 'claim'}`);
    const made = await writeRefund(tx, scope, { target, amount, createdBy: 'payer', feeFromRefund: true, now });
    return { refund: made.refund, existing: false };
  });
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
    settled: order.resolution_kind !== null,
  });
}
