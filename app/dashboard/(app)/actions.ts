'use server';
/**
 * The frame's and the data pages' server actions. Each checks the session and the role itself,
 * every call (requireAction), parses its input with zod, and calls one lib function. A bad input
 * changes nothing.
 */
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { resendDelivery } from '@/lib/dashboard';
import { setSessionMode } from '@/lib/users';
import { requireAction, safeNext } from '../session';
import { MODE_VALUES } from '@/lib/protocol';
import { postedForm } from '@/lib/security';
import { auditAction } from '@/app/dashboard/action-helpers';

const modeForm = z.object({ mode: z.enum(MODE_VALUES) });

/** The test/live switch: kept in the session row, so that every page and export reads the same mode. */
export async function switchMode(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('view');
  const parsed = modeForm.safeParse({ mode: form.get('mode') });
  if (!parsed.success) return;
  await setSessionMode(await getDatabase(), session, parsed.data.mode);
  // Every screen shows the mode's data: none may be served from the other mode's render.
  revalidatePath('/dashboard', 'layout');
}

const resendForm = z.object({
  eventId: z.uuid(),
  /** Where to come back to: a dashboard path only, never another site. */
  back: z
    .string()
    .refine((value) => safeNext(value) !== undefined, 'not a dashboard path')
    .optional(),
});

/**
 * "Resend" of a webhook event (order detail and webhooks pages). Viewers never see the button, and
 * requireAction refuses their direct post (403). The event must be this merchant's and mode's
 * (resendDelivery answers false otherwise): the answer is then the same "not found" as for an id
 * that does not exist.
 */
export async function resendWebhook(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('resend');
  const parsed = resendForm.safeParse({ eventId: form.get('eventId'), back: form.get('back') ?? undefined });
  const back = parsed.success && parsed.data.back ? parsed.data.back : '/dashboard/webhooks';
  const withResult = (result: string) => `${back}${back.includes('?') ? '&' : '?'}resent=${result}`;
  if (!parsed.success) redirect(withResult('invalid'));
  const { eventId } = parsed.data;
  const db = await getDatabase();
  const scope = { merchantId: session.merchantId, mode: session.mode };
  const done = await resendDelivery(db, scope, eventId);
  if (done) {
    await auditAction(db, session, 'webhook.resend', { eventId, mode: session.mode });
  }
  revalidatePath(back.split('?')[0]!);
  redirect(withResult(done ? 'ok' : 'unknown'));
}
