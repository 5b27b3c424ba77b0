import 'server-only';
/**
 * The overview screen: what a merchant received per coin (today, 7 and 30 days, and per day for a
 * chart), its orders by status, failed webhooks and each network's watcher.
 *
 * Days are UTC days; "7 days" is today and the six days before it. Received value is the sum of
 * counted payments (status `processed`) by the day they were first seen. The USD figures value
 * those amounts at the rate lib/rates answers now, labelled so: a coin without a fresh rate has
 * none (`priceUsd` null) and is left out of the USD totals, which then say which coins they miss.
 */
import { findNetwork } from '../catalog';
import { enabledNetworks } from '../chains';
import {
  chainCursors,
  columnsOf,
  orders,
  param,
  payments,
  sql,
  statement,
  webhookEvents,
  type Queryable,
  type RowOf,
} from '../db';
import { formatUnits, parseDecimal, parseUnits, valueOfUnits } from '../money';
import { decimalsOf } from '../orders';
import type { OrderStatus } from '../protocol';
import { rateService, withUsdPrices } from '../rates';
import { chainHealth } from '../watcher';
import { chainState, type ChainState } from './chain-state';
import { ordersByStatusSince } from './order-days';
import type { MerchantScope } from '../merchants';

const DAY_MS = 86_400_000;
export const SERIES_DAYS = 30;
const USD_SCALE = 2;

export interface CoinReceived {
  currency: string;
  network: string;
  /** Coin units received (decimal strings). */
  today: string;
  last7Days: string;
  last30Days: string;
  /** The price of one coin in USD now, or null when no fresh rate is known. */
  priceUsd: string | null;
}

export interface UsdTotals {
  today: string;
  last7Days: string;
  last30Days: string;
  /** "currency/network" of received coins without a rate, left out of these totals. */
  unpriced: string[];
}

export interface SeriesDay {
  /** Midnight UTC of the day. */
  day: Date;
  /** Coin units received that day, by "currency/network" (coins with nothing that day are absent). */
  amounts: Record<string, string>;
  /** The day's coins valued at the current rates (see UsdTotals.unpriced). */
  usdAtCurrentRate: string;
}

export interface ChainOverview {
  network: string;
  displayName: string;
  /** The watcher's cursor: the last block scanned; null before its first pass. */
  height: number | null;
  blockTime: Date | null;
  /** When the cursor last moved. */
  updatedAt: Date | null;
  /** Seconds since the cursor last moved. */
  ageSeconds: number | null;
  /** Seconds between now and the time of the last block scanned. */
  lagSeconds: number | null;
  /** This process's view of the node (lib/watcher chainHealth); null when no watcher runs here. */
  healthy: boolean | null;
  error: string | null;
  /** The end of this process's last successful pass over the network; null when no watcher runs here. */
  lastPassAt: Date | null;
  /** The merchant's orders on the network waiting for a payment (pending, made in the last WAITING_DAYS). */
  waiting: number;
  state: ChainState;
}

export interface Overview {
  now: Date;
  received: CoinReceived[];
  usd: UsdTotals;
  /** Orders created in the last 30 days, by status (every status present, zero included). */
  ordersByStatus: Record<OrderStatus, number>;
  /** Webhook events that gave up (failed or refused), all time: each can be re-sent. */
  failedWebhooks: number;
  chains: ChainOverview[];
  /** The last 30 days, oldest first, one entry per day. */
  series: SeriesDay[];
}

type Window = { merchantId: string; mode: string; since: Date; now: Date };

const DAILY = statement<{ day: Date; network: string; currency: string; amount: string }, Window>(
  sql`select date_bin('1 day', ${payments.createdAt}, ${param('since')}) as day, ${payments.network}, ${payments.currency}, sum(${payments.amount})::text as amount
         from ${payments}
        where ${payments.merchantId} = ${param('merchantId')} and ${payments.mode} = ${param('mode')} and ${payments.status} = 'processed'
          and ${payments.createdAt} >= ${param('since')} and ${payments.createdAt} <= ${param('now')}
        group by 1, 2, 3`,
);
const FAILED_WEBHOOKS = statement<{ n: number }, { merchantId: string; mode: string }>(
  sql`select count(*)::int as n from ${webhookEvents}
   where ${webhookEvents.merchantId} = ${param('merchantId')} and ${webhookEvents.mode} = ${param('mode')} and ${webhookEvents.state} in ('failed', 'refused')`,
);
/**
 * An order waits for a payment for its lifetime (12 hours at most) and then until its chain passes
 * its deadline: orders pending longer than this are not counted, so that the count reads a short
 * range of orders_merchant_status rather than every pending order a merchant ever had.
 */
const WAITING_DAYS = 2;
const WAITING = statement<{ network: string; n: number }, { merchantId: string; mode: string; since: Date }>(
  sql`select ${orders.network}, count(*)::int as n from ${orders}
       where ${orders.merchantId} = ${param('merchantId')} and ${orders.mode} = ${param('mode')} and ${orders.status} = 'pending'
         and ${orders.createdAt} >= ${param('since')}
       group by 1`,
);
const CURSOR_COLUMNS = ['network', 'height', 'block_time', 'updated_at'] as const;
const CURSORS = statement<Pick<RowOf<typeof chainCursors>, (typeof CURSOR_COLUMNS)[number]>, { mode: string }>(
  sql`select ${columnsOf(chainCursors, CURSOR_COLUMNS)} from ${chainCursors} where ${chainCursors.mode} = ${param('mode')}`,
);

const coinKey = (currency: string, network: string) => `${currency}/${network}`;

export async function overview(db: Queryable, scope: MerchantScope, now = new Date()): Promise<Overview> {
  const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  const since = new Date(today.getTime() - (SERIES_DAYS - 1) * DAY_MS);
  const span = { merchantId: scope.merchantId, mode: scope.mode, since, now };
  const [daily, ordersByStatus, [failed], cursors, waiting] = await Promise.all([
    DAILY.run(db, span),
    ordersByStatusSince(db, scope, since, now),
    FAILED_WEBHOOKS.run(db, { merchantId: scope.merchantId, mode: scope.mode }),
    CURSORS.run(db, { mode: scope.mode }),
    WAITING.run(db, { ...scope, since: new Date(now.getTime() - WAITING_DAYS * DAY_MS) }),
  ]);

  // Base units per coin and day (midnight UTC in ms).
  const coins = new Map<string, { currency: string; network: string; decimals: number; byDay: Map<number, bigint> }>();
  for (const row of daily) {
    const key = coinKey(row.currency, row.network);
    let coin = coins.get(key);
    if (!coin)
      coins.set(
        key,
        (coin = {
          currency: row.currency,
          network: row.network,
          decimals: decimalsOf(row.network, row.currency),
          byDay: new Map(),
        }),
      );
    coin.byDay.set(row.day.getTime(), BigInt(row.amount));
  }
  const prices = await withUsdPrices(rateService(scope.mode), [...coins.values()]);
  const priceOf = new Map(prices.map((p) => [coinKey(p.currency, p.network), p.priceUSD]));
  const usdCents = (key: string, units: bigint): bigint | undefined => {
    const price = priceOf.get(key);
    const coin = coins.get(key)!;
    return price ? unitsOf(valueOfUnits(units, coin.decimals, parseDecimal(price)!, USD_SCALE), USD_SCALE) : undefined;
  };
  const sumSince = (byDay: Map<number, bigint>, from: number) =>
    [...byDay].reduce((sum, [day, units]) => (day >= from ? sum + units : sum), 0n);
  const windows = { today: today.getTime(), last7Days: today.getTime() - 6 * DAY_MS, last30Days: since.getTime() };

  const received: CoinReceived[] = [];
  const totals = { today: 0n, last7Days: 0n, last30Days: 0n };
  const unpriced: string[] = [];
  for (const [key, coin] of [...coins].sort(([a], [b]) => a.localeCompare(b))) {
    const units = {
      today: sumSince(coin.byDay, windows.today),
      last7Days: sumSince(coin.byDay, windows.last7Days),
      last30Days: sumSince(coin.byDay, windows.last30Days),
    };
    received.push({
      currency: coin.currency,
      network: coin.network,
      today: formatUnits(units.today, coin.decimals),
      last7Days: formatUnits(units.last7Days, coin.decimals),
      last30Days: formatUnits(units.last30Days, coin.decimals),
      priceUsd: priceOf.get(key) ?? null,
    });
    if (!priceOf.get(key)) unpriced.push(key);
    else for (const w of ['today', 'last7Days', 'last30Days'] as const) totals[w] += usdCents(key, units[w])!;
  }

  const series: SeriesDay[] = [];
  for (let t = since.getTime(); t <= today.getTime(); t += DAY_MS) {
    const amounts: Record<string, string> = {};
    let cents = 0n;
    for (const [key, coin] of coins) {
      const units = coin.byDay.get(t);
      if (units === undefined) continue;
      amounts[key] = formatUnits(units, coin.decimals);
      cents += usdCents(key, units) ?? 0n;
    }
    series.push({ day: new Date(t), amounts, usdAtCurrentRate: formatUnits(cents, USD_SCALE) });
  }

  const byNetwork = new Map(cursors.map((c) => [c.network, c]));
  const health = new Map(
    chainHealth()
      .filter((h) => h.mode === scope.mode)
      .map((h) => [h.network, h]),
  );
  const seconds = (from: Date) => Math.max(0, Math.round((now.getTime() - from.getTime()) / 1000));
  const waitingOn = new Map(waiting.map((w) => [w.network, w.n]));
  const chains = enabledNetworks(scope.mode).map((network): ChainOverview => {
    const cursor = byNetwork.get(network.name);
    const h = health.get(network.name);
    const healthy = h ? h.healthy : null;
    const height = cursor ? Number(cursor.height) : null;
    const waitingHere = waitingOn.get(network.name) ?? 0;
    return {
      network: network.name,
      displayName: findNetwork(network.name)?.displayName ?? network.displayName,
      height,
      blockTime: cursor?.block_time ?? null,
      updatedAt: cursor?.updated_at ?? null,
      ageSeconds: cursor ? seconds(cursor.updated_at) : null,
      lagSeconds: cursor ? seconds(cursor.block_time) : null,
      healthy,
      error: h?.error ?? null,
      lastPassAt: h?.lastPassAt ?? null,
      waiting: waitingHere,
      state: chainState({ healthy, height, waiting: waitingHere }),
    };
  });

  return {
    now,
    received,
    usd: {
      today: formatUnits(totals.today, USD_SCALE),
      last7Days: formatUnits(totals.last7Days, USD_SCALE),
      last30Days: formatUnits(totals.last30Days, USD_SCALE),
      unpriced,
    },
    ordersByStatus,
    failedWebhooks: failed!.n,
    chains,
    series,
  };
}

/** A canonical decimal string of `scale` digits back to units of 10^-scale. */
function unitsOf(text: string, scale: number): bigint {
  const parsed = parseUnits(text, scale);
  if (!parsed.ok) throw new Error(`not a decimal of ${scale} digits: ${text}`);
  return parsed.value;
}
