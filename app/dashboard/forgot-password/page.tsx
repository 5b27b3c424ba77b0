import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { ALERT, CARD, NOTICE } from '../form-styles';
import { forgotPasswordAction } from './actions';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

export const metadata: Metadata = { title: 'Forgot password · Dashboard' };

const params = z.object({
  sent: z.literal('1').optional().catch(undefined),
  problem: z.literal('address').optional().catch(undefined),
});

/** The same answer for every address, known or not: the page does not tell which have accounts. */
export const SENT =
  'If an account exists for that address, we sent a link to choose a new password. It works once, for an hour.';

export default async function ForgotPasswordPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { sent, problem } = params.parse(await searchParams);
  return (
    <main className={CARD}>
      <h1 className="text-xl font-semibold">Forgot your password?</h1>
      {sent && (
        <p role="status" className={`mt-4 ${NOTICE}`} data-testid="forgot-sent">
          {SENT}
        </p>
      )}
      {problem && (
        <p role="alert" className={`mt-4 ${ALERT}`}>
          Enter an e-mail address such as owner@shop.example.
        </p>
      )}
      <form action={forgotPasswordAction} className="mt-6 space-y-4">
        <Field label="E-mail address">
          <Input id="email" name="email" type="email" autoComplete="username" required maxLength={254} />
        </Field>
        <Button type="submit" variant="primary" className="w-full">
          Send me a link
        </Button>
      </form>
      <p className="mt-4 text-sm">
        <Link href="/dashboard/sign-in" className="underline">
          Back to sign-in
        </Link>
      </p>
    </main>
  );
}
