'use server';
/**
 * The settings page's server actions: the brand, the explorer links, the payer mail, the late-payment rule, the threshold for excess
 * claims (`settings` permission) and
 * the two-factor requirement and the refund approval threshold (`team`: owners only). Each checks the session first, parses its form
 * with zod, changes nothing on a bad value (the message says why), and writes an audit entry.
 */
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { requireAction } from '@/app/dashboard/session';
import { getDatabase } from '@/lib/db';
import {
  BRAND_COLOR_FIELD,
  EXPLORER_URLS,
  LOGO_UPLOAD,
  merchantSettings,
  NETWORK_NAMES,
  setRequireTwoFactor,
  updateBrand,
  LATE_PAYMENT_RULE,
  updateExplorers,
  updateLatePaymentRule,
  updateMailSettings,
} from '@/lib/merchants';
import { MAIL_SETTINGS } from '@/lib/mail';
import type { ActionState } from '@/app/dashboard/action-form';
import { isDomainError } from '@/lib/errors';
import { updatePosSettings } from '@/lib/links';
import { postedForm } from '@/lib/security';
import { REFUND_APPROVAL_FORM, setRefundApprovalRule } from '@/lib/refunds';
import { EXCESS_CLAIM_FORM, setExcessClaimRule } from '@/lib/mispayments';
import { auditAction } from '@/app/dashboard/action-helpers';

/** A refusal: every reason zod found, in one message; nothing was saved. */
const failed = (error: z.ZodError): ActionState => ({ message: error.issues.map((issue) => issue.message).join(' ') });

const BRAND_FORM = z.object({
  color: BRAND_COLOR_FIELD,
  removeLogo: z.literal('on').optional(),
});

export async function saveBrand(_previous: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('settings');
  const fields = BRAND_FORM.safeParse({
    color: String(form.get('color') ?? ''),
    removeLogo: form.get('removeLogo') ?? undefined,
  });
  if (!fields.success) return failed(fields.error);
  const file = form.get('logo');
  let logo: string | null | undefined;
  if (fields.data.removeLogo) logo = null;
  else if (file instanceof File && file.size > 0) {
    const parsed = LOGO_UPLOAD.safeParse(new Uint8Array(await file.arrayBuffer()));
    if (!parsed.success) return failed(parsed.error);
    logo = parsed.data;
  }
  const changed = await updateBrand(await getDatabase(), session.merchantId, { logo, color: fields.data.color });
  await auditAction(await getDatabase(), session, 'settings.brand', changed);
  revalidatePath('/dashboard/settings');
  return { notice: 'Brand saved: the payment and invoice pages show it from now on.' };
}

export async function saveExplorers(_previous: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('settings');
  const parsed = EXPLORER_URLS.safeParse(
    Object.fromEntries(NETWORK_NAMES.map((network) => [network, String(form.get(`explorer.${network}`) ?? '')])),
  );
  if (!parsed.success) {
    return { message: parsed.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`).join(' ') };
  }
  const db = await getDatabase();
  const before = (await merchantSettings(db, session.merchantId))?.explorerUrls ?? {};
  const after = await updateExplorers(db, session.merchantId, parsed.data);
  const changed = NETWORK_NAMES.filter((network) => before[network] !== after[network]);
  if (changed.length > 0)
    await auditAction(await getDatabase(), session, 'settings.explorers', {
      networks: Object.fromEntries(changed.map((n) => [n, after[n] ?? null])),
    });
  revalidatePath('/dashboard/settings');
  return { notice: changed.length > 0 ? 'Explorer links saved.' : 'Nothing changed.' };
}

export async function saveMailSettings(_previous: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('settings');
  const parsed = MAIL_SETTINGS.safeParse({
    senderName: String(form.get('senderName') ?? ''),
    replyTo: String(form.get('replyTo') ?? '').trim(),
    on: form.getAll('on').map(String),
    dailySummary: form.get('dailySummary') ?? undefined,
  });
  if (!parsed.success) return failed(parsed.error);
  await updateMailSettings(await getDatabase(), session.merchantId, parsed.data);
  await auditAction(await getDatabase(), session, 'settings.mail', parsed.data);
  revalidatePath('/dashboard/settings');
  return { notice: 'Mail settings saved.' };
}

/** The late-payment rule (docs/decisions/069): minutes after the deadline and the price move below which a late payment settles its order. */
export async function saveLatePaymentRule(_previous: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('settings');
  const parsed = LATE_PAYMENT_RULE.safeParse({
    minutes: String(form.get('minutes') ?? ''),
    rateMovePercent: String(form.get('rateMovePercent') ?? ''),
  });
  if (!parsed.success) return failed(parsed.error);
  await updateLatePaymentRule(await getDatabase(), session.merchantId, parsed.data);
  await auditAction(await getDatabase(), session, 'settings.late-payments', parsed.data);
  revalidatePath('/dashboard/settings');
  return {
    notice:
      parsed.data.minutes === 0
        ? 'Late payments now wait for your decision on the order page.'
        : `A late payment within ${parsed.data.minutes} minutes, while the price moved less than ${parsed.data.rateMovePercent} %, now settles its order by itself.`,
  };
}

/** The least excess a payer may claim of an overpaid order (docs/decisions/091), in percent of its amount; empty: the 1 % minimum. */
export async function saveExcessClaimRule(_previous: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('settings');
  const parsed = EXCESS_CLAIM_FORM.safeParse({ percent: String(form.get('percent') ?? '') });
  if (!parsed.success) return failed(parsed.error);
  await setExcessClaimRule(await getDatabase(), session.merchantId, parsed.data.percent);
  await auditAction(await getDatabase(), session, 'settings.excess-claims', parsed.data);
  revalidatePath('/dashboard/settings');
  return {
    notice:
      parsed.data.percent === null
        ? 'Payers may claim an excess of at least 1 % of the amount (the minimum).'
        : `Payers may claim an excess of at least ${parsed.data.percent} % of the amount.`,
  };
}

/**
 * The refund approval threshold (docs/decisions/082): owners only (`team`), since an admin who could
 * raise it could approve their own refunds by making the rule let them through.
 */
export async function saveRefundApproval(_previous: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('team');
  const parsed = REFUND_APPROVAL_FORM.safeParse({
    above: String(form.get('above') ?? ''),
    currency: String(form.get('currency') ?? ''),
  });
  if (!parsed.success) return failed(parsed.error);
  await setRefundApprovalRule(await getDatabase(), session.merchantId, parsed.data);
  await auditAction(await getDatabase(), session, 'settings.refund-approval', parsed.data);
  revalidatePath('/dashboard/settings');
  return {
    notice:
      parsed.data.above === null
        ? 'Refunds no longer need a second person.'
        : `Refunds worth more than ${parsed.data.above} ${parsed.data.currency} now need a second person's approval.`,
  };
}

const TWO_FACTOR_FORM = z.object({ requireTwoFactor: z.literal('on').optional() });

export async function saveTwoFactorRequirement(_previous: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('team');
  const parsed = TWO_FACTOR_FORM.safeParse({ requireTwoFactor: form.get('requireTwoFactor') ?? undefined });
  if (!parsed.success) return failed(parsed.error);
  const required = parsed.data.requireTwoFactor === 'on';
  await setRequireTwoFactor(await getDatabase(), session.merchantId, required);
  await auditAction(await getDatabase(), session, 'settings.require-two-factor', { required });
  revalidatePath('/dashboard/settings');
  return {
    notice: required
      ? 'Owners must now sign in with a second factor; an owner without one is asked to set it up.'
      : 'Two-factor is no longer required for owners.',
  };
}

const POS_FORM = z.object({
  currency: z.string().trim().min(1, 'Enter a currency.').max(16),
  tips: z
    .string()
    .max(40)
    .regex(/^[\d\s,%]*$/, 'Tips are whole percents, such as "10, 15, 20".')
    .transform((value) =>
      value
        .split(/[\s,%]+/)
        .filter(Boolean)
        .map(Number),
    ),
});

/** The point of sale's currency and tips (owners and admins; audited). */
export async function savePointOfSale(_previous: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('settings');
  const fields = POS_FORM.safeParse({ currency: form.get('currency') ?? '', tips: form.get('tips') ?? '' });
  if (!fields.success) return failed(fields.error);
  let saved;
  try {
    saved = await updatePosSettings(await getDatabase(), session.merchantId, fields.data);
  } catch (error) {
    if (isDomainError(error)) return { message: error.message };
    throw error;
  }
  await auditAction(await getDatabase(), session, 'settings.pos', saved);
  revalidatePath('/dashboard/settings');
  return { notice: 'Point of sale saved.' };
}
