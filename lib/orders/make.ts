import 'server-only';
import { randomUUID } from 'node:crypto';
import { findCurrency, currencyPairs, type Currency, type Network } from '../catalog';
import { enabledNetworks, networkFor } from '../chains';
import {
  derivationRunning,
  personalAddress,
  poolOf,
  refillNow,
  refillSoon,
  upsertExternalUser,
  type AddressPool,
} from '../addresses';
import {
  addresses,
  alias,
  apiNonces,
  bare,
  insertValues,
  orders,
  param,
  placeholders,
  sql,
  statement,
  type Database,
  type Queryable,
  type SQLWrapper,
} from '../db';
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
  /** The underpaid order whose rest this order asks for (lib/mispayments); one per original, by a unique index. */
  remainderOf?: string;
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
  // The merchant's own key's pool when it set one for the network, else the gateway's (decision 083).
  const pool = await poolOf(caller.db, order.network, caller.key.mode, caller.key.merchantId);
  let row = await attempt(caller, input, order, pool).catch(poolMissing);
  // An empty pool (a burst larger than the pool) waits for a refill and tries again. Concurrent
  // requests take the refilled addresses too, so one refill may not be enough for everyone.
  if (row === 'pool-empty') await derivationRunning(order.network);
  const deadline = Date.now() + POOL_WAIT_MS;
  while (row === 'pool-empty' && (await refilledBefore(deadline, refillNow(caller.db, pool)))) {
    row = await attempt(caller, input, order, pool).catch(poolMissing);
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
  if ((error as { code?: string })?.code === '42P01' && /address_pool_/.test((error as Error).message))
    return 'pool-empty';
  throw error;
}

function sameOrder(row: OrderRow, order: ResolvedOrder): boolean {
  return (
    row.currency === order.currency.ticker && row.network === order.network.name && BigInt(row.amount) === order.amount
  );
}

/** The columns of a new order that its request decides. */
const NEW_ORDER_COLUMNS = [
  'id',
  'merchant_id',
  'mode',
  'client_order_id',
  'currency',
  'network',
  'amount',
  'tolerance_percent',
  'threshold',
  'external_user_id',
  'payer_email',
  'description',
  'success_webhook',
  'error_webhook',
  'return_url',
  'check_risks',
  'lifetime',
  'invoice_id',
  'api_key_id',
  'remainder_of',
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
    // The key that signs the order's webhooks (docs/decisions/048).
    api_key_id: caller.key.keyId,
    remainder_of: input.remainderOf ?? null,
  };
}

/**
 * What the insert of a new order writes in each column: the request's values (its placeholders
 * `p`), the address it was given, and the clock.
 */
function orderInsert(
  p: Readonly<Record<keyof NewOrder, SQLWrapper>>,
  address: { id: SQLWrapper; address: SQLWrapper; tag: SQLWrapper },
) {
  return insertValues([
    [orders.id, p.id],
    [orders.merchantId, p.merchant_id],
    [orders.mode, p.mode],
    [orders.clientOrderId, p.client_order_id],
    [orders.currency, p.currency],
    [orders.network, p.network],
    [orders.amount, p.amount],
    [orders.tolerancePercent, p.tolerance_percent],
    [orders.threshold, p.threshold],
    [orders.addressId, address.id],
    [orders.address, address.address],
    [orders.tag, address.tag],
    [orders.externalUserId, p.external_user_id],
    [orders.payerEmail, p.payer_email],
    [orders.description, p.description],
    [orders.successWebhook, p.success_webhook],
    [orders.errorWebhook, p.error_webhook],
    [orders.returnUrl, p.return_url],
    [orders.checkRisks, p.check_risks],
    [orders.lifetime, sql`${p.lifetime}::int`],
    [orders.invoiceId, p.invoice_id],
    [orders.apiKeyId, sql`${p.api_key_id}::uuid`],
    [orders.remainderOf, sql`${p.remainder_of}::uuid`],
    [orders.createdAt, sql`now()`],
    [orders.expiresAt, sql`now() + make_interval(secs => ${p.lifetime}::int)`],
  ]);
}

const POOL = placeholders([...NEW_ORDER_COLUMNS, 'key_id', 'nonce', 'pool_sequence', 'key_fingerprint']);
const POOL_INSERT = orderInsert(POOL, { id: sql`address.id`, address: sql`address.address`, tag: sql`address.tag` });
const a = alias(addresses, 'a');

/**
 * The common case in one statement (one round trip, atomic): find an order with the same
 * `order`, else take the next pool position from the network's sequence and the address derived
 * at that index, record the nonce and insert the order. The nonce is recorded only when the
 * request will succeed (an address was found, or the same order exists), so a rejected request
 * writes nothing; a position taken by a request that fails anyway stays unused. Without a nonce
 * (the gateway's own orders) nothing is recorded and nothing waits for it.
 */
const MAKE_POOL_ORDER = statement<Outcome, Record<keyof typeof POOL, unknown>>(
  sql`
with existing as (
  select * from ${orders} where ${orders.merchantId} = ${POOL.merchant_id} and ${orders.mode} = ${POOL.mode} and ${orders.clientOrderId} = ${POOL.client_order_id}
), ticket as (
  select nextval(${POOL.pool_sequence}::regclass) as position where not exists (select 1 from existing)
), address as (
  -- The position as a scalar (not a join with ticket) so that all three columns of
  -- addresses_derivation are index conditions whatever the planner's statistics say. Only an
  -- address of the pool's key: another's is no address of the merchant's wallet.
  select ${a.id}, ${a.address}, ${a.tag}, ${a.derivationIndex}
    from ${addresses} a where ${a.network} = ${POOL.network} and ${a.mode} = ${POOL.mode} and ${a.derivationIndex} = (select position from ticket)
     and ${a.keyFingerprint} = ${POOL.key_fingerprint}
), nonce as (
  insert into ${apiNonces} (${bare(apiNonces.keyId)}, ${bare(apiNonces.nonce)})
  select ${POOL.key_id}, ${POOL.nonce}
   where ${POOL.nonce}::numeric is not null and (exists (select 1 from address)
      or exists (select 1 from existing e where e.currency = ${POOL.currency} and e.network = ${POOL.network} and e.amount = ${POOL.amount}::numeric))
  on conflict do nothing returning 1
), inserted as (
  insert into ${orders} (${POOL_INSERT.columns})
  select ${POOL_INSERT.values}
    from address where exists (select 1 from nonce) or ${POOL.nonce}::numeric is null
  -- Every unique index arbitrates, not only the merchant's \`order\`: a remainder's is unique too
  -- (orders_remainder_of), and on PostgreSQL two payers opening one remainder at once could meet on
  -- it first, an error instead of the second answer below (seen in tests/mispayments.both.test.ts).
  on conflict do nothing
  returning *
), found as (
  select 'created' as outcome, * from inserted union all select 'existing', * from existing
)
select (select count(*) from nonce)::int as nonce_recorded,
       (select count(*) from address)::int as had_address,
       (select derivation_index from address)::int as taken_index,
       found.*
  from (select 1) one left join found on true`,
  { name: 'make_pool_order' },
);

const FORGET_NONCE = statement<unknown, { keyId: string; nonce: string }>(
  sql`delete from ${apiNonces} where ${apiNonces.keyId} = ${param('keyId')} and ${apiNonces.nonce} = ${param('nonce')}`,
);

type Outcome = OrderRow & {
  outcome: 'created' | 'existing' | null;
  nonce_recorded: number;
  had_address: number;
  taken_index: number | null;
};

async function makePoolOrder(
  caller: Caller,
  input: OrderRequest,
  order: ResolvedOrder,
  pool: AddressPool,
): Promise<OrderRow | 'pool-empty'> {
  const { db, key, nonce } = caller;
  const values = {
    ...newOrder(caller, input, order),
    key_id: key.keyId,
    nonce,
    pool_sequence: pool.sequence,
    key_fingerprint: pool.keyFingerprint,
  };
  const [result] = await MAKE_POOL_ORDER.run(db, values);
  const { outcome, nonce_recorded, had_address, taken_index, ...row } = result!;
  if (outcome === 'created') {
    void refillSoon(db, pool, taken_index ?? undefined);
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
    if (nonce !== null) await FORGET_NONCE.run(db, { keyId: key.keyId!, nonce });
    if (winner) throw new OrderConflict(winner);
    throw new Error('make-order: order vanished after a conflicting insert');
  }
  return winner;
}

/** Thrown inside the transaction so that an empty pool rolls back the nonce and the user. */
const POOL_EMPTY = Symbol('pool-empty');

const PERSONAL = placeholders([...NEW_ORDER_COLUMNS, 'address_id', 'address', 'tag']);
const PERSONAL_INSERT = orderInsert(PERSONAL, {
  id: PERSONAL.address_id,
  address: PERSONAL.address,
  tag: PERSONAL.tag,
});
const INSERT_PERSONAL_ORDER = statement<
  OrderRow,
  Record<keyof typeof PERSONAL, unknown>
>(sql`insert into ${orders} (${PERSONAL_INSERT.columns}) values (${PERSONAL_INSERT.values})
  on conflict (${bare(orders.merchantId)}, ${bare(orders.mode)}, ${bare(orders.clientOrderId)}) do nothing returning *`);
const RECORD_NONCE = statement<unknown, { keyId: string; nonce: string }>(
  sql`insert into ${apiNonces} (${bare(apiNonces.keyId)}, ${bare(apiNonces.nonce)}) values (${param('keyId')}, ${param('nonce')}) on conflict do nothing returning 1`,
);
const PENDING_ON_ADDRESS = statement<{ id: string }, { addressId: string; currency: string }>(
  sql`select ${orders.id} from ${orders} where ${orders.addressId} = ${param('addressId')} and ${orders.currency} = ${param('currency')}
    and ${orders.status} = 'pending' and ${orders.expiresAt} > now() limit 1`,
);
const BY_CLIENT_ORDER_ID = statement<OrderRow, { merchantId: string; mode: string; clientOrderId: string }>(
  sql`select * from ${orders} where ${orders.merchantId} = ${param('merchantId')} and ${orders.mode} = ${param('mode')}
    and ${orders.clientOrderId} = ${param('clientOrderId')}`,
);

/**
 * Orders of an external user go to the user's personal address on the network, reused by all of
 * their orders, with at most one pending order per address and currency. The address row is
 * locked for the whole transaction, which serialises a user's concurrent orders.
 */
async function makePersonalOrder(
  caller: Caller,
  input: OrderRequest,
  order: ResolvedOrder,
  pool: AddressPool,
): Promise<OrderRow | 'pool-empty'> {
  const { db, key, nonce } = caller;
  let tookPoolAddress = false;
  const result = await db
    .transaction(async (tx) => {
      if (nonce !== null) {
        const recorded = await RECORD_NONCE.run(tx, { keyId: key.keyId!, nonce });
        if (recorded.length === 0) throw new NonceReused();
      }
      const existing = await findByClientOrderId(tx, key, input.order);
      if (existing) {
        if (!sameOrder(existing, order)) throw new OrderConflict(existing);
        return existing;
      }
      const user = await upsertExternalUser(tx, key, input.externalUserId!, { email: input.payerEmail });
      const address = await personalAddress(tx, key, user.id, pool);
      if (!address) throw POOL_EMPTY;
      tookPoolAddress = address.fromPool;
      const [pending] = await PENDING_ON_ADDRESS.run(tx, { addressId: address.id, currency: order.currency.ticker });
      if (pending)
        throw new PersonalAddressBusy(input.externalUserId!, order.currency.ticker, order.network.name, pending.id);
      const values = {
        ...newOrder(caller, input, order),
        address_id: address.id,
        address: address.address,
        tag: address.tag,
      };
      const [row] = await INSERT_PERSONAL_ORDER.run(tx, values);
      if (!row) throw new OrderCreatedConcurrently();
      return row;
    })
    .catch((error: unknown) => {
      if (error === POOL_EMPTY) return 'pool-empty' as const;
      throw error;
    });
  // A user's first order on a network takes its personal address from the shared pool.
  if (tookPoolAddress && result !== 'pool-empty') void refillSoon(db, pool);
  return result;
}

async function findByClientOrderId(
  db: Queryable,
  key: Caller['key'],
  clientOrderId: string,
): Promise<OrderRow | undefined> {
  const [row] = await BY_CLIENT_ORDER_ID.run(db, { merchantId: key.merchantId, mode: key.mode, clientOrderId });
  return row;
}
