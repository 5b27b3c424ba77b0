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
  // The page's height as it reports it (`{orderId, height}`), so that nothing is cut off; 640 px until then.
  const [height, setHeight] = useState<number | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== gatewayOrigin || event.source === null || event.source !== frame.current?.contentWindow)
        return;
      const data = event.data as { orderId?: unknown; status?: unknown; height?: unknown } | null;
      if (!data || typeof data.orderId !== 'string' || (orderId !== null && data.orderId !== orderId)) return;
      if (typeof data.status === 'string') setStatus(data.status);
      // A bounded whole number: a frame never grows without limit whatever a page posts.
      if (Number.isInteger(data.height) && (data.height as number) > 0)
        setHeight(Math.min(data.height as number, 4000));
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
        style={height === null ? undefined : { height }}
        className="mt-3 box-content h-[640px] w-full rounded-lg border border-line"
      />
    </>
  );
}
