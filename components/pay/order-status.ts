'use client';
/**
 * The order's live view: polled with @tanstack/react-query every POLL_MS while the order is
 * pending, every FINAL_POLL_MS once it is final (a payment sent after the end still shows, as
 * "paid late", on the open page), paused while the tab is hidden. A failed poll keeps the last
 * view and is retried at the next interval; after RECONNECTING_AFTER failures in a row the page
 * says it is reconnecting. Needs a QueryClientProvider above it.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { PublicOrderView } from '@/lib/pay/view';

const POLL_MS = 3000;
/** After a final status: slow, as nothing but a late transfer can change the page any more. */
export const FINAL_POLL_MS = 15_000;
const RECONNECTING_AFTER = 3;

export function useOrderStatus(initial: PublicOrderView): { view: PublicOrderView; reconnecting: boolean; refetch: () => void } {
  const [failures, setFailures] = useState(0);
  const { data: view, refetch } = useQuery({
    queryKey: [initial.orderId],
    queryFn: async (): Promise<PublicOrderView> => {
      try {
        const response = await fetch(`/api/pay/${initial.orderId}/status`, { cache: 'no-store' });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const next = (await response.json()) as PublicOrderView;
        setFailures(0);
        return next;
      } catch (error) {
        setFailures((count) => count + 1);
        throw error;
      }
    },
    initialData: initial,
    staleTime: POLL_MS,
    retry: false,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? POLL_MS : FINAL_POLL_MS),
    refetchIntervalInBackground: false,
  });
  return { view, reconnecting: failures >= RECONNECTING_AFTER, refetch: () => void refetch() };
}
