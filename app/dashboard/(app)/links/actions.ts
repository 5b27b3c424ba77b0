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
import { clientAddress, requireAction } from '@/app/dashboard/session';
import { getDatabase } from '@/lib/db';
import { isDomainError } from '@/lib/errors';
import { createPaymentLink, disablePaymentLink } from '@/lib/links';
import { createPaymentLinkRequest } from '@/lib/protocol';
import { recordAudit } from '@/lib/users';
import { postedForm } from '@/lib/security';

/** A form's text field: absent and empty are the same (not given). */
function field(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function whole(form: FormData, name: string): number | string | undefined {
  const value = field(form, name);
  return value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : value;
}

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
  const pricing = field(form, 'pricing') === 'chosen' ? 'chosen' : 'fixed';
  const expires = field(form, 'expiresAt');
  const parsed = createPaymentLinkRequest.safeParse({
    title: field(form, 'title') ?? '',
    description: field(form, 'description'),
    currency: field(form, 'currency') ?? '',
    amount: pricing === 'fixed' ? field(form, 'amount') : undefined,
    minAmount: pricing === 'chosen' ? field(form, 'minAmount') : undefined,
    maxAmount: pricing === 'chosen' ? field(form, 'maxAmount') : undefined,
    maxQuantity: pricing === 'fixed' ? whole(form, 'maxQuantity') : undefined,
    currencies: coins(field(form, 'coins')),
    // A date from the form is the end of that day, UTC.
    expiresAt: expires && /^\d{4}-\d{2}-\d{2}$/.test(expires) ? `${expires}T23:59:59Z` : expires,
    maxUses: whole(form, 'maxUses'),
    returnUrl: field(form, 'returnUrl'),
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
  await recordAudit(db, {
    merchantId: session.merchantId,
    userId: session.userId,
    actor: session.email,
    action: 'link.create',
    detail: { linkId, mode: session.mode, title: parsed.data.title },
    ip: await clientAddress(),
  });
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
  await recordAudit(db, {
    merchantId: session.merchantId,
    userId: session.userId,
    actor: session.email,
    action: 'link.disable',
    detail: { linkId: parsed.data.linkId, mode: session.mode },
    ip: await clientAddress(),
  });
  redirect(`/dashboard/links/${parsed.data.linkId}?notice=disabled`);
}
