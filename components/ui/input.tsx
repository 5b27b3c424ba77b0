/**
 * The dashboard's text inputs, selects and text areas: one look, readable in light and dark, with
 * the same focus ring as the buttons, in the design tokens the payer's fields share (app/globals.css).
 * Server-safe. A label and its hint and error: `Field`.
 */
import type { InputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

const CONTROL =
  'block w-full border border-line-strong bg-surface text-ink focus-ring aria-invalid:border-bad-line disabled:opacity-60';

const join = (...classes: (string | undefined)[]) => classes.filter(Boolean).join(' ');

const REGULAR = 'rounded-md px-2.5 py-1.5 text-sm';

export function Input({
  large,
  className,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & {
  /** The point of sale's amount, read from across a counter. */
  large?: boolean;
}) {
  return (
    <input
      className={join(CONTROL, large ? 'rounded-lg px-3 py-3 text-end text-4xl font-bold' : REGULAR, className)}
      {...props}
    />
  );
}

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={join(CONTROL, REGULAR, className)} {...props} />;
}

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={join(CONTROL, REGULAR, className)} {...props} />;
}

/** A file picker: the browser's own control, its button drawn like the kit's secondary button. */
export function FileInput({ className, ...props }: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return (
    <input
      type="file"
      className={join(
        'block w-full text-sm file:me-3 file:rounded-md file:border file:border-line-strong file:bg-surface file:px-3 file:py-1.5 file:font-medium file:text-ink',
        className,
      )}
      {...props}
    />
  );
}
