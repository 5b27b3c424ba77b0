import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { CARD, NOTICE } from '../form-styles';
import { currentSession, safeNext } from '../session';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in · Dashboard' };

const params = z.object({
  next: z.string().max(2048).optional().catch(undefined),
  notice: z.enum(['signed-out', 'password-set']).optional().catch(undefined),
});

const NOTICES = {
  'signed-out': 'You are signed out.',
  'password-set': 'Your password is set: sign in with it.',
};

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { next, notice } = params.parse(await searchParams);
  const target = safeNext(next);
  if (await currentSession()) redirect(target ?? '/dashboard');
  return (
    <main className={CARD}>
      <h1 className="text-xl font-semibold">Sign in to the dashboard</h1>
      {notice && (
        <p role="status" className={`mt-4 ${NOTICE}`}>
          {NOTICES[notice]}
        </p>
      )}
      <SignInForm next={target} />
      <p className="mt-4 text-sm">
        <Link href="/dashboard/forgot-password" className="underline">
          Forgot password?
        </Link>
      </p>
    </main>
  );
}
