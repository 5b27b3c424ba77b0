'use client';
import { useEffect, useState } from 'react';

/**
 * The gateway's payment page in an iframe, and what it tells its parent: messages are accepted
 * only from the gateway's origin and for this order (any page can post to a window).
 */
export function EmbeddedCheckout({ src, gatewayOrigin, orderId }: { src: string; gatewayOrigin: string; orderId: string }) {
  const [status, setStatus] = useState<string | null>(null);
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== gatewayOrigin) return;
      const data = event.data as { orderId?: unknown; status?: unknown } | null;
      if (data && data.orderId === orderId && typeof data.status === 'string') setStatus(data.status);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [gatewayOrigin, orderId]);
  return (
    <>
      <p className="mt-2 text-sm" aria-live="polite" data-testid="embed-status" data-status={status ?? ''}>
        {status === null ? 'The payment page below reports its progress here.' : `The payment page reports: ${status}.`}
      </p>
      <iframe src={src} title="Payment page" className="mt-3 h-[640px] w-full rounded-lg border border-slate-200 dark:border-slate-800" />
    </>
  );
}
