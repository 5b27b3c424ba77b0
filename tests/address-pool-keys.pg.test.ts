/**
 * The address pool follows the configured key (docs/decisions/047): after `<NETWORK>_XPUB`
 * changes, the pool's addresses of the old key that no order took are dropped when the pool is
 * filled (at start, and at every refill), orders get addresses of the new key only, and the
 * addresses the old key gave to orders stay theirs. So for a merchant's own key (decision 083):
 * its pool starts at index 0, the gateway's fill leaves it alone, and a changed own key drops the
 * earlier one's unissued addresses.
 */
import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillAddressPool, fillAddressPools, poolKeyFingerprint } from '@/lib/addresses';
import { networkFor } from '@/lib/chains';
import { deriveAddress } from '@/lib/chains/derivation';
import type { Database } from '@/lib/db/client';
import { setDepositKey } from '@/lib/payouts';
import { openTestDatabase } from './support/database';
import { createOrder } from './support/chain';
import { configureLive, randomChain } from './support/live';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let db: Database;
let merchant: TestMerchant;

/** Live litecoin (regtest addresses) on the extended key `xpub`; no node is asked for an address. */
function liveLitecoin(xpub: string) {
  configureLive({
    ADDRESS_POOL_SIZE: '16',
    LITECOIN_RPC_URL: 'http://127.0.0.1:9',
    LITECOIN_XPUB: xpub,
    LITECOIN_CHAIN: 'regtest',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  });
  return networkFor('live', 'litecoin')!;
}

async function poolRows() {
  return db.query<{ address: string; key_fingerprint: string | null; taken: boolean }>(
    `select address, key_fingerprint,
            exists (select 1 from orders o where o.address_id = a.id) as taken
       from addresses a where network = 'litecoin' and mode = 'live' order by derivation_index`,
  );
}

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
});
afterAll(async () => {
  await db?.close();
});

describe('the address pool after a change of key', () => {
  it("drops the old key's unissued addresses; orders get the new key's, and keep the old ones they had", async () => {
    const LTC = { currency: 'LTC', network: 'litecoin', amount: '0.1' };
    const oldKey = randomChain("m/84'/1'/0'/0");
    const before = liveLitecoin(oldKey.xpub);
    await fillAddressPool(db, before, 'live');
    const oldPrint = await poolKeyFingerprint(before, 'live');
    const paid = await createOrder(db, merchant.live, LTC);
    expect(paid.address).toBe(deriveAddress(before, oldKey.xpub, 0));

    // The operator corrects the key and restarts.
    const newKey = randomChain("m/84'/1'/0'/0");
    const after = liveLitecoin(newKey.xpub);
    const newPrint = await poolKeyFingerprint(after, 'live');
    expect(newPrint).not.toBe(oldPrint);
    await fillAddressPools(db, [after], 'live');

    const rows = await poolRows();
    // The old key's address an order took stays; every other address is the new key's.
    expect(rows.filter((r) => r.key_fingerprint === oldPrint)).toEqual([
      { address: paid.address, key_fingerprint: oldPrint, taken: true },
    ]);
    expect(rows.filter((r) => !r.taken).every((r) => r.key_fingerprint === newPrint)).toBe(true);
    const next = await createOrder(db, merchant.live, LTC);
    const newAddresses = Array.from({ length: 64 }, (_, i) => deriveAddress(after, newKey.xpub, i));
    expect(newAddresses).toContain(next.address);
    expect(rows.some((r) => r.address === deriveAddress(before, oldKey.xpub, 1))).toBe(false);
  });

  it('drops the unissued addresses written before keys were fingerprinted, once, and derives them again', async () => {
    const key = randomChain("m/84'/1'/0'/0");
    const network = liveLitecoin(key.xpub);
    await fillAddressPool(db, network, 'live');
    await db.query(`update addresses set key_fingerprint = null where network = 'litecoin' and mode = 'live'`);
    await fillAddressPool(db, network, 'live');
    const print = await poolKeyFingerprint(network, 'live');
    const free = (await poolRows()).filter((r) => !r.taken);
    expect(free.length).toBeGreaterThan(0);
    expect(free.every((r) => r.key_fingerprint === print)).toBe(true);
  });

  it("a merchant's own key: its pool from index 0, left alone by the gateway's fill, dropped unissued when it changes", async () => {
    const LTC = { currency: 'LTC', network: 'litecoin', amount: '0.1' };
    const network = liveLitecoin(randomChain("m/84'/1'/0'/0").xpub);
    const own = () => {
      const root = HDKey.fromMasterSeed(randomBytes(32), { private: 0x04358394, public: 0x043587cf });
      const account = root.derive("m/84'/1'/0'");
      const fingerprint = root.fingerprint.toString(16).padStart(8, '0');
      return {
        chain: account.deriveChild(0).publicExtendedKey,
        descriptor: `wpkh([${fingerprint}/84h/1h/0h]${account.publicExtendedKey}/0/*)`,
      };
    };
    const first = own();
    const set = (key: string) =>
      setDepositKey(db, { merchantId: merchant.merchantId, network: 'litecoin', mode: 'live', key });
    const firstPrint = (await set(first.descriptor)).keyFingerprint;
    const paid = await createOrder(db, merchant.live, LTC);
    expect(paid.address).toBe(deriveAddress(network, first.chain, 0));
    const ofFirst = async () => (await poolRows()).filter((r) => r.key_fingerprint === firstPrint);
    // By row id: a row dropped and derived again would come back with the same address.
    const unissued = async () =>
      (
        await db.query<{ id: string }>(
          `select id from addresses a where key_fingerprint = $1
              and not exists (select 1 from orders o where o.address_id = a.id)`,
          [firstPrint],
        )
      ).map((r) => r.id);
    const before = await unissued();
    // The 16 derived when the key was set, less the one the order took: the gateway's fills before
    // each order (tests/support/chain.ts) dropped none of them.
    expect(before).toHaveLength(15);
    // The pools are filled at start: the gateway's keeps to its own key's addresses (and the
    // merchant's is topped up), none of the merchant's is dropped.
    await fillAddressPools(db, [network], 'live');
    const after = await unissued();
    expect(after).toEqual(expect.arrayContaining(before));

    const second = own();
    expect((await set(second.descriptor)).dropped).toBe(after.length);
    expect(await ofFirst()).toEqual([{ address: paid.address, key_fingerprint: firstPrint, taken: true }]);
    const next = await createOrder(db, merchant.live, LTC);
    expect(next.address).toBe(deriveAddress(network, second.chain, 0));
  });
});
