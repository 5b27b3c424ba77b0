/**
 * The status panel: the screen's heading and text in its tone; while pending, the countdown (or,
 * once the payments seen cover the amount, "payment detected, waiting for confirmations": the
 * deadline no longer matters to the shopper), what was received and what remains; once final,
 * the way out: the order reference to give the merchant, and "Return to store".
 */
import type { CountdownPhase } from '@/lib/pay/format';
import type { Language } from '@/lib/pay/i18n';
import type { Messages } from '@/lib/pay/messages';
import type { PublicOrderView, Screen } from '@/lib/pay/view';
import { CopyButton } from './copy-button';
import { Countdown } from './countdown';
import { ReturnToStore, type ReturnRedirect } from './return-to-store';
import { amountText } from './ui';

const TONE: Record<Screen, string> = {
  awaiting: 'border-info-line bg-info-surface text-info-ink',
  detected: 'border-info-line bg-info-surface text-info-ink',
  'partially-paid': 'border-wait-line bg-wait-surface text-wait-ink',
  paid: 'border-good-line bg-good-surface text-good-ink',
  overpaid: 'border-good-line bg-good-surface text-good-ink',
  expired: 'border-line-strong bg-raised text-ink',
  underpaid: 'border-bad-line bg-bad-surface text-bad-ink',
  'paid-late': 'border-bad-line bg-bad-surface text-bad-ink',
  error: 'border-bad-line bg-bad-surface text-bad-ink',
};

/** The screens that send the shopper to the merchant: they show the order reference, and the first ones ask to get in touch. */
const CONTACT: ReadonlySet<Screen> = new Set(['underpaid', 'paid-late', 'error', 'overpaid']);
const REFERENCE: ReadonlySet<Screen> = new Set([...CONTACT, 'expired']);

interface Props {
  view: PublicOrderView;
  m: Messages;
  language: Language;
  embed: boolean;
  left: number;
  phase: CountdownPhase;
  redirect: ReturnRedirect;
  /** The payment block shows below: the sums go under it (./pay-live), a phone's first screen is for the QR code. */
  payable: boolean;
}

export function StatusPanel({ view, m, language, embed, left, phase, redirect, payable }: Props) {
  const pending = view.status === 'pending';
  const screen = m.screens[view.screen];
  const covered = view.screen === 'detected' && view.remaining === '0';
  return (
    <section data-screen={view.screen} className={`mt-3 rounded-lg border-s-4 px-4 py-3 ${TONE[view.screen]}`}>
      {/* The countdown beside the heading: a phone's first screen is for the QR code. */}
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <h1 className="text-title font-semibold">{screen.title}</h1>
        {pending && !covered && <Countdown left={left} phase={phase} expiresAt={view.expiresAt} m={m} className="" />}
      </div>
      <p className="mt-1 text-sm">{screen.body}</p>
      {covered && (
        <p className="mt-2 text-sm font-medium" data-testid="waiting-confirmations">
          {m.waitingConfirmations}
        </p>
      )}
      {!payable && <Sums view={view} m={m} language={language} />}
      {REFERENCE.has(view.screen) && (
        <div className="mt-3 border-t border-line-strong pt-2 text-sm">
          {CONTACT.has(view.screen) && (
            <>
              <h2 className="font-semibold">{m.contactTitle}</h2>
              <p>{m.contactNote}</p>
            </>
          )}
          <div className="mt-1 flex items-start justify-between gap-2">
            <p className="min-w-0">
              {`${m.orderReference}${m.separators.label}`}
              <code dir="ltr" data-testid="order-reference" className="break-all">
                {view.orderId}
              </code>
            </p>
            <CopyButton value={view.orderId} label={m.copyReference} text={m.copy} done={m.copied} />
          </div>
        </div>
      )}
      <ReturnToStore redirect={redirect} embed={embed} m={m} />
    </section>
  );
}

/**
 * What was received and what remains, once anything was: the order's total, then received (once
 * something counted) and, while pending, what is left (once it is less than the total and more than
 * nothing). A payment seen but not yet confirmed shows no "Received 0 · Remaining 0": the screen
 * says it was detected and the transfer below shows its amount and confirmations.
 */
export function Sums({ view, m, language }: { view: PublicOrderView; m: Messages; language: Language }) {
  const pending = view.status === 'pending';
  const showReceived = view.received !== '0' || view.screen === 'underpaid';
  const showRemaining = pending && view.remaining !== view.amount && view.remaining !== '0';
  if (!showReceived && !showRemaining) return null;
  const amount = (value: string) => amountText(value, view.currency, language);
  return (
    <dl className="mt-2 flex flex-wrap gap-x-4 text-sm">
      <div className="flex gap-1.5">
        <dt>{m.orderTotal}</dt>
        <dd>{amount(view.amount)}</dd>
      </div>
      {showReceived && (
        <div className="flex gap-1.5">
          <dt>{m.received}</dt>
          <dd data-testid="received">{amount(view.received)}</dd>
        </div>
      )}
      {showRemaining && (
        <div className="flex gap-1.5">
          <dt>{m.remaining}</dt>
          <dd data-testid="remaining">{amount(view.remaining)}</dd>
        </div>
      )}
    </dl>
  );
}
