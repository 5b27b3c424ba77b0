import 'server-only';
import type { Queryable } from '../db';

/** Records a (key, nonce) pair; false when it was already used. One statement, no error path. */
export async function consumeNonce(db: Queryable, keyId: string, nonce: string): Promise<boolean> {
  const rows = await db.query(
    'insert into api_nonces (key_id, nonce) values ($1, $2) on conflict do nothing returning 1',
    [keyId, nonce],
    // Stryker disable next-line StringLiteral: the name only keeps the statement prepared (node-postgres); the rows are the same.
    'consume_nonce',
  );
  return rows.length === 1;
}

/**
 * Used nonces are kept for NONCE_WINDOW_DAYS, then forgotten (SPEC "Wire protocol"). A replay
 * older than the window would be accepted again; every write it could repeat is idempotent
 * (make-order on `order`), and rotating a leaked key ends it.
 */
export async function pruneNonces(db: Queryable, windowDays: number): Promise<number> {
  const rows = await db.query(`delete from api_nonces where created_at < now() - make_interval(days => $1) returning 1`, [windowDays]);
  return rows.length;
}
