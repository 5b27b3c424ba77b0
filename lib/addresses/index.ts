import 'server-only';
import { randomInt } from 'node:crypto';
import type { Network } from '../catalog';
import { derivationThreadReady, deriveAddresses, liveChainConfig, testAccountXpub, testTagAccountAddress } from '../chains';
import { config, envPrefix } from '../config';
import type { Queryable } from '../db';
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

/** The derivation index of a live tag network's untagged account row: below every pool position. */
const ACCOUNT_ROW_INDEX = -1;

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
  const [row] = await db.query<{ address: string; merchant_id: string | null }>(
    `select address, merchant_id from addresses where network = $1 and mode = 'live' and derivation_index = $2`,
    [network.name, ACCOUNT_ROW_INDEX],
  );
  if (row?.address === live.account && row.merchant_id === live.untaggedMerchant) return;
  const written = await db.query(
    `insert into addresses (network, mode, kind, derivation_index, address, tag, merchant_id)
     select $1, 'live', 'PAY_IN', $2, $3, null, m.id from merchants m where m.id = $4
     on conflict (network, mode, derivation_index) do update set address = excluded.address, merchant_id = excluded.merchant_id
     returning 1`,
    [network.name, ACCOUNT_ROW_INDEX, live.account, live.untaggedMerchant],
  );
  if (written.length === 0) throw new Error(`${envPrefix(network)}_UNTAGGED_MERCHANT: no merchant has the id ${live.untaggedMerchant} (npm run keys -- list)`);
}

/**
 * The destinations at pool positions `from` .. `from + count - 1`: derived addresses (on the
 * derivation thread), or the shared address with a fresh tag each.
 */
async function destinationsAt(network: Network, mode: Mode, from: number, count: number): Promise<{ address: string; tag: string | null }[]> {
  if (network.usesTags) {
    // A random 32-bit tag (never 0, which wallets treat as "no tag"); collisions are skipped by
    // the unique index on (network, mode, address, tag).
    const address = tagAccountAddress(network, mode);
    return Array.from({ length: count }, () => ({ address, tag: String(randomInt(1, 2 ** 32 - 1)) }));
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

/**
 * Creates the pool sequence of (network, mode) on first use, starting after every index already
 * handed out (orders and personal addresses), so that a pool created before the sequence existed
 * is continued, not reused.
 */
async function ensurePoolSequence(db: Queryable, network: Network, mode: Mode): Promise<string> {
  const sequence = poolSequence(network, mode);
  const [exists] = await db.query<{ found: boolean }>('select to_regclass($1) is not null as found', [sequence]);
  if (exists!.found) return sequence;
  const [used] = await db.query<{ next: string }>(
    `select (coalesce(max(derivation_index), -1) + 1)::text as next from addresses a
      where network = $1 and mode = $2 and (assigned_at is not null or exists (select 1 from orders o where o.address_id = a.id))`,
    [network.name, mode],
  );
  try {
    await db.query(`create sequence if not exists ${sequence} as bigint minvalue 0 start with ${BigInt(used!.next)}`);
  } catch (error) {
    // Two processes creating it at once: the loser sees a duplicate in the catalog; the sequence exists.
    const [again] = await db.query<{ found: boolean }>('select to_regclass($1) is not null as found', [sequence]);
    if (!again!.found) throw error;
  }
  return sequence;
}

/** Tops the pool of (network, mode) up to `target` addresses not yet handed out; answers how many were added. */
export async function fillAddressPool(db: Queryable, network: Network, mode: Mode, target = config().addressPoolSize): Promise<number> {
  if (network.usesTags && mode === 'live') await ensureUntaggedAccount(db, network);
  const sequence = await ensurePoolSequence(db, network, mode);
  const [state] = await db.query<{ next_derived: string; next_ticket: string }>(
    `select (select (coalesce(max(derivation_index), -1) + 1)::text from addresses where network = $1 and mode = $2) as next_derived,
            (select (case when is_called then last_value + 1 else last_value end)::text from ${sequence}) as next_ticket`,
    [network.name, mode],
  );
  const first = Number(state!.next_derived);
  const free = first - Number(state!.next_ticket);
  const missing = target - Math.max(free, 0);
  // Tickets may have run past the derived range (an empty pool): derive from the first index
  // still to be handed out.
  const from = Math.max(first, Number(state!.next_ticket));
  if (missing <= 0) {
    highestDerived.set(`${network.name}/${mode}`, first - 1);
    return 0;
  }
  let added = 0;
  for (let start = 0; start < missing; start += DERIVE_BATCH) {
    const count = Math.min(DERIVE_BATCH, missing - start);
    const destinations = await destinationsAt(network, mode, from + start, count);
    const rows = destinations.map((destination, i) => ({ index: from + start + i, ...destination }));
    // A concurrent filler that took the same indices turns these into no-ops.
    const inserted = await db.query(
      `insert into addresses (network, mode, kind, derivation_index, address, tag)
       select $1, $2, 'PAY_IN', i, a, t from unnest($3::bigint[], $4::text[], $5::text[]) as x(i, a, t)
       on conflict do nothing returning 1`,
      [network.name, mode, rows.map((r) => r.index), rows.map((r) => r.address), rows.map((r) => r.tag)],
    );
    added += inserted.length;
  }
  highestDerived.set(`${network.name}/${mode}`, from + missing - 1);
  return added;
}

/**
 * The highest index this process derived per (network, mode). Addresses are taken lowest index
 * first, so the index of a taken address tells how many are left without asking the database.
 */
const highestDerived = processSlot('addressesDerived', () => new Map<string, number>());

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
  const highest = highestDerived.get(`${network.name}/${mode}`);
  if (takenIndex !== undefined && highest !== undefined && highest - takenIndex >= lowWater) return Promise.resolve();
  return singleRefill(db, network, mode, async () => {
    const sequence = await ensurePoolSequence(db, network, mode);
    const [row] = await db.query<{ free: string }>(
      `select ((select coalesce(max(derivation_index), -1) + 1 from addresses where network = $1 and mode = $2)
               - (select case when is_called then last_value + 1 else last_value end from ${sequence}))::text as free`,
      [network.name, mode],
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
