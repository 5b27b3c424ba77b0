'use server';
/**
 * The order page's refunds (docs/refunds.md): make one in the order's coin, cancel one, reopen
 * its claim, approve one above the owner's threshold (a second person: docs/decisions/082). Each action checks the session and the `refunds` permission itself, every call,
 * parses its input with zod, calls lib/refunds, and writes the audit log. A refusal comes back to
 * the page as `?refund=<reason>`; a claim link to share is handed to the page in a short-lived
 * cookie for this order's page only, never in a URL (it is the payer's bearer secret).
 */
import { cookies } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase, isDatabaseBusy, type Database } from '@/lib/db';
import { isDomainError } from '@/lib/errors';
import {
  approveRefund,
  cancelRefund,
  makeRefund,
  planRefund,
  priceRefund,
  refundablePayment,
  reopenRefund,
  type MadeRefund,
} from '@/lib/refunds';
import { postedForm } from '@/lib/security';
import { requireAction } from '../../../session';
import { PLAN_REFUSAL_COOKIE, PLAN_REFUSAL_COOKIE_OPTIONS } from '../../funds/plan-cookie';
import { handOverClaimLink } from './refund-cookie';
import { auditAction } from '@/app/dashboard/action-helpers';

const makeForm = z.object({
  orderId: z.uuid(),
  amount: z
    .string()
    .trim()
    .regex(/^(0|[1-9]\d{0,76})(\.\d{1,36})?$/),
});
const refundForm = z.object({ orderId: z.uuid(), refundId: z.uuid() });

/** What the page says for each refusal of lib/refunds; anything else is not the user's doing. */
const REFUSALS: Partial<Record<string, string>> = {
  NotRefundable: 'refused',
  RefundExceedsReceived: 'exceeds',
  RefundStateConflict: 'state',
  NotFound: 'unknown',
  CollectionRefused: 'plan',
};

async function refusedOr<T>(page: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const refusal = isDomainError(error) ? REFUSALS[error.kind] : isDatabaseBusy(error) ? 'busy' : undefined;
    if (!refusal) throw error;
    // A plan refused says why in lib/payouts' words (no treasury, no fee estimate), kept out of the URL.
    if (refusal === 'plan')
      (await cookies()).set(PLAN_REFUSAL_COOKIE, (error as Error).message, {
        ...PLAN_REFUSAL_COOKIE_OPTIONS,
        path: page,
      });
    redirect(`${page}?refund=${refusal}`);
  }
}

async function handOver(page: string, made: MadeRefund): Promise<void> {
  await handOverClaimLink(page, made.claimUrl);
}

/** "Refund" on an order: an amount in the order's coin, in full or in part. */
export async function makeRefundAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('refunds');
  const parsed = makeForm.safeParse({ orderId: form.get('orderId'), amount: form.get('amount') });
  if (!parsed.success) {
    const orderId = z.uuid().safeParse(form.get('orderId'));
    redirect(orderId.success ? `/dashboard/orders/${orderId.data}?refund=invalid` : '/dashboard/orders');
  }
  const { orderId, amount } = parsed.data;
  const page = `/dashboard/orders/${orderId}`;
  const db = await getDatabase();
  const scope = { merchantId: session.merchantId, mode: session.mode };
  const made = await refusedOr(page, async () => {
    const target = { kind: 'order' as const, id: orderId };
    const priced = await priceRefund(db, session.mode, await refundablePayment(db, scope, target), { amount });
    return makeRefund(db, scope, { target, ...priced, createdBy: `user:${session.userId}`, now: new Date() });
  });
  await auditAction(db, session, 'refund.create', {
    refundId: made.refund.id,
    orderId,
    amount: made.refund.amount,
    currency: made.refund.currency,
    mode: session.mode,
  });
  await handOver(page, made);
  revalidatePath(page);
  redirect(`${page}?refund=made`);
}

type RefundScope = { merchantId: string; mode: 'live' | 'test' };

/**
 * One refund of the order page changed (cancel, reopen, approve): the form read, the session's
 * refunds permission checked, the change made (a refusal said on the page) and audited as `action`.
 * Answers the page and what the change answered.
 */
async function changeRefund<T>(
  posted: FormData,
  action: string,
  change: (db: Database, scope: RefundScope, refundId: string, userId: string) => Promise<T>,
): Promise<{ page: string; result: T }> {
  const form = postedForm(posted);
  const session = await requireAction('refunds');
  const parsed = refundForm.safeParse({ orderId: form.get('orderId'), refundId: form.get('refundId') });
  if (!parsed.success) redirect('/dashboard/orders');
  const page = `/dashboard/orders/${parsed.data.orderId}`;
  const db = await getDatabase();
  const scope = { merchantId: session.merchantId, mode: session.mode };
  const result = await refusedOr(page, () => change(db, scope, parsed.data.refundId, session.userId));
  await auditAction(db, session, action, { refundId: parsed.data.refundId, mode: session.mode });
  return { page, result };
}

/** "Cancel" on a refund not sent yet: its amount is refundable again. */
export async function cancelRefundAction(posted: FormData): Promise<void> {
  const { page } = await changeRefund(posted, 'refund.cancel', (db, scope, refundId) =>
    cancelRefund(db, scope, refundId, new Date()),
  );
  revalidatePath(page);
  redirect(`${page}?refund=canceled`);
}

/** "Reopen claim": the payer's address is forgotten, the old link dies, a new one is mailed or shown. */
export async function reopenRefundAction(posted: FormData): Promise<void> {
  const { page, result: made } = await changeRefund(posted, 'refund.reopen', (db, scope, refundId) =>
    reopenRefund(db, scope, refundId, new Date()),
  );
  await handOver(page, made);
  revalidatePath(page);
  redirect(`${page}?refund=reopened`);
}

/**
 * "Prepare plan" on a ready refund (docs/decisions/081): the plan that pays it from the merchant's
 * deposits, the change to the treasury, shown on its own page to download and sign. The network
 * fee is taken from the change unless "take the fee from the refund" is ticked.
 */
export async function planRefundAction(posted: FormData): Promise<void> {
  const feeFromRefund = postedForm(posted).get('feeFromRefund') === 'on';
  const { result: plan } = await changeRefund(posted, 'refund.plan', (db, scope, refundId) =>
    planRefund(db, scope, refundId, { feeFromRefund }),
  );
  redirect(`/dashboard/funds/plans/${plan.planId}?notice=prepared`);
}

/** "Approve" on a refund above the owner's threshold: by someone with the refunds permission who did not make it. */
export async function approveRefundAction(posted: FormData): Promise<void> {
  const { page } = await changeRefund(posted, 'refund.approve', (db, scope, refundId, userId) =>
    approveRefund(db, scope, refundId, userId, new Date()),
  );
  revalidatePath(page);
  redirect(`${page}?refund=approved`);
}
