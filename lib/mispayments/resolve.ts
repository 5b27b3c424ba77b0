import 'server-only';
/**
 * Settling a final order's mispayment (docs/decisions/069): the order keeps its status; its
 * settlement is a row of `order_resolutions` (one per order, its key) and an `order.resolved` event
 * to the feed and the webhook endpoints, written in one transaction: the one that paid the
 * remainder, confirmed the late payment the merchant's rule accepts, or recorded the merchant's
 * decision.
 */
import {
  bare,
  merchants,
  orderResolutions,
  orders,
  param,
  refunds,
  sql,
  statement,
  type Queryable,
  type RowOf,
} from '../db';
import { log } from '../log';
import { formatUnits, parseDecimal, parsePercent, type Decimal } from '../money';
import { decimalsOf } from '../orders';
import type { OrderResolution } from '../protocol';
import { rateService } from '../rates';
import { applyRefundAction, lockRefund } from '../refunds';
import { publishResolutionEvent } from '../webhooks';
import { MISPAID_ORDER_COLUMNS, WITH_REMAINDER, type MispaidOrder } from './facts';
import { judgeLatePayment, type LateRule, type LateVerdict } from './rules';
import { payerRestStandingOf } from './standing';

type ResolutionRow = RowOf<typeof orderResolutions>;
type Kind = ResolutionRow['kind'];
type DecidedBy = ResolutionRow['decided_by'];

// Locked: the settlement of one order is decided once, whichever of a payment, the rule and the
// merchant comes first (the others then find its resolution and write nothing).
const LOCK_MISPAID = statement<MispaidOrder, { ids: string[] }>(
  sql`select ${MISPAID_ORDER_COLUMNS} from ${orders} ${WITH_REMAINDER}
   where ${orders.id} = any(${param('ids')}::uuid[]) order by ${orders.id} for update of ${orders}`,
);

const INSERT_RESOLUTION = statement<Pick<ResolutionRow, 'created_at'>, Record<string, unknown>>(
  sql`insert into ${orderResolutions} (${bare(orderResolutions.orderId)}, ${bare(orderResolutions.merchantId)}, ${bare(orderResolutions.mode)},
     ${bare(orderResolutions.kind)}, ${bare(orderResolutions.decidedBy)}, ${bare(orderResolutions.userId)}, ${bare(orderResolutions.remainderOrderId)},
     ${bare(orderResolutions.totalReceived)})
   values (${param('orderId')}, ${param('merchantId')}, ${param('mode')}, ${param('kind')}, ${param('decidedBy')}, ${param('userId')}::uuid,
     ${param('remainderOrderId')}::uuid, ${param('totalReceived')})
   on conflict (${bare(orderResolutions.orderId)}) do nothing returning ${bare(orderResolutions.createdAt)}`,
);

/** What the order, its late payments and its remainder received in its coin, base units. */
export function totalReceived(order: MispaidOrder): bigint {
  return BigInt(order.received) + BigInt(order.late) + BigInt(order.rest_received ?? '0');
}

/**
 * Records the settlement of `order` (locked by the caller) and publishes `order.resolved`, inside
 * `tx`. Answers the settlement, or null when the order was settled already.
 */
export async function recordResolution(
  tx: Queryable,
  order: MispaidOrder,
  how: { kind: Kind; decidedBy: DecidedBy; userId?: string | null },
): Promise<OrderResolution | null> {
  const total = totalReceived(order);
  const [row] = await INSERT_RESOLUTION.run(tx, {
    orderId: order.id,
    merchantId: order.merchant_id,
    mode: order.mode,
    kind: how.kind,
    decidedBy: how.decidedBy,
    userId: how.userId ?? null,
    remainderOrderId: order.rest_id,
    totalReceived: total.toString(),
  });
  if (!row) return null;
  const decimals = decimalsOf(order.network, order.currency);
  const data: OrderResolution = {
    orderId: order.id,
    kind: how.kind,
    decidedBy: how.decidedBy,
    remainderOrderId: order.rest_id,
    currency: order.currency,
    network: order.network,
    amount: formatUnits(BigInt(order.amount), decimals),
    totalReceived: formatUnits(total, decimals),
    createdAt: row.created_at.toISOString(),
  };
  await publishResolutionEvent(tx, { merchantId: order.merchant_id, mode: order.mode, data });
  log.info('order resolved', { orderId: order.id, kind: how.kind, decidedBy: how.decidedBy });
  return data;
}

const PAID_REMAINDERS = statement<{ original: string }, { ids: string[] }>(
  sql`select ${orders.remainderOf} as original from ${orders}
   where ${orders.id} = any(${param('ids')}::uuid[]) and ${orders.remainderOf} is not null and ${orders.status} in ('processed', 'overpaid')`,
);

/** The refunds of the order's money that still wait for an address (nothing moved, nobody used the claim). */
const UNCLAIMED_REFUNDS = statement<{ id: string }, { orderId: string }>(
  sql`select ${refunds.id} as id from ${refunds} where ${refunds.orderId} = ${param('orderId')} and ${refunds.state} = 'awaiting_address'
   order by ${refunds.id}`,
);

/**
 * Inside the transaction that made these orders final: each that is a paid remainder settles its
 * original (`remainder_paid`, decided by the payer), and cancels the original's refunds still
 * waiting for an address (the payer paid the rest instead of taking the money back: their claim
 * links die, docs/decisions/102). An original whose money is being refunded to an address given
 * for it is not settled: its remainder is then a paid order of its own, for the merchant to
 * refund. Answers the settlements written.
 */
export async function resolvePaidRemainders(
  tx: Queryable,
  orderIds: readonly string[],
  now: Date = new Date(),
): Promise<OrderResolution[]> {
  if (orderIds.length === 0) return [];
  const originals = (await PAID_REMAINDERS.run(tx, { ids: [...orderIds] })).map((row) => row.original);
  if (originals.length === 0) return [];
  const resolved: OrderResolution[] = [];
  for (const order of await LOCK_MISPAID.run(tx, { ids: originals })) {
    if (order.resolution_kind !== null) continue;
    if (payerRestStandingOf(order) === 'refunding') {
      log.warn('remainder paid while its original is being refunded: the original stays unsettled', {
        orderId: order.id,
        remainderOrderId: order.rest_id,
      });
      continue;
    }
    const scope = { merchantId: order.merchant_id, mode: order.mode };
    for (const { id } of await UNCLAIMED_REFUNDS.run(tx, { orderId: order.id }))
      await applyRefundAction(tx, await lockRefund(tx, scope, id), { type: 'cancel' }, {}, now);
    const resolution = await recordResolution(tx, order, { kind: 'remainder_paid', decidedBy: 'payer' });
    if (resolution) resolved.push(resolution);
  }
  return resolved;
}

const RULES = statement<
  Pick<RowOf<typeof merchants>, 'id' | 'late_accept_minutes' | 'late_accept_rate_move_percent'>,
  { ids: string[] }
>(
  sql`select ${merchants.id}, ${merchants.lateAcceptMinutes}, ${merchants.lateAcceptRateMovePercent} from ${merchants} where ${merchants.id} = any(${param('ids')}::uuid[])`,
);

/** The rule as stored (numeric(9,6) text). */
function ruleOf(row: Pick<RowOf<typeof merchants>, 'late_accept_minutes' | 'late_accept_rate_move_percent'>): LateRule {
  return {
    minutes: row.late_accept_minutes,
    rateMovePercent: parsePercent(row.late_accept_rate_move_percent) ?? { value: 0n, scale: 0 },
  };
}

/** The verdict of the merchant's rule on the order's late payments (the dashboard shows it too). */
export async function lateVerdict(order: MispaidOrder, rule: LateRule): Promise<LateVerdict> {
  if (order.last_late_at === null) return 'short';
  const quotedRate = order.quote_rate === null ? null : (parseDecimal(order.quote_rate) ?? null);
  let currentRate: Decimal | null = null;
  if (quotedRate !== null && order.quote_currency !== null && rule.minutes > 0) {
    currentRate = await rateService(order.mode)
      .quote(order.currency, order.quote_currency)
      .then((quote) => parseDecimal(quote.rate) ?? null)
      .catch(() => null);
  }
  return judgeLatePayment(rule, {
    expiresAt: order.expires_at,
    firstSeenAt: order.last_late_at,
    total: BigInt(order.received) + BigInt(order.late),
    threshold: BigInt(order.threshold),
    quotedRate,
    currentRate,
  });
}

/**
 * Inside the transaction that confirmed late payments of these orders: each expired or underpaid
 * order, not settled yet, without a remainder and without a refund under way, whose late payments the merchant's rule accepts
 * is settled (`accepted`, decided by the rule). Answers the settlements written.
 */
export async function acceptLatePayments(tx: Queryable, orderIds: readonly string[]): Promise<OrderResolution[]> {
  if (orderIds.length === 0) return [];
  const candidates = (await LOCK_MISPAID.run(tx, { ids: [...new Set(orderIds)] })).filter(
    (order) =>
      (order.status === 'expired' || order.status === 'partial') &&
      order.resolution_kind === null &&
      order.rest_id === null &&
      order.last_late_at !== null &&
      // A refund of what arrived is under way (the payer asked for a late payment back): not the rule's to take.
      order.refunded_by === null,
  );
  if (candidates.length === 0) return [];
  const rules = new Map(
    (await RULES.run(tx, { ids: [...new Set(candidates.map((o) => o.merchant_id))] })).map((row) => [
      row.id,
      ruleOf(row),
    ]),
  );
  const resolved: OrderResolution[] = [];
  for (const order of candidates) {
    const rule = rules.get(order.merchant_id)!;
    if ((await lateVerdict(order, rule)) !== 'accepted') continue;
    const resolution = await recordResolution(tx, order, { kind: 'accepted', decidedBy: 'rule' });
    if (resolution) resolved.push(resolution);
  }
  return resolved;
}
