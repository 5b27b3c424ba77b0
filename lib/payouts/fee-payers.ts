import 'server-only';
/**
 * The account of the merchant's seed that pays an account chain's collection fees, kept per network
 * and mode (docs/decisions/099): the gas payer on EVM, the resource account holding staked TRX on
 * Tron. An address and its derivation path, never a key. A prepare that names no fee payer reads it
 * here; one that names one uses that.
 */
import { isValidAddress, networkFor } from '../chains';
import { bare, feePayers, param, sql, statement, type Queryable } from '../db';
import { feePayerSchema, type Mode } from '../protocol';
import { FeePayerInvalid } from './errors';
import { refuseKeyMaterial } from './key-material';

export interface FeePayer {
  address: string;
  path: string;
}

/** The default path of a network's fee payer: account 1 of the seed, kept apart from the deposit addresses' account 0. */
export const DEFAULT_FEE_PAYER_PATH = { evm: "m/44'/60'/1'/0/0", tron: "m/44'/195'/1'/0/0" } as const;

const FEE_PAYER = statement<FeePayer, { merchantId: string; network: string; mode: Mode }>(
  sql`select ${feePayers.address} as address, ${feePayers.path} as path from ${feePayers}
    where ${feePayers.merchantId} = ${param('merchantId')} and ${feePayers.network} = ${param('network')} and ${feePayers.mode} = ${param('mode')}`,
);
const SET_FEE_PAYER = statement<
  unknown,
  { merchantId: string; network: string; mode: Mode; address: string; path: string }
>(
  sql`insert into ${feePayers} (${bare(feePayers.merchantId)}, ${bare(feePayers.network)}, ${bare(feePayers.mode)}, ${bare(feePayers.address)}, ${bare(feePayers.path)})
    values (${param('merchantId')}, ${param('network')}, ${param('mode')}, ${param('address')}, ${param('path')})
  on conflict (${bare(feePayers.merchantId)}, ${bare(feePayers.network)}, ${bare(feePayers.mode)})
  do update set ${bare(feePayers.address)} = excluded.${bare(feePayers.address)}, ${bare(feePayers.path)} = excluded.${bare(feePayers.path)},
    ${bare(feePayers.updatedAt)} = now()`,
);

const FEE_PAYERS = statement<FeePayer & { network: string }, { merchantId: string; mode: Mode }>(
  sql`select ${feePayers.network} as network, ${feePayers.address} as address, ${feePayers.path} as path from ${feePayers}
    where ${feePayers.merchantId} = ${param('merchantId')} and ${feePayers.mode} = ${param('mode')}
    order by ${feePayers.network}`,
);

/** Every network's fee payer kept for (merchant, mode), by network. */
export async function feePayersOf(
  db: Queryable,
  merchantId: string,
  mode: Mode,
): Promise<(FeePayer & { network: string })[]> {
  return FEE_PAYERS.run(db, { merchantId, mode });
}

/** The fee payer kept for (merchant, network, mode); null when none is. */
export async function feePayerOf(
  db: Queryable,
  merchantId: string,
  network: string,
  mode: Mode,
): Promise<FeePayer | null> {
  const [row] = await FEE_PAYER.run(db, { merchantId, network, mode });
  return row ?? null;
}

/**
 * The fee payer as it would be kept: the network's name, the trimmed address and path, once the
 * network is an EVM or Tron network of the mode, the address is its own (checksum checked) and the
 * path a derivation path; FeePayerInvalid otherwise, KeyMaterialRefused for a key pasted in either
 * field. Pure of the database, so a form checks it before anything is written.
 */
export function checkFeePayer(request: { network: string; mode: Mode; address: string; path: string }): {
  network: string;
  address: string;
  path: string;
} {
  refuseKeyMaterial({ address: request.address, path: request.path });
  const network = networkFor(request.mode, request.network);
  if (!network || (network.family !== 'evm' && network.family !== 'tron'))
    throw new FeePayerInvalid(request.network, 'network', 'not an EVM or Tron network of this mode');
  const parsed = feePayerSchema.safeParse({ address: request.address, path: request.path.trim() });
  if (!parsed.success || !isValidAddress(network, parsed.data.address)) {
    const field = parsed.success || parsed.error.issues[0]?.path[0] === 'address' ? 'address' : 'path';
    throw new FeePayerInvalid(
      network.name,
      field,
      field === 'address'
        ? `not a ${network.name} address (checksum checked)`
        : "not a derivation path such as m/44'/60'/1'/0/0",
    );
  }
  return { network: network.name, ...parsed.data };
}

/** Keeps the fee payer of (merchant, network, mode) after checking it (`checkFeePayer`); the one kept before is replaced. */
export async function setFeePayer(
  db: Queryable,
  request: { merchantId: string; network: string; mode: Mode; address: string; path: string },
): Promise<FeePayer & { network: string }> {
  const checked = checkFeePayer(request);
  await SET_FEE_PAYER.run(db, { merchantId: request.merchantId, mode: request.mode, ...checked });
  return checked;
}
