'use client';
/**
 * The order's live view, polled with TanStack Query (under ../live/query-provider): every POLL_MS
 * while the order is pending, every FINAL_POLL_MS once it is final (a payment sent after the end
 * still shows, as "paid late", on the open page); not while the tab is hidden, and at once when it
 * shows again (the library's pause in the background and refetch on focus; the view counts as
 * fresh for POLL_MS). A failed poll keeps the last view and is retried at the same interval;
 * after RECONNECTING_AFTER failures in a row the page says it is reconnecting.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PublicOrderView } from '@/lib/pay/view';

const POLL_MS = 3000;
/** After a final status: slow, as nothing but a late transfer can change the page any more. */
export const FINAL_POLL_MS = 15_000;
const RECONNECTING_AFTER = 3;

const pollInterval = (view: PublicOrderView | undefined) => (view?.status === 'pending' ? POLL_MS : FINAL_POLL_MS);

export function useOrderStatus(initial: PublicOrderView): {
  view: PublicOrderView;
  reconnecting: boolean;
  refetch: () => void;
} {
  const client = useQueryClient();
  const queryKey = ['pay-status', initial.orderId];
  const { data, failureCount, refetch } = useQuery({
    queryKey,
    queryFn: async ({ signal }): Promise<PublicOrderView> => {
      const response = await fetch(`/api/pay/${initial.orderId}/status`, { cache: 'no-store', signal });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return (await response.json()) as PublicOrderView;
    },
    // The server's first paint is the view of this moment: the first poll waits for the interval.
    initialData: initial,
    staleTime: POLL_MS,
    refetchInterval: (query) => pollInterval(query.state.data),
    // Retried until it answers (the count of failures says when to show "reconnecting"), as
    // often as the view is polled: a final page does not knock harder on a server in trouble.
    retry: true,
    retryDelay: () => pollInterval(client.getQueryData<PublicOrderView>(queryKey)),
  });
  return { view: data, reconnecting: failureCount >= RECONNECTING_AFTER, refetch: () => void refetch() };
}
