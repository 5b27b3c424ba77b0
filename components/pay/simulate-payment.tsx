'use client';
/**
 * Test mode's "Simulate payment" panel: full, partial or over, posted to `/api/sandbox/pay`, so
 * the payment goes through the sandbox ledger, the watcher and the state machine like any other.
 * Says the transaction sent (or why not) and asks for the order's view at once (`onSent`).
 * The buttons are offered only while something is left to pay (`canPay`): once the payments seen
 * cover the order, or its time is up, the panel keeps only what it sent.
 */
import { useState } from 'react';
import { interpolate } from '@/lib/pay/format';
import type { Messages } from '@/lib/pay/messages';
import { BUTTON } from './ui';

const KINDS = ['full', 'partial', 'over'] as const;
type Kind = (typeof KINDS)[number];
const LABEL = { full: 'simulateFull', partial: 'simulatePartial', over: 'simulateOver' } as const satisfies Record<
  Kind,
  keyof Messages
>;

export function SimulatePayment({
  orderId,
  m,
  onSent,
  canPay,
}: {
  orderId: string;
  m: Messages;
  onSent: () => void;
  canPay: boolean;
}) {
  const [result, setResult] = useState('');
  const [busy, setBusy] = useState(false);
  const simulate = async (kind: Kind) => {
    setBusy(true);
    try {
      const response = await fetch('/api/sandbox/pay', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId, kind }),
      });
      const body = (await response.json()) as { txHash?: string; error?: string };
      setResult(
        response.ok
          ? interpolate(m.simulateSent, { tx: body.txHash ?? '' })
          : interpolate(m.simulateFailed, { error: body.error ?? response.status }),
      );
      onSent();
    } catch (error) {
      setResult(interpolate(m.simulateFailed, { error: String(error) }));
    }
    setBusy(false);
  };
  if (!canPay && !result) return null;
  return (
    <section className="mt-4 rounded-lg border-2 border-dashed border-wait-line p-3">
      <h2 className="font-semibold">{m.simulateTitle}</h2>
      {canPay && (
        <>
          <p className="text-sm">{m.simulateNote}</p>
          <div className="mt-2 flex flex-wrap gap-2">
            {KINDS.map((kind) => (
              <button key={kind} type="button" disabled={busy} onClick={() => void simulate(kind)} className={BUTTON}>
                {m[LABEL[kind]]}
              </button>
            ))}
          </div>
        </>
      )}
      <p role="status" className="mt-2 break-all text-sm">
        {result}
      </p>
    </section>
  );
}
