/**
 * Small pieces shared by the payer pages' components (the live panel's leaves, and the server-drawn
 * pages for `fill`): plain functions rather than components, which costs the page's JavaScript
 * budget less.
 */
import type { ReactNode } from 'react';
import { formatAmount } from '@/lib/pay/format';

/**
 * The look of the panel's buttons and button-like links: the dashboard's primary in the shared
 * design tokens (app/globals.css), which take the merchant's brand colour on a branded page (./brand).
 */
export const BUTTON =
  'rounded-md bg-primary px-4 py-2 font-medium text-on-primary hover:bg-primary-hover focus-ring disabled:opacity-60';

/** An amount with its currency, digits grouped as the page's language writes them, left to right inside any language. */
export function amountText(amount: string, currency: string, language: string) {
  return <span dir="ltr" className="font-mono">{`${formatAmount(amount, language)} ${currency}`}</span>;
}

/**
 * A message with its `{name}` placeholders filled, each value in a `<bdi>`: isolated from the
 * sentence, so that a merchant's or a network's name keeps its own direction and its punctuation
 * its place in any language ("دفعة إلى ACME!", not "دفعة إلى !ACME"). Plain-text places use
 * lib/pay/format `isolate`.
 */
export function fill(template: string, values: Record<string, string>): ReactNode {
  // split() with a capturing group: the texts at even indices, the placeholders' names at odd ones.
  return template
    .split(/\{(\w+)\}/)
    .map((part, i) => (i % 2 === 0 ? part : <bdi key={i}>{values[part] ?? `{${part}}`}</bdi>));
}
