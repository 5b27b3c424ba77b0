/**
 * `npm run sandbox -- mine NETWORK [COUNT] --at ISO_TIME` (the sandbox.mine admin command): blocks
 * dated `at`, never before the tip, and a bad time refused before anything is mined. And
 * `npm run sandbox -- reset-clock NETWORK` (sandbox.reset-clock), its way back: the blocks dated
 * ahead are reorganised away, so orders made afterwards are judged by the wall clock again
 * (docs/decisions/016). tests/sandbox-cli.pglite.test.ts runs both commands through a server and offline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommand, runAdminCommand } from '@/lib/admin/commands';
import { broadcast, mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import { openTestDatabase } from './support/database';
import { createOrder, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let db: Database;
let merchant: TestMerchant;
beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
});
afterAll(() => db?.close());

const blockTimes = async (network: string) =>
  (
    await db.query<{ height: string; mined_at: Date }>(
      'select height, mined_at from sandbox_blocks where network = $1 order by height',
      [network],
    )
  ).map((b) => [Number(b.height), b.mined_at.toISOString()] as const);

describe('sandbox.mine --at', () => {
  it("dates the mined blocks at the given time; an earlier time than the tip gives the tip's time", async () => {
    const at = '2031-05-01T10:00:00.000Z';
    const mined = await runAdminCommand(
      db,
      adminCommand.parse({ command: 'sandbox.mine', network: 'bitcoin', count: 2, at }),
    );
    expect(mined).toMatchObject({ network: 'bitcoin' });
    const times = await blockTimes('bitcoin');
    expect(times.slice(-2).map(([, t]) => t)).toEqual([at, at]);
    await runAdminCommand(
      db,
      adminCommand.parse({ command: 'sandbox.mine', network: 'bitcoin', count: 1, at: '2020-01-01T00:00:00Z' }),
    );
    expect((await blockTimes('bitcoin')).at(-1)![1]).toBe(at);
    // Without --at: now, or the tip's time when that is later.
    await runAdminCommand(db, adminCommand.parse({ command: 'sandbox.mine', network: 'bitcoin', count: 1 }));
    expect((await blockTimes('bitcoin')).at(-1)![1]).toBe(at);
  });

  it('refuses a time that is not ISO 8601', () => {
    for (const at of ['tomorrow', '2031-13-01T00:00:00Z', '1700000000']) {
      expect(adminCommand.safeParse({ command: 'sandbox.mine', network: 'bitcoin', count: 1, at }).success, at).toBe(
        false,
      );
    }
  });
});

describe('sandbox.reset-clock', () => {
  const BCH = { currency: 'BCH', network: 'bitcoincash', amount: '0.5' };
  const command = (fields: Record<string, unknown>) => runAdminCommand(db, adminCommand.parse(fields));
  /** One pass of the watcher with test mode's rule: the sandbox's block time is the test world's time. */
  const watch = () => watchOnce(db, sandboxChain(db, 'bitcoincash'), { chainClock: true });

  it('takes the blocks dated ahead away again: an order made afterwards waits out its lifetime, those decided stay decided', async () => {
    const bch = network('bitcoincash');
    const paid = await createOrder(db, merchant.test, BCH);
    await broadcast(db, { network: bch, to: paid.address, currency: 'BCH', amount: 50_000_000n });
    await mine(db, bch, 2);
    const expiring = await createOrder(db, merchant.test, BCH);
    await watch();
    expect((await orderRow(db, paid.id)).status).toBe('processed');
    const [beforeAhead] = await blockTimes('bitcoincash').then((t) => t.slice(-1));

    // The way to test expiry that docs/orders.md gives: a block dated after expiresAt.
    await command({ command: 'sandbox.mine', network: 'bitcoincash', count: 1, at: '2030-01-01T00:00:00Z' });
    await watch();
    expect((await orderRow(db, expiring.id)).status).toBe('expired');
    // A transfer that lands in a later block, dated ahead too (an orphan deposit to the paid order).
    const late = await broadcast(db, { network: bch, to: paid.address, currency: 'BCH', amount: 1_000n });
    await mine(db, bch, 1);
    expect((await blockTimes('bitcoincash')).at(-1)![1]).toBe('2030-01-01T00:00:00.000Z');
    // Left so, the network's clock stays in 2030: an order made now expires at the next pass.
    const doomed = await createOrder(db, merchant.test, BCH);
    await watch();
    expect((await orderRow(db, doomed.id)).status).toBe('expired');

    const reset = await command({ command: 'sandbox.reset-clock', network: 'bitcoincash' });
    expect(reset).toEqual({ network: 'bitcoincash', height: beforeAhead![0], time: beforeAhead![1], removed: 2 });
    const times = await blockTimes('bitcoincash');
    expect(times.at(-1)).toEqual(beforeAhead);
    expect(times.every(([, time]) => Date.parse(time) <= Date.now())).toBe(true);
    // The removed blocks' transfer waits in the mempool for the next block, as after any reorganisation.
    expect(await blockOf(late.txHash)).toBeNull();

    const fresh = await createOrder(db, merchant.test, BCH);
    await mine(db, bch, 1);
    expect(await blockOf(late.txHash)).toBe(beforeAhead![0] + 1);
    const [, newest] = (await blockTimes('bitcoincash')).at(-1)!;
    expect(Date.parse(newest)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(newest)).toBeGreaterThan(Date.parse(beforeAhead![1]));
    await watch();
    await mine(db, bch, 1);
    await watch();
    expect((await orderRow(db, fresh.id)).status).toBe('pending');
    const [cursor] = await db.query<{ height: string; block_time: Date }>(
      "select height, block_time from chain_cursors where network = 'bitcoincash' and mode = 'test'",
    );
    expect(Number(cursor!.height)).toBe(beforeAhead![0] + 2);
    expect(cursor!.block_time.getTime()).toBeLessThanOrEqual(Date.now());
    // Decided orders are final: the reorganisation moves none of them.
    expect((await orderRow(db, paid.id)).status).toBe('processed');
    expect((await orderRow(db, expiring.id)).status).toBe('expired');
    expect((await orderRow(db, doomed.id)).status).toBe('expired');

    // Nothing ahead any more: a second reset changes nothing.
    const again = await command({ command: 'sandbox.reset-clock', network: 'bitcoincash' });
    expect(again).toMatchObject({ network: 'bitcoincash', height: beforeAhead![0] + 2, removed: 0 });
  });

  it('the watcher goes back with the reset at its next pass, before any new block: an order made then is not judged in 2030', async () => {
    const ltc = network('litecoin');
    const LTC = { currency: 'LTC', network: 'litecoin', amount: '0.5' };
    const watchLtc = () => watchOnce(db, sandboxChain(db, 'litecoin'), { chainClock: true });
    await mine(db, ltc, 1);
    await watchLtc();
    await command({ command: 'sandbox.mine', network: 'litecoin', count: 2, at: '2030-01-01T00:00:00Z' });
    await watchLtc();
    const reset = await command({ command: 'sandbox.reset-clock', network: 'litecoin' });
    expect(reset).toMatchObject({ removed: 2 });
    // The ledger is the chain: its blocks taken away are a reorganisation, not a node behind.
    const order = await createOrder(db, merchant.test, LTC);
    await watchLtc();
    const [cursor] = await db.query<{ height: string }>(
      "select height from chain_cursors where network = 'litecoin' and mode = 'test'",
    );
    expect(Number(cursor!.height)).toBe((reset as { height: number }).height);
    expect((await orderRow(db, order.id)).status).toBe('pending');
  });

  it('refuses an unknown network in words', async () => {
    await expect(command({ command: 'sandbox.reset-clock', network: 'nowhere' })).rejects.toThrow(
      'Unknown network "nowhere".',
    );
  });
});

async function blockOf(txHash: string): Promise<number | null> {
  const [row] = await db.query<{ block_height: string | null }>(
    'select block_height from sandbox_transfers where tx_hash = $1',
    [txHash],
  );
  return row!.block_height === null ? null : Number(row!.block_height);
}
