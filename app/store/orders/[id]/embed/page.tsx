import Link from 'next/link';
import { notFound } from 'next/navigation';
import { EmbeddedCheckout } from '@/components/store/embedded-checkout';
import { storeOrder } from '@/lib/store';

/**
 * "Embed the checkout link": the payment page inside the store's own page (`?embed=1`). The
 * payment page posts `{orderId, status}` to this window on every status change; the store shows
 * it at once and links to its order page, which shows what the signed webhook recorded.
 */
export default async function EmbeddedPaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const order = await storeOrder(id);
  if (!order?.paymentLink) notFound();
  const link = new URL(order.paymentLink);
  link.searchParams.set('embed', '1');
  return (
    <main>
      <h1 className="text-lg font-semibold">Pay for order {order.id.slice(0, 8)}</h1>
      <EmbeddedCheckout src={link.toString()} gatewayOrigin={link.origin} orderId={link.pathname.split('/').pop()!} />
      <p className="mt-4 text-sm">
        Prefer a full page? <a href={order.paymentLink} className="underline">Open the payment page</a>. Then see{' '}
        <Link href={`/store/orders/${order.id}`} className="underline">your order</Link>.
      </p>
    </main>
  );
}
