'use client';
/**
 * A sale in progress on the point of sale: keeps its id in this browser's storage (a dropped
 * connection or a reload comes back to it), asks its state every 3 s, and when it is paid shows
 * so and plays a short beep (WebAudio, no audio file) unless the cashier muted it (remembered in
 * this browser). `resume` on the empty keypad page sends the cashier back to a sale in progress.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';

const SALE_KEY = 'cg.pos.sale';
const MUTED_KEY = 'cg.pos.muted';
const MUTED_EVENT = 'cg-pos-muted';

/** The mute toggle, remembered in this browser: read through React's store hook (the server renders it unmuted). */
function subscribeMuted(onChange: () => void): () => void {
  window.addEventListener(MUTED_EVENT, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(MUTED_EVENT, onChange);
    window.removeEventListener('storage', onChange);
  };
}
const readMuted = () => localStorage.getItem(MUTED_KEY) === '1';
function setMuted(muted: boolean): void {
  localStorage.setItem(MUTED_KEY, muted ? '1' : '0');
  window.dispatchEvent(new Event(MUTED_EVENT));
}

function beep(): void {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    tone.frequency.value = 880;
    tone.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch {
    // No audio (a browser without WebAudio): the screen says it.
  }
}

export function ResumeSale({ lang }: { lang: string }) {
  useEffect(() => {
    const saleId = localStorage.getItem(SALE_KEY);
    if (saleId && /^[0-9a-f-]{36}$/.test(saleId)) window.location.replace(`/dashboard/pos?sale=${saleId}&lang=${lang}`);
  }, [lang]);
  return null;
}

export function SaleWatch({
  saleId,
  initial,
  texts,
}: {
  saleId: string;
  initial: 'waiting' | 'paid' | 'failed';
  texts: { waiting: string; paid: string; failed: string; sound: string };
}) {
  const [state, setState] = useState(initial);
  const muted = useSyncExternalStore(subscribeMuted, readMuted, () => false);
  useEffect(() => {
    if (initial === 'waiting') localStorage.setItem(SALE_KEY, saleId);
    else localStorage.removeItem(SALE_KEY);
  }, [saleId, initial]);
  useEffect(() => {
    if (state !== 'waiting') return;
    const timer = setInterval(async () => {
      try {
        const response = await fetch(`/dashboard/pos/sales/${saleId}`, { cache: 'no-store' });
        if (!response.ok) return;
        const { state: next } = (await response.json()) as { state: typeof state };
        if (next === 'waiting') return;
        localStorage.removeItem(SALE_KEY);
        if (next === 'paid' && !readMuted()) beep();
        setState(next);
      } catch {
        // Offline for a moment: the next tick asks again, and a reload resumes the sale.
      }
    }, 3000);
    return () => clearInterval(timer);
  }, [saleId, state]);
  const look = {
    waiting: 'bg-info-surface text-info-ink',
    paid: 'bg-good-strong text-on-good-strong',
    failed: 'bg-bad-surface text-bad-ink',
  }[state];
  return (
    <div className="space-y-3">
      <p
        role="status"
        data-testid="sale-state"
        data-state={state}
        className={`rounded-lg p-4 text-center text-3xl font-bold ${look}`}
      >
        {texts[state]}
      </p>
      <label className="flex items-center justify-center gap-2 text-sm">
        <input type="checkbox" checked={!muted} onChange={(event) => setMuted(!event.target.checked)} />
        {texts.sound}
      </label>
    </div>
  );
}
