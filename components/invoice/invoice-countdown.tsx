'use client';
/**
 * The invoice's countdown (the payment page's ../pay/countdown on the server's clock). When the
 * time is up the page is drawn anew by the server (`router.refresh()`), which then shows the
 * expired screen instead of coins that can no longer be chosen.
 */
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { countdownPhase } from '@/lib/pay/format';
import { Countdown, useTimeLeft, type CountdownMessages } from '../pay/countdown';

const RETRY_MS = 5000;

export function InvoiceCountdown({
  expiresAt,
  serverTime,
  m,
}: {
  expiresAt: string;
  serverTime: string;
  m: CountdownMessages;
}) {
  const left = useTimeLeft(expiresAt, serverTime, true);
  const phase = countdownPhase(left);
  const router = useRouter();
  useEffect(() => {
    if (phase !== 'over') return;
    router.refresh();
    // Until the server's page says so too (this leaf is gone then): the clocks may differ by a little.
    const timer = setInterval(() => router.refresh(), RETRY_MS);
    return () => clearInterval(timer);
  }, [phase, router]);
  return <Countdown left={left} phase={phase} expiresAt={expiresAt} m={m} />;
}
