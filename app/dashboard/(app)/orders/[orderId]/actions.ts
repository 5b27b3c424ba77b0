'use server';
/**
 * The merchant's decision on a mispaid order (docs/decisions/069): accept what arrived as settling
 * it, or leave it as it is. Owners and admins (`settings`: a decision about the merchant's money);
 * requireAction refuses anyone else's post. Audited; the settlement and its `order.resolved` event
 * are written in one transaction (lib/mispayments). A refund is the third choice once refunds exist.
 */
import { revalidatePath } from 'next/cache';
import { notFound, redirect } from 'next/navigation';
import { z } from 'zod';
import { requireAction } from '@/app/dashboard/session';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { decideMispayment } from '@/lib/mispayments';
import { postedForm } from '@/lib/security';
import { auditAction } from '@/app/dashboard/action-helpers';

const DECISION_FORM = z.object({ orderId: z.uuid(), decision: z.enum(['accept', 'leave']) });

export async function decideMispaidOrder(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('settings');
  const parsed = DECISION_FORM.safeParse({ orderId: form.get('orderId'), decision: form.get('decision') });
  if (!parsed.success) redirect('/dashboard/orders');
  const { orderId, decision } = parsed.data;
  const page = `/dashboard/orders/${orderId}`;
  const db = await getDatabase();
  try {
    await decideMispayment(
      db,
      { merchantId: session.merchantId, mode: session.mode, userId: session.userId },
      orderId,
      decision,
    );
  } catch (error) {
    if (isDomainErrorOf(error, 'NotFound')) notFound();
    // Decided meanwhile (the payer paid the rest, the rule, another user): the page shows how.
    if (isDomainErrorOf(error, 'NothingToDecide')) redirect(`${page}?decided=none`);
    throw error;
  }
  await auditAction(db, session, 'order.mispayment-decision', { orderId, decision, mode: session.mode });
  revalidatePath(page);
  redirect(`${page}?decided=${decision}`);
}
