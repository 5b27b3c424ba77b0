import Link from 'next/link';

/**
 * The store's own 404 (an order number it does not know, `/store/orders/xyz`), inside the store's
 * chrome and in its words, rather than the gateway's page for an unknown address.
 */
export default function StoreNotFound() {
  return (
    <main>
      <h1 className="text-title font-semibold">We could not find this order</h1>
      <p className="mt-2">Check the link in your confirmation, or contact us with your order number.</p>
      <p className="mt-4">
        <Link href="/store" className="underline">
          Continue shopping
        </Link>
      </p>
    </main>
  );
}
