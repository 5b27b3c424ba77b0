/**
 * The sign-in limits' test files (tests/sign-in-limits.pg.test.ts, the rules against a stranger;
 * tests/sign-in-budget.both.test.ts, concurrent attempts on both databases): a user of a test
 * merchant, and how many failed sign-ins reached its password check.
 */
import type { Database } from '@/lib/db/client';
import { createUser } from '@/lib/users';

export const SIGN_IN_PASSWORD = 'a-long-enough-passphrase';

let counter = 0;

/** A new owner of `merchantId` with SIGN_IN_PASSWORD, at an address of its own. */
export async function signInUser(db: Database, merchantId: string) {
  const email = `limits${++counter}-${Date.now()}@shop.example`;
  return (await createUser(db, { merchant: merchantId, email, role: 'owner', password: SIGN_IN_PASSWORD })).user;
}

/** Failed sign-ins whose password was checked (each writes one audit entry), of `userId`. */
export async function passwordChecks(db: Database, userId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from audit_log where user_id = $1 and action = 'sign-in.failure' and detail->>'reason' = 'password'`,
    [userId],
  );
  return row!.n;
}
