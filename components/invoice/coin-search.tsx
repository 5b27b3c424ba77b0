'use client';
/**
 * The search box of a long coin list (./coin-list SEARCH_FROM): filters the coins by ticker,
 * name or network as the payer types, and says how many are shown. The list itself is rendered
 * on the server; each coin is wrapped in a CoinFilterItem that hides itself when it does not
 * match. Without JavaScript the box is not drawn and the full list shows.
 *
 * The box sits outside the coin form: Enter in it must not submit the form's first choice.
 */
import { createContext, useContext, useId, useState, useSyncExternalStore, type ReactNode } from 'react';
import { interpolate } from '@/lib/pay/format';

export interface SearchTexts {
  label: string;
  hint: string;
  count: string;
  none: string;
}

/** The coins shown for the current query (by key), or null when nothing is typed. */
const Shown = createContext<ReadonlySet<string> | null>(null);

const noSubscription = () => () => {};

/**
 * Whether `query` matches `text` (a coin's ticker, name and networks): every word of the query
 * appears in it, ignoring case. Here rather than in lib/pay/format, which the payment page's
 * bundle shares with this page: it would carry this function too.
 */
function matchesSearch(text: string, query: string): boolean {
  const haystack = text.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/** True once the page runs script (false in the server's HTML and during hydration). */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export function CoinSearch({
  items,
  texts,
  children,
}: {
  items: { key: string; text: string }[];
  texts: SearchTexts;
  children: ReactNode;
}) {
  const [query, setQuery] = useState('');
  const hydrated = useHydrated();
  const id = useId();
  const active = query.trim() !== '';
  const shown = active
    ? new Set(items.filter((item) => matchesSearch(item.text, query)).map((item) => item.key))
    : null;
  return (
    <>
      {hydrated && (
        <div className="mt-3">
          <label htmlFor={`${id}-q`} className="block text-sm font-medium">
            {texts.label}
          </label>
          <input
            id={`${id}-q`}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder={texts.hint}
            autoComplete="off"
            spellCheck={false}
            className="mt-1 w-full rounded-md border border-line-strong bg-surface px-3 py-2 text-base text-ink placeholder:text-muted focus-ring"
          />
          <p role="status" className={shown?.size === 0 ? 'empty-state mt-2' : 'mt-1 text-sm'}>
            {shown
              ? shown.size === 0
                ? texts.none
                : interpolate(texts.count, { shown: shown.size, total: items.length })
              : ''}
          </p>
        </div>
      )}
      <Shown.Provider value={shown}>{children}</Shown.Provider>
    </>
  );
}

/** A coin of the list (`<li>`), hidden while the search does not match it. */
export function CoinFilterItem({ coin, children }: { coin: string; children: ReactNode }) {
  const shown = useContext(Shown);
  return <li hidden={shown !== null && !shown.has(coin)}>{children}</li>;
}
