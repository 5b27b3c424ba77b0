import 'server-only';
import { randomInt } from 'node:crypto';
import type { Network } from '../catalog';
import type { Mode } from '../catalog/enabled';
import { deriveAddress, testAccountXpub, testTagAccountAddress } from '../chains/derivation';
import { config } from '../config';
import type { Queryable } from '../db';
import { log } from '../log';

/**
 * Deposit addresses are derived ahead of time into a free pool, so that creating an order costs
 * one statement and no elliptic-curve work on the request path. Each address is handed out once
 * (assigned_at) and never reused. Skipped indices (an address taken by a request that then lost
 * a race) stay unused; wallets that sweep these addresses should scan with a gap limit above
 * the pool size.
 */


/** The extended public key of the network's external chain for `mode`. */
function accountXpub(network: Network, mode: Mode): string {
  if (mode === 'test') return testAccountXpub(network);
  throw new Error(`no extended public key is configured for live ${network.name}`);
}

function tagAccountAddress(network: Network, mode: Mode): string {
  if (mode === 'test') return testTagAccountAddress(network);
  throw new Error(`no receiving address is configured for live ${network.name}`);
}

/** The destination at pool position `index`: a derived address, or the shared address with a fresh tag. */
function destinationAt(network: Network, mode: Mode, index: number): { address: string; tag: string | null } {
  if (network.usesTags) {
    // A random 32-bit tag (never 0, which wallets treat as "no tag"); collisions are skipped by
    // the unique index on (network, mode, address, tag).
    return { address: tagAccountAddress(network, mode), tag: String(randomInt(1, 2 ** 32 - 1)) };
  }
  return { address: deriveAddress(network, accountXpub(network, mode), index), tag: null };
}

const DERIVE_BATCH = 8;

/** Tops the free pool of (network, mode) up to ADDRESS_POOL_SIZE addresses; answers how many were added. */
export async function fillAddressPool(db: Queryable, network: Network, mode: Mode, target = config().addressPoolSize): Promise<number> {
  const [state] = await db.query<{ free: number; next: string }>(
    `select count(*) filter (where assigned_at is null)::int as free,
            (coalesce(max(derivation_index), -1) + 1)::text as next
       from addresses where network = $1 and mode = $2`,
    [network.name, mode],
  );
  const missing = target - state!.free;
  if (missing <= 0) return 0;
  const first = Number(state!.next);
  let added = 0;
  // Derivation costs about a millisecond an address: work in small batches so that a refill
  // never holds the event loop (and the requests waiting on it) for long.
  for (let start = 0; start < missing; start += DERIVE_BATCH) {
    const count = Math.min(DERIVE_BATCH, missing - start);
    const rows = Array.from({ length: count }, (_, i) => ({ index: first + start + i, ...destinationAt(network, mode, first + start + i) }));
    // A concurrent filler that took the same indices turns these into no-ops.
    const inserted = await db.query(
      `insert into addresses (network, mode, kind, derivation_index, address, tag)
       select $1, $2, 'PAY_IN', i, a, t from unnest($3::bigint[], $4::text[], $5::text[]) as x(i, a, t)
       on conflict do nothing returning 1`,
      [network.name, mode, rows.map((r) => r.index), rows.map((r) => r.address), rows.map((r) => r.tag)],
    );
    added += inserted.length;
  }
  return added;
}

const refillSlot = Symbol.for('gateway.addressRefills');
type Holder = { [refillSlot]?: Map<string, Promise<void>> };

/**
 * Refills the pool in the background when it runs low, at most one refill per network at a
 * time. Called after an address is taken; the request does not wait for it.
 */
export function refillSoon(db: Queryable, network: Network, mode: Mode): void {
  const running = ((globalThis as Holder)[refillSlot] ??= new Map());
  const key = `${network.name}/${mode}`;
  if (running.has(key)) return;
  const lowWater = Math.floor(config().addressPoolSize / 2);
  const work = (async () => {
    const [row] = await db.query<{ free: number }>(
      `select count(*)::int as free from (select 1 from addresses where network = $1 and mode = $2 and assigned_at is null limit $3) f`,
      [network.name, mode, lowWater],
      'address_pool_free',
    );
    if (row!.free < lowWater) await fillAddressPool(db, network, mode);
  })()
    .catch((error) => log.error('address pool refill failed', { network: network.name, mode, error }))
    .finally(() => running.delete(key));
  running.set(key, work);
}

/** Waits for a refill of (network, mode), starting one if none runs (used when the pool is empty). */
export async function refillNow(db: Queryable, network: Network, mode: Mode): Promise<void> {
  const running = (globalThis as Holder)[refillSlot]?.get(`${network.name}/${mode}`);
  if (running) await running;
  await fillAddressPool(db, network, mode);
}

/** Addresses every pool has before the server answers; the rest is derived in the background. */
const POOL_AT_START = 16;

/** Start-up: a few addresses per network now, the full pool in the background. */
export async function fillAddressPools(db: Queryable, networks: readonly Network[], mode: Mode): Promise<void> {
  for (const network of networks) await fillAddressPool(db, network, mode, POOL_AT_START);
  for (const network of networks) refillSoon(db, network, mode);
}
