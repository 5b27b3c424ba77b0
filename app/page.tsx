import Link from 'next/link';
import { config } from '@/lib/config';

/**
 * The start page, where every 404 of the payer's pages sends its "home" link: the gateway has no
 * shop of its own to send a shopper back to, so it first tells a shopper what to do, then the
 * merchant where the API and the dashboard are.
 */
export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-6">
      <h1 className="text-2xl font-semibold">Crypto payment gateway</h1>
      <section aria-labelledby="paying" className="mt-6">
        <h2 id="paying" className="text-lg font-semibold">
          Paying for an order?
        </h2>
        <p className="mt-2">
          This site takes crypto payments for shops. Open the payment link the shop gave you, or go back to the shop and
          start the payment again from your order. Questions about an order go to the shop you bought from.
        </p>
      </section>
      <section aria-labelledby="merchants" className="mt-6">
        <h2 id="merchants" className="text-lg font-semibold">
          Merchants
        </h2>
        <p className="mt-2">
          The merchant API answers at <code>/api-gateway/*</code>. See the README for signing requests and the
          operations.
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
      </section>
    </main>
  );
}
