import Link from 'next/link';
import { CARD } from './form-styles';

/** What forbidden() shows (HTTP 403): signed in, but the role does not allow this. */
export default function Forbidden() {
  return (
    <main className={CARD}>
      <h1 className="text-xl font-semibold">Not allowed</h1>
      <p className="mt-4">Your role does not allow this page or action. An owner of your team can change your role.</p>
      <p className="mt-4 flex flex-wrap gap-4">
        <Link href="/dashboard" className="underline">
          Back to the overview
        </Link>
        {/* A cashier's one page (lib/users permissions: `pos`). */}
        <Link href="/dashboard/pos" className="underline">
          Point of sale
        </Link>
      </p>
    </main>
  );
}
