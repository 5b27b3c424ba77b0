import 'server-only';
/** The second person's approval of a refund above the owner's threshold (docs/decisions/082, ./approval-rule.ts). */
import { bare, param, refunds, sql, statement, type Database, type RowOf } from '../db';
import type { MerchantScope } from '../merchants';
import type { RefundResponse } from '../protocol';
import { RefundStateConflict } from './errors';
import { isFinalRefundState } from './lifecycle';
import { lockRefund, serializeRefund } from './store';

const APPROVE = statement<RowOf<typeof refunds>, { id: string; userId: string; now: Date }>(
  sql`update ${refunds} set ${bare(refunds.approval)} = 'approved', ${bare(refunds.approvedBy)} = ${param('userId')},
     ${bare(refunds.approvedAt)} = ${param('now')}, ${bare(refunds.updatedAt)} = ${param('now')}
   where ${refunds.id} = ${param('id')} returning *`,
);

/**
 * A second person approves the caller's refund `id`: refused when it needs no approval or has one,
 * when it is final, and when `userId` made it (`user:<id>`). The caller checks the permission and audits.
 */
export async function approveRefund(
  db: Database,
  scope: MerchantScope,
  id: string,
  userId: string,
  now: Date,
): Promise<RefundResponse> {
  const row = await db.transaction(async (tx) => {
    const refund = await lockRefund(tx, scope, id);
    if (refund.approval === 'none') throw new RefundStateConflict('this refund needs no approval');
    if (refund.approval === 'approved') throw new RefundStateConflict('this refund is approved already');
    if (isFinalRefundState(refund.state))
      throw new RefundStateConflict(`a refund that is ${refund.state} cannot be approved`);
    if (refund.created_by === `user:${userId}`)
      throw new RefundStateConflict('the person who made a refund cannot approve it: a second person must');
    const [approved] = await APPROVE.run(tx, { id: refund.id, userId, now });
    return approved!;
  });
  return serializeRefund(row);
}
