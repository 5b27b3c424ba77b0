/** Class names of the sign-in, set-up, account and team forms (one look, readable in light and dark). */
export const INPUT =
  'mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100';
export const LABEL = 'block text-sm font-medium';
export const BUTTON =
  'rounded-md bg-emerald-700 px-4 py-2 font-semibold text-white hover:bg-emerald-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-slate-950';
export const SECONDARY_BUTTON =
  'rounded-md border border-slate-400 px-4 py-2 font-medium text-slate-900 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 dark:border-slate-500 dark:text-slate-100 dark:hover:bg-slate-800';
export const DANGER_BUTTON =
  'rounded-md bg-red-700 px-4 py-2 font-semibold text-white hover:bg-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-600 focus-visible:ring-offset-2 dark:focus-visible:ring-offset-slate-950';
export const ALERT = 'rounded-md bg-red-100 px-3 py-2 text-red-900 dark:bg-red-900/40 dark:text-red-100';
export const NOTICE =
  'rounded-md bg-emerald-100 px-3 py-2 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100';
export const CARD = 'mx-auto mt-16 max-w-sm rounded-lg border border-slate-200 p-6 shadow-sm dark:border-slate-800';
