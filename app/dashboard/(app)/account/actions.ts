'use server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { changePassword, confirmEnrolment, disableTwoFactor, PASSWORD_MAX_LENGTH } from '@/lib/users';
import type { ActionState } from '../../action-form';
import { clientAddress, requireAction } from '../../session';
import { postedForm } from '@/lib/security';
import { accountRefusal, auditAction } from '@/app/dashboard/action-helpers';

const code = z.object({ code: z.string().trim().min(1, 'Type the code your app shows.').max(32) });

/** Confirms two-factor with a first code; answers the recovery codes, shown once. */
export async function enableTwoFactorAction(_state: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('view', { enrolment: true });
  const parsed = code.safeParse({ code: form.get('code') });
  if (!parsed.success) return { message: parsed.error.issues[0]!.message };
  return accountRefusal(async () => {
    const codes = await confirmEnrolment(await getDatabase(), session.userId, parsed.data.code, {
      ip: await clientAddress(),
    });
    // No revalidation here: the page would drop this form, and the codes with it, before they were read.
    return {
      notice:
        'Two-factor is on. From now on, signing in asks for a code. Reload the page once you have kept the recovery codes.',
      once: {
        title:
          'Recovery codes: each signs in once without your phone. Keep them somewhere safe; they are shown only now.',
        lines: codes,
      },
    };
  });
}

export async function disableTwoFactorAction(_state: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('view');
  const parsed = code.safeParse({ code: form.get('code') });
  if (!parsed.success) return { message: parsed.error.issues[0]!.message };
  return accountRefusal(async () => {
    await disableTwoFactor(await getDatabase(), session.userId, parsed.data.code, { ip: await clientAddress() });
    revalidatePath('/dashboard/account');
    return { notice: 'Two-factor is off.' };
  });
}

const passwordForm = z.object({
  current: z
    .string()
    .min(1, 'Type your current password.')
    .max(PASSWORD_MAX_LENGTH * 4),
  password: z.string().max(PASSWORD_MAX_LENGTH, `The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`),
  confirm: z.string().max(PASSWORD_MAX_LENGTH * 4),
});

/** A new password; the user's other sessions end. */
export async function changePasswordAction(_state: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('view', { enrolment: true });
  const parsed = passwordForm.safeParse({
    current: form.get('current'),
    password: form.get('password'),
    confirm: form.get('confirm'),
  });
  if (!parsed.success) return { message: parsed.error.issues[0]!.message };
  if (parsed.data.password !== parsed.data.confirm) return { message: 'The two new passwords differ.' };
  return accountRefusal(async () => {
    const db = await getDatabase();
    await changePassword(db, session, parsed.data.current, parsed.data.password);
    await auditAction(db, session, 'user.password-change');
    return { notice: 'Your password is changed; your other sessions are signed out.' };
  });
}
