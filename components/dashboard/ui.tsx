/**
 * The dashboard's shared look, in the design tokens of app/globals.css (docs/decisions/101): class
 * names and tiny presentational pieces. Server components;
 * nothing here needs the browser's JavaScript. Controls (buttons, inputs, fields, tables, badges,
 * dialogs, menus) are the kit's, in components/ui.
 */
import Link from 'next/link';
import type { ReactNode } from 'react';
import { FIAT_CURRENCIES } from '@/lib/catalog';

export const LINK = 'text-link underline underline-offset-2 hover:text-link-hover focus-ring';
export const CARD = 'rounded-lg border border-line p-4';
/** Secondary text that still meets the contrast axe asks for on both backgrounds (the `muted` token). */
export const MUTED = 'text-muted';

/**
 * The body of every signed-in dashboard page (the frame's `main` holds it): the title first, where
 * it starts on every page, then what the page says of itself and the way back to its list. A page
 * adds no margin or padding around itself, so its heading starts at the frame's one offset
 * (e2e/polish.spec.ts measures it on every page; tests/dashboard-kit.test.ts holds every page to
 * this component). `narrow` keeps a page of forms to a readable line length, aligned where the
 * others start.
 */
export function PageBody({
  title,
  description,
  back,
  narrow = false,
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  back?: { href: string; label: string };
  narrow?: boolean;
  children: ReactNode;
}) {
  return (
    <div data-testid="page-body" className={narrow ? 'max-w-3xl' : undefined}>
      <div className="mb-4">
        <h1 className="text-title font-semibold">{title}</h1>
        {description ? <p className={`mt-1 text-sm ${MUTED}`}>{description}</p> : null}
        {back ? (
          <p className="mt-1 text-sm">
            <Link href={back.href} className={LINK}>
              {`← ${back.label}`}
            </Link>
          </p>
        ) : null}
      </div>
      {children}
    </div>
  );
}

/** A titled section with its own heading level below the page's h1. */
export function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <section aria-labelledby={id ? `${id}-title` : undefined} className="mt-6">
      <h2 id={id ? `${id}-title` : undefined} className="mb-2 text-section font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A message box: `error` for a refused filter or action, `info` for a notice. */
export function Notice({ tone = 'info', children }: { tone?: 'info' | 'error' | 'success'; children: ReactNode }) {
  const look = {
    info: 'border-info-line bg-info-surface text-info-ink',
    error: 'border-bad-line bg-bad-surface text-bad-ink',
    success: 'border-good-line bg-good-surface text-good-ink',
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
