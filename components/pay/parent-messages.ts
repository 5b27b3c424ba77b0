'use client';
/**
 * Inside a merchant's iframe (`?embed=1`), the page tells its parent `{orderId, status}` on first
 * render and on every status change. Target origin `*`: the parent framed the page with its id
 * already, and the status is all it learns (docs/decisions/008-payment-page.md).
 */
import { useEffect } from 'react';
import type { PublicStatus } from '@/lib/pay/view';

export function usePostStatusToParent(embed: boolean, orderId: string, status: PublicStatus): void {
  useEffect(() => {
    if (embed && window.parent !== window) window.parent.postMessage({ orderId, status }, '*');
  }, [embed, orderId, status]);
}
