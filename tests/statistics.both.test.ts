/**
 * Planner statistics (lib/db/statistics.ts): tables that grew are analyzed, and with statistics
 * the lookups of make-order use the unique indexes, on both databases. Without them the planner
 * picked the merchant's listing index and scanned all of the merchant's orders on every order.
 */
import { expect, it } from 'vitest';
import { refreshStatistics } from '@/lib/db/statistics';
import { call, withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));

/** The indexes the plan of `sql` reads. */
async function indexesUsed(sql: string, params: unknown[]): Promise<string[]> {
  // One row, one column ("QUERY PLAN"), the plan as parsed JSON on both databases.
  const [row] = await gateway.db.query<Record<string, unknown>>(`explain (format json) ${sql}`, params);
  return [...JSON.stringify(Object.values(row!)[0]).matchAll(/"Index Name":\s*"([a-z_]+)"/g)].map((m) => m[1]!);
}

it('analyzes the tables that grew, and then make-order looks orders and pool addresses up by their unique indexes', async () => {
  for (let batch = 0; batch < 10; batch++) {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(
          gateway,
          'make-order',
          { currency: 'TRX', network: 'tron', amount: '1', order: `stats-${batch}-${i}` },
          merchant.test,
        ),
      ),
    );
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
  }
  await refreshStatistics(gateway.db);
  // Analyzed (by this call, or by the server's own check a moment before at a smaller size).
  const analyzed = await gateway.db.query<{ name: string; reltuples: number }>(
    `select relname as name, reltuples::int as reltuples from pg_class where relname in ('orders', 'addresses') order by relname`,
  );
  expect(analyzed.map((t) => t.name)).toEqual(['addresses', 'orders']);
  for (const table of analyzed) expect(table.reltuples).toBeGreaterThan(100);
  // Fresh now: nothing more to analyze until the tables grow again.
  expect(await refreshStatistics(gateway.db)).toEqual([]);

  const key = await gateway.db.query<{ merchant_id: string }>(`select merchant_id from orders limit 1`);
  expect(
    await indexesUsed(
      `select * from orders where merchant_id = $1 and mode = 'test' and client_order_id = 'stats-3-7'`,
      [key[0]!.merchant_id],
    ),
  ).toEqual(['orders_client_order']);
  // As make-order asks: the position of the pool of one key (positions are per key, decision 083).
  // (Any pool address: how far the pool has filled by now depends on its background refills.)
  const [pool] = await gateway.db.query<{ key_fingerprint: string; derivation_index: number }>(
    `select key_fingerprint, derivation_index from addresses where network = 'tron' and mode = 'test' order by derivation_index desc limit 1`,
  );
  expect(
    await indexesUsed(
      `select id from addresses where network = 'tron' and mode = 'test' and key_fingerprint = $1 and derivation_index = $2`,
      [pool!.key_fingerprint, pool!.derivation_index],
    ),
  ).toEqual(['addresses_derivation']);
});
