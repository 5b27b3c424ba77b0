'use client';
/**
 * The countdown to the order's (or the invoice's) deadline, on the server's clock: the browser's
 * may be off by minutes. `useTimeLeft` ticks every second while `running`; `Countdown` shows the time left, the
 * "expiring soon" warning, then "time is up".
 */
import { useEffect, useRef, useState } from 'react';
import { formatCountdown, type CountdownPhase } from '@/lib/pay/format';
import type { Messages } from '@/lib/pay/messages';

/** Milliseconds left until `expiresAt`, by the clock of the server that answered `serverTime`. */
export function useTimeLeft(expiresAt: string, serverTime: string, running: boolean): number {
  const offset = useRef(0);
  const [now, setNow] = useState(() => Date.parse(serverTime));
  useEffect(() => {
    offset.current = Date.parse(serverTime) - Date.now();
  }, [serverTime]);
  useEffect(() => {
    if (!running) return;
    const tick = () => setNow(Date.now() + offset.current);
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [running]);
  return Date.parse(expiresAt) - now;
}

/** The texts the countdown says (the payment page's and the invoice page's). */
export type CountdownMessages = Pick<Messages, 'timeLeft' | 'expiringSoon' | 'timeUp' | 'separators'>;

interface CountdownProps {
  left: number;
  phase: CountdownPhase;
  expiresAt: string;
  m: CountdownMessages;
  /** Its margin: under a text by default, none beside a heading. */
  className?: string;
}

export function Countdown({ left, phase, expiresAt, m, className = 'mt-2' }: CountdownProps) {
  return (
    <p className={`${className} text-sm font-medium ${phase === 'running' ? '' : 'text-bad-text'}`} data-phase={phase}>
      {phase === 'over' ? m.timeUp : `${phase === 'soon' ? m.expiringSoon : m.timeLeft}${m.separators.label}`}
      {phase !== 'over' && (
        <time dir="ltr" dateTime={expiresAt} className="font-mono tabular-nums">
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
  );
}
