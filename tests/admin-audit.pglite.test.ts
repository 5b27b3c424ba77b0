/**
 * What an operator does from the command line (lib/admin, which `npm run keys` and `npm run users`
 * send to the server or run themselves) is in the merchant's audit log, as the same action done on
 * the dashboard is; and the CLI refuses a password the dashboard would refuse (one rule).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '@/lib/admin';
import type { Database } from '@/lib/db/client';
import { listAudit } from '@/lib/users';
import { openTestDatabase } from './support/database';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(() => db?.close());

const actions = async (merchantId: string) =>
  (await listAudit(db, merchantId)).rows.map((r) => ({ actor: r.actor, action: r.action, detail: r.detail }));

describe('the command line in the audit log', () => {
  it('records keys made and revoked, and users made, by `cli`', async () => {
    const made = (await runAdminCommand(db, { command: 'keys.create', name: 'Audited shop', mode: 'test' })) as {
      merchantId: string;
      publicKey: string;
    };
    const live = (await runAdminCommand(db, { command: 'keys.create', name: 'Audited shop', mode: 'live' })) as {
      merchantId: string;
      publicKey: string;
    };
    expect(live.merchantId).toBe(made.merchantId);
    expect(await runAdminCommand(db, { command: 'keys.revoke', publicKey: live.publicKey })).toEqual({ revoked: true });
    // A key revoked already changes nothing, and writes nothing.
    expect(await runAdminCommand(db, { command: 'keys.revoke', publicKey: live.publicKey })).toEqual({
      revoked: false,
    });
    await runAdminCommand(db, {
      command: 'users.create',
      merchant: 'Audited shop',
      email: 'owner@audited.example',
      role: 'owner',
      password: 'a-fine-long-passphrase',
    });

    expect((await actions(made.merchantId)).reverse()).toEqual([
      { actor: 'cli', action: 'key.create', detail: { publicKey: made.publicKey, mode: 'test' } },
      { actor: 'cli', action: 'key.create', detail: { publicKey: live.publicKey, mode: 'live' } },
      { actor: 'cli', action: 'key.revoke', detail: { publicKey: live.publicKey, mode: 'live' } },
      { actor: 'cli', action: 'user.create', detail: { email: 'owner@audited.example', role: 'owner' } },
    ]);
  });

  it('refuses the weak password the dashboard refuses ("password12345")', async () => {
    await expect(
      runAdminCommand(db, {
        command: 'users.create',
        merchant: 'Audited shop',
        email: 'weak@audited.example',
        role: 'viewer',
        password: 'password12345',
      }),
    ).rejects.toThrow(/common passwords/);
  });
});
