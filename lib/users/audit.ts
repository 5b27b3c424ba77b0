import 'server-only';
import {
  auditLog,
  columnsOf,
  insertValues,
  param,
  placeholders,
  sql,
  statement,
  type Queryable,
  type RowOf,
  type SQL,
} from '../db';
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

const ENTRY = placeholders(['merchantId', 'userId', 'actor', 'action', 'detail', 'ip']);
const ENTRY_INSERT = insertValues([
  [auditLog.merchantId, ENTRY.merchantId],
  [auditLog.userId, ENTRY.userId],
  [auditLog.actor, ENTRY.actor],
  [auditLog.action, ENTRY.action],
  [auditLog.detail, ENTRY.detail],
  [auditLog.ip, ENTRY.ip],
]);
const INSERT_ENTRY = statement<unknown, Record<keyof typeof ENTRY, unknown>>(
  sql`insert into ${auditLog} (${ENTRY_INSERT.columns}) values (${ENTRY_INSERT.values})`,
);

export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await INSERT_ENTRY.run(db, {
    merchantId: entry.merchantId,
    userId: entry.userId ?? null,
    actor: entry.actor,
    action: entry.action,
    detail: JSON.stringify(entry.detail ?? {}),
    ip: entry.ip ?? null,
  });
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

type AuditLogRow = Pick<RowOf<typeof auditLog>, 'id' | 'created_at' | 'actor' | 'action' | 'ip'> & {
  detail: Record<string, unknown>;
};
/** A page of the log, keyset on (created_at, id): `after` is the cursor's condition, or nothing on the first page. */
const auditPage = (after: SQL) =>
  sql`select ${columnsOf(auditLog, ['id', 'created_at', 'actor', 'action', 'detail', 'ip'])} from ${auditLog}
      where ${auditLog.merchantId} = ${param('merchantId')} ${after}
      order by ${auditLog.createdAt} desc, ${auditLog.id} desc limit ${param('limit')}`;
const FIRST_AUDIT_PAGE = statement<AuditLogRow, { merchantId: string; limit: number }>(auditPage(sql``));
const NEXT_AUDIT_PAGE = statement<AuditLogRow, { merchantId: string; limit: number; createdAt: Date; id: string }>(
  auditPage(sql`and (${auditLog.createdAt}, ${auditLog.id}) < (${param('createdAt')}, ${param('id')})`),
);

/**
 * The merchant's audit log, newest first, `pageSize` rows after `after` (keyset on created_at, id:
 * a deep page costs what the first does). A cursor that does not decode starts from the top.
 */
export async function listAudit(
  db: Queryable,
  merchantId: string,
  after?: string,
  pageSize = 50,
): Promise<{ rows: AuditRow[]; next?: string }> {
  const cursor = after ? decodeCursor(after) : undefined;
  const rows = cursor
    ? await NEXT_AUDIT_PAGE.run(db, { merchantId, limit: pageSize + 1, createdAt: cursor.createdAt, id: cursor.id })
    : await FIRST_AUDIT_PAGE.run(db, { merchantId, limit: pageSize + 1 });
  const page = rows
    .slice(0, pageSize)
    .map((r) => ({ id: r.id, createdAt: r.created_at, actor: r.actor, action: r.action, detail: r.detail, ip: r.ip }));
  return { rows: page, next: rows.length > pageSize ? encodeCursor(page[page.length - 1]!) : undefined };
}
