'use client';
/**
 * The order's live view: polled every POLL_MS while the order is pending, every FINAL_POLL_MS once
 * it is final (a payment sent after the end still shows, as "paid late", on the open page), not
 * while the tab is hidden, and at once when it shows again. A failed poll keeps the last view and
 * is retried at the next interval; after RECONNECTING_AFTER failures in a row the page says it is
 * reconnecting.
 *
 * A few lines of React rather than a data-fetching library: one URL, one timer, and the page's
 * first-load JavaScript budget (a library took more than half of it).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PublicOrderView } from '@/lib/pay/view';

const POLL_MS = 3000;
/** After a final status: slow, as nothing but a late transfer can change the page any more. */
export const FINAL_POLL_MS = 15_000;
const RECONNECTING_AFTER = 3;

export function useOrderStatus(initial: PublicOrderView): {
  view: PublicOrderView;
  reconnecting: boolean;
  refetch: () => void;
} {
  const [view, setView] = useState(initial);
  const [failures, setFailures] = useState(0);
  const interval = view.status === 'pending' ? POLL_MS : FINAL_POLL_MS;
  /** Polls now; set by the effect below, which owns the timer. */
  const pollNow = useRef<() => void>(() => {});

  useEffect(() => {
    const hidden = () => document.visibilityState === 'hidden';
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight: AbortController | undefined;
    let stopped = false;
    const schedule = () => {
      clearTimeout(timer);
      if (!stopped && !hidden()) timer = setTimeout(poll, interval);
    };
    async function poll() {
      clearTimeout(timer);
      inFlight?.abort();
      const controller = (inFlight = new AbortController());
      try {
        const response = await fetch(`/api/pay/${initial.orderId}/status`, {
          cache: 'no-store',
          signal: controller.signal,
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const next = (await response.json()) as PublicOrderView;
        if (controller.signal.aborted) return;
        setView(next);
        setFailures(0);
      } catch {
        if (controller.signal.aborted) return;
        setFailures((count) => count + 1);
      }
      schedule();
    }
    const onVisibility = () => (hidden() ? clearTimeout(timer) : void poll());
    pollNow.current = () => void poll();
    document.addEventListener('visibilitychange', onVisibility);
    schedule();
    return () => {
      stopped = true;
      clearTimeout(timer);
      inFlight?.abort();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [initial.orderId, interval]);

  const refetch = useCallback(() => pollNow.current(), []);
  return { view, reconnecting: failures >= RECONNECTING_AFTER, refetch };
}
