import type { Database } from '@/lib/db/client';
import { createMerchant, issueApiKey } from '@/lib/merchants';
import type { Keys } from './gateway';

export interface TestMerchant {
  merchantId: string;
  test: Keys;
  live: Keys;
}

/** A merchant with one test and one live key, created through the domain code (as the CLI does). */
export async function createTestMerchant(
  db: Database,
  name = `Shop ${Math.random().toString(36).slice(2, 8)}`,
): Promise<TestMerchant> {
  const { merchant, keys } = await createMerchant(db, name, 'test');
  const live = await issueApiKey(db, merchant.id, 'live');
  return { merchantId: merchant.id, test: keys, live };
}
