import 'server-only';
import { randomBytes } from 'node:crypto';
import { base58 } from '@scure/base';
import { z } from 'zod';
import type { Database, Queryable } from '../db';
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

/** Public keys say their mode (as Stripe's do), so a merchant can tell them apart at a glance. */
export async function issueApiKey(db: Queryable, merchantId: string, mode: Mode): Promise<IssuedKeys> {
  const publicKey = `pk_${mode}_${base58.encode(randomBytes(18))}`;
  const privateKey = `sk_${mode}_${base58.encode(randomBytes(32))}`;
  const [row] = await db.query<{ id: string }>(
    'insert into api_keys (merchant_id, mode, public_key, secret_ciphertext) values ($1, $2, $3, $4) returning id',
    [merchantId, mode, publicKey, encryptSecret(privateKey)],
  );
  forgetKey(publicKey);
  return { keyId: row!.id, mode, publicKey, privateKey };
}

const REVOKED_CHANNEL = 'api_key_revoked';

/** Revokes a key; every server sharing the database drops it from its cache at once (NOTIFY). */
export async function revokeApiKey(db: Queryable, publicKey: string): Promise<boolean> {
  return (await revokeWhere(db, 'public_key = $1', [publicKey])) !== undefined;
}

/**
 * Revokes one of the merchant's own keys by its id (the dashboard): another merchant's key id, an
 * unknown id or a key already revoked changes nothing and answers undefined.
 */
export async function revokeMerchantKey(db: Queryable, merchantId: string, keyId: string): Promise<{ publicKey: string; mode: Mode } | undefined> {
  if (!z.guid().safeParse(keyId).success) return undefined;
  return revokeWhere(db, 'id = $1 and merchant_id = $2', [keyId, merchantId]);
}

/**
 * The one home of a revocation: marks the key revoked, announces it to every process sharing the
 * database (NOTIFY, followed by followKeyRevocations) and drops it from this process's cache.
 */
async function revokeWhere(db: Queryable, condition: string, params: unknown[]): Promise<{ publicKey: string; mode: Mode } | undefined> {
  const [row] = await db.query<{ public_key: string; mode: Mode }>(
    `with revoked as (
       update api_keys set revoked_at = now() where ${condition} and revoked_at is null returning public_key, mode
     )
     select public_key, mode, pg_notify('${REVOKED_CHANNEL}', public_key) from revoked`,
    params,
  );
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

/** The merchant's keys of one mode, newest first: public parts only, never the secret. */
export async function listKeys(db: Queryable, merchantId: string, mode: Mode): Promise<KeyListing[]> {
  const rows = await db.query<{ id: string; public_key: string; mode: Mode; created_at: Date; revoked_at: Date | null }>(
    `select id, public_key, mode, created_at, revoked_at from api_keys
      where merchant_id = $1 and mode = $2 order by created_at desc, id desc`,
    [merchantId, mode],
  );
  return rows.map((row) => ({ keyId: row.id, publicKey: row.public_key, mode: row.mode, createdAt: row.created_at, revokedAt: row.revoked_at }));
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
  return db.listen(REVOKED_CHANNEL, (publicKey) => forgetKey(publicKey), () => forgetKey());
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

export async function findApiKey(db: Queryable, publicKey: string): Promise<ApiKey | undefined> {
  const entries = cache();
  const now = Date.now();
  const hit = entries.get(publicKey);
  if (hit && hit.expires > now) return hit.key;
  const [row] = await db.query<{ id: string; merchant_id: string; name: string; mode: Mode; secret_ciphertext: string }>(
    `select k.id, k.merchant_id, m.name, k.mode, k.secret_ciphertext
       from api_keys k join merchants m on m.id = k.merchant_id
      where k.public_key = $1 and k.revoked_at is null`,
    [publicKey],
    'find_api_key',
  );
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
