/**
 * The dashboard's one button: variants as data, so that every page draws the same four kinds, in
 * the design tokens of app/globals.css (docs/decisions/101) the payer's buttons share. A
 * link that looks like a button is a `Button asChild` around the link (Radix Slot gives the link the
 * classes), not a second class string. Server-safe: no state, no effects.
 */
import { Slot } from '@radix-ui/react-slot';
import type { ButtonHTMLAttributes } from 'react';

const BASE =
  'inline-flex items-center justify-center gap-1 rounded-md font-medium focus-ring disabled:cursor-not-allowed disabled:opacity-60';

export const BUTTON_VARIANTS = {
  /** The page's main action (one per form). */
  primary: 'bg-primary text-on-primary hover:bg-primary-hover',
  /** Every other action, and links drawn as buttons. */
  secondary: 'border border-line-strong text-ink hover:bg-raised',
  /** Cannot be undone: revoke, remove, turn off. */
  danger: 'bg-danger text-on-danger hover:bg-danger-hover',
  /** A minor action inside text: drawn as a link. */
  text: 'text-link underline underline-offset-2 hover:text-link-hover',
} as const;

export const BUTTON_SIZES = {
  md: 'px-3 py-1.5 text-sm',
  /** The point of sale's big keys, pressed with a thumb. */
  lg: 'px-4 py-4 text-xl',
  /** No padding: for the `text` variant inside a sentence. */
  inline: 'text-sm',
} as const;

export type ButtonVariant = keyof typeof BUTTON_VARIANTS;
export type ButtonSize = keyof typeof BUTTON_SIZES;

/** The classes of a button of this kind; for the kit's own controls that must be other elements (a `<summary>`). */
export function buttonClasses(variant: ButtonVariant = 'secondary', size: ButtonSize = 'md', extra?: string): string {
  return [BASE, BUTTON_VARIANTS[variant], BUTTON_SIZES[size], extra].filter(Boolean).join(' ');
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Draw the one child (a link) as this button instead of rendering a `<button>`. */
  asChild?: boolean;
}

/** A `<button>` (type "button" unless told: a form's submit says `type="submit"`). */
export function Button({ variant, size, asChild, className, type, ...props }: ButtonProps) {
  const classes = buttonClasses(variant, size, className);
  if (asChild) return <Slot className={classes} {...props} />;
  return <button type={type ?? 'button'} className={classes} {...props} />;
}
