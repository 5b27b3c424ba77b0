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
import { prepareRefundPlan, type PlanChange, type PlanWrite } from '../payouts';
import type { AnyRefundPlan } from '../protocol';
import { RefundStateConflict } from './errors';
import { nextRefundState, refundActionOfPlanChange } from './lifecycle';
import { applyRefundAction, lockRefund, type RefundRow } from './store';

export interface PlanRefundOptions extends PlanWrite {
  /** The network fee is taken from the refund (the payer gets less); otherwise the merchant's change pays it. */
  feeFromRefund: boolean;
  /** Base units per virtual byte; the node's estimate when absent. */
  feeRate?: bigint;
}

/**
 * The plan that sends the caller's ready refund `id`, for the signer. Refused while the payer has
 * not confirmed an address (or after it was sent), and by lib/payouts when it cannot be built.
 */
export async function planRefund(
  db: Database,
  scope: MerchantScope,
  id: string,
  options: PlanRefundOptions,
): Promise<AnyRefundPlan> {
  const refund = await db.transaction((tx) => lockRefund(tx, scope, id));
  if (refund.state !== 'ready' || !refund.address || !refund.address_confirmed_at)
    throw new RefundStateConflict(
      `a refund that is ${refund.state.replace('_', ' ')} cannot be sent: it is sent once the payer confirmed an address`,
    );
  if (refund.approval === 'required')
    throw new RefundStateConflict("this refund is above the owner's threshold: a second person must approve it first");
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
      destination: refund.address,
      addressConfirmedAt: refund.address_confirmed_at,
      payment:
        refund.order_id && refund.source_kind === 'order'
          ? { orderId: refund.order_id }
          : await depositPayment(db, refund),
      // A refund the payer started always bears its fee (docs/decisions/082).
      feeFromRefund: refund.fee_from_refund || options.feeFromRefund,
      ...(options.feeRate !== undefined ? { feeRate: options.feeRate } : {}),
    },
    options,
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
