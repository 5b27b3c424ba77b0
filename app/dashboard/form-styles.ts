/** Class names of the sign-in, set-up, account and team forms' answers and card (readable in light and dark); their controls are components/ui's. */
export const ALERT = 'rounded-md bg-red-100 px-3 py-2 text-red-900 dark:bg-red-900/40 dark:text-red-100';
export const NOTICE =
  'rounded-md bg-emerald-100 px-3 py-2 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100';
export const CARD = 'mx-auto mt-16 max-w-sm rounded-lg border border-slate-200 p-6 shadow-sm dark:border-slate-800';
