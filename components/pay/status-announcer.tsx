/**
 * Announces status changes to screen readers (a polite live region); the first paint is read from
 * the heading. The countdown's phase changes and the reconnecting notice are alerts of their own.
 */
import { interpolate } from '@/lib/pay/format';
import type { Messages } from '@/lib/pay/messages';
import type { Screen } from '@/lib/pay/view';
import { REDIRECT_SECONDS } from './return-to-store';

export function StatusAnnouncer({ screen, redirecting, m }: { screen: Screen; redirecting: boolean; m: Messages }) {
  const { title, body } = m.screens[screen];
  return (
    <p role="status" aria-live="polite" aria-atomic="true" className="sr-only">
      {/* The body and the redirect notice are whole sentences with their own stops: a space between them. */}
      {`${title}${m.separators.sentence}${body}${redirecting ? ` ${interpolate(m.redirectIn, { s: REDIRECT_SECONDS })}` : ''}`}
    </p>
  );
}
