import { afterAll, beforeAll, expect, it } from 'vitest';
import { openTestDatabase } from '@/tests/support/database';
import { createTestMerchant } from '@/tests/support/merchants';
import type { Database } from '../db';
import { consumeNonce, pruneNonces } from './nonces';

process.env.APP_SECRET ??= 'test-app-secret-that-is-at-least-32-characters';

let db: Database;
let keys: [string, string];

beforeAll(async () => {
  db = await openTestDatabase();
  const merchant = await createTestMerchant(db);
  const rows = await db.query<{ id: string }>('select id from api_keys where merchant_id = $1 order by mode', [
    merchant.merchantId,
  ]);
  keys = [rows[0]!.id, rows[1]!.id];
});
afterAll(async () => {
  await db?.close();
});

it('accepts a nonce once per key', async () => {
  expect(await consumeNonce(db, keys[0], '1')).toBe(true);
  expect(await consumeNonce(db, keys[0], '1')).toBe(false);
  expect(await consumeNonce(db, keys[1], '1')).toBe(true);
  expect(await consumeNonce(db, keys[0], '2')).toBe(true);
});

it('forgets the nonces older than the window, and only those', async () => {
  // Each nonce is named after its age in days.
  for (const [nonce, days] of [
    ['31', 31],
    ['45', 45],
    ['29', 29],
  ] as const) {
    expect(await consumeNonce(db, keys[0], nonce)).toBe(true);
    await db.query(
      `update api_nonces set created_at = now() - make_interval(days => $1) where key_id = $2 and nonce = $3`,
      [days, keys[0], nonce],
    );
  }
  expect(await pruneNonces(db, 30)).toBe(2);
  expect(await consumeNonce(db, keys[0], '31')).toBe(true);
  expect(await consumeNonce(db, keys[0], '29')).toBe(false);
  expect(await pruneNonces(db, 30)).toBe(0);
});
