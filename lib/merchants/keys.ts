import 'server-only';
import { randomBytes } from 'node:crypto';
import { base58 } from '@scure/base';
import { z } from 'zod';
import {
  alias,
  apiKeys,
  bare,
  columnsOf,
  insertValues,
  invoices,
  merchants,
  orders,
  param,
  placeholders,
  sql,
  statement,
  webhookEvents,
  type Database,
  type Queryable,
  type RowOf,
  type SQL,
} from '../db';
import { config } from '../config';
import { processSlot } from '../process';
import { decryptSecret, encryptSecret } from './secrets';
import { DEFAULT_KEY_SCOPES, type KeyScope, type Mode } from '../protocol';

/**
 * API keys (docs/decisions/048): a public and a private key of one mode, with a name, scopes that
 * say what it may call (lib/protocol/scopes.ts), an optional expiry, and what happens to the
 * webhooks of the objects it made when it stops signing them (a successor key, or hours of grace).
 */
export interface ApiKey {
  keyId: string;
  merchantId: string;
  merchantName: string;
  mode: Mode;
  publicKey: string;
  /** The private key's UTF-8 bytes: the HMAC key of request and webhook signatures. */
  secret: Buffer;
  scopes: KeyScope[];
  /** After it, requests signed with the key are refused (KEY_EXPIRED); null: no expiry. */
  expiresAt: Date | null;
}

/** Whose data a query reads or writes: one merchant's, in one mode. */
export type MerchantScope = Pick<ApiKey, 'merchantId' | 'mode'>;

export interface IssuedKeys {
  keyId: string;
  mode: Mode;
  publicKey: string;
  privateKey: string;
}

/** What a new key is made with besides its mode; every field has a default. */
export interface NewKeyOptions {
  name?: string;
  scopes?: readonly KeyScope[];
  /** Who made it: a dashboard user's e-mail, or `cli`. */
  createdBy?: string | null;
  expiresAt?: Date | null;
}

/** A key's name: what the keys page shows. */
export const KEY_NAME_MAX = 80;

const NEW_KEY = placeholders([
  'merchantId',
  'mode',
  'publicKey',
  'secretCiphertext',
  'name',
  'scopes',
  'createdBy',
  'expiresAt',
]);
const NEW_KEY_INSERT = insertValues([
  [apiKeys.merchantId, NEW_KEY.merchantId],
  [apiKeys.mode, NEW_KEY.mode],
  [apiKeys.publicKey, NEW_KEY.publicKey],
  [apiKeys.secretCiphertext, NEW_KEY.secretCiphertext],
  [apiKeys.name, NEW_KEY.name],
  [apiKeys.scopes, sql`${NEW_KEY.scopes}::text[]`],
  [apiKeys.createdBy, NEW_KEY.createdBy],
  [apiKeys.expiresAt, sql`${NEW_KEY.expiresAt}::timestamptz`],
]);
const INSERT_KEY = statement<Pick<RowOf<typeof apiKeys>, 'id'>, Record<keyof typeof NEW_KEY, unknown>>(
  sql`insert into ${apiKeys} (${NEW_KEY_INSERT.columns}) values (${NEW_KEY_INSERT.values}) returning ${bare(apiKeys.id)}`,
);

const w = alias(apiKeys, 'w');
/**
 * The mode's webhook key still signs webhooks (./signing.ts, `signsWebhooksAt`, is the rule; this is
 * its SQL for the key `w`): not expired, and not revoked unless a grace or a successor carries on.
 */
const WEBHOOK_KEY_SIGNS = sql`${w.webhookKey} and (${w.expiresAt} is null or ${w.expiresAt} > now())
  and (${w.revokedAt} is null or ${w.signsWebhooksUntil} > now() or ${w.successorKeyId} is not null)`;
const RETIRE_DEAD_WEBHOOK_KEY = statement<unknown, { merchantId: string; mode: Mode }>(
  sql`update ${apiKeys} w set ${bare(apiKeys.webhookKey)} = false
   where ${w.merchantId} = ${param('merchantId')} and ${w.mode} = ${param('mode')} and ${w.webhookKey} and not (${WEBHOOK_KEY_SIGNS})`,
);
const TAKE_WEBHOOK_KEY = statement<unknown, { id: string; merchantId: string; mode: Mode }>(
  sql`update ${apiKeys} set ${bare(apiKeys.webhookKey)} = true
   where ${apiKeys.id} = ${param('id')}
     and not exists (select 1 from ${apiKeys} w where ${w.merchantId} = ${param('merchantId')} and ${w.mode} = ${param('mode')} and ${WEBHOOK_KEY_SIGNS})`,
);

/** Public keys say their mode (as Stripe's do), so a merchant can tell them apart at a glance. */
export async function issueApiKey(
  db: Queryable,
  merchantId: string,
  mode: Mode,
  options: NewKeyOptions = {},
): Promise<IssuedKeys> {
  const publicKey = `pk_${mode}_${base58.encode(randomBytes(18))}`;
  const privateKey = `sk_${mode}_${base58.encode(randomBytes(32))}`;
  const [row] = await INSERT_KEY.run(db, {
    merchantId,
    mode,
    publicKey,
    secretCiphertext: encryptSecret(privateKey),
    name: options.name ?? '',
    scopes: [...(options.scopes ?? DEFAULT_KEY_SCOPES)],
    createdBy: options.createdBy ?? null,
    expiresAt: options.expiresAt ?? null,
  });
  // The first key of a mode, or one made while the mode's webhook key signs nothing any more,
  // becomes its webhook key; a key made later changes nothing for receivers that verify with it.
  await RETIRE_DEAD_WEBHOOK_KEY.run(db, { merchantId, mode });
  await TAKE_WEBHOOK_KEY.run(db, { id: row!.id, merchantId, mode });
  forgetKey(publicKey);
  return { keyId: row!.id, mode, publicKey, privateKey };
}

/** A new key pair of `mode` for the merchant (the dashboard's "Create key"): the private key is in the answer only. */
export function createKey(
  db: Queryable,
  merchantId: string,
  mode: Mode,
  options: NewKeyOptions = {},
): Promise<IssuedKeys> {
  return issueApiKey(db, merchantId, mode, options);
}

/** Every process drops a changed key from its cache at once (NOTIFY, on commit): revoked, rolled, rescoped. */
const CHANGED_CHANNEL = 'api_key_changed';
const NOTIFY_CHANGED = sql.raw(`pg_notify('${CHANGED_CHANNEL}', public_key)`);

type ChangedRow = Pick<RowOf<typeof apiKeys>, 'public_key' | 'mode'>;

/** Revokes the key `condition` names, unless revoked already, and announces it. */
const revokeStatement = <Params extends object>(condition: SQL) =>
  statement<
    ChangedRow,
    Params & { successorKeyId: string | null; signsWebhooksUntil: Date | null }
  >(sql`with revoked as (
       update ${apiKeys} set ${bare(apiKeys.revokedAt)} = now(),
              ${bare(apiKeys.successorKeyId)} = coalesce(${param('successorKeyId')}::uuid, ${apiKeys.successorKeyId}),
              ${bare(apiKeys.signsWebhooksUntil)} = ${param('signsWebhooksUntil')}::timestamptz
        where ${condition} and ${apiKeys.revokedAt} is null
        returning ${bare(apiKeys.publicKey)}, ${bare(apiKeys.mode)}
     )
     select public_key, mode, ${NOTIFY_CHANGED} from revoked`);
const REVOKE_BY_PUBLIC_KEY = revokeStatement<{ publicKey: string }>(sql`${apiKeys.publicKey} = ${param('publicKey')}`);
const REVOKE_MERCHANT_KEY = revokeStatement<{ id: string; merchantId: string }>(
  sql`${apiKeys.id} = ${param('id')} and ${apiKeys.merchantId} = ${param('merchantId')}`,
);

/**
 * Revokes a key (the CLI); every server sharing the database drops it from its cache at once.
 * Its objects' webhooks are then signed with the mode's webhook key (./signing.ts).
 */
export async function revokeApiKey(db: Queryable, publicKey: string): Promise<boolean> {
  const [row] = await REVOKE_BY_PUBLIC_KEY.run(db, { publicKey, successorKeyId: null, signsWebhooksUntil: null });
  if (row) forgetKey(row.public_key);
  return row !== undefined;
}

/**
 * What a revocation does with the webhooks of the objects the key made (and, for the webhook key,
 * of the objects no key made), the dashboard's two choices: move them to another key of the mode
 * now, or keep signing them with the revoked key for some hours (then the other key, if given).
 */
export interface WebhookHandover {
  /** Another active key of the same merchant and mode. */
  moveTo?: string | null;
  /** Hours the revoked key keeps signing webhooks (1 to REVOKED_KEY_SIGNING_HOURS.max). */
  keepHours?: number | null;
}

/** How long a revoked key may keep signing webhooks. */
export const REVOKED_KEY_SIGNING_HOURS = { min: 1, max: 168 } as const;

/** A revocation or roll that cannot be done as asked; the message is for the person who asked. */
export class KeyChangeRefused extends Error {
  override name = 'KeyChangeRefused';
}

type KeyRow = Pick<
  RowOf<typeof apiKeys>,
  | 'id'
  | 'merchant_id'
  | 'mode'
  | 'public_key'
  | 'name'
  | 'scopes'
  | 'revoked_at'
  | 'expires_at'
  | 'webhook_key'
  | 'successor_key_id'
  | 'signs_webhooks_until'
>;
const KEY_COLUMNS = [
  'id',
  'merchant_id',
  'mode',
  'public_key',
  'name',
  'scopes',
  'revoked_at',
  'expires_at',
  'webhook_key',
  'successor_key_id',
  'signs_webhooks_until',
] as const satisfies readonly (keyof KeyRow)[];
const LOCK_KEY = statement<KeyRow, { id: string; merchantId: string }>(
  sql`select ${columnsOf(apiKeys, KEY_COLUMNS)} from ${apiKeys} where ${apiKeys.id} = ${param('id')} and ${apiKeys.merchantId} = ${param('merchantId')} for update`,
);

/** A key of the merchant that authenticates requests now: not revoked, not expired. */
async function activeKey(tx: Queryable, merchantId: string, keyId: string): Promise<KeyRow | undefined> {
  if (!z.guid().safeParse(keyId).success) return undefined;
  const [row] = await LOCK_KEY.run(tx, { id: keyId, merchantId });
  return row && row.revoked_at === null && (row.expires_at === null || row.expires_at > new Date()) ? row : undefined;
}

const MOVE_WEBHOOK_KEY = statement<unknown, { from: string; to: string }>(
  sql`update ${apiKeys} set ${bare(apiKeys.webhookKey)} = (${apiKeys.id} = ${param('to')}) where ${apiKeys.id} in (${param('from')}, ${param('to')})`,
);

/**
 * Revokes one of the merchant's own keys by its id (the dashboard): another merchant's key id, an
 * unknown id or a key already revoked changes nothing and answers undefined. `handover` says what
 * becomes of its webhooks; moved now, a webhook key's role moves with them.
 */
export async function revokeMerchantKey(
  db: Database,
  merchantId: string,
  keyId: string,
  handover: WebhookHandover = {},
  now = new Date(),
): Promise<{ publicKey: string; mode: Mode } | undefined> {
  if (!z.guid().safeParse(keyId).success) return undefined;
  const revoked = await db.transaction(async (tx) => {
    const key = await activeKey(tx, merchantId, keyId);
    if (!key) return undefined;
    const moveTo = handover.moveTo ? await activeKey(tx, merchantId, handover.moveTo) : undefined;
    if (handover.moveTo && (!moveTo || moveTo.mode !== key.mode || moveTo.id === key.id))
      throw new KeyChangeRefused('Webhooks can move only to another active key of the same mode.');
    const hours = handover.keepHours ?? null;
    if (hours !== null && !(hours >= REVOKED_KEY_SIGNING_HOURS.min && hours <= REVOKED_KEY_SIGNING_HOURS.max))
      throw new KeyChangeRefused(
        `A revoked key keeps signing webhooks for ${REVOKED_KEY_SIGNING_HOURS.min} to ${REVOKED_KEY_SIGNING_HOURS.max} hours.`,
      );
    const [row] = await REVOKE_MERCHANT_KEY.run(tx, {
      id: keyId,
      merchantId,
      successorKeyId: moveTo?.id ?? null,
      signsWebhooksUntil: hours === null ? null : new Date(now.getTime() + hours * HOUR_MS),
    });
    if (row && moveTo && hours === null && key.webhook_key)
      await MOVE_WEBHOOK_KEY.run(tx, { from: key.id, to: moveTo.id });
    return row;
  });
  if (!revoked) return undefined;
  forgetKey(revoked.public_key);
  return { publicKey: revoked.public_key, mode: revoked.mode };
}

const HOUR_MS = 60 * 60 * 1000;
/** How long a rolled key keeps authenticating beside its replacement. */
export const ROLL_OVERLAP_HOURS = { min: 0, max: 168, default: 24 } as const;

const END_BY_ROLL = statement<ChangedRow, { id: string; successorKeyId: string; until: Date }>(
  sql`with rolled as (
    update ${apiKeys} set ${bare(apiKeys.successorKeyId)} = ${param('successorKeyId')},
           ${bare(apiKeys.expiresAt)} = least(coalesce(${apiKeys.expiresAt}, ${param('until')}::timestamptz), ${param('until')}::timestamptz)
     where ${apiKeys.id} = ${param('id')}
     returning ${bare(apiKeys.publicKey)}, ${bare(apiKeys.mode)}
  )
  select public_key, mode, ${NOTIFY_CHANGED} from rolled`,
);

/**
 * Rolls a key: a new key pair with the same name and scopes (its private key in the answer only),
 * while the old one keeps authenticating requests and signing its objects' webhooks for
 * `overlapHours`; then it expires and its webhooks are signed with the new key (./signing.ts).
 */
export async function rollKey(
  db: Database,
  merchantId: string,
  keyId: string,
  overlapHours: number,
  createdBy: string | null,
  now = new Date(),
): Promise<IssuedKeys & { oldKeyExpiresAt: Date }> {
  if (!(overlapHours >= ROLL_OVERLAP_HOURS.min && overlapHours <= ROLL_OVERLAP_HOURS.max))
    throw new KeyChangeRefused(
      `The overlap is ${ROLL_OVERLAP_HOURS.min} to ${ROLL_OVERLAP_HOURS.max} hours (7 days) while both keys work.`,
    );
  const rolled = await db.transaction(async (tx) => {
    const key = await activeKey(tx, merchantId, keyId);
    if (!key) throw new KeyChangeRefused('Only an active key can be rolled.');
    const issued = await issueApiKey(tx, merchantId, key.mode, { name: key.name, scopes: key.scopes, createdBy });
    const until = new Date(now.getTime() + overlapHours * HOUR_MS);
    await END_BY_ROLL.run(tx, { id: key.id, successorKeyId: issued.keyId, until });
    return {
      ...issued,
      oldPublicKey: key.public_key,
      oldKeyExpiresAt: key.expires_at && key.expires_at < until ? key.expires_at : until,
    };
  });
  forgetKey(rolled.oldPublicKey);
  const { oldPublicKey: _old, ...answer } = rolled;
  return answer;
}

const SET_SCOPES = statement<ChangedRow, { id: string; merchantId: string; scopes: string[] }>(
  sql`with changed as (
    update ${apiKeys} set ${bare(apiKeys.scopes)} = ${param('scopes')}::text[]
     where ${apiKeys.id} = ${param('id')} and ${apiKeys.merchantId} = ${param('merchantId')} and ${apiKeys.revokedAt} is null
     returning ${bare(apiKeys.publicKey)}, ${bare(apiKeys.mode)}
  )
  select public_key, mode, ${NOTIFY_CHANGED} from changed`,
);

/** Changes what one of the merchant's active keys may do; every process sees it at once. */
export async function setKeyScopes(
  db: Queryable,
  merchantId: string,
  keyId: string,
  scopes: readonly KeyScope[],
): Promise<{ publicKey: string } | undefined> {
  if (!z.guid().safeParse(keyId).success) return undefined;
  const [row] = await SET_SCOPES.run(db, { id: keyId, merchantId, scopes: [...scopes] });
  if (!row) return undefined;
  forgetKey(row.public_key);
  return { publicKey: row.public_key };
}

const UNSET_WEBHOOK_KEY = statement<unknown, { merchantId: string; mode: Mode }>(
  sql`update ${apiKeys} set ${bare(apiKeys.webhookKey)} = false where ${apiKeys.merchantId} = ${param('merchantId')} and ${apiKeys.mode} = ${param('mode')} and ${apiKeys.webhookKey}`,
);
const SET_WEBHOOK_KEY = statement<Pick<RowOf<typeof apiKeys>, 'public_key'>, { id: string }>(
  sql`update ${apiKeys} set ${bare(apiKeys.webhookKey)} = true where ${apiKeys.id} = ${param('id')} returning ${bare(apiKeys.publicKey)}`,
);

/** Makes one of the merchant's active keys its mode's webhook key (the keys page); undefined when it is not one. */
export async function setWebhookKey(
  db: Database,
  merchantId: string,
  keyId: string,
): Promise<{ publicKey: string; mode: Mode } | undefined> {
  if (!z.guid().safeParse(keyId).success) return undefined;
  return db.transaction(async (tx) => {
    const key = await activeKey(tx, merchantId, keyId);
    if (!key) return undefined;
    await UNSET_WEBHOOK_KEY.run(tx, { merchantId, mode: key.mode });
    await SET_WEBHOOK_KEY.run(tx, { id: key.id });
    return { publicKey: key.public_key, mode: key.mode };
  });
}

export interface KeyListing {
  keyId: string;
  name: string;
  publicKey: string;
  mode: Mode;
  scopes: KeyScope[];
  createdAt: Date;
  createdBy: string | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
  webhookKey: boolean;
  /** The key that takes over its webhooks (after a roll or a revocation), by its public key. */
  successor: string | null;
  signsWebhooksUntil: Date | null;
  /** What still waits on this key's signature: its pending orders, open invoices and webhooks not delivered yet. */
  open: { orders: number; invoices: number; webhooks: number };
}

const LISTED_COLUMNS = [
  'id',
  'name',
  'public_key',
  'mode',
  'scopes',
  'created_at',
  'created_by',
  'revoked_at',
  'expires_at',
  'last_used_at',
  'last_used_ip',
  'webhook_key',
  'signs_webhooks_until',
] as const satisfies readonly (keyof RowOf<typeof apiKeys>)[];
const k = alias(apiKeys, 'k');
const successor = alias(apiKeys, 's');
type ListingRow = Pick<
  RowOf<typeof apiKeys>,
  | 'id'
  | 'name'
  | 'public_key'
  | 'mode'
  | 'scopes'
  | 'created_at'
  | 'created_by'
  | 'revoked_at'
  | 'expires_at'
  | 'last_used_at'
  | 'last_used_ip'
  | 'webhook_key'
  | 'signs_webhooks_until'
> & { successor: string | null; open_orders: number; open_invoices: number; open_webhooks: number };
const KEYS_OF_MERCHANT = statement<ListingRow, { merchantId: string; mode: Mode }>(
  sql`select ${columnsOf(k, LISTED_COLUMNS)}, ${successor.publicKey} as successor,
             (select count(*)::int from ${orders} where ${orders.apiKeyId} = ${k.id} and ${orders.status} = 'pending') as open_orders,
             (select count(*)::int from ${invoices} where ${invoices.apiKeyId} = ${k.id} and ${invoices.status} in ('CREATED', 'INIT', 'PENDING')) as open_invoices,
             (select count(*)::int from ${webhookEvents} where ${webhookEvents.apiKeyId} = ${k.id} and ${webhookEvents.state} = 'pending') as open_webhooks
        from ${apiKeys} k left join ${apiKeys} s on ${successor.id} = ${k.successorKeyId}
       where ${k.merchantId} = ${param('merchantId')} and ${k.mode} = ${param('mode')}
       order by ${k.createdAt} desc, ${k.id} desc`,
);

/** The merchant's keys of one mode, newest first: public parts only, never the secret. */
export async function listKeys(db: Queryable, merchantId: string, mode: Mode): Promise<KeyListing[]> {
  const rows = await KEYS_OF_MERCHANT.run(db, { merchantId, mode });
  return rows.map((row) => ({
    keyId: row.id,
    name: row.name,
    publicKey: row.public_key,
    mode: row.mode,
    scopes: row.scopes,
    createdAt: row.created_at,
    createdBy: row.created_by,
    revokedAt: row.revoked_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    lastUsedIp: row.last_used_ip,
    webhookKey: row.webhook_key,
    successor: row.successor,
    signsWebhooksUntil: row.signs_webhooks_until,
    open: { orders: row.open_orders, invoices: row.open_invoices, webhooks: row.open_webhooks },
  }));
}

/**
 * Server start-up: follow key changes made by other processes (revocations, rolls and scope changes
 * by the CLI or other servers on the same PostgreSQL). When the listening connection was lost, the
 * whole cache is dropped, since a change may have been missed meanwhile.
 */
export function followKeyChanges(db: Database): Promise<void> {
  return db.listen(
    CHANGED_CHANNEL,
    (publicKey) => forgetKey(publicKey),
    () => forgetKey(),
  );
}

/**
 * Keys are cached in memory so that a signed request costs no key query. A change is announced
 * with NOTIFY and drops the key from every server's cache at once; the cache lifetime
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
  Pick<RowOf<typeof apiKeys>, 'id' | 'merchant_id' | 'mode' | 'secret_ciphertext' | 'scopes' | 'expires_at'> &
    Pick<RowOf<typeof merchants>, 'name'>,
  { publicKey: string }
>(
  sql`select ${apiKeys.id}, ${apiKeys.merchantId}, ${merchants.name}, ${apiKeys.mode}, ${apiKeys.secretCiphertext}, ${apiKeys.scopes}, ${apiKeys.expiresAt}
       from ${apiKeys} join ${merchants} on ${merchants.id} = ${apiKeys.merchantId}
      where ${apiKeys.publicKey} = ${param('publicKey')} and ${apiKeys.revokedAt} is null`,
  { name: 'find_api_key' },
);

/** The key of `publicKey` unless it is revoked (an expired key is found: the API edge answers KEY_EXPIRED). */
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
    scopes: row.scopes,
    expiresAt: row.expires_at,
  };
  if (entries.size >= MAX_ENTRIES) entries.clear();
  entries.set(publicKey, { key, expires: now + (key ? config().keyCacheTtlMs : UNKNOWN_TTL_MS) });
  return key;
}
