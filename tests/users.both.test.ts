/**
 * Dashboard accounts on a real database: sessions (rotation, idle and absolute expiry, sign out
 * everywhere, forged tokens, disabled users), one-time links used once, and the sign-in throttle.
 */
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import {
  changeRole,
  completeSecondFactor,
  confirmEnrolment,
  createUser,
  enrolment,
  removeUser,
  disableUser,
  openSession,
  readLink,
  readSession,
  revokeSession,
  revokeUserSessions,
  signIn,
  spendLink,
  type SessionPolicy,
} from '@/lib/users';
import { openTestDatabase } from './support/database';
import { createTestMerchant } from './support/merchants';

let db: Database;
let merchantId: string;
const PASSWORD = 'a-long-enough-passphrase';
const policy: SessionPolicy = { idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 };
let counter = 0;
const fresh = () => `user${++counter}-${Date.now()}@shop.example`;

beforeAll(async () => {
  db = await openTestDatabase();
  merchantId = (await createTestMerchant(db, 'Users shop')).merchantId;
});
afterAll(() => db?.close());

async function user(role: 'owner' | 'admin' | 'viewer' = 'owner') {
  return (await createUser(db, { merchant: merchantId, email: fresh(), role, password: PASSWORD })).user;
}

describe('sessions', () => {
  it('opens a new token at every sign-in, and reads it back with the user and merchant', async () => {
    const u = await user('admin');
    const first = await signIn(db, { email: u.email.toUpperCase(), password: PASSWORD }, { ip: '10.0.0.1' });
    const second = await signIn(db, { email: u.email, password: PASSWORD }, { ip: '10.0.0.1' });
    expect(first.kind).toBe('signed-in');
    expect(second.kind).toBe('signed-in');
    if (first.kind !== 'signed-in' || second.kind !== 'signed-in') return;
    expect(first.session.token).not.toBe(second.session.token);
    expect(first.session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = await readSession(db, second.session.token, { policy });
    expect(session).toMatchObject({
      userId: u.id,
      email: u.email,
      role: 'admin',
      merchantId,
      merchantName: 'Users shop',
      mode: 'test',
      twoFactorEnabled: false,
    });
    // Only the hash is stored.
    const [row] = await db.query<{ n: number }>('select count(*)::int as n from user_sessions where token_hash = $1', [
      second.session.token,
    ]);
    expect(row!.n).toBe(0);
  });

  it('ends after the idle timeout, unless seen within it', async () => {
    const u = await user();
    const t0 = new Date('2030-01-01T10:00:00Z');
    const s = await openSession(db, u.id, 'signed-in', {}, { now: t0, policy });
    const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
    expect(await readSession(db, s.token, { now: at(29), policy })).toBeDefined();
    // Seen at 29 min: idle until 59.
    expect(await readSession(db, s.token, { now: at(58), policy })).toBeDefined();
    expect(await readSession(db, s.token, { now: at(58 + 31), policy })).toBeUndefined();
  });

  it('lasts while used: a one-minute session used every 20 s is still open after three minutes', async () => {
    const short: SessionPolicy = { idleMs: 60_000, maxMs: 12 * 3_600_000 };
    const u = await user();
    const t0 = new Date('2030-01-02T08:00:00Z');
    const used = await openSession(db, u.id, 'signed-in', {}, { now: t0, policy: short });
    const unused = await openSession(db, u.id, 'signed-in', {}, { now: t0, policy: short });
    for (let seconds = 20; seconds <= 180; seconds += 20) {
      const now = new Date(t0.getTime() + seconds * 1000);
      expect(await readSession(db, used.token, { now, policy: short }), `${seconds} s`).toBeDefined();
    }
    expect(
      await readSession(db, unused.token, { now: new Date(t0.getTime() + 60_000), policy: short }),
    ).toBeUndefined();
    // Then left alone, it ends a minute after its last use.
    const at = (seconds: number) => ({ now: new Date(t0.getTime() + seconds * 1000), policy: short });
    expect(await readSession(db, used.token, at(180 + 59))).toBeDefined();
    expect(await readSession(db, used.token, at(239 + 60))).toBeUndefined();
  });

  it('touches last_seen_at at most once a minute', async () => {
    const u = await user();
    const t0 = new Date('2030-01-02T10:00:00Z');
    const s = await openSession(db, u.id, 'signed-in', {}, { now: t0, policy });
    const seen = async () =>
      (
        await db.query<{ last_seen_at: Date }>('select last_seen_at from user_sessions where token_hash = $1', [
          s.tokenHash,
        ])
      )[0]!.last_seen_at.getTime();
    await readSession(db, s.token, { now: new Date(t0.getTime() + 30_000), policy });
    expect(await seen()).toBe(t0.getTime());
    await readSession(db, s.token, { now: new Date(t0.getTime() + 61_000), policy });
    expect(await seen()).toBe(t0.getTime() + 61_000);
  });

  it('ends at the absolute lifetime however active', async () => {
    const u = await user();
    const t0 = new Date('2030-01-03T00:00:00Z');
    const s = await openSession(db, u.id, 'signed-in', {}, { now: t0, policy });
    for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
      expect(await readSession(db, s.token, { now: new Date(t0.getTime() + minutes * 60_000), policy })).toBeDefined();
    }
    expect(
      await readSession(db, s.token, { now: new Date(t0.getTime() + 12 * 3_600_000 + 1000), policy }),
    ).toBeUndefined();
  });

  it('sign out ends one session; sign out everywhere ends them all', async () => {
    const u = await user();
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => openSession(db, u.id, 'signed-in', {}, { policy })));
    await revokeSession(db, a!.tokenHash);
    expect(await readSession(db, a!.token, { policy })).toBeUndefined();
    expect(await readSession(db, b!.token, { policy })).toBeDefined();
    expect(await revokeUserSessions(db, u.id)).toBe(2);
    expect(await readSession(db, b!.token, { policy })).toBeUndefined();
    expect(await readSession(db, c!.token, { policy })).toBeUndefined();
  });

  it('refuses forged tokens and a second-factor session where a signed-in one is needed', async () => {
    const u = await user();
    const s = await openSession(db, u.id, 'second-factor', {}, { policy });
    expect(await readSession(db, s.token, { policy })).toBeUndefined();
    expect(await readSession(db, s.token, { stage: 'second-factor', policy })).toBeDefined();
    for (const forged of [
      '',
      'x',
      s.tokenHash,
      `${s.token.slice(0, -1)}${s.token.endsWith('A') ? 'B' : 'A'}`,
      "' or 1=1 --",
      'A'.repeat(43),
    ]) {
      expect(await readSession(db, forged, { policy })).toBeUndefined();
    }
  });

  it('refuses every session of a disabled user', async () => {
    const u = await user();
    const s = await openSession(db, u.id, 'signed-in', {}, { policy });
    await disableUser(db, u.email);
    expect(await readSession(db, s.token, { policy })).toBeUndefined();
    // Even if a session row were left un-revoked, the join on the user refuses it.
    await db.query('update user_sessions set revoked_at = null where token_hash = $1', [s.tokenHash]);
    expect(await readSession(db, s.token, { policy })).toBeUndefined();
    expect((await signIn(db, { email: u.email, password: PASSWORD })).kind).toBe('refused');
  });
});

describe('one-time links', () => {
  it('set a password once; a second use is refused', async () => {
    const { user: u, link } = await createUser(db, { merchant: 'Users shop', email: fresh(), role: 'viewer' });
    expect(u.hasPassword).toBe(false);
    const token = link!.url.split('/').pop()!;
    expect(link!.url).toMatch(/\/dashboard\/set-up\/[A-Za-z0-9_-]{43}$/);
    expect((await signIn(db, { email: u.email, password: PASSWORD })).kind).toBe('refused');
    await expect(spendLink(db, token, 'short')).rejects.toThrow(/at least 12/);
    expect(await readLink(db, token)).toBeDefined(); // a refused password does not spend the link
    await spendLink(db, token, PASSWORD);
    expect(await readLink(db, token)).toBeUndefined();
    await expect(spendLink(db, token, 'another-long-passphrase')).rejects.toThrow(/not valid/);
    expect((await signIn(db, { email: u.email, password: PASSWORD })).kind).toBe('signed-in');
    expect((await signIn(db, { email: u.email, password: 'another-long-passphrase' })).kind).toBe('refused');
  });

  it('expire after 72 hours', async () => {
    const now = new Date();
    const { link } = await createUser(db, { merchant: merchantId, email: fresh(), role: 'viewer' }, now);
    const token = link!.url.split('/').pop()!;
    expect(await readLink(db, token, new Date(now.getTime() + 71 * 3_600_000))).toBeDefined();
    expect(await readLink(db, token, new Date(now.getTime() + 72 * 3_600_000 + 1))).toBeUndefined();
    await expect(spendLink(db, token, PASSWORD, new Date(now.getTime() + 73 * 3_600_000))).rejects.toThrow(/not valid/);
  });
});

describe('accounts', () => {
  it('refuse a second user with the same address, whatever its case, and unknown merchants', async () => {
    const u = await user();
    await expect(
      createUser(db, { merchant: merchantId, email: u.email.toUpperCase(), role: 'viewer', password: PASSWORD }),
    ).rejects.toThrow(/already a user/);
    await expect(
      createUser(db, { merchant: 'No such shop', email: fresh(), role: 'viewer', password: PASSWORD }),
    ).rejects.toThrow(/No merchant named/);
    await expect(
      createUser(db, { merchant: merchantId, email: 'not-an-address', role: 'viewer', password: PASSWORD }),
    ).rejects.toThrow(/not an e-mail address/);
  });
});

describe('sign-in throttle', () => {
  it('locks a client on an account after five failures, refusing even its right password, with a growing wait', async () => {
    const u = await user();
    const t0 = new Date('2030-02-01T00:00:00Z');
    const attempt = (password: string, seconds: number) =>
      signIn(db, { email: u.email, password }, { ip: `10.1.0.${counter}` }, new Date(t0.getTime() + seconds * 1000));
    for (let i = 0; i < 4; i++)
      expect(await attempt('wrong password!', i)).toEqual({
        kind: 'refused',
        message: 'Wrong e-mail address or password.',
      });
    expect(await attempt('wrong password!', 4)).toEqual({
      kind: 'refused',
      message: 'Too many attempts. Try again in 30 s.',
    });
    expect(await attempt(PASSWORD, 14)).toEqual({ kind: 'refused', message: 'Too many attempts. Try again in 20 s.' });
    // After the lock, one more failure locks for twice as long.
    expect(await attempt('wrong password!', 35)).toEqual({
      kind: 'refused',
      message: 'Too many attempts. Try again in 60 s.',
    });
    // Meanwhile the account is not locked for anyone else: another address signs in.
    expect(
      (await signIn(db, { email: u.email, password: PASSWORD }, { ip: '10.2.0.1' }, new Date(t0.getTime() + 36_000)))
        .kind,
    ).toBe('signed-in');
    expect((await attempt(PASSWORD, 96)).kind).toBe('signed-in');
    // A success starts the count again.
    expect(await attempt('wrong password!', 97)).toEqual({
      kind: 'refused',
      message: 'Wrong e-mail address or password.',
    });
    const audit = await db.query<{ action: string }>(
      'select action from audit_log where user_id = $1 order by created_at',
      [u.id],
    );
    expect(audit.map((a) => a.action)).toEqual([
      ...Array(6).fill('sign-in.failure'),
      'sign-in.success',
      'sign-in.success',
      'sign-in.failure',
    ]);
  });

  it('limits an address across accounts, unknown ones included', async () => {
    const t0 = new Date('2030-03-01T00:00:00Z');
    let last;
    for (let i = 0; i < 50; i++)
      last = await signIn(
        db,
        { email: `nobody${i}@shop.example`, password: 'wrong password!' },
        { ip: '192.0.2.7' },
        new Date(t0.getTime() + i),
      );
    expect(last).toEqual({ kind: 'refused', message: 'Too many attempts. Try again in 30 s.' });
    const u = await user();
    expect(
      await signIn(db, { email: u.email, password: PASSWORD }, { ip: '192.0.2.7' }, new Date(t0.getTime() + 1000)),
    ).toMatchObject({ message: /Too many attempts/ });
    expect(
      (await signIn(db, { email: u.email, password: PASSWORD }, { ip: '192.0.2.8' }, new Date(t0.getTime() + 1000)))
        .kind,
    ).toBe('signed-in');
  });
});

describe('two-factor', () => {
  it('asks for a code after the password, replaces the pending session, and takes each code once', async () => {
    const u = await user();
    const { secret } = await enrolment(db, u.id);
    const app = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const t0 = new Date('2030-06-01T00:00:05Z');
    const codeAt = (at: Date) => app.generate({ timestamp: at.getTime() });
    const recovery = await confirmEnrolment(db, u.id, codeAt(t0), {}, t0);
    expect(recovery).toHaveLength(10);

    const later = new Date(t0.getTime() + 60_000);
    const first = await signIn(db, { email: u.email, password: PASSWORD }, {}, later);
    expect(first.kind).toBe('second-factor');
    if (first.kind !== 'second-factor') return;
    // The pending session opens no page.
    expect(await readSession(db, first.session.token, { now: later, policy })).toBeUndefined();
    // The enrolment's code (an earlier step) is refused; the current one signs in, with a new token.
    expect(await completeSecondFactor(db, first.session.token, codeAt(t0), {}, later)).toEqual({
      kind: 'refused',
      message: 'That code is not right.',
    });
    const done = await completeSecondFactor(db, first.session.token, codeAt(later), {}, later);
    expect(done.kind).toBe('signed-in');
    if (done.kind !== 'signed-in') return;
    expect(done.session.token).not.toBe(first.session.token);
    expect(await readSession(db, done.session.token, { now: later, policy })).toMatchObject({
      userId: u.id,
      twoFactorEnabled: true,
    });
    // The pending session is spent.
    expect((await completeSecondFactor(db, first.session.token, codeAt(later), {}, later)).kind).toBe('refused');

    // The same code again, in a new sign-in within the same 30 s: refused (replay).
    const again = await signIn(db, { email: u.email, password: PASSWORD }, {}, later);
    if (again.kind !== 'second-factor') throw new Error(again.kind);
    expect(await completeSecondFactor(db, again.session.token, codeAt(later), {}, later)).toMatchObject({
      kind: 'refused',
    });
    // A recovery code works once.
    expect((await completeSecondFactor(db, again.session.token, recovery[0]!.toUpperCase(), {}, later)).kind).toBe(
      'signed-in',
    );
    const third = await signIn(db, { email: u.email, password: PASSWORD }, {}, later);
    if (third.kind !== 'second-factor') throw new Error(third.kind);
    expect((await completeSecondFactor(db, third.session.token, recovery[0]!, {}, later)).kind).toBe('refused');
    // No secret or code in clear in the database.
    const [row] = await db.query<{ totp_secret_ciphertext: string }>(
      'select totp_secret_ciphertext from users where id = $1',
      [u.id],
    );
    expect(row!.totp_secret_ciphertext).not.toContain(secret);
    const hashes = await db.query<{ code_hash: string }>(
      'select code_hash from user_recovery_codes where user_id = $1',
      [u.id],
    );
    expect(hashes.map((h) => h.code_hash).join()).not.toContain(recovery[1]!.replace('-', ''));
  });

  it('sends an owner without it to enrol when the merchant requires it', async () => {
    const other = (await createTestMerchant(db, 'Strict shop')).merchantId;
    await db.query('update merchants set require_two_factor = true where id = $1', [other]);
    const owner = (await createUser(db, { merchant: other, email: fresh(), role: 'owner', password: PASSWORD })).user;
    const viewer = (await createUser(db, { merchant: other, email: fresh(), role: 'viewer', password: PASSWORD })).user;
    const read = async (id: string) =>
      readSession(db, (await openSession(db, id, 'signed-in', {}, { policy })).token, { policy });
    expect((await read(owner.id))!.mustEnrolTwoFactor).toBe(true);
    expect((await read(viewer.id))!.mustEnrolTwoFactor).toBe(false);
  });
});

describe('team', () => {
  it('never removes or demotes the last owner', async () => {
    const shop = (await createTestMerchant(db, 'Team shop')).merchantId;
    const owner = (await createUser(db, { merchant: shop, email: fresh(), role: 'owner', password: PASSWORD })).user;
    await expect(changeRole(db, shop, owner.id, 'admin')).rejects.toThrow(/last owner/);
    await expect(removeUser(db, shop, owner.id)).rejects.toThrow(/last owner/);
    const second = (await createUser(db, { merchant: shop, email: fresh(), role: 'admin', password: PASSWORD })).user;
    await changeRole(db, shop, second.id, 'owner');
    await changeRole(db, shop, owner.id, 'viewer');
    await expect(removeUser(db, shop, second.id)).rejects.toThrow(/last owner/);
    // Another merchant's user is not this team's.
    await expect(removeUser(db, merchantId, second.id)).rejects.toThrow(/No such user/);
    const session = await openSession(db, owner.id, 'signed-in', {}, { policy });
    await removeUser(db, shop, owner.id);
    expect(await readSession(db, session.token, { policy })).toBeUndefined();
  });
});
