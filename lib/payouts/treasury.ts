import 'server-only';
/**
 * The merchant's treasury per network and mode: where collections go. Set by an owner with a fresh
 * second factor (the dashboard) or the command line; audited; checksum-validated.
 */
import { isValidAddress, networkFor } from '../chains';
import { bare, param, sql, statement, treasuries, type Queryable } from '../db';
import type { Mode } from '../protocol';
import { TreasuryInvalid } from './errors';
import { refuseKeyMaterial } from './key-material';

const TREASURY = statement<{ address: string }, { merchantId: string; network: string; mode: Mode }>(
  sql`select ${treasuries.address} as address from ${treasuries}
    where ${treasuries.merchantId} = ${param('merchantId')} and ${treasuries.network} = ${param('network')} and ${treasuries.mode} = ${param('mode')}`,
);
const SET_TREASURY = statement<unknown, { merchantId: string; network: string; mode: Mode; address: string }>(
  sql`insert into ${treasuries} (${bare(treasuries.merchantId)}, ${bare(treasuries.network)}, ${bare(treasuries.mode)}, ${bare(treasuries.address)})
    values (${param('merchantId')}, ${param('network')}, ${param('mode')}, ${param('address')})
  on conflict (${bare(treasuries.merchantId)}, ${bare(treasuries.network)}, ${bare(treasuries.mode)})
  do update set ${bare(treasuries.address)} = excluded.${bare(treasuries.address)}, ${bare(treasuries.updatedAt)} = now()`,
);

export async function treasuryOf(
  db: Queryable,
  merchantId: string,
  network: string,
  mode: Mode,
): Promise<string | null> {
  const [row] = await TREASURY.run(db, { merchantId, network, mode });
  return row?.address ?? null;
}

/**
 * The treasury as it would be stored: the network's name and the trimmed address, once the address
 * (and its checksum) is the network's; TreasuryInvalid otherwise, KeyMaterialRefused for a key
 * pasted in its place. Pure of the database, so a form can check it before asking for a code.
 */
export function checkTreasury(request: { network: string; mode: Mode; address: string }): {
  network: string;
  address: string;
} {
  // A key pasted where the address belongs is refused before anything else looks at it.
  refuseKeyMaterial({ address: request.address });
  const network = networkFor(request.mode, request.network);
  const address = request.address.trim();
  if (!network || !isValidAddress(network, address)) throw new TreasuryInvalid(request.network);
  return { network: network.name, address };
}

/** Stores the treasury of (merchant, network, mode) after checking the address (and its checksum) for the network. */
export async function setTreasury(
  db: Queryable,
  request: { merchantId: string; network: string; mode: Mode; address: string },
): Promise<void> {
  await SET_TREASURY.run(db, { ...request, ...checkTreasury(request) });
}
