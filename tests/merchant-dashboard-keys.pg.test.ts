/**
 * The dashboard's key and settings functions on a real database: every one is scoped to the
 * merchant it is given (another merchant's key id revokes nothing), a revocation drops the key
 * from this process's cache as the CLI's does, and no listing carries a secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import {
  createKey,
  EXPLORER_URLS,
  findApiKey,
  listKeys,
  merchantSettings,
  revokeMerchantKey,
  setRequireTwoFactor,
  updateBrand,
  updateExplorers,
} from '@/lib/merchants';
import { openTestDatabase } from './support/database';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let db: Database;
let shop: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  db = await openTestDatabase();
  shop = await createTestMerchant(db);
  other = await createTestMerchant(db);
});
afterAll(async () => {
  await db?.close();
});

describe('API keys', () => {
  it('lists the keys of one merchant and mode, without secrets', async () => {
    const created = await createKey(db, shop.merchantId, 'test');
    const keys = await listKeys(db, shop.merchantId, 'test');
    expect(keys.map((k) => k.publicKey)).toEqual([created.publicKey, shop.test.publicKey]);
    expect(keys.every((k) => k.mode === 'test' && k.revokedAt === null)).toBe(true);
    expect(JSON.stringify(keys)).not.toMatch(/sk_(test|live)_/);
    expect((await listKeys(db, shop.merchantId, 'live')).map((k) => k.publicKey)).toEqual([shop.live.publicKey]);
  });

  it("revokes nothing given another merchant's key id, an unknown or a malformed id", async () => {
    const [victim] = await listKeys(db, other.merchantId, 'test');
    expect(await findApiKey(db, victim!.publicKey)).toBeDefined(); // cached as valid
    expect(await revokeMerchantKey(db, shop.merchantId, victim!.keyId)).toBeUndefined();
    expect(await revokeMerchantKey(db, shop.merchantId, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(await revokeMerchantKey(db, shop.merchantId, "x' or '1'='1")).toBeUndefined();
    expect((await listKeys(db, other.merchantId, 'test'))[0]!.revokedAt).toBeNull();
    expect(await findApiKey(db, victim!.publicKey)).toBeDefined();
  });

  it('revokes its own key once, and the cached key is refused at once', async () => {
    const created = await createKey(db, shop.merchantId, 'live');
    expect(await findApiKey(db, created.publicKey)).toBeDefined(); // now cached
    expect(await revokeMerchantKey(db, shop.merchantId, created.keyId)).toEqual({
      publicKey: created.publicKey,
      mode: 'live',
    });
    expect(await findApiKey(db, created.publicKey)).toBeUndefined();
    expect(await revokeMerchantKey(db, shop.merchantId, created.keyId)).toBeUndefined(); // already revoked
    const listed = (await listKeys(db, shop.merchantId, 'live')).find((k) => k.keyId === created.keyId);
    expect(listed!.revokedAt).toBeInstanceOf(Date);
  });
});

describe('settings', () => {
  it('sets, keeps and removes the brand of one merchant only', async () => {
    await updateBrand(db, shop.merchantId, { logo: 'data:image/png;base64,iVBORw0KGgo=', color: '#1d4ed8' });
    expect(await updateBrand(db, shop.merchantId, { color: '#123456' })).toEqual({ logo: 'kept', color: '#123456' });
    expect(await merchantSettings(db, shop.merchantId)).toMatchObject({
      brandLogo: 'data:image/png;base64,iVBORw0KGgo=',
      brandColor: '#123456',
    });
    expect(await merchantSettings(db, other.merchantId)).toMatchObject({
      brandLogo: null,
      brandColor: null,
      explorerUrls: {},
      requireTwoFactor: false,
    });
    await updateBrand(db, shop.merchantId, { logo: null, color: null });
    expect(await merchantSettings(db, shop.merchantId)).toMatchObject({ brandLogo: null, brandColor: null });
  });

  it('sets explorer templates and resets one to the default with an empty value', async () => {
    await updateExplorers(
      db,
      shop.merchantId,
      EXPLORER_URLS.parse({ bitcoin: 'https://mempool.space/tx/{tx}', litecoin: 'https://litecoinspace.org/tx/{tx}' }),
    );
    const after = await updateExplorers(db, shop.merchantId, EXPLORER_URLS.parse({ bitcoin: '' }));
    expect(after).toEqual({ litecoin: 'https://litecoinspace.org/tx/{tx}' });
    expect((await merchantSettings(db, shop.merchantId))!.explorerUrls).toEqual(after);
    expect((await merchantSettings(db, other.merchantId))!.explorerUrls).toEqual({});
  });

  it('turns the two-factor requirement on and off', async () => {
    await setRequireTwoFactor(db, shop.merchantId, true);
    expect((await merchantSettings(db, shop.merchantId))!.requireTwoFactor).toBe(true);
    expect((await merchantSettings(db, other.merchantId))!.requireTwoFactor).toBe(false);
    await setRequireTwoFactor(db, shop.merchantId, false);
    expect((await merchantSettings(db, shop.merchantId))!.requireTwoFactor).toBe(false);
  });
});
