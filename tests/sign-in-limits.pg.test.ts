/**
 * The sign-in limits against a stranger who wants a user locked out (issue 34, item 1;
 * docs/decisions/049), on a real database with a moved clock: a thousand wrong passwords from one
 * address and a hundred from each of a hundred addresses keep out neither a user with two-factor,
 * nor one on a device it signed in from before; a user with neither waits at most 40 s; and no
 * more than 100 wrong passwords an hour reach the password check of one account. These are rules
 * of lib/users, the same SQL on either database: they run on PostgreSQL; concurrent attempts, where
 * the two databases could differ, are in tests/sign-in-budget.both.test.ts. The browser test of
 * the same attack is in e2e/dashboard-auth.spec.ts.
 */
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { confirmEnrolment, enrolment, signIn, type Client, type SignInResult } from '@/lib/users';
import { openTestDatabase } from './support/database';
import { createTestMerchant } from './support/merchants';
import { passwordChecks as checksOf, SIGN_IN_PASSWORD as PASSWORD, signInUser } from './support/sign-in';

let db: Database;
let merchantId: string;

beforeAll(async () => {
  db = await openTestDatabase();
  merchantId = (await createTestMerchant(db, 'Limits shop')).merchantId;
});
afterAll(() => db?.close());

const user = () => signInUser(db, merchantId);
const passwordChecks = (userId: string) => checksOf(db, userId);

const at = (t0: Date, ms: number) => new Date(t0.getTime() + ms);

/**
 * The attack on `email` from `t0`, one attempt per millisecond of the clock, scaled down
 * (the browser test sends it in full: 1000 and 100 x 100): two hundred wrong passwords from one
 * address, then five from each of a hundred others. Past the first few of each address nothing
 * changes any more: the attempts are refused before any check, and counted nowhere.
 */
async function attack(email: string, t0: Date): Promise<Date> {
  let ms = 0;
  for (let i = 0; i < 200; i++) await signIn(db, { email, password: `guess ${i}` }, { ip: '192.0.2.1' }, at(t0, ms++));
  for (let a = 1; a <= 100; a++)
    for (let i = 0; i < 5; i++)
      await signIn(db, { email, password: `guess ${a}-${i}` }, { ip: `198.51.100.${a}` }, at(t0, ms++));
  return at(t0, ms);
}

function expectSignedIn(result: SignInResult) {
  expect(result.kind, JSON.stringify(result)).toBe('signed-in');
  return result as Extract<SignInResult, { kind: 'signed-in' }>;
}

describe('a stranger guessing', () => {
  it('keeps out neither a user with two-factor nor one on a known device; one with neither waits at most 40 s', async () => {
    const withCode = await user();
    const { secret } = await enrolment(db, withCode.id);
    const app = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
    const t0 = new Date('2031-01-01T00:00:00Z');
    await confirmEnrolment(db, withCode.id, app.generate({ timestamp: t0.getTime() }), {}, t0);
    const plain = await user();
    // The plain user signed in from this browser before: its device is known.
    const home: Client = { ip: '203.0.113.50' };
    home.device = expectSignedIn(await signIn(db, { email: plain.email, password: PASSWORD }, home, t0)).device.token;

    const t1 = at(t0, 60_000);
    const endWithCode = await attack(withCode.email, t1);
    const endPlain = await attack(plain.email, t1);
    // However many guesses, only the budget's ten reached each password check.
    expect(await passwordChecks(withCode.id)).toBe(10);
    expect(await passwordChecks(plain.id)).toBe(10);

    // With two-factor, from a new device: the password alone is answered with the slow-down and
    // an offer of the code; the password with a right code signs in at once.
    const now = endWithCode;
    const code = app.generate({ timestamp: now.getTime() });
    const away: Client = { ip: '203.0.113.77' };
    const slowed = await signIn(db, { email: withCode.email, password: PASSWORD }, away, now);
    expect(slowed).toMatchObject({ kind: 'refused', askCode: true });
    expectSignedIn(await signIn(db, { email: withCode.email, password: PASSWORD, code }, away, now));

    // Without two-factor, from the known device: at once.
    expectSignedIn(await signIn(db, { email: plain.email, password: PASSWORD }, home, endPlain));

    // Without two-factor, from a new device: "try again in N s", N at most 40, not a lock; then in.
    const newDevice: Client = { ip: '203.0.113.99' };
    const waited = await signIn(db, { email: plain.email, password: PASSWORD }, newDevice, endPlain);
    expect(waited).toMatchObject({ kind: 'refused', askCode: true });
    const seconds = Number(/Try again in (\d+) s/.exec((waited as { message: string }).message)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(40);
    expectSignedIn(
      await signIn(db, { email: plain.email, password: PASSWORD }, newDevice, at(endPlain, seconds * 1000)),
    );
  });

  it('answers an unknown address exactly as a real one under the same attack', async () => {
    const real = await user();
    const t0 = new Date('2031-02-01T00:00:00Z');
    const answers = [];
    for (const email of [real.email, `nobody-${Date.now()}@shop.example`]) {
      const seen: string[] = [];
      for (let i = 0; i < 12; i++) {
        const result = await signIn(
          db,
          { email, password: 'wrong password!' },
          { ip: `198.51.100.${200 + i}` },
          at(t0, i),
        );
        seen.push(JSON.stringify(result));
      }
      answers.push(seen);
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  it('lets at most 100 wrong passwords an hour reach the password check, a new address every 5 s', async () => {
    const u = await user();
    const t0 = new Date('2031-03-01T00:00:00Z');
    // Every attempt from an address of its own, so that no per-client lock ever slows the guesser.
    for (let s = 0; s < 3600; s += 5) {
      const ip = `10.${(s >> 16) & 255}.${(s >> 8) & 255}.${s & 255}`;
      await signIn(db, { email: u.email, password: `guess ${s}` }, { ip }, at(t0, s * 1000));
    }
    const checks = await passwordChecks(u.id);
    expect(checks).toBeLessThanOrEqual(100);
    expect(checks).toBeGreaterThanOrEqual(95);
  });
});
