'use client';
/**
 * A server-drawn page that follows an order: the order's status answer (the payment page's
 * endpoint, `GET /api/pay/{orderId}/status`: payer-safe, so nothing the viewer may not see) is
 * polled with TanStack Query every POLL_MS, not in a hidden tab and at once when it shows again,
 * with the library's retries; when its status, what it received or the payments seen differ from
 * what the page shows, the page is drawn again on the server (`router.refresh()`, which reads what
 * it shows with its own checks, as any load does). The page renders this leaf only while there is
 * something to follow, so the polling stops with it.
 *
 * Used by the dashboard's page of a pending order and by the invoice page while its chosen order
 * runs (decision 055).
 */
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import type { PublicOrderView } from '@/lib/pay/view';
import { orderShownOf, sameOrderShown, type OrderShown } from './order-shown';

const POLL_MS = 5000;

export function FollowOrder({ orderId, shown }: { orderId: string; shown: OrderShown }) {
  const router = useRouter();
  const { data } = useQuery({
    queryKey: ['follow-order', orderId],
    queryFn: async ({ signal }): Promise<OrderShown> => {
      const response = await fetch(`/api/pay/${orderId}/status`, { cache: 'no-store', signal });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return orderShownOf((await response.json()) as PublicOrderView);
    },
    refetchInterval: POLL_MS,
  });
  // Once per answer that differs: should the page still differ after its refresh (the two reads
  // counting a payment differently), it waits for the next answer instead of refreshing in a loop.
  const differs = data !== undefined && !sameOrderShown(data, shown);
  useEffect(() => {
    if (differs) router.refresh();
  }, [differs, data, router]);
  return null;
}
