import 'server-only';
import { apiNonces, bare, param, sql, statement, type Queryable } from '../db';

const CONSUME_NONCE = statement<unknown, { keyId: string; nonce: string }>(
  sql`insert into ${apiNonces} (${bare(apiNonces.keyId)}, ${bare(apiNonces.nonce)}) values (${param('keyId')}, ${param('nonce')}) on conflict do nothing returning 1`,
  // The name keeps the statement prepared on each connection (node-postgres): every request runs it.
  { name: 'consume_nonce' },
);

/** Records a (key, nonce) pair; false when it was already used. One statement, no error path. */
export async function consumeNonce(db: Queryable, keyId: string, nonce: string): Promise<boolean> {
  return (await CONSUME_NONCE.run(db, { keyId, nonce })).length === 1;
}

const PRUNE_NONCES = statement<unknown, { days: number }>(
  sql`delete from ${apiNonces} where ${apiNonces.createdAt} < now() - make_interval(days => ${param('days')}) returning 1`,
);

/**
 * Used nonces are kept for NONCE_WINDOW_DAYS, then forgotten (SPEC "Wire protocol"). A replay
 * older than the window would be accepted again; every write it could repeat is idempotent
 * (make-order on `order`), and rotating a leaked key ends it.
 */
export async function pruneNonces(db: Queryable, windowDays: number): Promise<number> {
  return (await PRUNE_NONCES.run(db, { days: windowDays })).length;
}
