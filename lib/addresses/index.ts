import 'server-only';
import { createHash } from 'node:crypto';
import type { Network } from '../catalog';
import {
  depositKeyDescriptor,
  derivationThreadReady,
  deriveAddresses,
  freshTag,
  liveChainConfig,
  testAccountXpub,
  testTagAccountAddress,
} from '../chains';
import { config, envPrefix } from '../config';
import {
  addresses,
  alias,
  bare,
  collectionPlans,
  columnsOf,
  depositKeys,
  insertValues,
  merchants,
  orders,
  chainTransfers,
  param,
  runSql,
  sql,
  statement,
  unnest,
  type Queryable,
  type RowOf,
} from '../db';
import { log } from '../log';
import { peekProcessSlot, processSlot } from '../process';
import type { Mode } from '../protocol';

/**
 * Deposit addresses are derived ahead of time into a pool, on a worker thread, so that creating an
 * order costs one statement (after the look-up of the merchant's own key) and no elliptic-curve
 * work on the thread that answers requests. There is a pool per (network, mode) for the gateway's
 * key and one per merchant's own key (docs/decisions/083). Positions in a pool are handed out by a
 * PostgreSQL sequence of its own: an order
 * takes `nextval` and the address at that derivation index, without updating or locking any
 * address row (a "free" flag scanned with SKIP LOCKED left a dead index entry per order and slowed
 * every later scan). Each index is handed out once and never reused; an index taken by a request
 * that then lost a race or found the pool empty stays unused, so wallets that sweep these
 * addresses should scan with a gap limit above the pool size. See docs/decisions/002-pre-derived-address-pool.md.
 */

/** The extended public key of the network's external chain for `mode`. */
function accountXpub(network: Network, mode: Mode): string {
  if (mode === 'test') return testAccountXpub(network);
  const live = liveChainConfig(network.name);
  if (live) return live.xpub;
  throw new Error(`no extended public key is configured for live ${network.name}`);
}

function tagAccountAddress(network: Network, mode: Mode): string {
  if (mode === 'test') return testTagAccountAddress(network);
  const account = liveChainConfig(network.name)?.account;
  if (account) return account;
  throw new Error(`no receiving address is configured for live ${network.name}`);
}

/**
 * The fingerprint of the key the pool of (network, mode) takes its addresses from: the first 128
 * bits of SHA-256 over the address the key gives at index 0 (a tag network's receiving account).
 * It changes with the extended public key and with the address encoding (`<NETWORK>_CHAIN`), and
 * with nothing else (an `xpub` and a `zpub` of the same key give the same addresses). It names a
 * key independently of who configured it, so that pools per merchant and key can be keyed by it.
 */
export async function poolKeyFingerprint(network: Network, mode: Mode): Promise<string> {
  return keyFingerprintOf(network, network.usesTags ? tagAccountAddress(network, mode) : accountXpub(network, mode));
}

/**
 * The pool fingerprint of `source`, the extended public key of a network's external chain (or a
 * tag network's receiving account): a merchant's own key is fingerprinted as the gateway's is.
 */
export async function keyFingerprintOf(network: Network, source: string): Promise<string> {
  const cache = processSlot('poolKeyFingerprints', () => new Map<string, string>());
  const key = `${network.name}/${network.chain ?? ''}/${source}`;
  let fingerprint = cache.get(key);
  if (!fingerprint) {
    const first = network.usesTags ? source : (await deriveAddresses(network, source, 0, 1))[0]!;
    fingerprint = createHash('sha256').update(first, 'utf8').digest('hex').slice(0, 32);
    cache.set(key, fingerprint);
  }
  return fingerprint;
}

/**
 * Where an order of a merchant takes its deposit address: the pool of the merchant's own key for
 * the network and mode (docs/decisions/083), else the gateway-wide key's. Each pool has its own
 * positions (a sequence), its fingerprint on every address, and for a merchant's key its
 * addresses belong to the merchant from the start.
 */
export interface AddressPool {
  network: Network;
  mode: Mode;
  /** The merchant whose own key this is; null for the gateway-wide key. */
  merchantId: string | null;
  /** The extended public key of the external chain, or a tag network's receiving account. */
  source: string;
  keyFingerprint: string;
  sequence: string;
  /** The merchant's own key as stored (a descriptor, or an account); null for the gateway's. */
  ownKey: string | null;
}

/** The pool of the gateway-wide key (`<NETWORK>_XPUB`, `RIPPLE_ADDRESS`, the test seed in test mode). */
export async function gatewayPool(network: Network, mode: Mode): Promise<AddressPool> {
  return {
    network,
    mode,
    merchantId: null,
    source: network.usesTags ? tagAccountAddress(network, mode) : accountXpub(network, mode),
    keyFingerprint: await poolKeyFingerprint(network, mode),
    sequence: poolSequence(network, mode),
    ownKey: null,
  };
}

const DEPOSIT_KEY = statement<
  { key: string; key_fingerprint: string },
  { merchantId: string; network: string; mode: Mode }
>(sql`select ${columnsOf(depositKeys, ['key', 'key_fingerprint'])} from ${depositKeys}
  where ${depositKeys.merchantId} = ${param('merchantId')} and ${depositKeys.network} = ${param('network')} and ${depositKeys.mode} = ${param('mode')}`);

/** The merchant's own key of (network, mode) as stored, and its pool fingerprint; undefined when it set none. */
export async function ownDepositKeyOf(
  db: Queryable,
  merchantId: string,
  network: string,
  mode: Mode,
): Promise<{ key: string; keyFingerprint: string } | undefined> {
  const [own] = await DEPOSIT_KEY.run(db, { merchantId, network, mode });
  return own && { key: own.key, keyFingerprint: own.key_fingerprint };
}

/** The pool `merchantId`'s orders on (network, mode) take their addresses from: its own key's, or the gateway's. */
export async function poolOf(db: Queryable, network: Network, mode: Mode, merchantId: string): Promise<AddressPool> {
  const [own] = await DEPOSIT_KEY.run(db, { merchantId, network: network.name, mode });
  return own ? merchantPool(network, mode, merchantId, own.key, own.key_fingerprint) : gatewayPool(network, mode);
}

function merchantPool(
  network: Network,
  mode: Mode,
  merchantId: string,
  key: string,
  keyFingerprint: string,
): AddressPool {
  return {
    network,
    mode,
    merchantId,
    source: network.usesTags ? key : depositKeyDescriptor(key).chainXpub,
    keyFingerprint,
    sequence: poolSequence(network, mode, keyFingerprint),
    ownKey: key,
  };
}

const DEPOSIT_KEYS_OF_NETWORK = statement<
  { merchant_id: string; key: string; key_fingerprint: string },
  { network: string; mode: Mode }
>(sql`select ${columnsOf(depositKeys, ['merchant_id', 'key', 'key_fingerprint'])} from ${depositKeys}
  where ${depositKeys.network} = ${param('network')} and ${depositKeys.mode} = ${param('mode')}
  order by ${depositKeys.merchantId}`);

const o = alias(orders, 'o');
/**
 * The distinct destinations of the pending orders of (network, mode), one index seek each (a skip
 * scan of orders_pending_destination): as many steps as receiving wallets, however many orders are
 * open under them.
 */
const OPEN_ORDER_DESTINATIONS = statement<{ address: string }, { network: string; mode: Mode }>(
  sql`with recursive destinations(address) as (
    (select ${o.address} from ${orders} o
      where ${o.network} = ${param('network')} and ${o.mode} = ${param('mode')} and ${o.status} = 'pending'
      order by ${o.address} limit 1)
    union all
    select (select ${o.address} from ${orders} o
             where ${o.network} = ${param('network')} and ${o.mode} = ${param('mode')} and ${o.status} = 'pending'
               and ${o.address} > d.address
             order by ${o.address} limit 1)
      from destinations d where d.address is not null
  )
  select address from destinations where address is not null`,
);

/** The wallets open Solana refund plans pay from (their `treasury`), on the partial index of open plans. */
const OPEN_REFUND_PLAN_WALLETS = statement<{ address: string }, { network: string; mode: Mode }>(
  sql`select distinct ${collectionPlans.treasury} as address from ${collectionPlans}
    where ${collectionPlans.network} = ${param('network')} and ${collectionPlans.mode} = ${param('mode')}
      and ${collectionPlans.status} in ('prepared', 'broadcast') and ${collectionPlans.format} = 'solana'`,
);

/**
 * The receiving accounts of a network that has them (a Solana wallet or an XRP Ledger account is
 * the key itself: docs/decisions/096, 114) that the adapters reading payments by account must read besides the
 * gateway's: each merchant's own as set now, every one an order still open was issued to, so
 * that a merchant that changed its wallet has the earlier one read until its last order there ends
 * (docs/decisions/100), and every one an open refund plan pays from, so that its transfer is seen
 * (docs/decisions/111). Small: one row per merchant that set one, one index seek per wallet.
 */
export async function receivingAccountsToWatch(db: Queryable, network: Network, mode: Mode): Promise<string[]> {
  if (!network.usesTags) return [];
  const own = (await DEPOSIT_KEYS_OF_NETWORK.run(db, { network: network.name, mode })).map((key) => key.key);
  const open = (await OPEN_ORDER_DESTINATIONS.run(db, { network: network.name, mode })).map((row) => row.address);
  const refunding = (await OPEN_REFUND_PLAN_WALLETS.run(db, { network: network.name, mode })).map((r) => r.address);
  return [...new Set([...own, ...open, ...refunding])];
}

/** The derivation index of a live tag network's untagged account row: below every pool position. */
const ACCOUNT_ROW_INDEX = -1;

const UNTAGGED_ACCOUNT = statement<
  Pick<RowOf<typeof addresses>, 'address' | 'merchant_id'>,
  { network: string; index: number; keyFingerprint: string }
>(
  sql`select ${columnsOf(addresses, ['address', 'merchant_id'])} from ${addresses}
    where ${addresses.network} = ${param('network')} and ${addresses.mode} = 'live' and ${addresses.keyFingerprint} = ${param('keyFingerprint')}
      and ${addresses.derivationIndex} = ${param('index')}`,
);
const ACCOUNT_ROW = insertValues([
  [addresses.network, param('network')],
  [addresses.mode, sql`'live'`],
  [addresses.kind, sql`'PAY_IN'`],
  [addresses.derivationIndex, param('index')],
  [addresses.address, param('address')],
  [addresses.tag, sql`null`],
  [addresses.merchantId, merchants.id],
  [addresses.keyFingerprint, param('keyFingerprint')],
]);
const WRITE_UNTAGGED_ACCOUNT = statement<
  unknown,
  { network: string; index: number; address: string; merchantId: string; keyFingerprint: string }
>(sql`insert into ${addresses} (${ACCOUNT_ROW.columns})
  select ${ACCOUNT_ROW.values} from ${merchants} where ${merchants.id} = ${param('merchantId')}
  on conflict (${bare(addresses.network)}, ${bare(addresses.mode)}, ${bare(addresses.keyFingerprint)}, ${bare(addresses.derivationIndex)})
  do update set ${bare(addresses.address)} = excluded.${bare(addresses.address)}, ${bare(addresses.merchantId)} = excluded.${bare(addresses.merchantId)}
  returning 1`);

/**
 * A live tag network's receiving account without a tag, owned by the configured merchant (or, for
 * a merchant's own account, by that merchant): the watcher matches a payment to the account whose
 * tag is no order's to this row, which makes it an orphan deposit of that merchant instead of
 * nothing (docs/decisions/034). Kept in step with the configuration (a new merchant rewrites the
 * row; a new account has a row of its own, the old one's stays); a merchant id that names no
 * merchant stops the fill naming its variable.
 */
async function ensureUntaggedAccount(db: Queryable, pool: AddressPool): Promise<void> {
  const live = liveChainConfig(pool.network.name);
  const owner = pool.merchantId ?? live?.untaggedMerchant;
  if (!owner) return;
  const where = { network: pool.network.name, index: ACCOUNT_ROW_INDEX, keyFingerprint: pool.keyFingerprint };
  const [row] = await UNTAGGED_ACCOUNT.run(db, where);
  if (row?.address === pool.source && row.merchant_id === owner) return;
  const written = await WRITE_UNTAGGED_ACCOUNT.run(db, { ...where, address: pool.source, merchantId: owner });
  if (written.length === 0)
    throw new Error(
      `${envPrefix(pool.network)}_UNTAGGED_MERCHANT: no merchant has the id ${owner} (npm run keys -- list)`,
    );
}

/**
 * The destinations at pool positions `from` .. `from + count - 1`: derived addresses (on the
 * derivation thread), or the shared address with a fresh tag each.
 */
async function destinationsAt(
  pool: AddressPool,
  from: number,
  count: number,
): Promise<{ address: string; tag: string | null }[]> {
  if (pool.network.usesTags) {
    // A fresh tag each (lib/chains freshTag); collisions are skipped by the unique index on
    // (network, mode, address, tag).
    return Array.from({ length: count }, () => ({ address: pool.source, tag: freshTag(pool.network) }));
  }
  const addresses = await deriveAddresses(pool.network, pool.source, from, count);
  return addresses.map((address) => ({ address, tag: null }));
}

// Batches of this many addresses: each is one message to the derivation thread and one insert.
// A refill at half the default pool is one batch: on a saturated embedded database every query
// of a refill waits behind the requests queued for its single session, so fewer is sooner, and
// deriving 128 takes ~15 ms since child keys are derived natively.
const DERIVE_BATCH = 128;

/**
 * The sequence that hands out pool positions of (network, mode), and of a merchant's own key
 * there (`keyFingerprint`, 32 hex digits: the name stays within PostgreSQL's 63 characters).
 * Catalog names are identifiers.
 */
export function poolSequence(network: Network, mode: Mode, keyFingerprint?: string): string {
  const name = `address_pool_${network.name}_${mode}${keyFingerprint === undefined ? '' : `_${keyFingerprint}`}`;
  if (!/^[a-z0-9_]{1,63}$/.test(name)) throw new Error(`network name "${network.name}" cannot name a sequence`);
  return name;
}

const RELATION_EXISTS = statement<{ found: boolean }, { name: string }>(
  sql`select to_regclass(${param('name')}) is not null as found`,
);
/**
 * The position after every one handed out: taken by an order, or assigned to a user. A merchant's
 * own key counts its own addresses only; the gateway's pool, every address of (network, mode), as
 * before keys were per merchant.
 */
const FIRST_UNUSED = statement<{ next: string }, { network: string; mode: Mode; keyFingerprint: string | null }>(
  sql`select (coalesce(max(${addresses.derivationIndex}), -1) + 1)::text as next from ${addresses}
    where ${addresses.network} = ${param('network')} and ${addresses.mode} = ${param('mode')}
      and (${param('keyFingerprint')}::text is null or ${addresses.keyFingerprint} = ${param('keyFingerprint')})
      and (${addresses.assignedAt} is not null or exists (select 1 from ${orders} where ${orders.addressId} = ${addresses.id}))`,
);
/** The next pool position `sequence` hands out (a sequence per pool: its name is no schema object). */
const nextTicket = (sequence: string) =>
  sql`select case when is_called then last_value + 1 else last_value end from ${sql.identifier(sequence)}`;
/** The position after the highest derived of the pool's key. */
const nextDerived = (pool: AddressPool) =>
  sql`select coalesce(max(${addresses.derivationIndex}), -1) + 1 from ${addresses}
    where ${addresses.network} = ${pool.network.name} and ${addresses.mode} = ${pool.mode} and ${addresses.keyFingerprint} = ${pool.keyFingerprint}`;

/**
 * Creates the pool's sequence on first use, starting after every index already handed out (orders
 * and personal addresses), so that a pool created before the sequence existed is continued, not
 * reused.
 */
async function ensurePoolSequence(db: Queryable, pool: AddressPool): Promise<string> {
  const { sequence } = pool;
  const [exists] = await RELATION_EXISTS.run(db, { name: sequence });
  if (exists!.found) return sequence;
  const [used] = await FIRST_UNUSED.run(db, {
    network: pool.network.name,
    mode: pool.mode,
    keyFingerprint: pool.merchantId === null ? null : pool.keyFingerprint,
  });
  try {
    // DDL takes no parameters: the sequence's name and its start are written into the text.
    await runSql(
      db,
      sql`create sequence if not exists ${sql.identifier(sequence)} as bigint minvalue 0 start with ${sql.raw(BigInt(used!.next).toString())}`,
    );
  } catch (error) {
    // Two processes creating it at once: the loser sees a duplicate in the catalog; the sequence exists.
    const [again] = await RELATION_EXISTS.run(db, { name: sequence });
    if (!again!.found) throw error;
  }
  return sequence;
}

const POOL_ROWS = unnest('x', {
  derivation_index: addresses.derivationIndex,
  address: addresses.address,
  tag: addresses.tag,
});
/** A merchant's own key's addresses are the merchant's from the start; the gateway's, whoever's order takes them. */
const INSERT_POOL = statement<
  unknown,
  { network: string; mode: Mode; keyFingerprint: string; merchantId: string | null }
>(sql`insert into ${addresses}
    (${bare(addresses.network)}, ${bare(addresses.mode)}, ${bare(addresses.kind)}, ${bare(addresses.keyFingerprint)}, ${bare(addresses.merchantId)}, ${POOL_ROWS.names})
  select ${param('network')}, ${param('mode')}, 'PAY_IN', ${param('keyFingerprint')}, ${param('merchantId')}::uuid, ${POOL_ROWS.names} from ${POOL_ROWS.from}
  on conflict do nothing returning 1`);

/**
 * The gateway pool's addresses not handed out yet (at or after the next position) that come from
 * another key than `keyFingerprint`, or from a key never fingerprinted: after `<NETWORK>_XPUB` or
 * `_CHAIN` changed, they are no address of the configured key. A merchant's own key's addresses
 * (they carry the merchant from the start) are not the gateway pool's. Those taken by an order or
 * a user, or that a transfer reached, stay.
 */
const DROP_OTHER_KEYS = statement<unknown, { network: string; mode: Mode; from: string; keyFingerprint: string }>(
  sql`delete from ${addresses}
   where ${addresses.network} = ${param('network')} and ${addresses.mode} = ${param('mode')} and ${addresses.derivationIndex} >= ${param('from')}::bigint
     and ${addresses.keyFingerprint} is distinct from ${param('keyFingerprint')} and ${addresses.assignedAt} is null
     and ${addresses.merchantId} is null
     and not exists (select 1 from ${orders} where ${orders.addressId} = ${addresses.id})
     and not exists (select 1 from ${chainTransfers} where ${chainTransfers.addressId} = ${addresses.id})
   returning 1`,
);

/**
 * A merchant's addresses of its earlier own keys that no order, user or transfer took: after it
 * set another key (or went back to the gateway's), they are no address of its wallet. Its issued
 * ones stay, still watched (docs/decisions/047, 083). In the transaction that changes the key.
 */
const DROP_MERCHANT_OTHER_KEYS = statement<
  unknown,
  { merchantId: string; network: string; mode: Mode; keyFingerprint: string | null }
>(sql`delete from ${addresses}
   where ${addresses.merchantId} = ${param('merchantId')} and ${addresses.network} = ${param('network')} and ${addresses.mode} = ${param('mode')}
     and ${addresses.kind} = 'PAY_IN' and ${addresses.derivationIndex} >= 0
     and ${addresses.keyFingerprint} is distinct from ${param('keyFingerprint')}::text and ${addresses.assignedAt} is null
     and not exists (select 1 from ${orders} where ${orders.addressId} = ${addresses.id})
     and not exists (select 1 from ${chainTransfers} where ${chainTransfers.addressId} = ${addresses.id})
   returning 1`);

/** Drops the merchant's unissued addresses of every key but `keyFingerprint` (null: the gateway's key); answers how many. */
export async function dropMerchantsOtherKeys(
  tx: Queryable,
  where: { merchantId: string; network: string; mode: Mode; keyFingerprint: string | null },
): Promise<number> {
  return (await DROP_MERCHANT_OTHER_KEYS.run(tx, where)).length;
}

/**
 * Tops the gateway pool of (network, mode) up to `target` addresses not yet handed out, all of
 * the key configured now (the unissued ones of another key are dropped first, and logged);
 * answers how many were added.
 */
export async function fillAddressPool(
  db: Queryable,
  network: Network,
  mode: Mode,
  target = config().addressPoolSize,
): Promise<number> {
  return fillPool(db, await gatewayPool(network, mode), target);
}

/** Tops `pool` up to `target` addresses not yet handed out; answers how many were added. */
export async function fillPool(db: Queryable, pool: AddressPool, target = config().addressPoolSize): Promise<number> {
  const { network, mode, keyFingerprint } = pool;
  // A refill that began before the merchant changed its key would derive the dropped key's
  // addresses again: a merchant's pool is filled only while its key is the merchant's.
  if (pool.merchantId !== null) {
    const current = await ownDepositKeyOf(db, pool.merchantId, network.name, mode);
    if (current?.keyFingerprint !== keyFingerprint) return 0;
  }
  if (network.usesTags && mode === 'live') await ensureUntaggedAccount(db, pool);
  const sequence = await ensurePoolSequence(db, pool);
  const [ticket] = await runSql<{ next: string }>(db, sql`select (${nextTicket(sequence)})::text as next`);
  // A merchant's earlier keys are dropped when it changes its key (dropMerchantsOtherKeys).
  const dropped =
    pool.merchantId === null
      ? await DROP_OTHER_KEYS.run(db, { network: network.name, mode, from: ticket!.next, keyFingerprint })
      : [];
  if (dropped.length > 0)
    log.warn('address pool: dropped the unissued addresses of another key', {
      network: network.name,
      mode,
      dropped: dropped.length,
      keyFingerprint,
    });
  // Built per call: the sequence is the pool's own.
  const [state] = await runSql<{ next_derived: string; next_ticket: string }>(
    db,
    sql`select (${nextDerived(pool)})::text as next_derived, (${nextTicket(sequence)})::text as next_ticket`,
  );
  const first = Number(state!.next_derived);
  const free = first - Number(state!.next_ticket);
  const missing = target - Math.max(free, 0);
  // Tickets may have run past the derived range (an empty pool): derive from the first index
  // still to be handed out.
  const from = Math.max(first, Number(state!.next_ticket));
  if (missing <= 0) {
    highestDerived().set(poolName(pool), first - 1);
    return 0;
  }
  let added = 0;
  for (let start = 0; start < missing; start += DERIVE_BATCH) {
    const count = Math.min(DERIVE_BATCH, missing - start);
    const destinations = await destinationsAt(pool, from + start, count);
    const rows = destinations.map((destination, i) => ({ index: from + start + i, ...destination }));
    // A concurrent filler that took the same indices turns these into no-ops.
    const inserted = await INSERT_POOL.run(db, {
      network: network.name,
      mode,
      keyFingerprint,
      merchantId: pool.merchantId,
      ...POOL_ROWS.values(rows.map((r) => ({ derivation_index: r.index, address: r.address, tag: r.tag }))),
    });
    added += inserted.length;
  }
  highestDerived().set(poolName(pool), from + missing - 1);
  return added;
}

/** A pool's name in this process's maps: its sequence (one per network, mode and merchant key). */
const poolName = (pool: AddressPool) => pool.sequence;

/**
 * The highest index this process derived per pool. Addresses are taken lowest index first, so the
 * index of a taken address tells how many are left without asking the database. Looked up on each
 * use: a test process that shares its modules between files forgets the slot after each file
 * (decision 078).
 */
const highestDerived = () => processSlot('addressesDerived', () => new Map<string, number>());

type Refills = Map<string, Promise<void>>;

/**
 * One refill per pool at a time in this process, shared by everyone who asks: a burst that
 * empties the pool must not start a derivation per waiting request (each would derive the same
 * indices and throw them away on conflict).
 */
function singleRefill(db: Queryable, pool: AddressPool, needed: () => Promise<boolean>): Promise<void> {
  const running = processSlot<Refills>('addressRefills', () => new Map());
  const key = poolName(pool);
  const current = running.get(key);
  if (current) return current;
  const work = (async () => {
    if (await needed()) await fillPool(db, pool);
  })()
    .catch((error) => log.error('address pool refill failed', { network: pool.network.name, mode: pool.mode, error }))
    .finally(() => running.delete(key));
  running.set(key, work);
  return work;
}

/**
 * Refills the pool in the background once it falls below half; the request does not wait (the
 * promise, which never rejects, is for start-up). `takenIndex` (the index just handed out) skips
 * the check while plenty are left.
 */
export function refillSoon(db: Queryable, pool: AddressPool, takenIndex?: number): Promise<void> {
  const lowWater = Math.floor(config().addressPoolSize / 2);
  const highest = highestDerived().get(poolName(pool));
  if (takenIndex !== undefined && highest !== undefined && highest - takenIndex >= lowWater) return Promise.resolve();
  return singleRefill(db, pool, async () => {
    const sequence = await ensurePoolSequence(db, pool);
    const [row] = await runSql<{ free: string }>(
      db,
      sql`select ((${nextDerived(pool)}) - (${nextTicket(sequence)}))::text as free`,
    );
    return Number(row!.free) < lowWater;
  });
}

/** Waits for a refill of `pool`, joining the one under way if any (the pool is empty). */
export async function refillNow(db: Queryable, pool: AddressPool): Promise<void> {
  const running = peekProcessSlot<Refills>('addressRefills')?.get(poolName(pool));
  // A refill that started before the pool ran dry may have been too small: then start another.
  if (running) await running;
  await singleRefill(db, pool, async () => true);
}

/**
 * Settles when new addresses of `network` can arrive at their normal pace: at once for tag
 * networks, else once the derivation thread has loaded (seconds on a busy machine when it runs
 * from sources, which a request should not count against its wait for an empty pool).
 */
export async function derivationRunning(network: Network): Promise<void> {
  if (!network.usesTags) await derivationThreadReady();
}

/** Addresses every pool has before the server answers; the rest is derived in the background. */
const POOL_AT_START = 16;

/**
 * Start-up: a few addresses per pool now (the gateway's key and every merchant's own key of each
 * network), the full pools in the background, one at a time: all at once, the refills of every
 * network held every database connection for seconds after start-up, and requests arriving then
 * waited for one.
 */
export async function fillAddressPools(db: Queryable, networks: readonly Network[], mode: Mode): Promise<void> {
  const pools: AddressPool[] = [];
  for (const network of networks) {
    pools.push(await gatewayPool(network, mode));
    for (const own of await DEPOSIT_KEYS_OF_NETWORK.run(db, { network: network.name, mode }))
      pools.push(merchantPool(network, mode, own.merchant_id, own.key, own.key_fingerprint));
  }
  for (const pool of pools) await fillPool(db, pool, POOL_AT_START);
  void (async () => {
    for (const pool of pools) await refillSoon(db, pool);
  })();
}

export {
  findExternalUser,
  personalAddress,
  personalAddressesOf,
  receivedByCurrency,
  serializeUser,
  upsertExternalUser,
  userAddress,
  userAddresses,
  type ExternalUserRow,
  type PersonalAddressRow,
} from './personal';
