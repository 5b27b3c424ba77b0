'use client';
/**
 * Copies `value` to the clipboard: a native button (keyboard-operable), named by `label`, whose
 * result is announced to screen readers through its own polite live region.
 */
import { useState } from 'react';

export function CopyButton({ value, label, text, done }: { value: string; label: string; text: string; done: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // No clipboard API (an insecure origin, an old browser): the selection fallback.
      const area = document.createElement('textarea');
      area.value = value;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <>
      <button
        type="button"
        onClick={() => void copy()}
        aria-label={label}
        className="shrink-0 rounded-md border border-line-strong px-2.5 py-1 text-sm font-medium hover:bg-raised"
      >
        <span aria-hidden="true">{copied ? done : text}</span>
      </button>
      <span role="status" className="sr-only">
        {copied ? done : ''}
      </span>
    </>
  );
}
