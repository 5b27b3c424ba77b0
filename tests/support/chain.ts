import { fillAddressPool } from '@/lib/addresses';
import { findNetwork, type Network } from '@/lib/catalog';
import { networkFor } from '@/lib/chains';
import type { ChainAdapter } from '@/lib/chains/adapter';
import { sandboxAdapter } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import { makeOrderRequest } from '@/lib/protocol';
import { findApiKey } from '@/lib/merchants';
import { makeOrder } from '@/lib/orders';
import type { OrderRow } from '@/lib/orders/rows';
import { noRiskScreen, type RiskScreen } from '@/lib/risk';
import { watchNetwork, type WatchOptions } from '@/lib/watcher';
import type { Keys } from './gateway';

/** Confirmations the tests' sandbox networks require: enough to see "detected" before "counted". */
export const TEST_CONFIRMATIONS = 2;

export function network(name: string): Network {
  const found = findNetwork(name);
  if (!found) throw new Error(`no network ${name}`);
  return found;
}

/** The sandbox ledger of `name` as the watcher sees it, with the tests' confirmation count. */
export function sandboxChain(db: Database, name: string, confirmations = TEST_CONFIRMATIONS): ChainAdapter {
  return { ...sandboxAdapter(db, network(name)), requiredConfirmations: confirmations };
}

/** One watcher pass (scan to the tip, then the expiry sweep) with a chosen clock and screen. */
export function watchOnce(
  db: Database,
  chain: ChainAdapter,
  options: { now?: Date; screen?: RiskScreen; chainClock?: boolean } = {},
): Promise<unknown> {
  const watch: WatchOptions = {
    batchBlocks: 100,
    startAt: 'genesis',
    screen: options.screen ?? noRiskScreen,
    now: options.now ? () => options.now! : undefined,
    chainClock: options.chainClock,
  };
  return watchNetwork(db, chain, 'test', watch);
}

let nonce = Date.now() * 1000;

/**
 * An order made through the domain code, as make-order makes it, on an address pool filled first
 * as a server fills it before it answers: an empty pool makes the order wait for a refill with a
 * one-second budget, which a loaded machine misses (503 "No deposit address is available").
 */
export async function createOrder(db: Database, keys: Keys, fields: Record<string, unknown>): Promise<OrderRow> {
  const key = await findApiKey(db, keys.publicKey);
  if (!key) throw new Error('unknown test key');
  // This call's nonce, taken before the wait: concurrent calls each keep their own.
  const own = ++nonce;
  const input = makeOrderRequest.parse({ order: `order-${own}`, nonce: own, ...fields });
  // As the key's mode uses the network: a live one may be a test chain (regtest), unlike the catalog's.
  const used = networkFor(key.mode, input.network);
  if (used) await fillAddressPool(db, used, key.mode);
  return makeOrder({ db, key, nonce: String(own) }, input);
}

export async function orderRow(db: Database, id: string): Promise<OrderRow> {
  const [row] = await db.query<OrderRow>('select * from orders where id = $1', [id]);
  if (!row) throw new Error(`no order ${id}`);
  return row;
}

export async function eventsOf(db: Database, orderId: string): Promise<{ from_status: string; to_status: string }[]> {
  return db.query('select from_status, to_status from order_events where order_id = $1 order by id', [orderId]);
}

/** Seconds after `date`. */
export function after(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
