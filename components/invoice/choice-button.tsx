'use client';
/**
 * One choice of the coin form: a submit button that posts `name=value` (`coin=USDT@tron`), so the
 * choice works without JavaScript. With it, every choice of the form is disabled while one is on
 * its way (a second tap would race the first), and ChoicePending says so.
 */
import type { ReactNode } from 'react';
import { useFormStatus } from 'react-dom';

export function ChoiceButton({
  name,
  value,
  disabled,
  current,
  children,
}: {
  name: string;
  value: string;
  disabled: boolean;
  current: boolean;
  children: ReactNode;
}) {
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      name={name}
      value={value}
      disabled={disabled || pending}
      aria-current={current ? 'true' : undefined}
      className="flex min-h-11 w-full flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-md border border-line-strong px-3 py-1.5 text-start hover:bg-raised focus-ring disabled:cursor-not-allowed disabled:opacity-60 disabled:hover:bg-transparent aria-[current=true]:border-2 aria-[current=true]:border-info-line"
    >
      {children}
    </button>
  );
}

/** "Preparing your payment…" while the form's choice is on its way, announced politely. */
export function ChoicePending({ text }: { text: string }) {
  const { pending } = useFormStatus();
  return (
    <p role="status" className="mt-2 text-sm font-medium">
      {pending ? text : ''}
    </p>
  );
}
