import 'server-only';
import type { Queryable } from '../db';
import { isUuid } from '../protocol';

export interface AuditEntry {
  merchantId: string;
  /** The user who acted; null for the command line and for a failed sign-in. */
  userId?: string | null;
  /** Who, as people read it: the user's e-mail, or `cli`. */
  actor: string;
  /** What, as `area.verb`: `sign-in.success`, `user.invite`, `key.create`, `webhook.resend`... */
  action: string;
  /** What it was done to; never a secret (no key, password, code or token). */
  detail?: Record<string, unknown>;
  ip?: string | null;
}

export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query('insert into audit_log (merchant_id, user_id, actor, action, detail, ip) values ($1, $2, $3, $4, $5, $6)', [
    entry.merchantId,
    entry.userId ?? null,
    entry.actor,
    entry.action,
    JSON.stringify(entry.detail ?? {}),
    entry.ip ?? null,
  ]);
}

export interface AuditRow {
  id: string;
  createdAt: Date;
  actor: string;
  action: string;
  detail: Record<string, unknown>;
  ip: string | null;
}

/** A cursor of the audit page: the last row's time and id, so the next page starts after it. */
function encodeCursor(row: AuditRow): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } | undefined {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (extra !== undefined || !id || !isUuid(id) || Number.isNaN(createdAt.getTime())) return undefined;
  return { createdAt, id };
}

/**
 * The merchant's audit log, newest first, `pageSize` rows after `after` (keyset on created_at, id:
 * a deep page costs what the first does). A cursor that does not decode starts from the top.
 */
export async function listAudit(db: Queryable, merchantId: string, after?: string, pageSize = 50): Promise<{ rows: AuditRow[]; next?: string }> {
  const cursor = after ? decodeCursor(after) : undefined;
  const rows = await db.query<{ id: string; created_at: Date; actor: string; action: string; detail: Record<string, unknown>; ip: string | null }>(
    `select id, created_at, actor, action, detail, ip from audit_log
      where merchant_id = $1 ${cursor ? 'and (created_at, id) < ($3, $4)' : ''}
      order by created_at desc, id desc limit $2`,
    cursor ? [merchantId, pageSize + 1, cursor.createdAt, cursor.id] : [merchantId, pageSize + 1],
  );
  const page = rows.slice(0, pageSize).map((r) => ({ id: r.id, createdAt: r.created_at, actor: r.actor, action: r.action, detail: r.detail, ip: r.ip }));
  return { rows: page, next: rows.length > pageSize ? encodeCursor(page[page.length - 1]!) : undefined };
}
