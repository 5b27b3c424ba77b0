'use server';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { PASSWORD_MAX_LENGTH, sessionCookie, signIn, WRONG_CREDENTIALS } from '@/lib/users';
import { keepSignIn, safeNext, signingInClient } from '../session';
import { postedForm } from '@/lib/security';

export interface FormState {
  message?: string;
  /** The account's budget for unknown devices is spent: the form offers a two-factor code field. */
  askCode?: boolean;
}

const signInForm = z.object({
  email: z.string().trim().min(1).max(254),
  // Longer than any allowed password: refused as wrong without hashing megabytes.
  password: z
    .string()
    .min(1)
    .max(PASSWORD_MAX_LENGTH * 4),
  // Offered while the account's budget is spent; empty when left blank.
  code: z
    .string()
    .trim()
    .max(32)
    .optional()
    .transform((code) => code || undefined),
  next: z.string().max(2048).optional(),
});

/** The sign-in form: a right password opens a session (a new token) or, with two-factor, its code step. */
export async function signInAction(_state: FormState, posted: FormData): Promise<FormState> {
  const form = postedForm(posted);
  const parsed = signInForm.safeParse({
    email: form.get('email'),
    password: form.get('password'),
    code: form.get('code') ?? undefined,
    next: form.get('next') ?? undefined,
  });
  if (!parsed.success) return { message: 'Enter your e-mail address and password.' };
  const db = await getDatabase();
  const result = await signIn(db, parsed.data, await signingInClient());
  if (result.kind === 'refused') return { message: result.message || WRONG_CREDENTIALS, askCode: result.askCode };
  const next = safeNext(parsed.data.next);
  if (result.kind === 'second-factor') {
    (await cookies()).set(sessionCookie(result.session));
    redirect(next ? `/dashboard/sign-in/two-factor?next=${encodeURIComponent(next)}` : '/dashboard/sign-in/two-factor');
  }
  await keepSignIn(result);
  redirect(next ?? '/dashboard');
}
