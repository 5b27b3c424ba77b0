import Link from 'next/link';
import { notFound } from 'next/navigation';
import { formatUsd, findProduct } from '@/lib/store';
import { storeOrder } from '@/lib/store';

/** What the shopper reads for each status of the store's order (the invoice's final status, lower-cased). */
const STATUS_TEXT: Record<string, string> = {
  awaiting_payment: 'Waiting for your payment',
  processed: 'Paid — thank you!',
  overpaid: 'Paid — thank you! (you sent more than the price; contact us for the difference)',
  partial: 'Underpaid — the payment did not cover the price before the order expired',
  expired: 'Expired — no payment arrived in time',
  rejected: 'Your payment was refused by the payment service’s checks — please contact us',
  error: 'Your payment could not be accepted — please contact us',
  not_created: 'The payment could not be created',
};

/** What the gateway answers while no webhook has arrived: its invoice's status (or an older order's), lower-cased. */
const GATEWAY_TEXT: Record<string, string> = {
  created: 'waiting for you to choose a coin',
  init: 'waiting for your payment',
  pending: 'waiting for the payment or its confirmations',
};

export default async function StoreOrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const order = await storeOrder(id);
  if (!order) notFound();
  const fromGateway = order.gateway && 'status' in order.gateway ? order.gateway : undefined;
  const { coin } = order;
  return (
    <main>
      <h1 className="text-lg font-semibold">Order {order.id.slice(0, 8)}</h1>
      <p className="mt-4 text-2xl font-semibold" data-testid="store-order-status" data-status={order.status}>
        {STATUS_TEXT[order.status] ?? order.status}
      </p>
      {order.status !== 'awaiting_payment' && order.received !== null && (
        <p className="mt-1 text-sm" data-testid="store-order-received">
          Received {order.received}, as the payment service confirmed after its signed notification.
        </p>
      )}
      {fromGateway && (
        <p className="mt-1 text-sm" data-testid="store-order-gateway" data-status={fromGateway.status}>
          No notification yet; the payment service says: {GATEWAY_TEXT[fromGateway.status] ?? fromGateway.status}
          {fromGateway.received !== null && <>, received {fromGateway.received}</>}.
        </p>
      )}
      {order.gateway && 'error' in order.gateway && <p className="mt-1 text-sm">{order.gateway.error}</p>}
      <ul className="mt-6 divide-y divide-slate-200 dark:divide-slate-800">
        {order.items.map((item) => (
          <li key={item.sku} className="flex justify-between py-2">
            <span>
              {item.quantity} × {findProduct(item.sku)?.name ?? item.sku}
            </span>
            <span>{formatUsd(item.cents)}</span>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-end font-semibold" data-testid="store-order-total">
        Total {formatUsd(order.totalCents)}
      </p>
      {coin && (
        <p className="mt-1 text-end text-sm" data-testid="store-order-coin">
          In {coin.currency} on {coin.network}: {coin.amount} {coin.currency}
        </p>
      )}
      {order.status === 'awaiting_payment' && order.paymentLink && (
        <p className="mt-6 flex flex-wrap gap-4">
          <a href={order.paymentLink} className="rounded-md bg-emerald-700 px-4 py-2 font-semibold text-white">
            Open the payment page
          </a>
          <Link href={`/store/orders/${order.id}/embed`} className="px-4 py-2 underline">
            Pay without leaving the store (embedded)
          </Link>
        </p>
      )}
    </main>
  );
}
