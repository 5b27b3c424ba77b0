import 'server-only';
/**
 * Sending a refund with the merchant's own key (docs/decisions/081; EVM: 112): a ready refund becomes a plan
 * (lib/payouts) that `npm run signer` checks and signs on the merchant's machine, and the watcher
 * moves the refund as it moves the plan: sent when its transaction is in a block, confirmed with
 * the network's confirmations, failed when a reorganisation drops it.
 */
import { columnsOf, deposits, param, refunds, sql, statement, type Database, type Queryable, type RowOf } from '../db';
import { log } from '../log';
import { type MerchantScope } from '../merchants';
import { openRefundPlan, prepareRefundPlan, type PlanChange, type PlanWrite } from '../payouts';
import type { AnyRefundPlan } from '../protocol';
import { findNetwork } from '../catalog';
import { RefundStateConflict } from './errors';
import { nextRefundState, refundActionOfPlanChange } from './lifecycle';
import { refundPayRefusal, takesPlanFeeRate } from './pay-ways';
import { applyRefundAction, lockRefund, type RefundRow } from './store';

export interface PlanRefundOptions extends PlanWrite {
  /** The network fee is taken from the refund (the payer gets less); otherwise the merchant's change pays it. */
  feeFromRefund: boolean;
  /** Base units per virtual byte; the node's estimate when absent. */
  feeRate?: bigint;
}

/**
 * The plan that sends the caller's ready refund `id`, for the signer. Refused while the payer has
 * not confirmed an address, after it was sent (by hand too: checked again in the plan's own
 * transaction, under the refund's lock), while an open plan pays it (./pay-ways.ts), and by
 * lib/payouts when it cannot be built. A fee rate is taken where one means something (the Bitcoin
 * family), and ignored elsewhere.
 */
export async function planRefund(
  db: Database,
  scope: MerchantScope,
  id: string,
  options: PlanRefundOptions,
): Promise<AnyRefundPlan> {
  const refund = await db.transaction((tx) => lockRefund(tx, scope, id));
  const refusal = refundPayRefusal(
    { ...refund, address: refund.address_confirmed_at && refund.address, openPlanId: await openRefundPlan(db, id) },
    'plan',
  );
  if (refusal !== null) throw new RefundStateConflict(refusal);
  const { feeFromRefund, feeRate, within } = options;
  return prepareRefundPlan(
    db,
    {
      ...scope,
      network: refund.network,
      currency: refund.currency,
      refundId: refund.id,
      orderId: refund.order_id,
      invoiceId: refund.invoice_id,
      depositId: refund.deposit_id,
      amount: BigInt(refund.amount),
      destination: refund.address!,
      tag: refund.tag,
      addressConfirmedAt: refund.address_confirmed_at!,
      delivery: refund.claim_delivery,
      payment:
        refund.order_id && refund.source_kind === 'order'
          ? { orderId: refund.order_id }
          : await depositPayment(db, refund),
      // A refund the payer started always bears its fee (docs/decisions/082).
      feeFromRefund: refund.fee_from_refund || feeFromRefund,
      ...(feeRate !== undefined && takesPlanFeeRate(findNetwork(refund.network)?.family) ? { feeRate } : {}),
    },
    {
      // Sent by hand (or canceled) since it was read: no plan. The plan being written is the open one here.
      within: async (tx, planId) => {
        const locked = await lockRefund(tx, scope, id);
        const late = refundPayRefusal({ ...locked, openPlanId: null }, 'plan');
        if (late !== null) throw new RefundStateConflict(late);
        await within?.(tx, planId);
      },
    },
  );
}

const DEPOSIT_OUTPUT = statement<Pick<RowOf<typeof deposits>, 'in_tx_hash' | 'in_output_index'>, { id: string }>(
  sql`select ${columnsOf(deposits, ['in_tx_hash', 'in_output_index'])} from ${deposits} where ${deposits.id} = ${param('id')}`,
);

async function depositPayment(db: Queryable, refund: RefundRow): Promise<{ txHash: string; outputIndex: number }> {
  const [deposit] = await DEPOSIT_OUTPUT.run(db, { id: refund.deposit_id! });
  return { txHash: deposit!.in_tx_hash, outputIndex: deposit!.in_output_index };
}

const LOCK_BY_ID = statement<RefundRow, { id: string }>(
  sql`select * from ${refunds} where ${refunds.id} = ${param('id')} for update`,
);

/**
 * In the watcher's step that moved them: each refund plan's change moves its refund, with its
 * event in the same transaction. A change the refund cannot take (a refund canceled whose signed
 * transaction was broadcast anyway) is logged, never an error that would stop the watcher.
 */
export async function settleRefundPlans(tx: Queryable, changes: readonly PlanChange[], now: Date): Promise<void> {
  for (const change of changes) {
    if (!change.refundId) continue;
    const action = refundActionOfPlanChange(change);
    if (!action) continue;
    const [refund] = await LOCK_BY_ID.run(tx, { id: change.refundId });
    if (!refund) continue;
    const next = nextRefundState(refund.state, action);
    if (!next.ok) {
      log.warn('refund plan moved a refund that cannot follow', {
        refundId: refund.id,
        plan: change.planId,
        reason: next.reason,
      });
      continue;
    }
    if (next.state === refund.state && refund.txid === change.txid) continue;
    await applyRefundAction(tx, refund, action, { txid: change.txid }, now);
  }
}
