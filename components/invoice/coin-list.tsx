/**
 * The coin choice (a server component): one group per coin, the merchant's most used first (the
 * view's order), each with its networks as submit buttons of one form posting `coin=TICKER@network`
 * to the page's server action, so that a choice works without JavaScript. Each network shows the
 * amount a choice made now would ask, its name and, for a token, its standard (TRC-20, ERC-20...);
 * a network without a fresh price is shown disabled. A long list gets a search box (./coin-search).
 */
import type { InvoiceCoin } from '@/lib/invoices/view';
import type { Language } from '@/lib/pay/i18n';
import type { InvoiceMessages } from '@/lib/pay/messages';
import { ChoiceButton, ChoicePending } from './choice-button';
import { CoinFilterItem, CoinSearch } from './coin-search';

/**
 * From this many coins on, the list gets a search box. Kept here, not in the client module: a
 * server component importing a value from a 'use client' module gets a reference, not the value.
 */
export const SEARCH_FROM = 7;

interface Props {
  coins: InvoiceCoin[];
  /** The network of the current choice (`TICKER@network`), marked in the list. */
  current: string | null;
  /** The page's server action (the invoice id bound to it). */
  choose: (form: FormData) => Promise<void>;
  language: Language;
  im: InvoiceMessages;
  /** The list's label: "Coins you can pay with", or "Or choose another coin" after a choice. */
  label: string;
}

/** What the search matches a coin by: ticker, name, and each network's name, id and token standard. */
export function searchTextOf(coin: InvoiceCoin): string {
  return [
    coin.ticker,
    coin.name,
    ...coin.networks.flatMap((n) => [n.network, n.networkName, n.tokenStandard ?? '']),
  ].join(' ');
}

export function CoinList({ coins, current, choose, language, im, label }: Props) {
  const searchable = coins.length >= SEARCH_FROM;
  const groups = coins.map((coin) => {
    const group = <CoinGroup coin={coin} current={current} im={im} />;
    return searchable ? (
      <CoinFilterItem key={coin.ticker} coin={coin.ticker}>
        {group}
      </CoinFilterItem>
    ) : (
      <li key={coin.ticker}>{group}</li>
    );
  });
  const form = (
    <form action={choose} className="mt-3">
      {/* The payment page opens in the language chosen here. */}
      <input type="hidden" name="lang" value={language} />
      <ul aria-labelledby="coins-heading" className="space-y-3">
        {groups}
      </ul>
      <ChoicePending text={im.choosing} />
    </form>
  );
  return (
    <section aria-labelledby="coins-heading" className="mt-5">
      <h2 id="coins-heading" className="text-lg font-semibold">
        {label}
      </h2>
      {searchable ? (
        <CoinSearch
          items={coins.map((coin) => ({ key: coin.ticker, text: searchTextOf(coin) }))}
          texts={{ label: im.searchLabel, hint: im.searchHint, count: im.searchCount, none: im.searchNone }}
        >
          {form}
        </CoinSearch>
      ) : (
        form
      )}
    </section>
  );
}

/**
 * One coin: its heading and a button per network. The `{' '}` between the parts of a heading or a
 * button keep its accessible name readable ("USDT Tether USD", "Tron TRC-20 73.5 USDT").
 */
function CoinGroup({ coin, current, im }: { coin: InvoiceCoin; current: string | null; im: InvoiceMessages }) {
  const headingId = `coin-${coin.ticker}`;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-300 p-3 dark:border-slate-600">
      <h3 id={headingId} className="flex flex-wrap items-baseline gap-x-2">
        <span dir="ltr" className="font-semibold">
          {coin.ticker}
        </span>{' '}
        <span className="text-sm font-normal text-slate-700 dark:text-slate-300">{coin.name}</span>
      </h3>
      <ul className="mt-2 space-y-2">
        {coin.networks.map((network) => {
          const value = `${coin.ticker}@${network.network}`;
          return (
            <li key={network.network}>
              <ChoiceButton name="coin" value={value} disabled={network.amount === null} current={value === current}>
                <span className="flex flex-wrap items-center gap-1.5">
                  <span className="font-medium">{network.networkName}</span>{' '}
                  {network.tokenStandard && (
                    <span className="rounded-full bg-indigo-700 px-2 py-0.5 text-xs font-semibold text-white dark:bg-indigo-300 dark:text-indigo-950">
                      {network.tokenStandard}
                    </span>
                  )}
                </span>{' '}
                {network.amount === null ? (
                  <span className="text-sm">{im.priceUnavailable}</span>
                ) : (
                  <span
                    dir="ltr"
                    className="break-all font-mono font-semibold"
                  >{`${network.amount} ${coin.ticker}`}</span>
                )}
              </ChoiceButton>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
