import Link from 'next/link';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { formatUsd, findProduct } from '@/lib/store';
import { storeOrder } from '@/lib/store';
import { orderAgain } from '../../actions';

/** What the shopper reads for each status of the store's order (the invoice's final status, lower-cased). */
const STATUS_TEXT: Record<string, string> = {
  awaiting_payment: 'Waiting for your payment',
  processed: 'Paid, thank you!',
  overpaid: 'Paid, thank you!',
  partial: 'Not fully paid: the payment did not cover the price in time',
  expired: 'Expired: no payment arrived in time',
  rejected: 'We could not accept your payment',
  error: 'We could not accept your payment',
  not_created: 'The payment could not be started',
};

/** While no notification has arrived: where the shopper is, by the status of the store's invoice (or an older order's). */
const WAITING_TEXT: Record<string, string> = {
  created: 'Next: choose the coin you want to pay with.',
  init: 'Next: send the payment shown on the payment page.',
  pending: 'Next: send the payment, or wait a moment while the network confirms it.',
};

const BUTTON = 'rounded-md bg-emerald-700 px-4 py-2 font-semibold text-white';

/** The next step for each status: pay, order again, or continue shopping (with whom to ask). */
function NextStep({ status, id, paymentLink }: { status: string; id: string; paymentLink: string | null }): ReactNode {
  const shopping = (
    <Link href="/store" className="px-4 py-2 underline">
      Continue shopping
    </Link>
  );
  if (status === 'awaiting_payment')
    return paymentLink ? (
      <>
        <a href={paymentLink} className={BUTTON}>
          Open the payment page
        </a>
        <Link href={`/store/orders/${id}/embed`} className="px-4 py-2 underline">
          Pay without leaving the store (embedded)
        </Link>
      </>
    ) : null;
  if (status === 'processed' || status === 'overpaid') return shopping;
  if (status === 'rejected' || status === 'error') return shopping;
  // expired, partial, not_created: the same items again, in a new order.
  return (
    <>
      <form action={orderAgain}>
        <input type="hidden" name="order" value={id} />
        <button type="submit" className={BUTTON}>
          Order again
        </button>
      </form>
      {shopping}
    </>
  );
}

/** What the shopper should know beside the status: what happens to their money, and whom to ask. */
const STATUS_NOTE: Record<string, string> = {
  overpaid: 'You sent more than the price. Contact us with your order number and we will return the difference.',
  partial:
    'What you sent did not reach the price before the time ran out. Contact us with your order number: we will complete your order or return your payment.',
  expired: 'Nothing was charged. You can order the same items again.',
  rejected: 'Contact us with your order number: we will return your payment.',
  error: 'Contact us with your order number: we will return your payment.',
  not_created: 'Nothing was charged. Please try again in a minute.',
};

export default async function StoreOrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const order = await storeOrder(id);
  if (!order) notFound();
  const waiting = order.gateway && 'status' in order.gateway ? order.gateway : undefined;
  const { coin } = order;
  const note = STATUS_NOTE[order.status];
  return (
    <main>
      <h1 className="text-title font-semibold">
        Order <span data-testid="store-order-number">{order.id.slice(0, 8)}</span>
      </h1>
      <p className="mt-4 text-title font-semibold" data-testid="store-order-status" data-status={order.status}>
        {STATUS_TEXT[order.status] ?? 'We are checking your payment'}
      </p>
      {order.status !== 'awaiting_payment' && order.received !== null && (
        <p className="mt-1 text-sm" data-testid="store-order-received">
          We received {order.received}.
        </p>
      )}
      {note && <p className="mt-1 text-sm">{note}</p>}
      {order.latePayments.length > 0 && (
        <p
          role="status"
          data-testid="store-order-late"
          className="mt-3 rounded-md bg-wait-surface px-3 py-2 text-sm text-wait-ink"
        >
          {`A payment arrived too late, or in another coin, to count for this order: ${order.latePayments
            .map((p) => `${p.amount} ${p.currency} on ${p.network}`)
            .join(
              ', ',
            )}. It is safe with us: contact us with your order number and we will complete your order or return it.`}
        </p>
      )}
      {waiting && (
        <p className="mt-1 text-sm" data-testid="store-order-gateway" data-status={waiting.status}>
          {WAITING_TEXT[waiting.status] ?? 'We are checking your payment.'}
          {waiting.received !== null && ` Received so far: ${waiting.received}.`}
        </p>
      )}
      {order.gateway && 'error' in order.gateway && <p className="mt-1 text-sm">{order.gateway.error}</p>}
      <ul className="mt-6 divide-y divide-line">
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
      <div className="mt-6 flex flex-wrap items-center gap-4">
        <NextStep status={order.status} id={order.id} paymentLink={order.paymentLink} />
      </div>
    </main>
  );
}
