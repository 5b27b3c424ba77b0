'use server';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { getDatabase } from '@/lib/db';
import { revokeSession, revokeUserSessions, SESSION_COOKIE } from '@/lib/users';
import { requireAction } from './session';
import { auditAction } from '@/app/dashboard/action-helpers';

async function forgetCookie(): Promise<void> {
  (await cookies()).delete({ name: SESSION_COOKIE, path: '/dashboard' });
}

/** Sign out: this session ends. A form post: `<form action={signOut}><button>Sign out</button></form>`. */
export async function signOut(): Promise<void> {
  const session = await requireAction('view', { enrolment: true });
  await revokeSession(await getDatabase(), session.tokenHash);
  await forgetCookie();
  redirect('/dashboard/sign-in?notice=signed-out');
}

/** Sign out everywhere: every session of this user ends, in every browser. */
export async function signOutEverywhere(): Promise<void> {
  const session = await requireAction('view', { enrolment: true });
  const db = await getDatabase();
  const ended = await revokeUserSessions(db, session.userId);
  await auditAction(db, session, 'sign-out.everywhere', { sessions: ended });
  await forgetCookie();
  redirect('/dashboard/sign-in?notice=signed-out');
}
