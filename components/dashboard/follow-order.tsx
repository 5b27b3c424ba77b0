'use client';
/**
 * The order page follows a pending order: the order's status answer (the payment page's endpoint,
 * `GET /api/pay/{orderId}/status`: payer-safe, so nothing the signed-in merchant may not see) is
 * polled with TanStack Query every POLL_MS, not in a hidden tab and at once when it shows again;
 * when its status, what it received or the payments seen differ from what the page shows, the page
 * is drawn again on the server (`router.refresh()`, which reads the order with the session's
 * checks as any load does). Rendered only while the order is pending: once the refresh shows a
 * final status, this leaf is gone and the polling with it.
 *
 * The dashboard had no live data before (decision 055): this is the one place where a merchant
 * watches something happen, a payment coming in.
 */
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import type { PublicOrderView } from '@/lib/pay/view';

const POLL_MS = 5000;

/** What the page shows of the order, in the terms of the status answer. */
export interface OrderShown {
  status: string;
  /** Decimal, as both answers write it. */
  received: string;
  payments: number;
}

const shownOf = (view: PublicOrderView): OrderShown => ({
  status: view.status,
  received: view.received,
  payments: view.payments.length,
});
const same = (a: OrderShown, b: OrderShown) =>
  a.status === b.status && a.received === b.received && a.payments === b.payments;

export function FollowPendingOrder({ orderId, shown }: { orderId: string; shown: OrderShown }) {
  const router = useRouter();
  const { data } = useQuery({
    queryKey: ['dashboard-order', orderId],
    queryFn: async ({ signal }): Promise<OrderShown> => {
      const response = await fetch(`/api/pay/${orderId}/status`, { cache: 'no-store', signal });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return shownOf((await response.json()) as PublicOrderView);
    },
    refetchInterval: POLL_MS,
  });
  // Once per answer that differs: should the page still differ after its refresh (the two reads
  // counting a payment differently), it waits for the next answer instead of refreshing in a loop.
  const differs = data !== undefined && !same(data, shown);
  useEffect(() => {
    if (differs) router.refresh();
  }, [differs, data, router]);
  return null;
}
