'use client';
/**
 * The accent colour field: `#rrggbb` typed or picked, with a live preview of a button in that
 * colour with white text (as the payment page will draw it). Whether white text on it is legible
 * enough is decided on the server when saving (lib/merchants BRAND_COLOR).
 */
import { useState, type CSSProperties } from 'react';
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
          className="h-9 w-12 cursor-pointer rounded-md border border-line-strong bg-transparent"
        />
        {/* The payment page's rule (app/globals.css [data-brand]): a valid colour becomes the primary, under white. */}
        <span
          data-testid="color-preview"
          aria-hidden="true"
          data-brand={valid ? '' : undefined}
          style={valid ? ({ '--brand': value.trim() } as CSSProperties) : undefined}
          className="rounded-md bg-primary px-4 py-2 font-medium text-on-primary"
        >
          Open wallet
        </span>
      </div>
    </div>
  );
}
