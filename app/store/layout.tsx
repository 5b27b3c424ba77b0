import Link from 'next/link';
import type { ReactNode } from 'react';

export const metadata = { title: 'Demo store' };

/** The demo store's chrome. It plays a merchant's site that sells with the gateway. */
export default function StoreLayout({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto max-w-3xl p-4 sm:p-6">
      <header className="mb-6 flex items-center justify-between border-b border-line pb-3">
        <Link href="/store" className="text-section font-semibold">
          Demo store
        </Link>
        <nav className="flex gap-4 text-sm">
          <Link href="/store" className="underline">
            Products
          </Link>
          <Link href="/store/checkout" className="underline">
            Cart
          </Link>
        </nav>
      </header>
      <p className="mb-6 rounded-md bg-test-surface px-3 py-2 text-sm text-test-ink">
        A demonstration shop on test keys: payments are simulated on the sandbox ledger, nothing is charged.
      </p>
      {children}
    </div>
  );
}
