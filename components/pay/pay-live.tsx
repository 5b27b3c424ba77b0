'use client';
/**
 * The live part of the payment page, its one polling client component. The server page renders
 * the first paint from the same view (no flash) and hands it over with the static payment block
 * (QR codes, address, copy buttons) as `payBlock`, shown while there is something left to pay.
 *
 * Polling: @tanstack/react-query every POLL_MS while the order is pending, paused while the tab
 * is hidden, stopped at a final status. A failed poll keeps the last state and is retried at the
 * next interval; after RECONNECTING_AFTER failures in a row the page says it is reconnecting.
 *
 * Kept small on purpose (the page's JavaScript budget): texts come from the server as props in
 * the chosen language, money stays decimal strings, no date or validation library.
 */
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { countdownPhase, formatCountdown, interpolate } from '@/lib/pay/format';
import type { Messages } from '@/lib/pay/messages';
import type { PublicOrderView, Screen } from '@/lib/pay/view';

const POLL_MS = 3000;
const RECONNECTING_AFTER = 3;
const REDIRECT_SECONDS = 5;

interface Props {
  initial: PublicOrderView;
  m: Messages;
  embed: boolean;
  payBlock: ReactNode;
}

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

const BUTTON = 'rounded-md bg-slate-900 px-4 py-2 font-medium text-white disabled:opacity-60 dark:bg-slate-100 dark:text-slate-900';

export function PayLive(props: Props) {
  const [client] = useState(() => new QueryClient());
  return (
    <QueryClientProvider client={client}>
      <Live {...props} />
    </QueryClientProvider>
  );
}

function Live({ initial, m, embed, payBlock }: Props) {
  const router = useRouter();
  const failures = useRef(0);
  const { data: view, refetch } = useQuery({
    queryKey: [initial.orderId],
    queryFn: async (): Promise<PublicOrderView> => {
      try {
        const response = await fetch(`/api/pay/${initial.orderId}/status`, { cache: 'no-store' });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const next = (await response.json()) as PublicOrderView;
        failures.current = 0;
        return next;
      } catch (error) {
        failures.current++;
        throw error;
      }
    },
    initialData: initial,
    staleTime: POLL_MS,
    retry: false,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? POLL_MS : false),
    refetchIntervalInBackground: false,
  });
  const pending = view.status === 'pending';
  const cur = view.currency;

  // The countdown runs on the server's clock: the browser's may be off by minutes.
  const offset = useRef(0);
  const [now, setNow] = useState(() => Date.parse(initial.serverTime));
  useEffect(() => {
    offset.current = Date.parse(initial.serverTime) - Date.now();
  }, [initial.serverTime]);
  useEffect(() => {
    if (!pending) return;
    const tick = () => setNow(Date.now() + offset.current);
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [pending]);
  const left = Date.parse(view.expiresAt) - now;
  const phase = countdownPhase(left);
  const payable = pending && phase !== 'over' && view.remaining !== '0';

  // The payment block (QR, amount) was rendered on the server for the amount left then.
  useEffect(() => {
    if (payable && view.remaining !== initial.remaining) router.refresh();
  }, [payable, view.remaining, initial.remaining, router]);

  useEffect(() => {
    if (embed && window.parent !== window) window.parent.postMessage({ orderId: view.orderId, status: view.status }, '*');
  }, [embed, view.orderId, view.status]);

  const paid = view.screen === 'paid' || view.screen === 'overpaid';
  const returnUrl = view.returnUrl && /^https?:\/\//i.test(view.returnUrl) ? view.returnUrl : null;
  const [cancelled, setCancelled] = useState(false);
  const [count, setCount] = useState(REDIRECT_SECONDS);
  // Inside a merchant's iframe the parent decides where to go (it gets the status by postMessage).
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

  const [simulation, setSimulation] = useState('');
  const [busy, setBusy] = useState(false);
  const simulate = async (kind: 'full' | 'partial' | 'over') => {
    setBusy(true);
    try {
      const response = await fetch('/api/sandbox/pay', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: view.orderId, kind }),
      });
      const body = (await response.json()) as { txHash?: string; error?: string };
      setSimulation(response.ok ? interpolate(m.simulateSent, { tx: body.txHash ?? '' }) : interpolate(m.simulateFailed, { error: body.error ?? response.status }));
      void refetch();
    } catch (error) {
      setSimulation(interpolate(m.simulateFailed, { error: String(error) }));
    }
    setBusy(false);
  };

  const screen = m.screens[view.screen];
  const amountText = (amount: string, currency = cur) => <span dir="ltr" className="font-mono">{`${amount} ${currency}`}</span>;

  return (
    <>
      {failures.current >= RECONNECTING_AFTER && (
        <p role="alert" className="mt-3 rounded-md bg-amber-100 px-3 py-2 text-sm text-amber-950 dark:bg-amber-900 dark:text-amber-50">
          {m.reconnecting}
        </p>
      )}
      <section data-screen={view.screen} className={`mt-3 rounded-lg border-s-4 px-4 py-3 ${TONE[view.screen]}`}>
        <h1 className="text-xl font-semibold">{screen.title}</h1>
        <p className="mt-1 text-sm">{screen.body}</p>
        {pending && (
          <p className={`mt-2 text-sm font-medium ${phase === 'running' ? '' : 'text-red-800 dark:text-red-200'}`} data-phase={phase}>
            {phase === 'over' ? m.timeUp : `${phase === 'soon' ? m.expiringSoon : m.timeLeft}: `}
            {phase !== 'over' && (
              <time dir="ltr" dateTime={view.expiresAt} className="font-mono tabular-nums">
                {formatCountdown(left)}
              </time>
            )}
            {/* Said once when the phase changes; the ticking digits stay out of live regions. */}
            {phase !== 'running' && (
              <span role="alert" className="sr-only">
                {phase === 'soon' ? m.expiringSoon : m.timeUp}
              </span>
            )}
          </p>
        )}
        {(view.received !== '0' || view.screen === 'underpaid') && (
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 text-sm">
            <dt>{m.orderTotal}</dt>
            <dd>{amountText(view.amount)}</dd>
            <dt>{m.received}</dt>
            <dd data-testid="received">{amountText(view.received)}</dd>
            {pending && (
              <>
                <dt>{m.remaining}</dt>
                <dd data-testid="remaining">{amountText(view.remaining)}</dd>
              </>
            )}
          </dl>
        )}
        {paid && returnUrl && (
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <a href={returnUrl} target={embed ? '_top' : undefined} className={BUTTON}>
              {m.returnToStore}
            </a>
            {redirecting && (
              <>
                <span className="text-sm">{interpolate(m.redirectIn, { s: count })}</span>
                <button type="button" onClick={() => setCancelled(true)} className="text-sm underline">
                  {m.stayOnPage}
                </button>
              </>
            )}
            {cancelled && <span className="text-sm">{m.redirectCancelled}</span>}
          </div>
        )}
      </section>
      {/* Announces status changes; the first paint is read from the heading. */}
      <p role="status" aria-live="polite" aria-atomic="true" className="sr-only">
        {`${screen.title}. ${screen.body}${redirecting ? ` ${interpolate(m.redirectIn, { s: REDIRECT_SECONDS })}` : ''}`}
      </p>
      {payable && payBlock}
      {view.payments.length > 0 && (
        <section className="mt-4">
          <h2 className="font-semibold">{m.payments}</h2>
          <ul className="mt-1 space-y-2 text-sm">
            {view.payments.map((p) => (
              <li key={p.txid} data-testid="payment" className="rounded-md border border-slate-300 p-2 dark:border-slate-600">
                {amountText(p.amount)}
                {' · '}
                {p.status === 'detected' ? interpolate(m.confirmations, { k: p.confirmations, n: view.requiredConfirmations }) : m.paymentStatus[p.status]}
                <span className="block">
                  {`${m.transaction}: `}
                  <code dir="ltr" className="break-all">{p.txid}</code>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {view.otherTransfers.length > 0 && (
        <section className="mt-4">
          <h2 className="font-semibold">{m.otherTransfers}</h2>
          <p className="text-sm">{m.otherTransfersNote}</p>
          <ul className="mt-1 space-y-2 text-sm">
            {view.otherTransfers.map((t) => (
              <li key={t.txid} data-testid="other-transfer" className="rounded-md border border-slate-300 p-2 dark:border-slate-600">
                {amountText(t.amount, t.currency)}
                {t.late && ` · ${m.lateLabel}`}
                <span className="block">
                  {`${m.transaction}: `}
                  <code dir="ltr" className="break-all">{t.txid}</code>
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {view.test && pending && (
        <section className="mt-4 rounded-lg border-2 border-dashed border-amber-600 p-3">
          <h2 className="font-semibold">{m.simulateTitle}</h2>
          <p className="text-sm">{m.simulateNote}</p>
          <div className="mt-2 flex flex-wrap gap-2">
            {(['full', 'partial', 'over'] as const).map((kind) => (
              <button key={kind} type="button" disabled={busy} onClick={() => void simulate(kind)} className={BUTTON}>
                {m[kind === 'full' ? 'simulateFull' : kind === 'partial' ? 'simulatePartial' : 'simulateOver']}
              </button>
            ))}
          </div>
          <p role="status" className="mt-2 break-all text-sm">
            {simulation}
          </p>
        </section>
      )}
    </>
  );
}
