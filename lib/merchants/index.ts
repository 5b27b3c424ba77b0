import 'server-only';
import type { Database, Queryable } from '../db';
import { issueApiKey, type IssuedKeys } from './keys';
import type { Mode } from '../protocol';

export { createKey, findApiKey, followKeyRevocations, forgetKey, issueApiKey, listKeys, revokeApiKey, revokeMerchantKey, type ApiKey, type IssuedKeys, type KeyListing, type MerchantScope } from './keys';
export {
  BRAND_COLOR,
  BRAND_COLOR_FIELD,
  contrastWithWhite,
  EXPLORER_TEMPLATE,
  EXPLORER_URLS,
  LOGO_MAX_BYTES,
  LOGO_UPLOAD,
  logoImageType,
  MIN_CONTRAST,
  NETWORK_NAMES,
  type ExplorerChanges,
} from './brand';
export { merchantSettings, setRequireTwoFactor, updateBrand, updateExplorers, type MerchantSettings } from './settings';
export { advancedBalanceId, listAdvancedBalances } from './balances';
export { appSecret, decryptSecret, encryptSecret } from './secrets';

export interface Merchant {
  id: string;
  name: string;
  createdAt: Date;
}

/** Creates a merchant with its fee accounts (one per mode) and one key of `mode`. */
export async function createMerchant(db: Database, name: string, mode: Mode): Promise<{ merchant: Merchant; keys: IssuedKeys }> {
  return db.transaction(async (tx) => {
    const [merchant] = await tx.query<{ id: string; name: string; created_at: Date }>(
      'insert into merchants (name) values ($1) returning id, name, created_at',
      [name],
    );
    await tx.query(
      `insert into advanced_balances (merchant_id, mode) values ($1, 'test'), ($1, 'live')`,
      [merchant!.id],
    );
    const keys = await issueApiKey(tx, merchant!.id, mode);
    return { merchant: { id: merchant!.id, name: merchant!.name, createdAt: merchant!.created_at }, keys };
  });
}

export async function findMerchantByName(db: Queryable, name: string): Promise<Merchant | undefined> {
  const [row] = await db.query<{ id: string; name: string; created_at: Date }>(
    'select id, name, created_at from merchants where name = $1 order by created_at limit 1',
    [name],
  );
  return row && { id: row.id, name: row.name, createdAt: row.created_at };
}

export async function listMerchants(db: Queryable): Promise<(Merchant & { keys: { publicKey: string; mode: Mode; revoked: boolean }[] })[]> {
  const rows = await db.query<{ id: string; name: string; created_at: Date; public_key: string | null; mode: Mode | null; revoked_at: Date | null }>(
    `select m.id, m.name, m.created_at, k.public_key, k.mode, k.revoked_at
       from merchants m left join api_keys k on k.merchant_id = m.id
      order by m.created_at, k.created_at`,
  );
  const merchants = new Map<string, Merchant & { keys: { publicKey: string; mode: Mode; revoked: boolean }[] }>();
  for (const row of rows) {
    const merchant = merchants.get(row.id) ?? { id: row.id, name: row.name, createdAt: row.created_at, keys: [] };
    merchants.set(row.id, merchant);
    if (row.public_key && row.mode) merchant.keys.push({ publicKey: row.public_key, mode: row.mode, revoked: row.revoked_at !== null });
  }
  return [...merchants.values()];
}

export async function merchantCount(db: Queryable): Promise<number> {
  const [row] = await db.query<{ n: number }>('select count(*)::int as n from merchants');
  return row!.n;
}
