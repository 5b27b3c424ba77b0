import type { Database } from '@/lib/db/client';
import { createKey, createMerchant, issueApiKey } from '@/lib/merchants';
import type { KeyScope, Mode } from '@/lib/protocol';
import type { Keys } from './gateway';

export interface TestMerchant {
  merchantId: string;
  test: Keys;
  live: Keys;
}

export interface MoneyOutKey {
  /** The money-out key's scopes, e.g. `['full', 'refunds']` or `['read-only', 'signing-plans']`. */
  scopes: readonly KeyScope[];
  /** Test mode unless said. */
  mode?: Mode;
}

/**
 * A merchant with one test and one live key, created through the domain code (as the CLI does);
 * with `moneyOut`, also the key of those scopes a money-out operation needs (`moneyOut` of the answer).
 */
export async function createTestMerchant(db: Database, name?: string): Promise<TestMerchant>;
export async function createTestMerchant(
  db: Database,
  name: string | undefined,
  moneyOut: MoneyOutKey,
): Promise<TestMerchant & { moneyOut: Keys }>;
export async function createTestMerchant(
  db: Database,
  name = `Shop ${Math.random().toString(36).slice(2, 8)}`,
  moneyOut?: MoneyOutKey,
): Promise<TestMerchant & { moneyOut?: Keys }> {
  const { merchant, keys } = await createMerchant(db, name, 'test');
  const live = await issueApiKey(db, merchant.id, 'live');
  if (!moneyOut) return { merchantId: merchant.id, test: keys, live };
  const key = await createKey(db, merchant.id, moneyOut.mode ?? 'test', {
    name: 'Money out',
    scopes: [...moneyOut.scopes],
  });
  return { merchantId: merchant.id, test: keys, live, moneyOut: key };
}
