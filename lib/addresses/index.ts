import 'server-only';
import { createHash } from 'node:crypto';
import type { Network } from '../catalog';
import {
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
  bare,
  columnsOf,
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
 * order costs one statement and no elliptic-curve work on the thread that answers requests.
 * Positions in the pool are handed out by a PostgreSQL sequence per (network, mode): an order
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
  const source = network.usesTags ? tagAccountAddress(network, mode) : accountXpub(network, mode);
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

/** The derivation index of a live tag network's untagged account row: below every pool position. */
const ACCOUNT_ROW_INDEX = -1;

const UNTAGGED_ACCOUNT = statement<
  Pick<RowOf<typeof addresses>, 'address' | 'merchant_id'>,
  { network: string; index: number }
>(
  sql`select ${columnsOf(addresses, ['address', 'merchant_id'])} from ${addresses}
    where ${addresses.network} = ${param('network')} and ${addresses.mode} = 'live' and ${addresses.derivationIndex} = ${param('index')}`,
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
  on conflict (${bare(addresses.network)}, ${bare(addresses.mode)}, ${bare(addresses.derivationIndex)})
  do update set ${bare(addresses.address)} = excluded.${bare(addresses.address)}, ${bare(addresses.merchantId)} = excluded.${bare(addresses.merchantId)},
    ${bare(addresses.keyFingerprint)} = excluded.${bare(addresses.keyFingerprint)}
  returning 1`);

/**
 * A live tag network's receiving account without a tag, owned by the configured merchant: the
 * watcher matches a payment to the account whose tag is no order's to this row, which makes it an
 * orphan deposit of that merchant instead of nothing (docs/decisions/034). Kept in step with the
 * configuration (a new address or merchant rewrites the row); a merchant id that names no merchant
 * stops the fill naming its variable.
 */
async function ensureUntaggedAccount(db: Queryable, network: Network): Promise<void> {
  const live = liveChainConfig(network.name);
  if (!live?.account || !live.untaggedMerchant) return;
  const [row] = await UNTAGGED_ACCOUNT.run(db, { network: network.name, index: ACCOUNT_ROW_INDEX });
  if (row?.address === live.account && row.merchant_id === live.untaggedMerchant) return;
  const written = await WRITE_UNTAGGED_ACCOUNT.run(db, {
    network: network.name,
    index: ACCOUNT_ROW_INDEX,
    address: live.account,
    merchantId: live.untaggedMerchant,
    keyFingerprint: await poolKeyFingerprint(network, 'live'),
  });
  if (written.length === 0)
    throw new Error(
      `${envPrefix(network)}_UNTAGGED_MERCHANT: no merchant has the id ${live.untaggedMerchant} (npm run keys -- list)`,
    );
}

/**
 * The destinations at pool positions `from` .. `from + count - 1`: derived addresses (on the
 * derivation thread), or the shared address with a fresh tag each.
 */
async function destinationsAt(
  network: Network,
  mode: Mode,
  from: number,
  count: number,
): Promise<{ address: string; tag: string | null }[]> {
  if (network.usesTags) {
    // A fresh tag each (lib/chains freshTag); collisions are skipped by the unique index on
    // (network, mode, address, tag).
    const address = tagAccountAddress(network, mode);
    return Array.from({ length: count }, () => ({ address, tag: freshTag(network) }));
  }
  const addresses = await deriveAddresses(network, accountXpub(network, mode), from, count);
  return addresses.map((address) => ({ address, tag: null }));
}

// Batches of this many addresses: each is one message to the derivation thread and one insert.
// A refill at half the default pool is one batch: on a saturated embedded database every query
// of a refill waits behind the requests queued for its single session, so fewer is sooner, and
// deriving 128 takes ~15 ms since child keys are derived natively.
const DERIVE_BATCH = 128;

/** The sequence that hands out pool positions of (network, mode); catalog names are identifiers. */
export function poolSequence(network: Network, mode: Mode): string {
  const name = `address_pool_${network.name}_${mode}`;
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`network name "${network.name}" cannot name a sequence`);
  return name;
}

const RELATION_EXISTS = statement<{ found: boolean }, { name: string }>(
  sql`select to_regclass(${param('name')}) is not null as found`,
);
/** The position after every one handed out: taken by an order, or assigned to a user. */
const FIRST_UNUSED = statement<{ next: string }, { network: string; mode: Mode }>(
  sql`select (coalesce(max(${addresses.derivationIndex}), -1) + 1)::text as next from ${addresses}
    where ${addresses.network} = ${param('network')} and ${addresses.mode} = ${param('mode')}
      and (${addresses.assignedAt} is not null or exists (select 1 from ${orders} where ${orders.addressId} = ${addresses.id}))`,
);
/** The next pool position `sequence` hands out (a sequence per network: its name is no schema object). */
const nextTicket = (sequence: string) =>
  sql`select case when is_called then last_value + 1 else last_value end from ${sql.identifier(sequence)}`;
/** The position after the highest derived of (network, mode). */
const nextDerived = (network: string, mode: Mode) =>
  sql`select coalesce(max(${addresses.derivationIndex}), -1) + 1 from ${addresses} where ${addresses.network} = ${network} and ${addresses.mode} = ${mode}`;

/**
 * Creates the pool sequence of (network, mode) on first use, starting after every index already
 * handed out (orders and personal addresses), so that a pool created before the sequence existed
 * is continued, not reused.
 */
async function ensurePoolSequence(db: Queryable, network: Network, mode: Mode): Promise<string> {
  const sequence = poolSequence(network, mode);
  const [exists] = await RELATION_EXISTS.run(db, { name: sequence });
  if (exists!.found) return sequence;
  const [used] = await FIRST_UNUSED.run(db, { network: network.name, mode });
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
const INSERT_POOL = statement<
  unknown,
  { network: string; mode: Mode; keyFingerprint: string }
>(sql`insert into ${addresses}
    (${bare(addresses.network)}, ${bare(addresses.mode)}, ${bare(addresses.kind)}, ${bare(addresses.keyFingerprint)}, ${POOL_ROWS.names})
  select ${param('network')}, ${param('mode')}, 'PAY_IN', ${param('keyFingerprint')}, ${POOL_ROWS.names} from ${POOL_ROWS.from}
  on conflict do nothing returning 1`);

/**
 * The pool's addresses not handed out yet (at or after the next position) that come from another
 * key than `keyFingerprint`, or from a key never fingerprinted: after `<NETWORK>_XPUB` or `_CHAIN`
 * changed, they are no address of the configured key. Those taken by an order or a user, or that
 * a transfer reached, stay.
 */
const DROP_OTHER_KEYS = statement<unknown, { network: string; mode: Mode; from: string; keyFingerprint: string }>(
  sql`delete from ${addresses}
   where ${addresses.network} = ${param('network')} and ${addresses.mode} = ${param('mode')} and ${addresses.derivationIndex} >= ${param('from')}::bigint
     and ${addresses.keyFingerprint} is distinct from ${param('keyFingerprint')} and ${addresses.assignedAt} is null
     and not exists (select 1 from ${orders} where ${orders.addressId} = ${addresses.id})
     and not exists (select 1 from ${chainTransfers} where ${chainTransfers.addressId} = ${addresses.id})
   returning 1`,
);

/**
 * Tops the pool of (network, mode) up to `target` addresses not yet handed out, all of the key
 * configured now (the unissued ones of another key are dropped first, and logged); answers how
 * many were added.
 */
export async function fillAddressPool(
  db: Queryable,
  network: Network,
  mode: Mode,
  target = config().addressPoolSize,
): Promise<number> {
  if (network.usesTags && mode === 'live') await ensureUntaggedAccount(db, network);
  const sequence = await ensurePoolSequence(db, network, mode);
  const keyFingerprint = await poolKeyFingerprint(network, mode);
  const [ticket] = await runSql<{ next: string }>(db, sql`select (${nextTicket(sequence)})::text as next`);
  const dropped = await DROP_OTHER_KEYS.run(db, { network: network.name, mode, from: ticket!.next, keyFingerprint });
  if (dropped.length > 0)
    log.warn('address pool: dropped the unissued addresses of another key', {
      network: network.name,
      mode,
      dropped: dropped.length,
      keyFingerprint,
    });
  // Built per call: the sequence is the network's own.
  const [state] = await runSql<{ next_derived: string; next_ticket: string }>(
    db,
    sql`select (${nextDerived(network.name, mode)})::text as next_derived, (${nextTicket(sequence)})::text as next_ticket`,
  );
  const first = Number(state!.next_derived);
  const free = first - Number(state!.next_ticket);
  const missing = target - Math.max(free, 0);
  // Tickets may have run past the derived range (an empty pool): derive from the first index
  // still to be handed out.
  const from = Math.max(first, Number(state!.next_ticket));
  if (missing <= 0) {
    highestDerived().set(`${network.name}/${mode}`, first - 1);
    return 0;
  }
  let added = 0;
  for (let start = 0; start < missing; start += DERIVE_BATCH) {
    const count = Math.min(DERIVE_BATCH, missing - start);
    const destinations = await destinationsAt(network, mode, from + start, count);
    const rows = destinations.map((destination, i) => ({ index: from + start + i, ...destination }));
    // A concurrent filler that took the same indices turns these into no-ops.
    const inserted = await INSERT_POOL.run(db, {
      network: network.name,
      mode,
      keyFingerprint,
      ...POOL_ROWS.values(rows.map((r) => ({ derivation_index: r.index, address: r.address, tag: r.tag }))),
    });
    added += inserted.length;
  }
  highestDerived().set(`${network.name}/${mode}`, from + missing - 1);
  return added;
}

/**
 * The highest index this process derived per (network, mode). Addresses are taken lowest index
 * first, so the index of a taken address tells how many are left without asking the database.
 * Looked up on each use: a test process that shares its modules between files forgets the slot
 * after each file (decision 078).
 */
const highestDerived = () => processSlot('addressesDerived', () => new Map<string, number>());

type Refills = Map<string, Promise<void>>;

/**
 * One refill per (network, mode) at a time in this process, shared by everyone who asks: a burst
 * that empties the pool must not start a derivation per waiting request (each would derive the
 * same indices and throw them away on conflict).
 */
function singleRefill(db: Queryable, network: Network, mode: Mode, needed: () => Promise<boolean>): Promise<void> {
  const running = processSlot<Refills>('addressRefills', () => new Map());
  const key = `${network.name}/${mode}`;
  const current = running.get(key);
  if (current) return current;
  const work = (async () => {
    if (await needed()) await fillAddressPool(db, network, mode);
  })()
    .catch((error) => log.error('address pool refill failed', { network: network.name, mode, error }))
    .finally(() => running.delete(key));
  running.set(key, work);
  return work;
}

/**
 * Refills the pool in the background once it falls below half; the request does not wait (the
 * promise, which never rejects, is for start-up). `takenIndex` (the index just handed out) skips
 * the check while plenty are left.
 */
export function refillSoon(db: Queryable, network: Network, mode: Mode, takenIndex?: number): Promise<void> {
  const lowWater = Math.floor(config().addressPoolSize / 2);
  const highest = highestDerived().get(`${network.name}/${mode}`);
  if (takenIndex !== undefined && highest !== undefined && highest - takenIndex >= lowWater) return Promise.resolve();
  return singleRefill(db, network, mode, async () => {
    const sequence = await ensurePoolSequence(db, network, mode);
    const [row] = await runSql<{ free: string }>(
      db,
      sql`select ((${nextDerived(network.name, mode)}) - (${nextTicket(sequence)}))::text as free`,
    );
    return Number(row!.free) < lowWater;
  });
}

/** Waits for a refill of (network, mode), joining the one under way if any (the pool is empty). */
export async function refillNow(db: Queryable, network: Network, mode: Mode): Promise<void> {
  const running = peekProcessSlot<Refills>('addressRefills')?.get(`${network.name}/${mode}`);
  // A refill that started before the pool ran dry may have been too small: then start another.
  if (running) await running;
  await singleRefill(db, network, mode, async () => true);
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
 * Start-up: a few addresses per network now, the full pool in the background, one network at a
 * time: all at once, the refills of every network held every database connection for seconds
 * after start-up, and requests arriving then waited for one.
 */
export async function fillAddressPools(db: Queryable, networks: readonly Network[], mode: Mode): Promise<void> {
  for (const network of networks) await fillAddressPool(db, network, mode, POOL_AT_START);
  void (async () => {
    for (const network of networks) await refillSoon(db, network, mode);
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
