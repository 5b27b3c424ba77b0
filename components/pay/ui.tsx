/**
 * Small pieces shared by the leaves of the live panel: plain functions rather than components,
 * which costs the page's JavaScript budget less.
 */
import { formatAmount } from '@/lib/pay/format';

/** The look of the panel's buttons and button-like links (in the merchant's accent colour when set: ./brand). */
export const BUTTON =
  'brand-button rounded-md bg-slate-900 px-4 py-2 font-medium text-white disabled:opacity-60 dark:bg-slate-100 dark:text-slate-900';

/** An amount with its currency, digits grouped as the page's language writes them, left to right inside any language. */
export function amountText(amount: string, currency: string, language: string) {
  return <span dir="ltr" className="font-mono">{`${formatAmount(amount, language)} ${currency}`}</span>;
}
