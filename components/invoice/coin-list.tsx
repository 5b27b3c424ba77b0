/**
 * The coin choice (a server component): one group per coin, the merchant's most used first (the
 * view's order), each with its networks as submit buttons of one form posting `coin=TICKER@network`
 * to the page's server action, so that a choice works without JavaScript. Each network shows the
 * amount a choice made now would ask, its name and, for a token, its standard (TRC-20, ERC-20...);
 * a network without a fresh price is shown disabled. A long list gets a search box (./coin-search).
 * An optional e-mail address for the order's mails and a refund's claim link (docs/decisions/110)
 * is posted with the choice from its field (PayerEmailField), which the page places in the order
 * summary: beside the list on a wide screen (the list stays as short), above it on a phone.
 */
import type { InvoiceCoin } from '@/lib/invoices/view';
import type { Language } from '@/lib/pay/i18n';
import type { InvoiceMessages } from '@/lib/pay/messages';
import { CoinIcon, NetworkIcon } from '../icons/coin-icon';
import { ChoiceButton, ChoicePending } from './choice-button';
import { CoinFilterItem, CoinSearch } from './coin-search';

/**
 * From this many coins on, the list gets a search box. Kept here, not in the client module: a
 * server component importing a value from a 'use client' module gets a reference, not the value.
 */
export const SEARCH_FROM = 7;

/** The coin form's id: the e-mail field, outside it, belongs to it by its `form` attribute. */
const COIN_FORM_ID = 'invoice-coins';

/** The payer's optional e-mail address, posted with the coin chosen (no JavaScript needed). */
export function PayerEmailField({ im }: { im: InvoiceMessages }) {
  return (
    <div className="mt-3 text-sm">
      <label htmlFor="payer-email" className="block font-medium">
        {im.emailLabel}
      </label>
      <input
        id="payer-email"
        form={COIN_FORM_ID}
        name="payerEmail"
        type="email"
        autoComplete="email"
        maxLength={254}
        dir="ltr"
        aria-describedby="payer-email-hint"
        className="mt-1 block w-full rounded-md border border-line-strong bg-surface px-3 py-2 focus-ring"
      />
      <p id="payer-email-hint" className="mt-1 text-xs">
        {im.emailHint}
      </p>
    </div>
  );
}

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
    <form id={COIN_FORM_ID} action={choose} className="mt-3">
      {/*
       * The form's default button, disabled: Enter in the e-mail field (PayerEmailField, the form's
       * by its `form` attribute) submits nothing, rather than choosing the list's first coin
       * (implicit submission clicks the form's first submit button).
       */}
      <button type="submit" disabled hidden aria-hidden="true" tabIndex={-1} />
      {/* The payment page opens in the language chosen here. */}
      <input type="hidden" name="lang" value={language} />
      <ul aria-labelledby="coins-heading" className="space-y-2">
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

/** The amount every network of the coin asks, when they all ask the same (and have a price): shown once. */
function sharedAmount(coin: InvoiceCoin): string | null {
  const amounts = new Set(coin.networks.map((n) => n.amount));
  const [only] = amounts;
  return amounts.size === 1 && only !== undefined ? only : null;
}

/**
 * One coin: its icon and heading and a button per network. The amount a choice asks shows once in
 * the heading when every network asks the same, and in each button otherwise; each button still
 * says it to a screen reader, so that its name is the whole choice ("Tron TRC-20 73.5 USDT").
 * A coin on one network keeps its button on the heading's line where it fits: the list is as
 * short as it can be (22 choices of the demo store, docs/decisions/087). The `{' '}` between the
 * parts keep accessible names readable.
 */
function CoinGroup({ coin, current, im }: { coin: InvoiceCoin; current: string | null; im: InvoiceMessages }) {
  const headingId = `coin-${coin.ticker}`;
  const shared = sharedAmount(coin);
  const single = coin.networks.length === 1;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-line p-3"
    >
      <h3 id={headingId} className="flex min-w-40 flex-1 flex-wrap items-center gap-x-2">
        <CoinIcon ticker={coin.ticker} />{' '}
        <span dir="ltr" className="font-semibold">
          {coin.ticker}
        </span>{' '}
        <span className="text-sm font-normal text-muted">{coin.name}</span>
        {shared !== null && !single && (
          <>
            {' '}
            <span dir="ltr" className="ms-auto break-all font-mono text-sm font-semibold">
              {`${shared} ${coin.ticker}`}
            </span>
          </>
        )}
      </h3>
      <ul className={single ? 'w-full sm:w-auto' : 'grid w-full grid-cols-[repeat(auto-fill,minmax(10rem,1fr))] gap-2'}>
        {coin.networks.map((network) => {
          const value = `${coin.ticker}@${network.network}`;
          const amount = network.amount === null ? null : `${network.amount} ${coin.ticker}`;
          return (
            <li key={network.network}>
              <ChoiceButton name="coin" value={value} disabled={network.amount === null} current={value === current}>
                <span className="flex flex-wrap items-center gap-1.5">
                  <NetworkIcon network={network.network} />
                  <span className="font-medium">{network.networkName}</span>{' '}
                  {network.tokenStandard && (
                    <span className="rounded-full bg-tag px-2 py-0.5 text-xs font-semibold text-on-tag">
                      {network.tokenStandard}
                    </span>
                  )}
                </span>{' '}
                {amount === null ? (
                  <span className="text-sm">{im.priceUnavailable}</span>
                ) : (
                  <span
                    dir="ltr"
                    className={shared !== null && !single ? 'sr-only' : 'break-all font-mono text-sm font-semibold'}
                  >
                    {amount}
                  </span>
                )}
              </ChoiceButton>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
