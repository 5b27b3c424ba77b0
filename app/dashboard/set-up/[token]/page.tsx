import type { Metadata } from 'next';
import Link from 'next/link';
import { getDatabase } from '@/lib/db';
import { PASSWORD_MIN_LENGTH, readInvitation, readLink } from '@/lib/users';
import { CARD } from '../../form-styles';
import { SetUpForm } from './set-up-form';

export const metadata: Metadata = { title: 'Choose a password · Dashboard' };

/** A one-time link (first owner, invitation, password reset): choose a password, then signed in. */
export default async function SetUpPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const db = await getDatabase();
  const link = (await readLink(db, token)) ?? (await readInvitation(db, token));
  if (!link) {
    return (
      <main className={CARD}>
        <h1 className="text-xl font-semibold">This link cannot be used</h1>
        <p className="mt-4">
          It was used already, has expired (links last 72 hours) or was withdrawn. Ask an owner of your team, or the
          operator, for a new one.
        </p>
        <p className="mt-4">
          <Link href="/dashboard/sign-in" className="underline">
            Sign in
          </Link>
        </p>
      </main>
    );
  }
  return (
    <main className={CARD}>
      <h1 className="text-xl font-semibold">
        {link.purpose === 'reset' ? 'Choose a new password' : 'Welcome to the dashboard'}
      </h1>
      <p className="mt-2">
        {link.email} at {link.merchantName}
      </p>
      <SetUpForm token={token} email={link.email} minLength={PASSWORD_MIN_LENGTH} />
    </main>
  );
}
