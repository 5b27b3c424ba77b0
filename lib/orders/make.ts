import 'server-only';
import { randomUUID } from 'node:crypto';
import { findCurrency, currencyPairs, type Currency, type Network } from '../catalog';
import { enabledNetworks, networkFor } from '../chains';
import { derivationRunning, personalAddress, poolSequence, refillNow, refillSoon, upsertExternalUser } from '../addresses';
import { insertLists, namedParameters, type Database, type Queryable } from '../db';
import type { ApiKey } from '../merchants';
import { formatPercent, maxWholeDigits, parsePercent, parseUnits, paymentThreshold } from '../money';
import type { MakeOrderRequest } from '../protocol';
import {
  AmountInvalid,
  NoAddressAvailable,
  NonceReused,
  OrderConflict,
  OrderCreatedConcurrently,
  PersonalAddressBusy,
  UnsupportedCurrency,
} from './errors';
import type { OrderRow } from './rows';

export interface Caller {
  db: Database;
  key: Pick<ApiKey, 'merchantId' | 'mode'> & { keyId: string | null };
  /**
   * The request's nonce, recorded as used with the order (a rejected request records nothing);
   * null for an order the gateway makes itself (an invoice's coin choice), which records none.
   */
  nonce: string | null;
}

/** make-order's request, plus what only the gateway's own orders carry. */
export type OrderRequest = MakeOrderRequest & {
  /** The invoice whose coin choice this order is (lib/invoices); its lifetime may be below make-order's minimum. */
  invoiceId?: string;
};

/** The order request after its values are resolved against the catalog, in base units. */
interface ResolvedOrder {
  network: Network;
  currency: Currency;
  amount: bigint;
  tolerance: string;
  threshold: bigint;
  lifetime: number;
}

/** Resolves currency, network, amount and tolerance; every failure is a domain error the merchant can act on. */
function resolveOrder(key: Caller['key'], input: OrderRequest): ResolvedOrder {
  const enabled = enabledNetworks(key.mode);
  // The network as this mode uses it (live networks carry their configured token contracts).
  const network = networkFor(key.mode, input.network);
  const currency = network && findCurrency(network, input.currency);
  if (!network || !currency) {
    const pairs = currencyPairs(enabled).map((p) => `${p.currency.ticker}/${p.network.name}`);
    throw new UnsupportedCurrency(
      `${input.currency.toUpperCase()} on ${input.network.toLowerCase()} is not available for ${key.mode} keys. ` +
        (pairs.length ? `Available: ${pairs.join(', ')}.` : 'No network is configured for this mode.'),
      {
        currency: `supported: ${[...new Set(currencyPairs(enabled).map((p) => p.currency.ticker))].join(', ')}`,
        network: `supported: ${enabled.map((n) => n.name).join(', ')}`,
      },
    );
  }
  const amount = parseUnits(input.amount, currency.decimals);
  if (!amount.ok) {
    const message =
      amount.error === 'range'
        ? `is too large for ${currency.ticker}: at most ${maxWholeDigits(currency.decimals)} digits before the decimal point`
        : `must have at most ${currency.decimals} decimal places for ${currency.ticker}`;
    throw new AmountInvalid(message);
  }
  const tolerance = parsePercent(input.paymentTolerancePercent ?? '0')!;
  return {
    network,
    currency,
    amount: amount.value,
    tolerance: formatPercent(tolerance),
    threshold: paymentThreshold(amount.value, tolerance),
    lifetime: input.lifetime ?? network.defaultLifetime,
  };
}

/**
 * How long a request may wait for an empty pool to be refilled before it is answered 503: a burst
 * larger than the pool is served as addresses arrive, but a request never hangs for seconds
 * (on a saturated machine the refill may fall behind). Counted once the derivation thread runs:
 * in a server it started with the pools, before the first request.
 */
const POOL_WAIT_MS = 1000;

/**
 * Creates a payment order, or answers the existing one when `order` was already used with the
 * same currency, network and amount (idempotency key per merchant and mode).
 */
export async function makeOrder(caller: Caller, input: OrderRequest): Promise<OrderRow> {
  const order = resolveOrder(caller.key, input);
  const attempt = input.externalUserId ? makePersonalOrder : makePoolOrder;
  let row = await attempt(caller, input, order).catch(poolMissing);
  // An empty pool (a burst larger than the pool) waits for a refill and tries again. Concurrent
  // requests take the refilled addresses too, so one refill may not be enough for everyone.
  if (row === 'pool-empty') await derivationRunning(order.network);
  const deadline = Date.now() + POOL_WAIT_MS;
  while (row === 'pool-empty' && (await refilledBefore(deadline, refillNow(caller.db, order.network, caller.key.mode)))) {
    row = await attempt(caller, input, order).catch(poolMissing);
  }
  if (row === 'pool-empty') throw new NoAddressAvailable();
  return row;
}

/** True when `refill` ends before `deadline`; the refill goes on either way. */
async function refilledBefore(deadline: number, refill: Promise<void>): Promise<boolean> {
  const left = deadline - Date.now();
  if (left <= 0) return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, left, false)));
  try {
    return await Promise.race([refill.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A network's pool sequence is created by its first fill (at start-up); before that, asking it
 * for a position fails with "undefined table" (42P01), which means the pool is empty.
 */
function poolMissing(error: unknown): 'pool-empty' {
  if ((error as { code?: string })?.code === '42P01' && /address_pool_/.test((error as Error).message)) return 'pool-empty';
  throw error;
}

function sameOrder(row: OrderRow, order: ResolvedOrder): boolean {
  return row.currency === order.currency.ticker && row.network === order.network.name && BigInt(row.amount) === order.amount;
}

/** The columns of a new order that its request decides. */
const NEW_ORDER_COLUMNS = [
  'id', 'merchant_id', 'mode', 'client_order_id', 'currency', 'network', 'amount', 'tolerance_percent', 'threshold',
  'external_user_id', 'payer_email', 'description', 'success_webhook', 'error_webhook', 'return_url', 'check_risks', 'lifetime', 'invoice_id',
] as const satisfies readonly (keyof OrderRow)[];
type NewOrder = Pick<OrderRow, (typeof NEW_ORDER_COLUMNS)[number]>;

function newOrder(caller: Caller, input: OrderRequest, order: ResolvedOrder): NewOrder {
  return {
    id: randomUUID(),
    merchant_id: caller.key.merchantId,
    mode: caller.key.mode,
    client_order_id: input.order,
    currency: order.currency.ticker,
    network: order.network.name,
    amount: order.amount.toString(),
    tolerance_percent: order.tolerance,
    threshold: order.threshold.toString(),
    external_user_id: input.externalUserId ?? null,
    payer_email: input.payerEmail ?? null,
    description: input.description ?? null,
    success_webhook: input.successWebhook ?? null,
    error_webhook: input.errorWebhook ?? null,
    return_url: input.returnUrl ?? null,
    check_risks: input.checkRisks ?? false,
    lifetime: order.lifetime,
    invoice_id: input.invoiceId ?? null,
  };
}

/**
 * What the insert of a new order writes in each column: the request's values (their parameters
 * `$`), the address it was given, and the clock.
 */
function orderInsert($: Readonly<Record<keyof NewOrder, string>>, address: { id: string; address: string; tag: string }) {
  return insertLists({
    id: $.id,
    merchant_id: $.merchant_id,
    mode: $.mode,
    client_order_id: $.client_order_id,
    currency: $.currency,
    network: $.network,
    amount: $.amount,
    tolerance_percent: $.tolerance_percent,
    threshold: $.threshold,
    address_id: address.id,
    address: address.address,
    tag: address.tag,
    external_user_id: $.external_user_id,
    payer_email: $.payer_email,
    description: $.description,
    success_webhook: $.success_webhook,
    error_webhook: $.error_webhook,
    return_url: $.return_url,
    check_risks: $.check_risks,
    lifetime: `${$.lifetime}::int`,
    invoice_id: $.invoice_id,
    created_at: 'now()',
    expires_at: `now() + make_interval(secs => ${$.lifetime}::int)`,
  } satisfies { [Column in keyof OrderRow]?: string });
}

const POOL = namedParameters([...NEW_ORDER_COLUMNS, 'key_id', 'nonce', 'pool_sequence']);
const POOL_INSERT = orderInsert(POOL.$, { id: 'address.id', address: 'address.address', tag: 'address.tag' });

/**
 * The common case in one statement (one round trip, atomic): find an order with the same
 * `order`, else take the next pool position from the network's sequence and the address derived
 * at that index, record the nonce and insert the order. The nonce is recorded only when the
 * request will succeed (an address was found, or the same order exists), so a rejected request
 * writes nothing; a position taken by a request that fails anyway stays unused. Without a nonce
 * (the gateway's own orders) nothing is recorded and nothing waits for it.
 */
const MAKE_POOL_ORDER = `
with existing as (
  select * from orders where merchant_id = ${POOL.$.merchant_id} and mode = ${POOL.$.mode} and client_order_id = ${POOL.$.client_order_id}
), ticket as (
  select nextval(${POOL.$.pool_sequence}::regclass) as position where not exists (select 1 from existing)
), address as (
  -- The position as a scalar (not a join with ticket) so that all three columns of
  -- addresses_derivation are index conditions whatever the planner's statistics say.
  select a.id, a.address, a.tag, a.derivation_index
    from addresses a where a.network = ${POOL.$.network} and a.mode = ${POOL.$.mode} and a.derivation_index = (select position from ticket)
), nonce as (
  insert into api_nonces (key_id, nonce)
  select ${POOL.$.key_id}, ${POOL.$.nonce}
   where ${POOL.$.nonce}::numeric is not null and (exists (select 1 from address)
      or exists (select 1 from existing e where e.currency = ${POOL.$.currency} and e.network = ${POOL.$.network} and e.amount = ${POOL.$.amount}::numeric))
  on conflict do nothing returning 1
), inserted as (
  insert into orders (${POOL_INSERT.columns})
  select ${POOL_INSERT.expressions}
    from address where exists (select 1 from nonce) or ${POOL.$.nonce}::numeric is null
  on conflict (merchant_id, mode, client_order_id) do nothing
  returning *
), found as (
  select 'created' as outcome, * from inserted union all select 'existing', * from existing
)
select (select count(*) from nonce)::int as nonce_recorded,
       (select count(*) from address)::int as had_address,
       (select derivation_index from address)::int as taken_index,
       found.*
  from (select 1) one left join found on true`;

type Outcome = OrderRow & {
  outcome: 'created' | 'existing' | null;
  nonce_recorded: number;
  had_address: number;
  taken_index: number | null;
};

async function makePoolOrder(caller: Caller, input: OrderRequest, order: ResolvedOrder): Promise<OrderRow | 'pool-empty'> {
  const { db, key, nonce } = caller;
  const values = POOL.values({ ...newOrder(caller, input, order), key_id: key.keyId, nonce, pool_sequence: poolSequence(order.network, key.mode) });
  const [result] = await db.query<Outcome>(MAKE_POOL_ORDER, values, 'make_pool_order');
  const { outcome, nonce_recorded, had_address, taken_index, ...row } = result!;
  if (outcome === 'created') {
    void refillSoon(db, order.network, key.mode, taken_index ?? undefined);
    return row;
  }
  if (outcome === 'existing') {
    if (!sameOrder(row, order)) throw new OrderConflict(row);
    if (!nonce_recorded && nonce !== null) throw new NonceReused();
    return row;
  }
  if (!had_address) return 'pool-empty';
  if (!nonce_recorded && nonce !== null) throw new NonceReused();
  // A concurrent request inserted the same `order` between our snapshot and our insert: answer
  // as if we had arrived second (the position we took stays unused).
  const winner = await findByClientOrderId(db, key, input.order);
  if (!winner || !sameOrder(winner, order)) {
    if (nonce !== null) await db.query('delete from api_nonces where key_id = $1 and nonce = $2', [key.keyId, nonce]);
    if (winner) throw new OrderConflict(winner);
    throw new Error('make-order: order vanished after a conflicting insert');
  }
  return winner;
}

/** Thrown inside the transaction so that an empty pool rolls back the nonce and the user. */
const POOL_EMPTY = Symbol('pool-empty');

const PERSONAL = namedParameters([...NEW_ORDER_COLUMNS, 'address_id', 'address', 'tag']);
const PERSONAL_INSERT = orderInsert(PERSONAL.$, { id: PERSONAL.$.address_id, address: PERSONAL.$.address, tag: PERSONAL.$.tag });
const INSERT_PERSONAL_ORDER = `insert into orders (${PERSONAL_INSERT.columns}) values (${PERSONAL_INSERT.expressions})
  on conflict (merchant_id, mode, client_order_id) do nothing returning *`;

/**
 * Orders of an external user go to the user's personal address on the network, reused by all of
 * their orders, with at most one pending order per address and currency. The address row is
 * locked for the whole transaction, which serialises a user's concurrent orders.
 */
async function makePersonalOrder(caller: Caller, input: OrderRequest, order: ResolvedOrder): Promise<OrderRow | 'pool-empty'> {
  const { db, key, nonce } = caller;
  let tookPoolAddress = false;
  const result = await db.transaction(async (tx) => {
    if (nonce !== null) {
      const recorded = await tx.query('insert into api_nonces (key_id, nonce) values ($1, $2) on conflict do nothing returning 1', [key.keyId, nonce]);
      if (recorded.length === 0) throw new NonceReused();
    }
    const existing = await findByClientOrderId(tx, key, input.order);
    if (existing) {
      if (!sameOrder(existing, order)) throw new OrderConflict(existing);
      return existing;
    }
    const user = await upsertExternalUser(tx, key, input.externalUserId!, { email: input.payerEmail });
    const address = await personalAddress(tx, key, user.id, order.network);
    if (!address) throw POOL_EMPTY;
    tookPoolAddress = address.fromPool;
    const [pending] = await tx.query<{ id: string }>(
      `select id from orders where address_id = $1 and currency = $2 and status = 'pending' and expires_at > now() limit 1`,
      [address.id, order.currency.ticker],
    );
    if (pending) throw new PersonalAddressBusy(input.externalUserId!, order.currency.ticker, order.network.name, pending.id);
    const values = PERSONAL.values({ ...newOrder(caller, input, order), address_id: address.id, address: address.address, tag: address.tag });
    const [row] = await tx.query<OrderRow>(INSERT_PERSONAL_ORDER, values);
    if (!row) throw new OrderCreatedConcurrently();
    return row;
  }).catch((error: unknown) => {
    if (error === POOL_EMPTY) return 'pool-empty' as const;
    throw error;
  });
  // A user's first order on a network takes its personal address from the shared pool.
  if (tookPoolAddress && result !== 'pool-empty') void refillSoon(db, order.network, key.mode);
  return result;
}

async function findByClientOrderId(db: Queryable, key: Caller['key'], clientOrderId: string): Promise<OrderRow | undefined> {
  const [row] = await db.query<OrderRow>('select * from orders where merchant_id = $1 and mode = $2 and client_order_id = $3', [
    key.merchantId, key.mode, clientOrderId,
  ]);
  return row;
}
