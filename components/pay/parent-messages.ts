'use client';
/**
 * Inside a merchant's iframe (`?embed=1`), the page tells its parent `{orderId, status}` on first
 * render and on every status change, and `{orderId, height}` (CSS pixels of the whole page) on
 * first render and whenever its height changes, so that the parent can size the frame to the page
 * instead of cutting it off below the address. Target origin `*`: the parent framed the page with
 * its id already, and the status and the height are all it learns (docs/decisions/008-payment-page.md).
 */
import { useEffect } from 'react';
import type { PublicStatus } from '@/lib/pay/view';

export function usePostStatusToParent(embed: boolean, orderId: string, status: PublicStatus): void {
  useEffect(() => {
    if (embed && window.parent !== window) window.parent.postMessage({ orderId, status }, '*');
  }, [embed, orderId, status]);
}

export function usePostHeightToParent(embed: boolean, orderId: string): void {
  useEffect(() => {
    if (!embed || window.parent === window) return;
    // The page's own content, not the document: the body is at least the frame's height, so a frame
    // sized to the document would never shrink again.
    const main = document.querySelector('main');
    if (!main) return;
    let posted = 0;
    const post = () => {
      const height = Math.ceil(
        main.getBoundingClientRect().bottom + window.scrollY + parseFloat(getComputedStyle(main).marginBottom),
      );
      if (height === posted) return;
      posted = height;
      window.parent.postMessage({ orderId, height }, '*');
    };
    const observer = new ResizeObserver(post);
    observer.observe(main);
    post();
    return () => observer.disconnect();
  }, [embed, orderId]);
}
