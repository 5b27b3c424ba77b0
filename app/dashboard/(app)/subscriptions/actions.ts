'use server';
/**
 * The Subscriptions page's server actions. Each checks the session and the `links` permission
 * first (the one that makes invoices from the dashboard: a viewer posting one directly gets 403 and
 * changes nothing), parses its form through the API's own request schema, calls
 * lib/subscriptions, and writes an audit entry.
 */
import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import type { ActionState } from '@/app/dashboard/action-form';
import { requireAction } from '@/app/dashboard/session';
import { getDatabase } from '@/lib/db';
import { isDomainError } from '@/lib/errors';
import {
  createSubscriptionPlanRequest,
  createSubscriptionRequest,
  updateSubscriptionPlanRequest,
} from '@/lib/protocol';
import {
  cancelSubscription,
  createPlan,
  createSubscription,
  getSubscription,
  moveTestClock,
  runRenewals,
  updatePlan,
  withInvoiceQuotes,
} from '@/lib/subscriptions';
import { postedForm } from '@/lib/security';
import { auditAction, formText, formWhole } from '@/app/dashboard/action-helpers';

const PAGE = '/dashboard/subscriptions';

const problems = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.join('.') || 'form'} ${i.message}`).join('; ');

async function audit(action: string, detail: Record<string, unknown>) {
  const session = await requireAction('links');
  await auditAction(await getDatabase(), session, action, { ...detail, mode: session.mode });
}

export async function createPlanAction(_previous: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('links');
  const parsed = createSubscriptionPlanRequest.safeParse({
    name: formText(form, 'name') ?? '',
    currency: formText(form, 'currency') ?? '',
    amount: formText(form, 'amount') ?? '',
    interval: formText(form, 'interval') ?? '',
    intervalCount: formWhole(form, 'intervalCount'),
    trialDays: formWhole(form, 'trialDays'),
    reminderDays: formWhole(form, 'reminderDays'),
    graceDays: formWhole(form, 'graceDays'),
  });
  if (!parsed.success) return { message: problems(parsed.error) };
  let planId: string;
  try {
    planId = (await createPlan(await getDatabase(), session, parsed.data)).id;
  } catch (error) {
    if (isDomainError(error)) return { message: error.message };
    throw error;
  }
  await audit('subscription_plan.create', { planId, name: parsed.data.name });
  revalidatePath(PAGE);
  redirect(`${PAGE}?notice=plan`);
}

export async function createSubscriptionAction(_previous: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('links');
  const parsed = createSubscriptionRequest.safeParse({
    planId: formText(form, 'planId') ?? '',
    email: formText(form, 'email') ?? '',
    customerId: formText(form, 'customerId'),
    language: formText(form, 'language'),
  });
  if (!parsed.success) return { message: problems(parsed.error) };
  const db = await getDatabase();
  let subscriptionId: string;
  try {
    const made = await withInvoiceQuotes((quotes) =>
      db.transaction((tx) => createSubscription(tx, session, parsed.data, quotes)),
    );
    subscriptionId = made.id;
  } catch (error) {
    if (isDomainError(error)) return { message: error.message };
    throw error;
  }
  await audit('subscription.create', { subscriptionId, planId: parsed.data.planId });
  revalidatePath(PAGE);
  redirect(`${PAGE}?notice=subscriber`);
}

/**
 * Renames a plan, retires it (no new subscribers; its subscribers keep their terms and renewals)
 * or opens it again (docs/decisions/079). The form names the plan and what changes.
 */
export async function updatePlanAction(_previous: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('links');
  const active = formText(form, 'active');
  const parsed = updateSubscriptionPlanRequest.safeParse({
    id: formText(form, 'planId') ?? '',
    name: formText(form, 'name'),
    active: active === 'true' ? true : active === 'false' ? false : active,
  });
  if (!parsed.success) return { message: problems(parsed.error) };
  const { id, ...change } = parsed.data;
  try {
    await updatePlan(await getDatabase(), session, { id, ...change });
  } catch (error) {
    if (isDomainError(error)) return { message: error.message };
    throw error;
  }
  await audit('subscription_plan.update', { planId: id, ...change });
  revalidatePath(PAGE);
  redirect(`${PAGE}?notice=${change.active === false ? 'retired' : 'plan-updated'}`);
}

const CANCEL_FORM = z.object({ subscriptionId: z.guid('Unknown subscription.') });

/** Cancels a subscriber (`cancelReason: merchant`): mailed, no more invoices; paying again reactivates it. */
export async function cancelSubscriptionAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('links');
  const parsed = CANCEL_FORM.safeParse({ subscriptionId: form.get('subscriptionId') });
  if (!parsed.success) redirect(PAGE);
  const id = parsed.data.subscriptionId;
  const db = await getDatabase();
  try {
    // getSubscription first: another merchant's or mode's subscription is not found, and left alone.
    await db.transaction(async (tx) => cancelSubscription(tx, (await getSubscription(tx, session, id)).id, 'merchant'));
  } catch (error) {
    if (isDomainError(error)) redirect(PAGE);
    throw error;
  }
  await audit('subscription.cancel', { subscriptionId: id });
  revalidatePath(PAGE);
  redirect(`${PAGE}?notice=canceled`);
}

const CLOCK_FORM = z.object({ days: z.coerce.number().int().min(1).max(366) });

/** Moves the test clock (test mode only) and runs the renewals it makes due. */
export async function advanceClockAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('links');
  const parsed = CLOCK_FORM.safeParse({ days: form.get('days') });
  if (!parsed.success || session.mode !== 'test') redirect(PAGE);
  const db = await getDatabase();
  await moveTestClock(db, session.merchantId, session.mode, parsed.data.days * 86_400_000);
  await runRenewals(db, { scope: session, wait: true });
  await audit('subscription.test_clock', { days: parsed.data.days });
  revalidatePath(PAGE);
  redirect(`${PAGE}?notice=clock`);
}
