/** Class names of the sign-in, set-up, account and team forms' answers and card (readable in light and dark); their controls are components/ui's. */
export const ALERT = 'rounded-md bg-bad-surface px-3 py-2 text-bad-ink';
export const NOTICE = 'rounded-md bg-good-surface px-3 py-2 text-good-ink';
export const CARD = 'mx-auto mt-16 max-w-sm rounded-lg border border-line p-6 shadow-sm';
