/**
 * The dashboard's shared look: class names and tiny presentational pieces. Server components;
 * nothing here needs the browser's JavaScript.
 */
import type { ReactNode } from 'react';
import { FIAT_CURRENCIES } from '@/lib/catalog';

/** Buttons and button-like links. The focus ring is the browser's outline, kept visible. */
export const BUTTON =
  'inline-flex items-center justify-center rounded-md bg-slate-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 disabled:opacity-60 dark:bg-slate-100 dark:text-slate-900 dark:hover:bg-slate-300';
export const BUTTON_QUIET =
  'inline-flex items-center justify-center rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 dark:border-slate-600 dark:hover:bg-slate-800';
export const LINK =
  'text-sky-800 underline underline-offset-2 hover:text-sky-600 dark:text-sky-300 dark:hover:text-sky-200';
export const INPUT =
  'block w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100';
export const LABEL = 'block text-sm font-medium text-slate-700 dark:text-slate-300';
export const CARD = 'rounded-lg border border-slate-200 p-4 dark:border-slate-700';
/** Secondary text that still meets the contrast axe asks for on both backgrounds. */
export const MUTED = 'text-slate-600 dark:text-slate-400';

export function PageTitle({ children, description }: { children: ReactNode; description?: ReactNode }) {
  return (
    <div className="mb-4">
      <h1 className="text-2xl font-semibold">{children}</h1>
      {description ? <p className={`mt-1 text-sm ${MUTED}`}>{description}</p> : null}
    </div>
  );
}

/** A titled section with its own heading level below the page's h1. */
export function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <section aria-labelledby={id ? `${id}-title` : undefined} className="mt-6">
      <h2 id={id ? `${id}-title` : undefined} className="mb-2 text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A message box: `error` for a refused filter or action, `info` for a notice. */
export function Notice({ tone = 'info', children }: { tone?: 'info' | 'error' | 'success'; children: ReactNode }) {
  const look = {
    info: 'border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-100',
    error: 'border-red-300 bg-red-50 text-red-950 dark:border-red-700 dark:bg-red-950 dark:text-red-100',
    success:
      'border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100',
  }[tone];
  return (
    <p role={tone === 'error' ? 'alert' : 'status'} className={`my-3 rounded-md border px-3 py-2 text-sm ${look}`}>
      {children}
    </p>
  );
}

/** A time as UTC, to the second, machine-readable in `dateTime`; a Date or an ISO string (the API's form). */
export function Time({ value }: { value: Date | string }) {
  const iso = typeof value === 'string' ? new Date(value).toISOString() : value.toISOString();
  return (
    <time dateTime={iso} className="whitespace-nowrap">
      {`${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`}
    </time>
  );
}

/** An amount and its coin, in a monospace font so that columns of figures line up. */
export function Amount({ value, currency }: { value: string; currency: string }) {
  return <span className="whitespace-nowrap font-mono">{`${value} ${currency}`}</span>;
}

/**
 * A price in the currency a merchant priced it in, as the viewer's locale writes it ("$4.50",
 * "4,50 €"). Intl formats the decimal string itself, exactly (no float), every digit kept; a price
 * in a coin (an invoice may be priced in one) is written as its amount and ticker.
 */
export function Price({ value, currency, locale }: { value: string; currency: string; locale: string }) {
  const text = FIAT_CURRENCIES.includes(currency)
    ? new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 20 }).format(
        value as unknown as number, // ES2023 Intl.NumberFormat formats a decimal string exactly
      )
    : `${value} ${currency}`;
  return <span className="whitespace-nowrap">{text}</span>;
}

/** Long identifiers (addresses, hashes, ids): monospace and allowed to break anywhere. */
export function Mono({ children }: { children: ReactNode }) {
  return <span className="break-all font-mono text-xs">{children}</span>;
}

const STATUS_LOOK: Record<'good' | 'bad' | 'wait' | 'neutral', string> = {
  good: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100',
  bad: 'bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100',
  wait: 'bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100',
  neutral: 'bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-slate-100',
};

/** How a status value reads: the words of lib/protocol's status lists (and a chain watcher's state), by their meaning. */
function toneOf(status: string): keyof typeof STATUS_LOOK {
  const s = status.toLowerCase();
  if (['processed', 'overpaid', 'delivered', 'watching'].includes(s)) return 'good';
  if (['error', 'failed', 'refused', 'rejected', 'reversed', 'partial', 'unhealthy'].includes(s)) return 'bad';
  if (['pending', 'init', 'created', 'starting'].includes(s)) return 'wait';
  return 'neutral';
}

/**
 * A status as a small badge; the word itself carries the meaning, the colour only repeats it. One
 * casing on every list: the API answers orders' statuses in lower case and invoices' and deposits'
 * in upper case (`processed`, `PROCESSED`), and a merchant reading both lists sees one word.
 */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium ${STATUS_LOOK[toneOf(status)]}`}>
      {status.toLowerCase().replaceAll('_', ' ')}
    </span>
  );
}

/** A transaction hash, linked to its block explorer when the network has one (none in test mode). */
export function TxLink({ hash, url }: { hash: string; url?: string }) {
  if (!url) return <Mono>{hash}</Mono>;
  return (
    <a href={url} className={LINK} rel="noreferrer noopener" target="_blank">
      <Mono>{hash}</Mono>
      <span className="sr-only"> (block explorer, opens in a new tab)</span>
    </a>
  );
}
