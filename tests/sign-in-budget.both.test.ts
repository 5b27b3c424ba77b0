/**
 * The sign-in limits' budget under concurrency (docs/decisions/049), on both databases, where their
 * locking could differ: however many wrong passwords arrive at once, each of the ten checks of an
 * account's budget is taken once. The rules themselves: tests/sign-in-limits.pg.test.ts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { signIn } from '@/lib/users';
import { openTestDatabase } from './support/database';
import { createTestMerchant } from './support/merchants';
import { passwordChecks, signInUser } from './support/sign-in';

let db: Database;
let merchantId: string;

beforeAll(async () => {
  db = await openTestDatabase();
  merchantId = (await createTestMerchant(db, 'Budget shop')).merchantId;
});
afterAll(() => db?.close());

it('takes each check of the budget once, however many attempts arrive together', async () => {
  const u = await signInUser(db, merchantId);
  const now = new Date('2031-04-01T00:00:00Z');
  const results = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      signIn(db, { email: u.email, password: `guess ${i}` }, { ip: `198.51.100.${i + 1}` }, now),
    ),
  );
  expect(await passwordChecks(db, u.id)).toBe(10);
  expect(results.filter((r) => r.kind === 'refused' && r.askCode)).toHaveLength(30);
});
