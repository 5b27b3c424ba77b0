import 'server-only';
/**
 * Refunds in the database (docs/decisions/071): making one, its changes, reading them. Every
 * change writes its `refund.*` event (and the endpoints' webhooks) in its own transaction.
 *
 * The cap: a refund adds its amount to its payment's row of `refund_balances` in the transaction
 * that makes it, by one conditional upsert. The row lock that upsert takes makes a concurrent
 * refund of the same payment wait, then see the first one's sum; the table's CHECK holds the sum to
 * what was received whatever a statement does.
 */
import { randomUUID } from 'node:crypto';
import {
  bare,
  chainTransfers,
  columnsOf,
  deposits,
  insertValues,
  invoices,
  orders,
  param,
  payments,
  refundBalances,
  refunds,
  sql,
  statement,
  type Database,
  type Queryable,
  type RowOf,
} from '../db';
import { networkFor } from '../chains';
import { NotFound } from '../errors';
import { type MerchantScope } from '../merchants';
import { formatUnits } from '../money';
import { decimalsOf } from '../orders';
import {
  isUuid,
  type ClaimDelivery,
  type EventType,
  type Mode,
  type RefundDestination,
  type RefundResponse,
  type RefundSource,
} from '../protocol';
import { enqueueRefundClaimMail, enqueueRefundSentMail } from '../mail';
import { discardRefundPlans } from '../payouts';
import { publishEvents } from '../webhooks';
import { approvalFor } from './approval-rule';
import { CLAIM_LIFETIME_MS, claimToken, claimTokenHash, claimUrl } from './claims';
import { NotRefundable, RefundDestinationRefused, RefundExceedsReceived, RefundStateConflict } from './errors';
import { holdsAmount, nextRefundState, type RefundAction } from './lifecycle';
import type { PricedRefund } from './pricing';
import { refundNeedsTag, refundSenderAddress } from './sender';

export type RefundRow = RowOf<typeof refunds>;

/** What a refund pays back: an order, an invoice (through its order) or an orphan deposit. */
export interface RefundTarget {
  kind: 'order' | 'invoice' | 'deposit';
  id: string;
}

/** The payment a refund draws on, as read in the refund's transaction. */
export interface RefundablePayment {
  sourceKind: RefundSource;
  sourceId: string;
  orderId: string | null;
  invoiceId: string | null;
  depositId: string | null;
  network: string;
  currency: string;
  /** Base units of the coin. */
  received: bigint;
  payerEmail: string | null;
}

const ORDER = statement<
  Pick<RowOf<typeof orders>, 'id' | 'network' | 'currency' | 'received' | 'status' | 'payer_email' | 'invoice_id'>,
  { id: string; merchantId: string; mode: string }
>(
  sql`select ${columnsOf(orders, ['id', 'network', 'currency', 'received', 'status', 'payer_email', 'invoice_id'])} from ${orders}
   where ${orders.id} = ${param('id')} and ${orders.merchantId} = ${param('merchantId')} and ${orders.mode} = ${param('mode')}`,
);
const INVOICE = statement<Pick<RowOf<typeof invoices>, 'order_id'>, { id: string; merchantId: string; mode: string }>(
  sql`select ${invoices.orderId} from ${invoices}
   where ${invoices.id} = ${param('id')} and ${invoices.merchantId} = ${param('merchantId')} and ${invoices.mode} = ${param('mode')}`,
);
const DEPOSIT = statement<
  Pick<RowOf<typeof deposits>, 'id' | 'order_id' | 'network' | 'currency' | 'amount' | 'status' | 'kind'> & {
    payer_email: string | null;
  },
  { id: string; merchantId: string; mode: string }
>(
  sql`select ${columnsOf(deposits, ['id', 'order_id', 'network', 'currency', 'amount', 'status', 'kind'])}, ${orders.payerEmail}
   from ${deposits} left join ${orders} on ${orders.id} = ${deposits.orderId}
   where ${deposits.id} = ${param('id')} and ${deposits.merchantId} = ${param('merchantId')} and ${deposits.mode} = ${param('mode')}`,
);

/**
 * The payment `target` refunds, of the caller's merchant and mode (another's is not found). An
 * order must be final (a pending one may still complete: refund it once it is decided); an
 * invoice, have the order that decided it; a deposit, be an orphan deposit that is confirmed.
 */
export async function refundablePayment(
  db: Queryable,
  scope: MerchantScope,
  target: RefundTarget,
): Promise<RefundablePayment> {
  const thing = target.kind === 'deposit' ? 'Deposit' : target.kind === 'invoice' ? 'Invoice' : 'Order';
  if (!isUuid(target.id)) throw new NotFound(thing, target.id);
  if (target.kind === 'deposit') {
    const [deposit] = await DEPOSIT.run(db, { id: target.id, ...scope });
    if (!deposit) throw new NotFound(thing, target.id);
    if (deposit.kind !== 'ORPHAN') throw new NotRefundable('Only orphan deposits are refunded.');
    if (deposit.status !== 'PROCESSED') throw new NotRefundable('The deposit is not confirmed yet.');
    return {
      sourceKind: 'deposit',
      sourceId: deposit.id,
      orderId: deposit.order_id,
      invoiceId: null,
      depositId: deposit.id,
      network: deposit.network,
      currency: deposit.currency,
      received: BigInt(deposit.amount),
      payerEmail: deposit.payer_email,
    };
  }
  let orderId = target.id;
  let invoiceId: string | null = null;
  if (target.kind === 'invoice') {
    const [invoice] = await INVOICE.run(db, { id: target.id, ...scope });
    if (!invoice) throw new NotFound(thing, target.id);
    if (!invoice.order_id) throw new NotRefundable('The invoice has no payment: its payer never chose a coin.');
    orderId = invoice.order_id;
    invoiceId = target.id;
  }
  const [order] = await ORDER.run(db, { id: orderId, ...scope });
  if (!order) throw new NotFound(thing, target.id);
  if (order.status === 'pending') throw new NotRefundable('The order is still pending: refund it once it is decided.');
  if (BigInt(order.received) === 0n) throw new NotRefundable('The order received nothing.');
  return {
    sourceKind: 'order',
    sourceId: order.id,
    orderId: order.id,
    invoiceId: invoiceId ?? order.invoice_id,
    depositId: null,
    network: order.network,
    currency: order.currency,
    received: BigInt(order.received),
    payerEmail: order.payer_email,
  };
}

const ORDER_SENDERS = statement<{ sender: string | null }, { orderId: string }>(
  sql`select ${payments.senderAddress} as sender from ${payments}
   where ${payments.orderId} = ${param('orderId')} and ${payments.status} = 'processed'`,
);
const DEPOSIT_SENDER = statement<{ sender: string | null }, { id: string }>(
  sql`select ${chainTransfers.sender} from ${deposits} join ${chainTransfers}
     on ${chainTransfers.network} = ${deposits.network} and ${chainTransfers.mode} = ${deposits.mode}
    and ${chainTransfers.txHash} = ${deposits.inTxHash} and ${chainTransfers.outputIndex} = ${deposits.inOutputIndex}
   where ${deposits.id} = ${param('id')}`,
);

/**
 * The one address `payment` came from, where a refund may go back to it (lib/refunds/sender.ts):
 * the sender of every counted payment of an order, or of an orphan deposit's transfer; null where
 * there is none, or where a refund would need a destination tag the gateway cannot know.
 */
export async function paymentSenderAddress(
  db: Queryable,
  mode: Mode,
  payment: RefundablePayment,
): Promise<string | null> {
  const network = networkFor(mode, payment.network);
  if (!network || refundNeedsTag(network)) return null;
  const rows =
    payment.sourceKind === 'deposit'
      ? await DEPOSIT_SENDER.run(db, { id: payment.sourceId })
      : await ORDER_SENDERS.run(db, { orderId: payment.sourceId });
  return refundSenderAddress(
    network,
    rows.map((row) => row.sender),
  );
}

/**
 * The address a refund to the payment's sender goes to, or why it cannot: a network whose refunds
 * need a destination tag (an exchange's is unknown), or no single sending address.
 */
async function senderDestination(tx: Queryable, mode: Mode, payment: RefundablePayment): Promise<string> {
  const network = networkFor(mode, payment.network);
  if (network && refundNeedsTag(network)) {
    throw new RefundDestinationRefused(
      `A refund on ${network.displayName} needs the destination tag of the payer's address: send them the claim link instead.`,
    );
  }
  const address = await paymentSenderAddress(tx, mode, payment);
  if (!address) {
    throw new RefundDestinationRefused(
      'The payment did not come from one address a refund can go back to: send the payer the claim link instead.',
    );
  }
  return address;
}

const HOLD_VALUES = insertValues([
  [refundBalances.sourceKind, param('sourceKind')],
  [refundBalances.sourceId, param('sourceId')],
  [refundBalances.merchantId, param('merchantId')],
  [refundBalances.mode, param('mode')],
  [refundBalances.received, param('received')],
  [refundBalances.refunded, param('amount')],
]);
const HOLD = statement<
  { refunded: string },
  { sourceKind: string; sourceId: string; merchantId: string; mode: string; received: string; amount: string }
>(
  sql`insert into ${refundBalances} (${HOLD_VALUES.columns}) values (${HOLD_VALUES.values})
   on conflict (${bare(refundBalances.sourceKind)}, ${bare(refundBalances.sourceId)}) do update
     set ${bare(refundBalances.refunded)} = ${refundBalances.refunded} + excluded.${bare(refundBalances.refunded)},
         ${bare(refundBalances.received)} = excluded.${bare(refundBalances.received)},
         ${bare(refundBalances.updatedAt)} = now()
   where ${refundBalances.refunded} + excluded.${bare(refundBalances.refunded)} <= excluded.${bare(refundBalances.received)}
   returning ${refundBalances.refunded}`,
);
const REFUNDED = statement<{ refunded: string }, { sourceKind: string; sourceId: string }>(
  sql`select ${refundBalances.refunded} from ${refundBalances}
   where ${refundBalances.sourceKind} = ${param('sourceKind')} and ${refundBalances.sourceId} = ${param('sourceId')}`,
);
const RELEASE = statement<{ refunded: string }, { sourceKind: string; sourceId: string; amount: string }>(
  sql`update ${refundBalances} set ${bare(refundBalances.refunded)} = ${refundBalances.refunded} - ${param('amount')}::numeric,
     ${bare(refundBalances.updatedAt)} = now()
   where ${refundBalances.sourceKind} = ${param('sourceKind')} and ${refundBalances.sourceId} = ${param('sourceId')}
   returning ${refundBalances.refunded}`,
);

/** What is left to refund of a payment (received minus the refunds that hold an amount). */
export async function leftToRefund(db: Queryable, payment: RefundablePayment): Promise<bigint> {
  const [row] = await REFUNDED.run(db, { sourceKind: payment.sourceKind, sourceId: payment.sourceId });
  return payment.received - BigInt(row?.refunded ?? '0');
}

/** Adds `amount` to what the payment's refunds hold, or refuses what would exceed what it received. */
async function holdAmount(tx: Queryable, scope: MerchantScope, payment: RefundablePayment, amount: bigint) {
  const key = { sourceKind: payment.sourceKind, sourceId: payment.sourceId };
  const left = async () => formatUnits(await leftToRefund(tx, payment), decimalsOf(payment.network, payment.currency));
  // A first refund above what was received would break the CHECK (an error that aborts the transaction): refuse it here.
  if (amount > payment.received) throw new RefundExceedsReceived(await left(), payment.currency);
  const held = await HOLD.run(tx, {
    ...key,
    ...scope,
    received: payment.received.toString(),
    amount: amount.toString(),
  });
  if (held.length === 0) throw new RefundExceedsReceived(await left(), payment.currency);
}

const REFUND_VALUES = insertValues([
  [refunds.id, param('id')],
  [refunds.merchantId, param('merchantId')],
  [refunds.mode, param('mode')],
  [refunds.sourceKind, param('sourceKind')],
  [refunds.sourceId, param('sourceId')],
  [refunds.orderId, param('orderId')],
  [refunds.invoiceId, param('invoiceId')],
  [refunds.depositId, param('depositId')],
  [refunds.network, param('network')],
  [refunds.currency, param('currency')],
  [refunds.amount, param('amount')],
  [refunds.state, param('state')],
  [refunds.address, param('address')],
  [refunds.addressConfirmedAt, param('addressConfirmedAt')],
  [refunds.priceAmount, param('priceAmount')],
  [refunds.priceCurrency, param('priceCurrency')],
  [refunds.priceRate, param('priceRate')],
  [refunds.priceRateSource, param('priceRateSource')],
  [refunds.claimTokenHash, param('claimTokenHash')],
  [refunds.claimExpiresAt, param('claimExpiresAt')],
  [refunds.claimDelivery, param('claimDelivery')],
  [refunds.approval, param('approval')],
  [refunds.feeFromRefund, param('feeFromRefund')],
  [refunds.createdBy, param('createdBy')],
  [refunds.createdAt, param('now')],
  [refunds.updatedAt, param('now')],
]);
const INSERT = statement<RefundRow>(
  sql`insert into ${refunds} (${REFUND_VALUES.columns}) values (${REFUND_VALUES.values}) returning *`,
);

export interface MakeRefund {
  target: RefundTarget;
  /** Base units of the payment's coin. */
  amount: bigint;
  /** For a refund priced in fiat, what made `amount` (lib/refunds/pricing.ts). */
  price?: PricedRefund['price'];
  /** `api:<key id>`, `user:<user id>`, or `payer` (the payment page: the payer asked). */
  createdBy: string;
  /** The network fee is taken from the refund when it is sent (a payer-started refund's rule). */
  feeFromRefund?: boolean;
  /**
   * `claim` (default): the payer names the address by claim link. `sender`: the refund goes back to
   * the one address the payment came from, ready at once (docs/decisions/125).
   */
  to?: RefundDestination;
  now: Date;
}

export interface MadeRefund {
  refund: RefundResponse;
  /** The claim link, for the merchant to share (the refund's `claim.delivery` says whether it was also mailed). */
  claimUrl: string;
}

/** A refund made, by claim link or to the payment's sender (which has no link: `claimUrl` null). */
export type MadeRefundTo = MadeRefund | { refund: RefundResponse; claimUrl: null };

/** A request that waits for the payer's claim (no `to`, or `to: 'claim'`). */
type ByClaim = MakeRefund & { to?: 'claim' };

/** Serialises a refund as `refunds/get` answers it. */
export function serializeRefund(row: RefundRow): RefundResponse {
  return {
    id: row.id,
    state: row.state,
    orderId: row.order_id,
    invoiceId: row.invoice_id,
    depositId: row.deposit_id,
    network: row.network,
    currency: row.currency,
    amount: formatUnits(BigInt(row.amount), decimalsOf(row.network, row.currency)),
    price:
      row.price_amount && row.price_currency && row.price_rate && row.price_rate_source
        ? {
            amount: row.price_amount,
            currency: row.price_currency,
            rate: row.price_rate,
            rateSource: row.price_rate_source,
          }
        : null,
    claim: { delivery: row.claim_delivery, expiresAt: row.claim_expires_at.toISOString() },
    address: row.address,
    tag: row.tag,
    txId: row.txid,
    missingSince: row.missing_since?.toISOString() ?? null,
    approval: row.approval,
    reason: row.reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * Mails a claim's link (the claim id `claimId`'s) to the payer of `orderId` when the order has a
 * `payerEmail` and the payer may be mailed, in `tx`: answers `mail`, else `shared` (the merchant
 * passes the link on).
 */
async function deliverClaim(
  tx: Queryable,
  scope: MerchantScope,
  claimId: string,
  orderId: string | null,
  payerEmail: string | null,
): Promise<ClaimDelivery> {
  if (!orderId || !payerEmail) return 'shared';
  const mailed = await enqueueRefundClaimMail(tx, { id: claimId, ...scope, orderId, recipient: payerEmail });
  return mailed ? 'mail' : 'shared';
}

/** The refund's event of its current version, in `tx`. */
async function publishRefund(tx: Queryable, row: RefundRow, type: EventType): Promise<void> {
  await publishEvents(tx, [
    {
      id: randomUUID(),
      merchantId: row.merchant_id,
      mode: row.mode,
      type,
      objectId: row.id,
      // A refund may be reopened and confirmed again: its version tells the changes apart.
      dedupeKey: `${type}:${row.id}:${row.version}`,
      data: JSON.stringify(serializeRefund(row)),
      createdAt: row.updated_at,
    },
  ]);
}

/**
 * Makes a refund of `request.target` for `request.amount`, awaiting the payer's address through a
 * claim link, in one transaction: the amount held against the payment (refused above what is
 * left), the refund and its `refund.created` event. With `to: 'sender'` the refund is ready at once
 * to the address the payment came from (refused where there is none), with no link; its
 * `refund.ready` event follows `refund.created`, as when a payer confirms.
 */
export async function makeRefund(db: Database, scope: MerchantScope, request: ByClaim): Promise<MadeRefund>;
export async function makeRefund(db: Database, scope: MerchantScope, request: MakeRefund): Promise<MadeRefundTo>;
export async function makeRefund(db: Database, scope: MerchantScope, request: MakeRefund): Promise<MadeRefundTo> {
  return db.transaction((tx) => writeRefund(tx, scope, request));
}

/** `makeRefund` inside the caller's transaction `tx` (the API's, which spends the request's nonce with it). */
export async function writeRefund(tx: Queryable, scope: MerchantScope, request: ByClaim): Promise<MadeRefund>;
export async function writeRefund(tx: Queryable, scope: MerchantScope, request: MakeRefund): Promise<MadeRefundTo>;
export async function writeRefund(tx: Queryable, scope: MerchantScope, request: MakeRefund): Promise<MadeRefundTo> {
  if (request.amount <= 0n) throw new NotRefundable('A refund is of an amount above 0.', 'amount');
  const claimId = randomUUID();
  // A refund to the sender has no link: its token (stored hashed, the column's rule) is never handed out.
  const token = claimToken(claimId);
  const payment = await refundablePayment(tx, scope, request.target);
  const sender = request.to === 'sender' ? await senderDestination(tx, scope.mode, payment) : null;
  await holdAmount(tx, scope, payment, request.amount);
  const decimals = decimalsOf(payment.network, payment.currency);
  const approval = await approvalFor(tx, scope, { currency: payment.currency, decimals }, request.amount);
  const delivery = sender ? 'sender' : await deliverClaim(tx, scope, claimId, payment.orderId, payment.payerEmail);
  const [made] = await INSERT.run(tx, {
    id: randomUUID(),
    ...scope,
    sourceKind: payment.sourceKind,
    sourceId: payment.sourceId,
    orderId: payment.orderId,
    invoiceId: payment.invoiceId,
    depositId: payment.depositId,
    network: payment.network,
    currency: payment.currency,
    amount: request.amount.toString(),
    state: sender ? 'ready' : 'awaiting_address',
    address: sender,
    addressConfirmedAt: sender ? request.now : null,
    priceAmount: request.price?.amount ?? null,
    priceCurrency: request.price?.currency ?? null,
    priceRate: request.price?.rate ?? null,
    priceRateSource: request.price?.rateSource ?? null,
    claimTokenHash: claimTokenHash(token),
    claimExpiresAt: sender ? request.now : new Date(request.now.getTime() + CLAIM_LIFETIME_MS),
    claimDelivery: delivery,
    approval,
    feeFromRefund: request.feeFromRefund ?? false,
    createdBy: request.createdBy,
    now: request.now,
  });
  await publishRefund(tx, made!, 'refund.created');
  if (sender) await publishRefund(tx, made!, 'refund.ready');
  return { refund: serializeRefund(made!), claimUrl: sender ? null : claimUrl(token) };
}

const REFUND_COLUMNS = sql`*`;
const GET = statement<RefundRow, { id: string; merchantId: string; mode: string }>(
  sql`select ${REFUND_COLUMNS} from ${refunds}
   where ${refunds.id} = ${param('id')} and ${refunds.merchantId} = ${param('merchantId')} and ${refunds.mode} = ${param('mode')}`,
);
const LOCK = statement<RefundRow, { id: string; merchantId: string; mode: string }>(
  sql`select ${REFUND_COLUMNS} from ${refunds}
   where ${refunds.id} = ${param('id')} and ${refunds.merchantId} = ${param('merchantId')} and ${refunds.mode} = ${param('mode')}
   for update`,
);

/** A refund of the caller's merchant and mode; another's, or an id of the wrong shape, is not found. */
export async function getRefund(db: Queryable, scope: MerchantScope, id: string): Promise<RefundResponse> {
  const [row] = isUuid(id) ? await GET.run(db, { id, ...scope }) : [];
  if (!row) throw new NotFound('Refund', id);
  return serializeRefund(row);
}

const LIST = statement<
  RefundRow,
  { merchantId: string; mode: string; orderId: string | null; limit: number; offset: number }
>(
  sql`select ${REFUND_COLUMNS} from ${refunds}
   where ${refunds.merchantId} = ${param('merchantId')} and ${refunds.mode} = ${param('mode')}
     and (${param('orderId')}::uuid is null or ${refunds.orderId} = ${param('orderId')}::uuid)
   order by ${refunds.createdAt} desc, ${refunds.id} desc limit ${param('limit')} offset ${param('offset')}`,
);

/** The caller's refunds, newest first, of one order when `orderId` is given. */
export async function listRefunds(
  db: Queryable,
  scope: MerchantScope,
  query: { orderId?: string; limit: number; offset: number },
): Promise<RefundResponse[]> {
  if (query.orderId !== undefined && !isUuid(query.orderId)) return [];
  const rows = await LIST.run(db, {
    ...scope,
    orderId: query.orderId ?? null,
    limit: query.limit,
    offset: query.offset,
  });
  return rows.map(serializeRefund);
}

const UPDATE = statement<
  RefundRow,
  {
    id: string;
    state: string;
    address: string | null;
    tag: string | null;
    addressConfirmedAt: Date | null;
    claimTokenHash: string;
    claimExpiresAt: Date;
    claimDelivery: string;
    txid: string | null;
    reason: string | null;
    now: Date;
  }
>(
  sql`update ${refunds} set ${bare(refunds.state)} = ${param('state')}, ${bare(refunds.version)} = ${refunds.version} + 1,
     ${bare(refunds.address)} = ${param('address')}, ${bare(refunds.tag)} = ${param('tag')},
     ${bare(refunds.addressConfirmedAt)} = ${param('addressConfirmedAt')},
     ${bare(refunds.claimTokenHash)} = ${param('claimTokenHash')}, ${bare(refunds.claimExpiresAt)} = ${param('claimExpiresAt')},
     ${bare(refunds.claimDelivery)} = ${param('claimDelivery')},
     ${bare(refunds.txid)} = ${param('txid')}, ${bare(refunds.reason)} = ${param('reason')}, ${bare(refunds.updatedAt)} = ${param('now')}
   where ${refunds.id} = ${param('id')} returning *`,
);

const EVENT_OF: Record<RefundAction['type'], (state: RefundRow['state']) => EventType> = {
  confirm_address: () => 'refund.ready',
  reopen: () => 'refund.reopened',
  cancel: () => 'refund.canceled',
  seen: (state) => (state === 'confirmed' ? 'refund.confirmed' : 'refund.sent'),
  dropped: () => 'refund.failed',
};

/** What a change writes besides the state (each field left out keeps its value). */
export interface RefundChange {
  address?: string | null;
  tag?: string | null;
  addressConfirmedAt?: Date | null;
  claimTokenHash?: string;
  claimExpiresAt?: Date;
  claimDelivery?: ClaimDelivery;
  txid?: string | null;
  reason?: string | null;
}

/**
 * Applies `action` to the locked refund `row` inside `tx`: its new state (refused with the
 * lifecycle's reason), the fields of `change`, the amount given back to the payment when the
 * refund stops holding it, and the change's event. Answers the refund as written.
 */
export async function applyRefundAction(
  tx: Queryable,
  row: RefundRow,
  action: RefundAction,
  change: RefundChange,
  now: Date,
): Promise<RefundRow> {
  const next = nextRefundState(row.state, action);
  if (!next.ok) throw new RefundStateConflict(next.reason);
  const [written] = await UPDATE.run(tx, {
    id: row.id,
    state: next.state,
    address: change.address !== undefined ? change.address : row.address,
    tag: change.tag !== undefined ? change.tag : row.tag,
    addressConfirmedAt: change.addressConfirmedAt !== undefined ? change.addressConfirmedAt : row.address_confirmed_at,
    claimTokenHash: change.claimTokenHash ?? row.claim_token_hash,
    claimExpiresAt: change.claimExpiresAt ?? row.claim_expires_at,
    claimDelivery: change.claimDelivery ?? row.claim_delivery,
    txid: change.txid !== undefined ? change.txid : row.txid,
    reason: change.reason !== undefined ? change.reason : row.reason,
    now,
  });
  if (holdsAmount(row.state) && !holdsAmount(next.state)) {
    await RELEASE.run(tx, { sourceKind: row.source_kind, sourceId: row.source_id, amount: row.amount });
  }
  await publishRefund(tx, written!, EVENT_OF[action.type](next.state));
  if (next.state === 'confirmed' && row.state !== 'confirmed') await mailRefundSent(tx, written!);
  return written!;
}

/**
 * A refund just confirmed: the payer hears of it (docs/decisions/088), in the transaction that
 * confirmed it, when the refunded order has their `payerEmail` (an orphan deposit's, its order's).
 */
async function mailRefundSent(tx: Queryable, row: RefundRow): Promise<void> {
  if (!row.order_id) return;
  const [order] = await PAYER_EMAIL.run(tx, { id: row.order_id });
  if (!order?.payer_email) return;
  await enqueueRefundSentMail(tx, {
    refundId: row.id,
    merchantId: row.merchant_id,
    mode: row.mode,
    orderId: row.order_id,
    recipient: order.payer_email,
  });
}

/** The caller's refund, locked in `tx` for a change; another's is not found. */
export async function lockRefund(tx: Queryable, scope: MerchantScope, id: string): Promise<RefundRow> {
  const [row] = isUuid(id) ? await LOCK.run(tx, { id, ...scope }) : [];
  if (!row) throw new NotFound('Refund', id);
  return row;
}

/** Cancels a refund that was not sent: its amount is refundable again. */
export async function cancelRefund(db: Database, scope: MerchantScope, id: string, now: Date): Promise<RefundResponse> {
  const row = await db.transaction(async (tx) => {
    const canceled = await applyRefundAction(tx, await lockRefund(tx, scope, id), { type: 'cancel' }, {}, now);
    await discardRefundPlans(tx, canceled.id, 'the refund was canceled');
    return canceled;
  });
  return serializeRefund(row);
}

const PAYER_EMAIL = statement<{ payer_email: string | null }, { id: string }>(
  sql`select ${orders.payerEmail} from ${orders} where ${orders.id} = ${param('id')}`,
);

/**
 * Reopens a refund's claim: the address the payer gave is forgotten, the old link stops working,
 * and a new one waits for an address: mailed to the payer when the order has their address (which
 * tells them the old link is dead), and answered for the merchant to share.
 */
export async function reopenRefund(db: Database, scope: MerchantScope, id: string, now: Date): Promise<MadeRefund> {
  const claimId = randomUUID();
  const token = claimToken(claimId);
  const row = await db.transaction(async (tx) => {
    const refund = await lockRefund(tx, scope, id);
    const [order] = refund.order_id ? await PAYER_EMAIL.run(tx, { id: refund.order_id }) : [];
    // A plan to the forgotten address is never signed.
    await discardRefundPlans(tx, refund.id, "the refund's claim was reopened: the address it paid is forgotten");
    return applyRefundAction(
      tx,
      refund,
      { type: 'reopen' },
      {
        address: null,
        tag: null,
        addressConfirmedAt: null,
        claimTokenHash: claimTokenHash(token),
        claimExpiresAt: new Date(now.getTime() + CLAIM_LIFETIME_MS),
        claimDelivery: await deliverClaim(tx, scope, claimId, refund.order_id, order?.payer_email ?? null),
      },
      now,
    );
  });
  return { refund: serializeRefund(row), claimUrl: claimUrl(token) };
}
