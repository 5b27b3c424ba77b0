'use client';
/**
 * The accent colour field: `#rrggbb` typed or picked, with a live preview of a button in that
 * colour with white text (as the payment page will draw it). Whether white text on it is legible
 * enough is decided on the server when saving (lib/merchants BRAND_COLOR).
 */
import { useState } from 'react';
import { Input } from '@/components/ui/input';

const HEX = /^#[0-9a-f]{6}$/i;

export function ColorField({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  const valid = HEX.test(value.trim());
  return (
    <div>
      <label htmlFor="brand-color" className="block font-medium">
        Accent colour
      </label>
      <p id="brand-color-help" className="text-sm text-muted">
        For the payment and invoice pages&apos; buttons and header line, written #rrggbb. White text must be legible on
        it (WCAG AA, 4.5:1). Empty: the default look.
      </p>
      <div className="mt-1 flex flex-wrap items-center gap-3">
        <Input
          id="brand-color"
          name="color"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          placeholder="#1d4ed8"
          maxLength={7}
          aria-describedby="brand-color-help"
          className="w-32 font-mono"
        />
        <input
          type="color"
          aria-label="Pick the accent colour"
          value={valid ? value.trim().toLowerCase() : '#000000'}
          onChange={(event) => setValue(event.target.value)}
          className="h-9 w-12 cursor-pointer rounded-md border border-slate-400 bg-transparent dark:border-slate-500"
        />
        <span
          data-testid="color-preview"
          aria-hidden="true"
          style={valid ? { backgroundColor: value.trim() } : undefined}
          className={`rounded-md px-4 py-2 font-medium ${valid ? 'text-white' : 'bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900'}`}
        >
          Open wallet
        </span>
      </div>
    </div>
  );
}
