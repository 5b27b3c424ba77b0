import 'server-only';
import { randomBytes } from 'node:crypto';
import { base58 } from '@scure/base';
import { z } from 'zod';
import {
  apiKeys,
  bare,
  columnsOf,
  insertValues,
  merchants,
  param,
  placeholders,
  sql,
  statement,
  type Database,
  type Queryable,
  type RowOf,
  type SQL,
  type Statement,
} from '../db';
import { config } from '../config';
import { processSlot } from '../process';
import { decryptSecret, encryptSecret } from './secrets';
import type { Mode } from '../protocol';

export interface ApiKey {
  keyId: string;
  merchantId: string;
  merchantName: string;
  mode: Mode;
  publicKey: string;
  /** The private key's UTF-8 bytes: the HMAC key of request and webhook signatures. */
  secret: Buffer;
}

/** Whose data a query reads or writes: one merchant's, in one mode. */
export type MerchantScope = Pick<ApiKey, 'merchantId' | 'mode'>;

export interface IssuedKeys {
  keyId: string;
  mode: Mode;
  publicKey: string;
  privateKey: string;
}

const NEW_KEY = placeholders(['merchantId', 'mode', 'publicKey', 'secretCiphertext']);
const NEW_KEY_INSERT = insertValues([
  [apiKeys.merchantId, NEW_KEY.merchantId],
  [apiKeys.mode, NEW_KEY.mode],
  [apiKeys.publicKey, NEW_KEY.publicKey],
  [apiKeys.secretCiphertext, NEW_KEY.secretCiphertext],
]);
const INSERT_KEY = statement<
  Pick<RowOf<typeof apiKeys>, 'id'>,
  { merchantId: string; mode: Mode; publicKey: string; secretCiphertext: string }
>(
  sql`insert into ${apiKeys} (${NEW_KEY_INSERT.columns}) values (${NEW_KEY_INSERT.values}) returning ${bare(apiKeys.id)}`,
);

/** Public keys say their mode (as Stripe's do), so a merchant can tell them apart at a glance. */
export async function issueApiKey(db: Queryable, merchantId: string, mode: Mode): Promise<IssuedKeys> {
  const publicKey = `pk_${mode}_${base58.encode(randomBytes(18))}`;
  const privateKey = `sk_${mode}_${base58.encode(randomBytes(32))}`;
  const [row] = await INSERT_KEY.run(db, { merchantId, mode, publicKey, secretCiphertext: encryptSecret(privateKey) });
  forgetKey(publicKey);
  return { keyId: row!.id, mode, publicKey, privateKey };
}

const REVOKED_CHANNEL = 'api_key_revoked';

type RevokedRow = Pick<RowOf<typeof apiKeys>, 'public_key' | 'mode'>;
/** Revokes the key `condition` names, unless revoked already, and announces it (NOTIFY, on commit). */
const revokeStatement = <Params extends object>(condition: SQL) =>
  statement<RevokedRow, Params>(sql`with revoked as (
       update ${apiKeys} set ${bare(apiKeys.revokedAt)} = now() where ${condition} and ${apiKeys.revokedAt} is null returning ${bare(apiKeys.publicKey)}, ${bare(apiKeys.mode)}
     )
     select public_key, mode, ${sql.raw(`pg_notify('${REVOKED_CHANNEL}', public_key)`)} from revoked`);
const REVOKE_BY_PUBLIC_KEY = revokeStatement<{ publicKey: string }>(sql`${apiKeys.publicKey} = ${param('publicKey')}`);
const REVOKE_MERCHANT_KEY = revokeStatement<{ id: string; merchantId: string }>(
  sql`${apiKeys.id} = ${param('id')} and ${apiKeys.merchantId} = ${param('merchantId')}`,
);

/** Revokes a key; every server sharing the database drops it from its cache at once (NOTIFY). */
export async function revokeApiKey(db: Queryable, publicKey: string): Promise<boolean> {
  return (await revokeWith(db, REVOKE_BY_PUBLIC_KEY, { publicKey })) !== undefined;
}

/**
 * Revokes one of the merchant's own keys by its id (the dashboard): another merchant's key id, an
 * unknown id or a key already revoked changes nothing and answers undefined.
 */
export async function revokeMerchantKey(
  db: Queryable,
  merchantId: string,
  keyId: string,
): Promise<{ publicKey: string; mode: Mode } | undefined> {
  if (!z.guid().safeParse(keyId).success) return undefined;
  return revokeWith(db, REVOKE_MERCHANT_KEY, { id: keyId, merchantId });
}

/**
 * The one home of a revocation: marks the key revoked, announces it to every process sharing the
 * database (NOTIFY, followed by followKeyRevocations) and drops it from this process's cache.
 */
async function revokeWith<Params extends object>(
  db: Queryable,
  revoke: Statement<RevokedRow, Params>,
  params: Params,
): Promise<{ publicKey: string; mode: Mode } | undefined> {
  const [row] = await revoke.run(db, params);
  if (!row) return undefined;
  forgetKey(row.public_key);
  return { publicKey: row.public_key, mode: row.mode };
}

export interface KeyListing {
  keyId: string;
  publicKey: string;
  mode: Mode;
  createdAt: Date;
  revokedAt: Date | null;
}

const KEYS_OF_MERCHANT = statement<
  Pick<RowOf<typeof apiKeys>, 'id' | 'public_key' | 'mode' | 'created_at' | 'revoked_at'>,
  { merchantId: string; mode: Mode }
>(
  sql`select ${columnsOf(apiKeys, ['id', 'public_key', 'mode', 'created_at', 'revoked_at'])} from ${apiKeys}
      where ${apiKeys.merchantId} = ${param('merchantId')} and ${apiKeys.mode} = ${param('mode')} order by ${apiKeys.createdAt} desc, ${apiKeys.id} desc`,
);

/** The merchant's keys of one mode, newest first: public parts only, never the secret. */
export async function listKeys(db: Queryable, merchantId: string, mode: Mode): Promise<KeyListing[]> {
  const rows = await KEYS_OF_MERCHANT.run(db, { merchantId, mode });
  return rows.map((row) => ({
    keyId: row.id,
    publicKey: row.public_key,
    mode: row.mode,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  }));
}

/** A new key pair of `mode` for the merchant (the dashboard's "Create key"): the private key is in the answer only. */
export function createKey(db: Queryable, merchantId: string, mode: Mode): Promise<IssuedKeys> {
  return issueApiKey(db, merchantId, mode);
}

/**
 * Server start-up: follow revocations made by other processes (the CLI, other servers on the
 * same PostgreSQL). When the listening connection was lost, the whole cache is dropped, since a
 * revocation may have been missed meanwhile.
 */
export function followKeyRevocations(db: Database): Promise<void> {
  return db.listen(
    REVOKED_CHANNEL,
    (publicKey) => forgetKey(publicKey),
    () => forgetKey(),
  );
}

/**
 * Keys are cached in memory so that a signed request costs no key query. A revocation is
 * announced with NOTIFY and drops the key from every server's cache at once; the cache lifetime
 * (KEY_CACHE_TTL_SECONDS) bounds the delay should a notification ever be lost. Unknown keys are
 * remembered briefly too, so random keys cannot turn into a query per request.
 */
type Entry = { key: ApiKey | undefined; expires: number };
const MAX_ENTRIES = 10_000;
const UNKNOWN_TTL_MS = 2_000;

function cache(): Map<string, Entry> {
  return processSlot('apiKeyCache', () => new Map<string, Entry>());
}

export function forgetKey(publicKey?: string): void {
  if (publicKey === undefined) cache().clear();
  else cache().delete(publicKey);
}

const FIND_API_KEY = statement<
  Pick<RowOf<typeof apiKeys>, 'id' | 'merchant_id' | 'mode' | 'secret_ciphertext'> &
    Pick<RowOf<typeof merchants>, 'name'>,
  { publicKey: string }
>(
  sql`select ${apiKeys.id}, ${apiKeys.merchantId}, ${merchants.name}, ${apiKeys.mode}, ${apiKeys.secretCiphertext}
       from ${apiKeys} join ${merchants} on ${merchants.id} = ${apiKeys.merchantId}
      where ${apiKeys.publicKey} = ${param('publicKey')} and ${apiKeys.revokedAt} is null`,
  { name: 'find_api_key' },
);

export async function findApiKey(db: Queryable, publicKey: string): Promise<ApiKey | undefined> {
  const entries = cache();
  const now = Date.now();
  const hit = entries.get(publicKey);
  if (hit && hit.expires > now) return hit.key;
  const [row] = await FIND_API_KEY.run(db, { publicKey });
  const key: ApiKey | undefined = row && {
    keyId: row.id,
    merchantId: row.merchant_id,
    merchantName: row.name,
    mode: row.mode,
    publicKey,
    secret: Buffer.from(decryptSecret(row.secret_ciphertext), 'utf8'),
  };
  if (entries.size >= MAX_ENTRIES) entries.clear();
  entries.set(publicKey, { key, expires: now + (key ? config().keyCacheTtlMs : UNKNOWN_TTL_MS) });
  return key;
}
