import Link from 'next/link';
import { config } from '@/lib/config';

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-6">
      <h1 className="text-2xl font-semibold">Crypto payment gateway</h1>
      <p className="mt-4">
        The merchant API answers at <code>/api-gateway/*</code>. See the README for signing requests and the operations.
      </p>
      <p className="mt-4">
        Merchants sign in to the{' '}
        <Link href="/dashboard" className="font-medium underline">
          dashboard
        </Link>{' '}
        to see their payments and manage keys.
      </p>
      {config().demoStore && (
        <p className="mt-4">
          Try a payment end to end in the{' '}
          <Link href="/store" className="font-medium underline">
            demo store
          </Link>{' '}
          (test mode).
        </p>
      )}
    </main>
  );
}
