'use client';
/**
 * The keypad over the amount field: digits, the decimal point, delete and clear, for one thumb.
 * Without JavaScript the field is typed into instead (the form posts the same).
 */
import { useRef } from 'react';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '.', '0'] as const;

export function Keypad({ field, clear, backspace }: { field: string; clear: string; backspace: string }) {
  const press = (key: string) => {
    const input = document.getElementById(field) as HTMLInputElement | null;
    if (!input) return;
    if (key === 'back') input.value = input.value.slice(0, -1);
    else if (key === 'clear') input.value = '';
    else if (key !== '.' || !input.value.includes('.')) input.value = `${input.value}${key}`;
  };
  const grid = useRef<HTMLDivElement>(null);
  const KEY = 'rounded-lg border border-line-strong py-3 text-2xl font-semibold';
  return (
    <div ref={grid} className="grid grid-cols-3 gap-2" dir="ltr" data-testid="keypad">
      {KEYS.map((key) => (
        <button key={key} type="button" className={KEY} onClick={() => press(key)}>
          {key}
        </button>
      ))}
      <button type="button" className={KEY} onClick={() => press('back')} aria-label={backspace}>
        ⌫
      </button>
      <button type="button" className={`${KEY} col-span-3 text-base`} onClick={() => press('clear')}>
        {clear}
      </button>
    </div>
  );
}
