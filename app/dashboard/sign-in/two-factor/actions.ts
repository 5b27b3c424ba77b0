'use server';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { completeSecondFactor, SESSION_COOKIE } from '@/lib/users';
import type { ActionState } from '../../action-form';
import { keepSignIn, safeNext, signingInClient } from '../../session';
import { postedForm } from '@/lib/security';

const codeForm = z.object({ code: z.string().trim().min(1).max(32), next: z.string().max(2048).optional() });

/** The code step: a right TOTP or recovery code turns the pending session into a signed-in one (a new token). */
export async function secondFactorAction(_state: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const parsed = codeForm.safeParse({ code: form.get('code'), next: form.get('next') ?? undefined });
  if (!parsed.success) return { message: 'Type the 6-digit code your app shows, or a recovery code.' };
  const token = (await cookies()).get(SESSION_COOKIE)?.value ?? '';
  const result = await completeSecondFactor(await getDatabase(), token, parsed.data.code, await signingInClient());
  if (result.kind === 'refused') return { message: result.message };
  await keepSignIn(result);
  redirect(safeNext(parsed.data.next) ?? '/dashboard');
}
