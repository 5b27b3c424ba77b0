import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { readSession, SESSION_COOKIE } from '@/lib/users';
import { ActionForm } from '../../action-form';
import { CARD } from '../../form-styles';
import { safeNext } from '../../session';
import { secondFactorAction } from './actions';
import { Label } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

export const metadata: Metadata = { title: 'Two-factor code · Dashboard' };

const params = z.object({ next: z.string().max(2048).optional().catch(undefined) });

/** After a right password, for a user with two-factor: the code from the app, or a recovery code. */
export default async function TwoFactorPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const next = safeNext(params.parse(await searchParams).next);
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const pending = token ? await readSession(await getDatabase(), token, { stage: 'second-factor' }) : undefined;
  if (!pending) redirect(next ? `/dashboard/sign-in?next=${encodeURIComponent(next)}` : '/dashboard/sign-in');
  return (
    <main className={CARD}>
      <h1 className="text-xl font-semibold">Two-factor code</h1>
      <p className="mt-2">
        Type the code your authenticator app shows for {pending.email}, or one of your recovery codes.
      </p>
      <div className="mt-6">
        <ActionForm action={secondFactorAction} submit="Continue" wide>
          {next && <input type="hidden" name="next" value={next} />}
          <div>
            <Label htmlFor="code">Code</Label>
            <Input id="code" name="code" autoComplete="one-time-code" required maxLength={32} />
          </div>
        </ActionForm>
      </div>
      <p className="mt-4 text-sm">
        <Link href="/dashboard/sign-in" className="underline">
          Start again
        </Link>
      </p>
    </main>
  );
}
