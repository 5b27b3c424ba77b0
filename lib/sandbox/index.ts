import 'server-only';
/**
 * Simulated payments of test mode. They are broadcast on the sandbox ledger like a wallet would
 * broadcast them, and reach orders only through the watcher, the state machine and the webhooks,
 * exactly as a real payment does. Live orders are refused.
 */
import { findCurrency, findNetwork, type Currency, type Network } from '../catalog';
import { broadcast } from '../chains';
import {
  addresses,
  columnsOf,
  orders,
  param,
  sandboxTransfers,
  sql,
  statement,
  type Queryable,
  type RowOf,
} from '../db';
import { formatUnits, maxWholeDigits, parseUnits } from '../money';
import type { OrderRow } from '../orders';
import { isUuid } from '../protocol';

/** A simulation that cannot be done, with a message for the person who asked. */
export class SimulationError extends Error {
  override name = 'SimulationError';
  constructor(
    message: string,
    readonly status: 400 | 404 | 409 = 400,
  ) {
    super(message);
  }
}

/** What the payment page offers: pay what is left, half of it, or more than asked. */
export type PaymentKind = 'full' | 'partial' | 'over';

export interface SimulatedPayment {
  txHash: string;
  network: string;
  currency: string;
  /** Decimal, in the currency's units. */
  amount: string;
  address: string;
  tag: string | null;
}

/** The order columns a simulated payment needs. */
const TEST_ORDER_COLUMNS = [
  'mode',
  'network',
  'currency',
  'amount',
  'address',
  'tag',
  'created_at',
] as const satisfies readonly (keyof OrderRow)[];
type TestOrder = Pick<OrderRow, (typeof TEST_ORDER_COLUMNS)[number]>;
const TEST_ORDER = statement<TestOrder, { id: string }>(
  sql`select ${columnsOf(orders, TEST_ORDER_COLUMNS)} from ${orders} where ${orders.id} = ${param('id')}`,
);

async function testOrder(db: Queryable, orderId: string): Promise<TestOrder> {
  const [order] = isUuid(orderId) ? await TEST_ORDER.run(db, { id: orderId }) : [];
  if (!order) throw new SimulationError(`Order ${orderId} was not found.`, 404);
  if (order.mode !== 'test') throw new SimulationError('Simulated payments are for test-mode orders only.', 409);
  return order;
}

const PAID = statement<
  { paid: string },
  { network: string; address: string; tag: string | null; currency: string; since: Date }
>(
  sql`select coalesce(sum(${sandboxTransfers.amount}), 0)::text as paid from ${sandboxTransfers}
    where ${sandboxTransfers.network} = ${param('network')} and ${sandboxTransfers.toAddress} = ${param('address')}
      and coalesce(${sandboxTransfers.tag}, '') = coalesce(${param('tag')}, '') and ${sandboxTransfers.currency} = ${param('currency')}
      and ${sandboxTransfers.droppedAt} is null and ${sandboxTransfers.broadcastAt} >= ${param('since')}`,
);

/**
 * What is left to pay: the amount less every transfer already on its way to the order, counted on
 * the ledger itself (a payment the watcher has not seen yet is on its way too).
 */
async function outstanding(db: Queryable, order: TestOrder): Promise<bigint> {
  const [row] = await PAID.run(db, {
    network: order.network,
    address: order.address,
    tag: order.tag,
    currency: order.currency,
    since: order.created_at,
  });
  const left = BigInt(order.amount) - BigInt(row!.paid);
  return left > 0n ? left : 0n;
}

/** Base units of a payment of `kind` for the order; never zero. */
export function simulatedAmount(kind: PaymentKind, amount: bigint, left: bigint): bigint {
  const base = left > 0n ? left : amount;
  if (kind === 'full') return base;
  if (kind === 'partial') return base / 2n > 0n ? base / 2n : 1n;
  return base + (amount / 10n > 0n ? amount / 10n : 1n);
}

/** The payment page's "Simulate payment": full, partial or over, to a test order's address. */
export async function simulateOrderPayment(
  db: Queryable,
  orderId: string,
  kind: PaymentKind,
): Promise<SimulatedPayment> {
  const order = await testOrder(db, orderId);
  const left = await outstanding(db, order);
  return pay(
    db,
    networkOf(order.network),
    currencyOf(order.network, order.currency),
    order.address,
    order.tag,
    simulatedAmount(kind, BigInt(order.amount), left),
  );
}

const TEST_ADDRESSES = statement<
  Pick<RowOf<typeof addresses>, 'network' | 'address' | 'tag'>,
  { address: string; tag: string | null }
>(
  sql`select ${columnsOf(addresses, ['network', 'address', 'tag'])} from ${addresses}
    where ${addresses.mode} = 'test' and ${addresses.address} = ${param('address')} and (${param('tag')}::text is null or ${addresses.tag} = ${param('tag')}) limit 2`,
);

/**
 * `npm run sandbox -- pay ORDER_ID|ADDRESS AMOUNT [--currency X] [--tag T]`: pays a decimal
 * amount to a test order (its currency unless another is named, to exercise orphan deposits) or to
 * any deposit address of test mode.
 */
export async function simulatePayment(
  db: Queryable,
  input: { target: string; amount: string; currency?: string; tag?: string },
): Promise<SimulatedPayment> {
  let network: Network;
  let address: string;
  let tag: string | null;
  let ticker: string;
  if (isUuid(input.target)) {
    const order = await testOrder(db, input.target);
    network = networkOf(order.network);
    ({ address, tag } = order);
    ticker = input.currency ?? order.currency;
  } else {
    const rows = await TEST_ADDRESSES.run(db, { address: input.target, tag: input.tag ?? null });
    if (rows.length === 0)
      throw new SimulationError(
        `${input.target} is not a deposit address of test mode${input.tag ? ` with tag ${input.tag}` : ''}.`,
        404,
      );
    if (rows.length > 1)
      throw new SimulationError(`${input.target} is shared by several deposits: name the tag with --tag.`);
    ({ address, tag } = rows[0]!);
    network = networkOf(rows[0]!.network);
    if (!input.currency && network.currencies.length > 1) {
      throw new SimulationError(
        `Name the currency with --currency (${network.currencies.map((c) => c.ticker).join(', ')}).`,
      );
    }
    ticker = input.currency ?? network.currencies[0]!.ticker;
  }
  const currency = findCurrency(network, ticker);
  if (!currency) throw new SimulationError(`${ticker.toUpperCase()} is not a currency of ${network.name}.`);
  const units = parseUnits(input.amount, currency.decimals);
  if (!units.ok && units.error === 'range') {
    throw new SimulationError(
      `Amount "${input.amount}" is too large for ${currency.ticker}: at most ${maxWholeDigits(currency.decimals)} digits before the decimal point.`,
    );
  }
  if (!units.ok || units.value <= 0n) {
    throw new SimulationError(
      `Amount "${input.amount}" must be a positive decimal with at most ${currency.decimals} decimal places.`,
    );
  }
  return pay(db, network, currency, address, tag, units.value);
}

async function pay(
  db: Queryable,
  network: Network,
  currency: Currency,
  address: string,
  tag: string | null,
  amount: bigint,
): Promise<SimulatedPayment> {
  const { txHash } = await broadcast(db, { network, to: address, tag, currency: currency.ticker, amount });
  return {
    txHash,
    network: network.name,
    currency: currency.ticker,
    amount: formatUnits(amount, currency.decimals),
    address,
    tag,
  };
}

function networkOf(name: string): Network {
  const network = findNetwork(name);
  if (!network) throw new Error(`network ${name} is not in the catalog`);
  return network;
}

function currencyOf(network: string, ticker: string): Currency {
  const currency = findCurrency(networkOf(network), ticker);
  if (!currency) throw new Error(`${ticker} on ${network} is not in the catalog`);
  return currency;
}
