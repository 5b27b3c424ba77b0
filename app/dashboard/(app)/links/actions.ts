'use server';
/**
 * The payment links pages' server actions. Each checks the session and the `links` permission
 * first (requireAction: a viewer posting one directly gets 403 and changes nothing), parses its
 * form with zod (through the API's own request schema: one rule for both), calls lib/links, and
 * writes an audit entry.
 */
import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import type { ActionState } from '@/app/dashboard/action-form';
import { requireAction } from '@/app/dashboard/session';
import { getDatabase } from '@/lib/db';
import { isDomainError } from '@/lib/errors';
import { createPaymentLink, disablePaymentLink } from '@/lib/links';
import { createPaymentLinkRequest } from '@/lib/protocol';
import { postedForm } from '@/lib/security';
import { auditAction, formText, formWhole } from '@/app/dashboard/action-helpers';

/** The coins field, "USDT@tron, BTC" -> make-invoice's `currencies`. */
function coins(value: string | undefined) {
  if (!value) return undefined;
  const byTicker = new Map<string, string[]>();
  for (const entry of value.split(/[\s,]+/).filter(Boolean)) {
    const [currency = '', network] = entry.split('@');
    const networks = byTicker.get(currency) ?? [];
    if (network) networks.push(network);
    byTicker.set(currency, networks);
  }
  return [...byTicker].map(([currency, networks]) => ({ currency, networks }));
}

export async function createLinkAction(_previous: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('links');
  const pricing = formText(form, 'pricing') === 'chosen' ? 'chosen' : 'fixed';
  const expires = formText(form, 'expiresAt');
  const parsed = createPaymentLinkRequest.safeParse({
    title: formText(form, 'title') ?? '',
    description: formText(form, 'description'),
    currency: formText(form, 'currency') ?? '',
    amount: pricing === 'fixed' ? formText(form, 'amount') : undefined,
    minAmount: pricing === 'chosen' ? formText(form, 'minAmount') : undefined,
    maxAmount: pricing === 'chosen' ? formText(form, 'maxAmount') : undefined,
    maxQuantity: pricing === 'fixed' ? formWhole(form, 'maxQuantity') : undefined,
    currencies: coins(formText(form, 'coins')),
    // A date from the form is the end of that day, UTC.
    expiresAt: expires && /^\d{4}-\d{2}-\d{2}$/.test(expires) ? `${expires}T23:59:59Z` : expires,
    maxUses: formWhole(form, 'maxUses'),
    returnUrl: formText(form, 'returnUrl'),
  });
  if (!parsed.success) {
    return { message: parsed.error.issues.map((i) => `${i.path.join('.') || 'form'} ${i.message}`).join('; ') };
  }
  const db = await getDatabase();
  let linkId: string;
  try {
    linkId = (await createPaymentLink(db, session, parsed.data)).id;
  } catch (error) {
    if (isDomainError(error)) return { message: error.message };
    throw error;
  }
  await auditAction(db, session, 'link.create', { linkId, mode: session.mode, title: parsed.data.title });
  revalidatePath('/dashboard/links');
  redirect(`/dashboard/links/${linkId}?notice=created`);
}

const DISABLE_FORM = z.object({ linkId: z.guid('Unknown link.') });

export async function disableLinkAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('links');
  const parsed = DISABLE_FORM.safeParse({ linkId: form.get('linkId') });
  if (!parsed.success) redirect('/dashboard/links');
  const db = await getDatabase();
  try {
    await disablePaymentLink(db, session, parsed.data.linkId);
  } catch (error) {
    if (isDomainError(error)) redirect('/dashboard/links');
    throw error;
  }
  await auditAction(db, session, 'link.disable', { linkId: parsed.data.linkId, mode: session.mode });
  redirect(`/dashboard/links/${parsed.data.linkId}?notice=disabled`);
}
