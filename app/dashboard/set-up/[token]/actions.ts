'use server';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { isDomainErrorOf } from '@/lib/errors';
import { getDatabase } from '@/lib/db';
import { completeSetUp, PASSWORD_MAX_LENGTH } from '@/lib/users';
import { keepSignIn, signingInClient } from '../../session';
import { postedForm } from '@/lib/security';

export interface FormState {
  message?: string;
}

const setUpForm = z.object({
  token: z.string().min(1).max(100),
  password: z.string().max(PASSWORD_MAX_LENGTH, `The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`),
  confirm: z.string().max(PASSWORD_MAX_LENGTH * 4),
});

/** Chooses the password of a one-time link (first owner, invite, reset) and signs the user in. */
export async function setUpAction(_state: FormState, posted: FormData): Promise<FormState> {
  const form = postedForm(posted);
  const parsed = setUpForm.safeParse({
    token: form.get('token'),
    password: form.get('password'),
    confirm: form.get('confirm'),
  });
  if (!parsed.success) return { message: parsed.error.issues[0]?.message ?? 'Choose a password.' };
  if (parsed.data.password !== parsed.data.confirm) return { message: 'The two passwords differ.' };
  let signedIn: Awaited<ReturnType<typeof completeSetUp>>;
  try {
    signedIn = await completeSetUp(
      await getDatabase(),
      parsed.data.token,
      parsed.data.password,
      await signingInClient(),
    );
  } catch (error) {
    if (isDomainErrorOf(error, 'AccountError')) return { message: error.message };
    throw error;
  }
  if (!signedIn) redirect('/dashboard/sign-in?notice=password-set');
  await keepSignIn(signedIn);
  redirect('/dashboard');
}
