import 'server-only';
/**
 * The mailer's statements on the outbox (as lib/webhooks/claims.ts does for webhooks): a claim
 * locks due rows `FOR UPDATE SKIP LOCKED` and leases them past the end of any attempt, so a mailer
 * that dies mid-send leaves rows that come due again by themselves (sent at least once, never
 * lost); an attempt is recorded only while its mailer still holds the lease.
 */
import { bare, columnsOf, mailMessages, param, sql, statement, type Database, type RowOf } from '../db';
import type { MailNextState } from './schedule';

const mm = mailMessages;

const CLAIMED_COLUMNS = [
  'id',
  'merchant_id',
  'mode',
  'kind',
  'order_id',
  'subscription_id',
  'recipient',
  'detail',
  'attempts',
  'lease_owner',
] as const satisfies readonly (keyof RowOf<typeof mailMessages>)[];
export type ClaimedMail = Pick<RowOf<typeof mailMessages>, Exclude<(typeof CLAIMED_COLUMNS)[number], 'lease_owner'>> & {
  lease_owner: string;
};

// `due` is the statement's own.
const CLAIM = statement<ClaimedMail, { limit: number; owner: string; leaseMs: number }>(sql`with due as (
    select ${mm.id} from ${mm}
     where ${mm.state} = 'pending' and ${mm.nextAttemptAt} <= now()
     order by ${mm.nextAttemptAt} limit ${param('limit')}
     for update skip locked
  )
  update ${mm}
     set ${bare(mm.attempts)} = ${mm.attempts} + 1, ${bare(mm.leaseOwner)} = ${param('owner')} || '/' || gen_random_uuid(),
         ${bare(mm.leaseExpiresAt)} = now() + ${param('leaseMs')} * interval '1 millisecond',
         ${bare(mm.nextAttemptAt)} = now() + ${param('leaseMs')} * interval '1 millisecond',
         ${bare(mm.updatedAt)} = now()
    from due where ${mm.id} = due.id
  returning ${columnsOf(mm, CLAIMED_COLUMNS)}`);

/** Claims up to `limit` due messages for `leaseMs`. */
export function claimDueMail(db: Database, owner: string, limit: number, leaseMs: number): Promise<ClaimedMail[]> {
  return CLAIM.run(db, { limit, owner, leaseMs });
}

/** What one attempt came to: the message as sent (when it was), the failure otherwise. */
export interface MailAttempt {
  next: MailNextState;
  transport: 'smtp' | 'catcher' | null;
  subject: string | null;
  headers: [string, string][] | null;
  text: string | null;
  html: string | null;
  error: string | null;
}

const RECORD = statement<{ id: string }, Record<string, unknown>>(sql`update ${mm}
    set ${bare(mm.state)} = ${param('state')},
        ${bare(mm.nextAttemptAt)} = case when ${param('delayMs')}::bigint is null then ${mm.nextAttemptAt} else now() + ${param('delayMs')}::bigint * interval '1 millisecond' end,
        ${bare(mm.leaseOwner)} = null, ${bare(mm.leaseExpiresAt)} = null, ${bare(mm.updatedAt)} = now(),
        ${bare(mm.lastError)} = ${param('error')},
        ${bare(mm.transport)} = coalesce(${param('transport')}, ${mm.transport}),
        ${bare(mm.subject)} = coalesce(${param('subject')}, ${mm.subject}),
        ${bare(mm.headers)} = coalesce(${param('headers')}::jsonb, ${mm.headers}),
        ${bare(mm.textBody)} = coalesce(${param('text')}, ${mm.textBody}),
        ${bare(mm.htmlBody)} = coalesce(${param('html')}, ${mm.htmlBody}),
        ${bare(mm.sentAt)} = case when ${param('state')} = 'sent' then now() else ${mm.sentAt} end
  where ${mm.id} = ${param('id')} and ${mm.leaseOwner} = ${param('owner')}
  returning ${mm.id}`);

/** Records an attempt and moves its row on, if this mailer still holds its lease. */
export async function recordMailAttempt(db: Database, mail: ClaimedMail, attempt: MailAttempt): Promise<boolean> {
  const rows = await RECORD.run(db, {
    id: mail.id,
    owner: mail.lease_owner,
    state: attempt.next.state,
    delayMs: attempt.next.delayMs,
    error: attempt.error,
    transport: attempt.transport,
    subject: attempt.subject,
    headers: attempt.headers ? JSON.stringify(attempt.headers) : null,
    text: attempt.text,
    html: attempt.html,
  });
  return rows.length > 0;
}
