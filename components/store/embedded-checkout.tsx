'use client';
import { useEffect, useRef, useState } from 'react';

/**
 * The gateway's page in an iframe, and what it tells its parent: messages are accepted only from
 * this iframe, at the gateway's origin (any page can post to a window), and for `orderId` when it
 * is known (null: the invoice page is shown, and the order is made when the shopper picks a coin).
 */
export function EmbeddedCheckout({
  src,
  gatewayOrigin,
  orderId,
}: {
  src: string;
  gatewayOrigin: string;
  orderId: string | null;
}) {
  const [status, setStatus] = useState<string | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== gatewayOrigin || event.source === null || event.source !== frame.current?.contentWindow)
        return;
      const data = event.data as { orderId?: unknown; status?: unknown } | null;
      if (
        data &&
        typeof data.orderId === 'string' &&
        (orderId === null || data.orderId === orderId) &&
        typeof data.status === 'string'
      )
        setStatus(data.status);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [gatewayOrigin, orderId]);
  return (
    <>
      <p className="mt-2 text-sm" aria-live="polite" data-testid="embed-status" data-status={status ?? ''}>
        {status === null ? 'The payment page below reports its progress here.' : `The payment page reports: ${status}.`}
      </p>
      <iframe
        ref={frame}
        src={src}
        title="Payment page"
        className="mt-3 h-[640px] w-full rounded-lg border border-slate-200 dark:border-slate-800"
      />
    </>
  );
}
