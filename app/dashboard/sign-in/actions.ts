'use server';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { PASSWORD_MAX_LENGTH, sessionCookie, signIn, WRONG_CREDENTIALS } from '@/lib/users';
import { clientAddress, clientAgent, safeNext } from '../session';

export interface FormState {
  message?: string;
}

const signInForm = z.object({
  email: z.string().trim().min(1).max(254),
  // Longer than any allowed password: refused as wrong without hashing megabytes.
  password: z
    .string()
    .min(1)
    .max(PASSWORD_MAX_LENGTH * 4),
  next: z.string().max(2048).optional(),
});

/** The sign-in form: a right password opens a session (a new token) or, with two-factor, its code step. */
export async function signInAction(_state: FormState, form: FormData): Promise<FormState> {
  const parsed = signInForm.safeParse({
    email: form.get('email'),
    password: form.get('password'),
    next: form.get('next') ?? undefined,
  });
  if (!parsed.success) return { message: 'Enter your e-mail address and password.' };
  const db = await getDatabase();
  const result = await signIn(db, parsed.data, { ip: await clientAddress(), userAgent: await clientAgent() });
  if (result.kind === 'refused') return { message: result.message || WRONG_CREDENTIALS };
  (await cookies()).set(sessionCookie(result.session));
  const next = safeNext(parsed.data.next);
  if (result.kind === 'second-factor')
    redirect(next ? `/dashboard/sign-in/two-factor?next=${encodeURIComponent(next)}` : '/dashboard/sign-in/two-factor');
  redirect(next ?? '/dashboard');
}
