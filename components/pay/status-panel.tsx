/**
 * The status panel: the screen's heading and text in its tone, the countdown while pending, what
 * was received and what remains, and the way back to the store once paid.
 */
import type { CountdownPhase } from '@/lib/pay/format';
import type { Messages } from '@/lib/pay/messages';
import type { PublicOrderView, Screen } from '@/lib/pay/view';
import { Countdown } from './countdown';
import { ReturnToStore, type ReturnRedirect } from './return-to-store';
import { amountText } from './ui';

const TONE: Record<Screen, string> = {
  awaiting: 'border-sky-600 bg-sky-50 dark:bg-sky-950',
  detected: 'border-sky-600 bg-sky-50 dark:bg-sky-950',
  'partially-paid': 'border-amber-600 bg-amber-50 dark:bg-amber-950',
  paid: 'border-green-700 bg-green-50 dark:bg-green-950',
  overpaid: 'border-green-700 bg-green-50 dark:bg-green-950',
  expired: 'border-slate-500 bg-slate-100 dark:bg-slate-800',
  underpaid: 'border-red-700 bg-red-50 dark:bg-red-950',
  'paid-late': 'border-red-700 bg-red-50 dark:bg-red-950',
  error: 'border-red-700 bg-red-50 dark:bg-red-950',
};

interface Props {
  view: PublicOrderView;
  m: Messages;
  embed: boolean;
  left: number;
  phase: CountdownPhase;
  redirect: ReturnRedirect;
}

export function StatusPanel({ view, m, embed, left, phase, redirect }: Props) {
  const pending = view.status === 'pending';
  const screen = m.screens[view.screen];
  return (
    <section data-screen={view.screen} className={`mt-3 rounded-lg border-s-4 px-4 py-3 ${TONE[view.screen]}`}>
      <h1 className="text-xl font-semibold">{screen.title}</h1>
      <p className="mt-1 text-sm">{screen.body}</p>
      {pending && <Countdown left={left} phase={phase} expiresAt={view.expiresAt} m={m} />}
      {(view.received !== '0' || view.screen === 'underpaid') && (
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 text-sm">
          <dt>{m.orderTotal}</dt>
          <dd>{amountText(view.amount, view.currency)}</dd>
          <dt>{m.received}</dt>
          <dd data-testid="received">{amountText(view.received, view.currency)}</dd>
          {pending && (
            <>
              <dt>{m.remaining}</dt>
              <dd data-testid="remaining">{amountText(view.remaining, view.currency)}</dd>
            </>
          )}
        </dl>
      )}
      <ReturnToStore redirect={redirect} embed={embed} m={m} />
    </section>
  );
}
