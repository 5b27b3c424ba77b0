'use client';
/**
 * Back to the merchant once the order is final: a "Return to store" link to the order's return
 * URL (http or https only) on every final screen, paid or not (no dead end), and, once paid and
 * outside an iframe, a redirect there after REDIRECT_SECONDS that "Stay on this page" cancels.
 * Inside a merchant's iframe the parent decides where to go (it gets the status by postMessage,
 * ./parent-messages).
 */
import { useEffect, useState } from 'react';
import { interpolate } from '@/lib/pay/format';
import type { Messages } from '@/lib/pay/messages';
import type { PublicOrderView } from '@/lib/pay/view';
import { BUTTON } from './ui';

export const REDIRECT_SECONDS = 5;

export interface ReturnRedirect {
  /** Final, with a return URL: the link is shown. */
  returnUrl: string | null;
  /** Counting down to the redirect. */
  redirecting: boolean;
  /** Seconds left before the redirect. */
  count: number;
  cancelled: boolean;
  cancel(): void;
}

export function useReturnRedirect(view: PublicOrderView, embed: boolean): ReturnRedirect {
  const paid = view.screen === 'paid' || view.screen === 'overpaid';
  const returnUrl =
    view.status !== 'pending' && view.returnUrl && /^https?:\/\//i.test(view.returnUrl) ? view.returnUrl : null;
  const [cancelled, setCancelled] = useState(false);
  const [count, setCount] = useState(REDIRECT_SECONDS);
  const redirecting = paid && !!returnUrl && !embed && !cancelled;
  useEffect(() => {
    if (!redirecting) return;
    const end = Date.now() + REDIRECT_SECONDS * 1000;
    const timer = setInterval(() => {
      const s = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      setCount(s);
      if (s === 0) {
        clearInterval(timer);
        window.location.assign(returnUrl!);
      }
    }, 250);
    return () => clearInterval(timer);
  }, [redirecting, returnUrl]);
  return { returnUrl, redirecting, count, cancelled, cancel: () => setCancelled(true) };
}

export function ReturnToStore({ redirect, embed, m }: { redirect: ReturnRedirect; embed: boolean; m: Messages }) {
  if (!redirect.returnUrl) return null;
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3">
      <a href={redirect.returnUrl} target={embed ? '_top' : undefined} className={BUTTON}>
        {m.returnToStore}
      </a>
      {redirect.redirecting && (
        <>
          <span className="text-sm">{interpolate(m.redirectIn, { s: redirect.count })}</span>
          <button type="button" onClick={redirect.cancel} className="text-sm underline">
            {m.stayOnPage}
          </button>
        </>
      )}
      {redirect.cancelled && <span className="text-sm">{m.redirectCancelled}</span>}
    </div>
  );
}
