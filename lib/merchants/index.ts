import 'server-only';
import {
  advancedBalances,
  apiKeys,
  bare,
  columnsOf,
  merchants,
  param,
  sql,
  statement,
  type Database,
  type Queryable,
  type RowOf,
} from '../db';
import { issueApiKey, type IssuedKeys, type NewKeyOptions } from './keys';
import type { Mode } from '../protocol';

export {
  createKey,
  findApiKey,
  followKeyChanges,
  forgetKey,
  issueApiKey,
  KEY_NAME_MAX,
  KeyChangeRefused,
  listKeys,
  revokeApiKey,
  revokeMerchantKey,
  REVOKED_KEY_SIGNING_HOURS,
  ROLL_OVERLAP_HOURS,
  rollKey,
  setKeyScopes,
  setWebhookKey,
  type ApiKey,
  type IssuedKeys,
  type KeyListing,
  type MerchantScope,
  type NewKeyOptions,
  type WebhookHandover,
} from './keys';
export {
  SIGNING_KEY_COLUMNS,
  signingKeyFor,
  signingKeysFromJson,
  signsWebhooksAt,
  type SigningChoice,
  type SigningKeyRow,
} from './signing';
export { flushKeyUse, KEY_USE_FLUSH_MS, noteKeyUse } from './usage';
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
export {
  merchantSettings,
  setRequireTwoFactor,
  updateBrand,
  updateExplorers,
  updateLatePaymentRule,
  updateMailSettings,
  LATE_ACCEPT_MAX_MINUTES,
  LATE_PAYMENT_RULE,
  type MerchantSettings,
} from './settings';
export { advancedBalanceId, listAdvancedBalances } from './balances';
export { appSecret, decryptSecret, encryptSecret } from './secrets';

export interface Merchant {
  id: string;
  name: string;
  createdAt: Date;
}

type MerchantRow = Pick<RowOf<typeof merchants>, 'id' | 'name' | 'created_at'>;
const MERCHANT_COLUMNS = ['id', 'name', 'created_at'] as const;

const INSERT_MERCHANT = statement<MerchantRow, { name: string }>(
  sql`insert into ${merchants} (${bare(merchants.name)}) values (${param('name')}) returning ${bare(merchants.id)}, ${bare(merchants.name)}, ${bare(merchants.createdAt)}`,
);
const INSERT_FEE_ACCOUNTS = statement<unknown, { merchantId: string }>(
  sql`insert into ${advancedBalances} (${bare(advancedBalances.merchantId)}, ${bare(advancedBalances.mode)}) values (${param('merchantId')}, 'test'), (${param('merchantId')}, 'live')`,
);

/** Creates a merchant with its fee accounts (one per mode) and one key of `mode`. */
export async function createMerchant(
  db: Database,
  name: string,
  mode: Mode,
  keyOptions: NewKeyOptions = {},
): Promise<{ merchant: Merchant; keys: IssuedKeys }> {
  return db.transaction(async (tx) => {
    const [merchant] = await INSERT_MERCHANT.run(tx, { name });
    await INSERT_FEE_ACCOUNTS.run(tx, { merchantId: merchant!.id });
    const keys = await issueApiKey(tx, merchant!.id, mode, keyOptions);
    return { merchant: { id: merchant!.id, name: merchant!.name, createdAt: merchant!.created_at }, keys };
  });
}

const MERCHANT_BY_NAME = statement<MerchantRow, { name: string }>(
  sql`select ${columnsOf(merchants, MERCHANT_COLUMNS)} from ${merchants} where ${merchants.name} = ${param('name')} order by ${merchants.createdAt} limit 1`,
);

export async function findMerchantByName(db: Queryable, name: string): Promise<Merchant | undefined> {
  const [row] = await MERCHANT_BY_NAME.run(db, { name });
  return row && { id: row.id, name: row.name, createdAt: row.created_at };
}

// A merchant without keys is one row, its key columns null (left join).
type MerchantKeyRow = MerchantRow & { [K in 'public_key' | 'mode' | 'revoked_at']: RowOf<typeof apiKeys>[K] | null };
const MERCHANTS_AND_KEYS = statement<MerchantKeyRow>(
  sql`select ${columnsOf(merchants, MERCHANT_COLUMNS)}, ${columnsOf(apiKeys, ['public_key', 'mode', 'revoked_at'])}
       from ${merchants} left join ${apiKeys} on ${apiKeys.merchantId} = ${merchants.id}
      order by ${merchants.createdAt}, ${apiKeys.createdAt}`,
);

export async function listMerchants(
  db: Queryable,
): Promise<(Merchant & { keys: { publicKey: string; mode: Mode; revoked: boolean }[] })[]> {
  const rows = await MERCHANTS_AND_KEYS.run(db, {});
  const listed = new Map<string, Merchant & { keys: { publicKey: string; mode: Mode; revoked: boolean }[] }>();
  for (const row of rows) {
    const merchant = listed.get(row.id) ?? { id: row.id, name: row.name, createdAt: row.created_at, keys: [] };
    listed.set(row.id, merchant);
    if (row.public_key && row.mode)
      merchant.keys.push({ publicKey: row.public_key, mode: row.mode, revoked: row.revoked_at !== null });
  }
  return [...listed.values()];
}

const MERCHANT_COUNT = statement<{ n: number }>(sql`select count(*)::int as n from ${merchants}`);

export async function merchantCount(db: Queryable): Promise<number> {
  const [row] = await MERCHANT_COUNT.run(db, {});
  return row!.n;
}
