/**
 * The filter form of the orders, invoices and deposits lists: a plain GET form, so that filtering
 * works without JavaScript and every filtered view is a link that can be shared or bookmarked.
 * The names are the query parameters lib/dashboard's filter schemas read.
 */
import Link from 'next/link';
import { NETWORKS } from '@/lib/catalog';
import { LINK } from './ui';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';

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

function FilterSelect({
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
      <Label htmlFor={`filter-${name}`}>{label}</Label>
      <Select id={`filter-${name}`} name={name} defaultValue={value ?? ''}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
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
        <Label htmlFor="filter-q">{searchLabel}</Label>
        <Input
          id="filter-q"
          type="search"
          name="q"
          defaultValue={values.q ?? ''}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <FilterSelect
        name="status"
        label="Status"
        value={values.status}
        options={statuses.map((s) => ({ value: s, label: s }))}
      />
      <FilterSelect
        name="network"
        label="Network"
        value={values.network}
        options={NETWORKS.map((n) => ({ value: n.name, label: n.displayName }))}
      />
      <FilterSelect
        name="currency"
        label="Coin"
        value={values.currency}
        options={TICKERS.map((t) => ({ value: t, label: t }))}
      />
      <div>
        <Label htmlFor="filter-from">From (UTC)</Label>
        <Input id="filter-from" type="date" name="from" defaultValue={values.from ?? ''} />
      </div>
      <div>
        <Label htmlFor="filter-to">To (UTC, inclusive)</Label>
        <Input id="filter-to" type="date" name="to" defaultValue={values.to ?? ''} />
      </div>
      <div className="flex items-end gap-3">
        <Button type="submit" variant="primary">
          Apply
        </Button>
        <Link href={action} className={`${LINK} text-sm`}>
          Clear
        </Link>
      </div>
    </form>
  );
}
