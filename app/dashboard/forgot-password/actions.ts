'use server';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { requestPasswordReset } from '@/lib/users';
import { signingInClient } from '../session';
import { postedForm } from '@/lib/security';

const forgotForm = z.object({ email: z.email().max(254) });

/**
 * "Forgot password?": one answer for every address (docs/decisions/065), a redirect to the same
 * page, so the form works without JavaScript and a reload sends nothing twice.
 */
export async function forgotPasswordAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const parsed = forgotForm.safeParse({
    email: String(form.get('email') ?? '')
      .trim()
      .toLowerCase(),
  });
  if (!parsed.success) redirect('/dashboard/forgot-password?problem=address');
  await requestPasswordReset(await getDatabase(), parsed.data.email, await signingInClient());
  redirect('/dashboard/forgot-password?sent=1');
}
