import Link from 'next/link';
import { notFound } from 'next/navigation';
import { EmbeddedCheckout } from '@/components/store/embedded-checkout';
import { storeOrder } from '@/lib/store';

/**
 * "Embed the checkout link": the gateway's page inside the store's own page (`?embed=1`): the
 * payment page of the coin chosen, or the invoice page while none is. The payment page posts
 * `{orderId, status}` to this window on every status change; the store shows it at once and links
 * to its order page, which shows what the signed webhook recorded.
 */
export default async function EmbeddedPaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const order = await storeOrder(id);
  const page = order?.coin?.orderLink ?? order?.paymentLink;
  if (!order || !page) notFound();
  const link = new URL(page);
  link.searchParams.set('embed', '1');
  return (
    <main>
      <h1 className="text-title font-semibold">Pay for order {order.id.slice(0, 8)}</h1>
      <EmbeddedCheckout
        src={link.toString()}
        gatewayOrigin={link.origin}
        orderId={order.coin?.orderLink ? order.coin.orderId : null}
      />
      <p className="mt-4 text-sm">
        Prefer a full page?{' '}
        <a href={order.paymentLink ?? page} className="underline">
          Open the payment page
        </a>
        . Then see{' '}
        <Link href={`/store/orders/${order.id}`} className="underline">
          your order
        </Link>
        .
      </p>
    </main>
  );
}
