import Link from 'next/link';
import { CARD } from './form-styles';

/** What unauthorized() shows (HTTP 401): no session, or it ended. */
export default function Unauthorized() {
  return (
    <main className={CARD}>
      <h1 className="text-xl font-semibold">Signed out</h1>
      <p className="mt-4">Your session has ended. Sign in again to continue.</p>
      <p className="mt-4">
        <Link href="/dashboard/sign-in" className="underline">
          Sign in
        </Link>
      </p>
    </main>
  );
}
