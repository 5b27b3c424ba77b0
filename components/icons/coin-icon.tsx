/**
 * A coin's or a network's icon (lib/catalog/icons: Web3 Icons, MIT), the same on the payer's pages and
 * in the dashboard, as an `<img>` of its own small cached file: a page loads the icons it shows and
 * no others, and no script. Decorative
 * (`alt=""`): the ticker or network name beside it says what it is. A coin the set has no icon for
 * (RLUSD) gets its initial in a disc of the same size. Server components only: the icon table
 * must not reach a client bundle. Outside the dashboard's kit (components/ui), which the payer's
 * pages do not import (decision 089).
 */
import { iconUrl } from '@/lib/catalog/icons';

const SIZE = { sm: 'size-4', md: 'size-6', lg: 'size-7' } as const;

export function CoinIcon({ ticker, size = 'md' }: { ticker: string; size?: keyof typeof SIZE }) {
  const url = iconUrl('coin', ticker);
  if (url === null)
    return (
      <span
        aria-hidden="true"
        className={`${SIZE[size]} inline-flex shrink-0 items-center justify-center rounded-full bg-muted text-[0.625rem] font-bold text-surface`}
      >
        {ticker.slice(0, 1)}
      </span>
    );
  return <img src={url} alt="" width={24} height={24} className={`${SIZE[size]} shrink-0`} />;
}

export function NetworkIcon({ network, size = 'sm' }: { network: string; size?: keyof typeof SIZE }) {
  const url = iconUrl('network', network);
  return url === null ? null : <img src={url} alt="" width={24} height={24} className={`${SIZE[size]} shrink-0`} />;
}
