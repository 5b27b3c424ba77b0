'use server';
/**
 * The merchant's decision on a mispaid order (docs/decisions/069, 091): accept what arrived as
 * settling it, leave it as it is (owners and admins: `settings`, a decision about the merchant's
 * money), or refund what arrived (`refunds`, the permission of every refund). requireAction refuses
 * anyone else's post, every time. Audited; the settlement, its `order.resolved` event and the
 * refunds are written in one transaction (lib/mispayments), or nothing when the order no longer
 * waits (settled meanwhile, or a refund of it under way).
 */
import { revalidatePath } from 'next/cache';
import { notFound, redirect } from 'next/navigation';
import { z } from 'zod';
import { requireAction } from '@/app/dashboard/session';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { decideMispayment, type DecidedMispayment, type MerchantDecision } from '@/lib/mispayments';
import { postedForm } from '@/lib/security';
import type { DashboardSession } from '@/lib/users';
import { auditAction } from '@/app/dashboard/action-helpers';
import { handOverClaimLinks } from './refund-cookie';

const DECISION_FORM = z.object({ orderId: z.uuid(), decision: z.enum(['accept', 'leave']) });
const REFUND_FORM = z.object({ orderId: z.uuid() });

/**
 * Records `decision` on the session's order and audits it; a refusal goes back to the page as
 * `?decided=none` (settled meanwhile: the payer paid the rest, the rule, another user) or
 * `?decided=refunding` (what arrived is being refunded). Answers what was recorded.
 */
async function decide(
  session: DashboardSession,
  orderId: string,
  decision: MerchantDecision,
): Promise<{ page: string; decided: DecidedMispayment }> {
  const page = `/dashboard/orders/${orderId}`;
  const db = await getDatabase();
  let decided: DecidedMispayment;
  try {
    decided = await decideMispayment(
      db,
      { merchantId: session.merchantId, mode: session.mode, userId: session.userId },
      orderId,
      decision,
    );
  } catch (error) {
    if (isDomainErrorOf(error, 'NotFound')) notFound();
    if (isDomainErrorOf(error, 'NothingToDecide')) redirect(`${page}?decided=none`);
    if (isDomainErrorOf(error, 'PaymentBeingRefunded')) redirect(`${page}?decided=refunding`);
    throw error;
  }
  await auditAction(db, session, 'order.mispayment-decision', {
    orderId,
    decision,
    mode: session.mode,
    ...(decided.refunds.length > 0 ? { refundIds: decided.refunds.map((made) => made.refund.id) } : {}),
  });
  revalidatePath(page);
  return { page, decided };
}

/** "Accept what arrived" / "Leave as it is". */
export async function decideMispaidOrder(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('settings');
  const parsed = DECISION_FORM.safeParse({ orderId: form.get('orderId'), decision: form.get('decision') });
  if (!parsed.success) redirect('/dashboard/orders');
  const { page } = await decide(session, parsed.data.orderId, parsed.data.decision);
  redirect(`${page}?decided=${parsed.data.decision}`);
}

/**
 * "Refund what arrived": one refund per payment (the order's and each late payment), the network fee
 * deducted, each claim link mailed to the payer when the order has their address. Each link is
 * handed to the page to share, shown once beside its refund, as the Refunds section's own refund
 * does (docs/decisions/102).
 */
export async function refundMispaidOrder(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('refunds');
  const parsed = REFUND_FORM.safeParse({ orderId: form.get('orderId') });
  if (!parsed.success) redirect('/dashboard/orders');
  const { page, decided } = await decide(session, parsed.data.orderId, 'refund');
  await handOverClaimLinks(page, decided.refunds);
  redirect(`${page}?decided=${decided.refunds.length > 1 ? 'refunds' : 'refund'}`);
}
