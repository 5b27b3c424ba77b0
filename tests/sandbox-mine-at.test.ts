/**
 * `npm run sandbox -- mine NETWORK [COUNT] --at ISO_TIME` (the sandbox.mine admin command): blocks
 * dated `at`, never before the tip, and a bad time refused before anything is mined.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCommand, runAdminCommand } from '@/lib/admin/commands';
import type { Database } from '@/lib/db/client';
import { openTestDatabase } from './support/database';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db?.close());

const blockTimes = async (network: string) =>
  (await db.query<{ height: string; mined_at: Date }>('select height, mined_at from sandbox_blocks where network = $1 order by height', [network])).map(
    (b) => [Number(b.height), b.mined_at.toISOString()] as const,
  );

describe('sandbox.mine --at', () => {
  it('dates the mined blocks at the given time; an earlier time than the tip gives the tip\'s time', async () => {
    const at = '2031-05-01T10:00:00.000Z';
    const mined = await runAdminCommand(db, adminCommand.parse({ command: 'sandbox.mine', network: 'bitcoin', count: 2, at }));
    expect(mined).toMatchObject({ network: 'bitcoin' });
    const times = await blockTimes('bitcoin');
    expect(times.slice(-2).map(([, t]) => t)).toEqual([at, at]);
    await runAdminCommand(db, adminCommand.parse({ command: 'sandbox.mine', network: 'bitcoin', count: 1, at: '2020-01-01T00:00:00Z' }));
    expect((await blockTimes('bitcoin')).at(-1)![1]).toBe(at);
    // Without --at: now, or the tip's time when that is later.
    await runAdminCommand(db, adminCommand.parse({ command: 'sandbox.mine', network: 'bitcoin', count: 1 }));
    expect((await blockTimes('bitcoin')).at(-1)![1]).toBe(at);
  });

  it('refuses a time that is not ISO 8601', () => {
    for (const at of ['tomorrow', '2031-13-01T00:00:00Z', '1700000000']) {
      expect(adminCommand.safeParse({ command: 'sandbox.mine', network: 'bitcoin', count: 1, at }).success, at).toBe(false);
    }
  });
});
