import 'server-only';
/**
 * The gap limit a wallet that imports the extended key would need to find every deposit: the
 * longest run of unused addresses below the highest used one (expired, unpaid orders leave such
 * runs; a wallet stops scanning after as many unused addresses as its gap limit). A PSBT needs
 * none (docs/collections.md#other-wallets-and-the-gap-limit).
 */
import { gatewayPool, poolOf } from '../addresses';
import { networkFor } from '../chains';
import { addresses, chainTransfers, param, sql, statement, type Queryable } from '../db';
import type { Mode } from '../protocol';
import { CollectionRefused } from './errors';

// Indices never derived or never paid count as unused alike: a wallet cannot tell them apart.
const GAP = statement<
  { highest: string | null; longest: string | null },
  { network: string; mode: Mode; keyFingerprint: string }
>(sql`with used as (
    select distinct ${addresses.derivationIndex} as i from ${addresses}
      join ${chainTransfers} on ${chainTransfers.addressId} = ${addresses.id}
     where ${addresses.network} = ${param('network')} and ${addresses.mode} = ${param('mode')}
       and ${addresses.keyFingerprint} = ${param('keyFingerprint')} and ${addresses.derivationIndex} >= 0
  ), runs as (
    select i, i - lag(i, 1, -1::bigint) over (order by i) - 1 as unused_before from used
  )
  select max(i)::text as highest, max(unused_before)::text as longest from runs`);

export interface GapLimit {
  /** The highest address index that received anything; null when none has. */
  highestUsed: number | null;
  /** The longest run of unused addresses below it: a wallet's gap limit must be above this. */
  longestUnusedRun: number;
}

/** Of the key `merchantId`'s deposits come from now (its own, or the gateway's), or of the gateway's key without one. */
export async function gapLimitOf(db: Queryable, network: string, mode: Mode, merchantId?: string): Promise<GapLimit> {
  const found = networkFor(mode, network);
  if (!found || found.usesTags) throw new CollectionRefused(`${network} has no extended key in ${mode} mode`);
  const pool = merchantId === undefined ? await gatewayPool(found, mode) : await poolOf(db, found, mode, merchantId);
  const [row] = await GAP.run(db, { network: found.name, mode, keyFingerprint: pool.keyFingerprint });
  return {
    highestUsed: row?.highest === null || row?.highest === undefined ? null : Number(row.highest),
    longestUnusedRun: row?.longest === null || row?.longest === undefined ? 0 : Number(row.longest),
  };
}
