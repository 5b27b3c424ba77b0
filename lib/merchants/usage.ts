import 'server-only';
/**
 * A key's "last used" (time and client address), kept cheaply: a signed request notes its key in
 * this process's memory, and the notes are written together, one statement for every key used,
 * once a minute (the server's timer, lib/server/startup.ts). A write per request would double the
 * work of the busiest path for a figure people read to the minute.
 */
import { apiKeys, bare, sql, statement, unnest, type Queryable } from '../db';
import { processSlot } from '../process';

/** How often the notes are written (lib/server/startup.ts): "last used" is exact to about this. */
export const KEY_USE_FLUSH_MS = 60_000;

type Use = { at: Date; ip: string | null };

function notes(): Map<string, Use> {
  return processSlot('apiKeyUse', () => new Map<string, Use>());
}

/** Notes a signed request of `keyId` from `ip` at `at` (memory only). */
export function noteKeyUse(keyId: string, ip: string | undefined, at = new Date()): void {
  notes().set(keyId, { at, ip: ip ?? null });
}

const USES = unnest('u', { id: apiKeys.id, last_used_at: apiKeys.lastUsedAt, last_used_ip: apiKeys.lastUsedIp });
// A later note of another process is never overwritten by an earlier one.
const WRITE_USES = statement(sql`update ${apiKeys}
    set ${bare(apiKeys.lastUsedAt)} = ${USES.ref.last_used_at}, ${bare(apiKeys.lastUsedIp)} = ${USES.ref.last_used_ip}
   from ${USES.from}
  where ${apiKeys.id} = ${USES.ref.id} and (${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < ${USES.ref.last_used_at})`);

/** Writes the notes taken since the last flush, in one statement; answers how many keys it wrote. */
export async function flushKeyUse(db: Queryable): Promise<number> {
  const taken = notes();
  if (taken.size === 0) return 0;
  const batch = [...taken].map(([id, use]) => ({ id, last_used_at: use.at, last_used_ip: use.ip }));
  taken.clear();
  try {
    await WRITE_USES.run(db, USES.values(batch));
  } catch (error) {
    // Kept for the next flush unless a newer note came meanwhile.
    for (const use of batch) if (!taken.has(use.id)) taken.set(use.id, { at: use.last_used_at, ip: use.last_used_ip });
    throw error;
  }
  return batch.length;
}
