/**
 * Revoking a key takes effect at once on every server sharing the PostgreSQL database, even
 * though servers cache keys (KEY_CACHE_TTL_SECONDS, 30 s here): revocations are announced with
 * NOTIFY, and a server whose listening connection was lost drops its whole cache on reconnect.
 * The revocations below are made on other connections, as another process would make them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, startTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant } from './support/merchants';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway?.close());

async function refusedWithin(ms: number, check: () => Promise<number>): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    if ((await check()) === 401) return true;
  }
  return false;
}

it('refuses a key revoked by another process at once', async () => {
  const { test: keys } = await createTestMerchant(gateway.db);
  expect((await call(gateway, 'find-tx', {}, keys)).status).toBe(200); // now cached
  await gateway.db.query(
    `with revoked as (update api_keys set revoked_at = now() where public_key = $1 returning 1)
     select pg_notify('api_key_changed', $1) from revoked`,
    [keys.publicKey],
  );
  expect(await refusedWithin(2000, async () => (await call(gateway, 'find-tx', {}, keys)).status)).toBe(true);
});

it('drops its cache when it may have missed a revocation while disconnected', async () => {
  const { test: keys } = await createTestMerchant(gateway.db);
  expect((await call(gateway, 'find-tx', {}, keys)).status).toBe(200); // now cached
  const [terminated] = await gateway.db.query<{ n: number }>(
    `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where datname = current_database() and query = 'LISTEN api_key_changed'`,
  );
  expect(terminated!.n).toBe(1);
  // Revoked without a notification, as if it had been sent while nobody listened.
  await gateway.db.query('update api_keys set revoked_at = now() where public_key = $1', [keys.publicKey]);
  expect(await refusedWithin(10_000, async () => (await call(gateway, 'find-tx', {}, keys)).status)).toBe(true);
});
