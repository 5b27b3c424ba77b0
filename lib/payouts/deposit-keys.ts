import 'server-only';
/**
 * A merchant's own deposit key per network and mode (docs/decisions/083): its deposit addresses,
 * and so the funds in them, belong to its own seed, not the operator's. Public (an extended public
 * key with its origin), not secret; set by an owner with a fresh second factor (the dashboard) or
 * the command line, audited by the caller. The gateway-wide `<NETWORK>_XPUB` stays the key of a
 * merchant that set none.
 */
import { dropMerchantsOtherKeys, fillPool, gatewayPool, keyFingerprintOf, ownDepositKeyOf, poolOf } from '../addresses';
import { networkFor, parseDepositKey } from '../chains';
import { bare, depositKeys, param, sql, statement, type Database, type Queryable } from '../db';
import type { Mode } from '../protocol';
import { DepositKeyInvalid, KeyMaterialRefused } from './errors';
import { refuseKeyMaterial, solanaKeyMaterialIn, xrplKeyMaterialIn } from './key-material';

/**
 * The key as it would be stored: the network's name, the descriptor in canonical form (with its
 * checksum), the Solana wallet or the XRP Ledger account, and the pool's source (the extended
 * public key its addresses derive from, or the wallet or account); DepositKeyInvalid otherwise,
 * KeyMaterialRefused for a private key, WIF key, recovery phrase, Solana secret key or XRP Ledger
 * seed or private key pasted in its place (never echoed). Pure of the
 * database, so a form checks it before asking for a code.
 */
export function checkDepositKey(request: { network: string; mode: Mode; key: string }): {
  network: string;
  key: string;
  source: string;
} {
  refuseKeyMaterial({ key: request.key });
  const network = networkFor(request.mode, request.network);
  if (!network) throw new DepositKeyInvalid(request.network, `not a network of ${request.mode} mode here`);
  // Searched only where the network's address belongs: a signature or a transaction id looks alike.
  const secret =
    network.family === 'solana'
      ? solanaKeyMaterialIn(request.key)
      : network.family === 'xrpl'
        ? xrplKeyMaterialIn(request.key)
        : null;
  if (secret) throw new KeyMaterialRefused('key', secret);
  try {
    const { key, source } = parseDepositKey(network, request.key.trim());
    return { network: network.name, key, source };
  } catch (error) {
    throw new DepositKeyInvalid(network.name, (error as Error).message);
  }
}

const HOLDER = statement<{ merchant_id: string }, { network: string; mode: Mode; keyFingerprint: string }>(
  sql`select ${depositKeys.merchantId} as merchant_id from ${depositKeys}
    where ${depositKeys.network} = ${param('network')} and ${depositKeys.mode} = ${param('mode')} and ${depositKeys.keyFingerprint} = ${param('keyFingerprint')}`,
);
const SET_KEY = statement<
  unknown,
  { merchantId: string; network: string; mode: Mode; key: string; keyFingerprint: string }
>(sql`insert into ${depositKeys} (${bare(depositKeys.merchantId)}, ${bare(depositKeys.network)}, ${bare(depositKeys.mode)}, ${bare(depositKeys.key)}, ${bare(depositKeys.keyFingerprint)})
    values (${param('merchantId')}, ${param('network')}, ${param('mode')}, ${param('key')}, ${param('keyFingerprint')})
  on conflict (${bare(depositKeys.merchantId)}, ${bare(depositKeys.network)}, ${bare(depositKeys.mode)})
  do update set ${bare(depositKeys.key)} = excluded.${bare(depositKeys.key)}, ${bare(depositKeys.keyFingerprint)} = excluded.${bare(depositKeys.keyFingerprint)},
    ${bare(depositKeys.updatedAt)} = now()`);

/** Addresses a merchant's new key has before its first order: the rest follow in the background. */
const POOL_AT_SET = 16;

/** What setting a key did: the key stored, its pool fingerprint, and the earlier key's unissued addresses dropped. */
export interface DepositKeySet {
  network: string;
  mode: Mode;
  key: string;
  keyFingerprint: string;
  dropped: number;
}

/**
 * Stores the merchant's own key for (network, mode) after checking it: orders from now on take
 * addresses of it; the unissued addresses of its earlier key are dropped in the same transaction
 * (those handed out stay, watched). Refused for a key another merchant holds, or the gateway's
 * (their addresses would be one pool's and another's at once).
 */
export async function setDepositKey(
  db: Database,
  request: { merchantId: string; network: string; mode: Mode; key: string },
): Promise<DepositKeySet> {
  const checked = checkDepositKey(request);
  const network = networkFor(request.mode, checked.network)!;
  const keyFingerprint = await keyFingerprintOf(network, checked.source);
  const gateway = await gatewayPool(network, request.mode).catch(() => null);
  if (gateway?.keyFingerprint === keyFingerprint)
    throw new DepositKeyInvalid(network.name, "it is the gateway's own key, which merchants without a key use already");
  const where = { merchantId: request.merchantId, network: network.name, mode: request.mode };
  let dropped = 0;
  try {
    await db.transaction(async (tx) => {
      const [holder] = await HOLDER.run(tx, { network: network.name, mode: request.mode, keyFingerprint });
      if (holder && holder.merchant_id !== request.merchantId) throw heldElsewhere(network.name);
      await SET_KEY.run(tx, { ...where, key: checked.key, keyFingerprint });
      dropped = await dropMerchantsOtherKeys(tx, { ...where, keyFingerprint });
    });
  } catch (error) {
    // Two merchants setting one key at the same moment: the unique index says no to the second.
    if ((error as { constraint?: string })?.constraint === 'deposit_keys_fingerprint')
      throw heldElsewhere(network.name);
    throw error;
  }
  await fillPool(db, await poolOf(db, network, request.mode, request.merchantId), POOL_AT_SET);
  return { network: network.name, mode: request.mode, key: checked.key, keyFingerprint, dropped };
}

function heldElsewhere(network: string): DepositKeyInvalid {
  return new DepositKeyInvalid(network, 'another merchant of this gateway uses this key; each merchant needs its own');
}

/** The merchant's own key of (network, mode) as stored (a descriptor), or null when its deposits use the gateway's. */
export async function depositKeyOf(
  db: Queryable,
  merchantId: string,
  network: string,
  mode: Mode,
): Promise<string | null> {
  return (await ownDepositKeyOf(db, merchantId, network, mode))?.key ?? null;
}
