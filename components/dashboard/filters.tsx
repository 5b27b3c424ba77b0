/**
 * The filter form of the orders, invoices and deposits lists: a plain GET form, so that filtering
 * works without JavaScript and every filtered view is a link that can be shared or bookmarked.
 * The names are the query parameters lib/dashboard's filter schemas read.
 */
import Link from 'next/link';
import { NETWORKS } from '@/lib/catalog';
import { BUTTON, INPUT, LABEL, LINK } from './ui';

export interface FilterValues {
  status?: string;
  network?: string;
  currency?: string;
  from?: string;
  to?: string;
  q?: string;
}

interface Props {
  /** The list's path, e.g. `/dashboard/orders`. */
  action: string;
  values: FilterValues;
  statuses: readonly string[];
  /** Placeholder-free label of the search box: what it finds. */
  searchLabel: string;
}

const TICKERS = [...new Set(NETWORKS.flatMap((n) => n.currencies.map((c) => c.ticker)))].sort();

function Select({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value?: string;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <div>
      <label htmlFor={`filter-${name}`} className={LABEL}>
        {label}
      </label>
      <select id={`filter-${name}`} name={name} defaultValue={value ?? ''} className={INPUT}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Filters({ action, values, statuses, searchLabel }: Props) {
  return (
    <form
      method="get"
      action={action}
      role="search"
      aria-label="Filters"
      className="mb-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6"
    >
      <div className="col-span-2 sm:col-span-3 lg:col-span-6">
        <label htmlFor="filter-q" className={LABEL}>
          {searchLabel}
        </label>
        <input
          id="filter-q"
          type="search"
          name="q"
          defaultValue={values.q ?? ''}
          className={INPUT}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <Select
        name="status"
        label="Status"
        value={values.status}
        options={statuses.map((s) => ({ value: s, label: s }))}
      />
      <Select
        name="network"
        label="Network"
        value={values.network}
        options={NETWORKS.map((n) => ({ value: n.name, label: n.displayName }))}
      />
      <Select
        name="currency"
        label="Coin"
        value={values.currency}
        options={TICKERS.map((t) => ({ value: t, label: t }))}
      />
      <div>
        <label htmlFor="filter-from" className={LABEL}>
          From (UTC)
        </label>
        <input id="filter-from" type="date" name="from" defaultValue={values.from ?? ''} className={INPUT} />
      </div>
      <div>
        <label htmlFor="filter-to" className={LABEL}>
          To (UTC, inclusive)
        </label>
        <input id="filter-to" type="date" name="to" defaultValue={values.to ?? ''} className={INPUT} />
      </div>
      <div className="flex items-end gap-3">
        <button type="submit" className={BUTTON}>
          Apply
        </button>
        <Link href={action} className={`${LINK} text-sm`}>
          Clear
        </Link>
      </div>
    </form>
  );
}
