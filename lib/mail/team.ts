import 'server-only';
/**
 * Mail to the dashboard's team (docs/mail.md "Team mail", docs/decisions/065 and 074): password
 * resets, invitations, sign-ins from a new device, webhooks failing for an hour. Each is written in the transaction of what it
 * tells. No outbox row holds a token: a link's token is derived from the row's id and APP_SECRET
 * (`teamLinkToken`), so lib/users keeps only its hash and the renderer makes the same link on every
 * attempt. A reset's row is written only where the address has an active account, by one statement
 * that runs for every address alike; an invitation's row for every address alike, its texts chosen
 * only when it is sent: neither answer tells the asker which addresses have accounts.
 */
import { config } from '../config';
import { dayReport } from '../dashboard';
import {
  bare,
  mailMessages,
  merchants,
  param,
  sql,
  statement,
  teamInvitations,
  users,
  webhookEndpoints,
  type Queryable,
  type RowOf,
} from '../db';
import { appSecret } from '../merchants';
import { derivedToken } from '../security';
import { isUuid } from '../protocol';
import { MAIL_CHANNEL } from './outbox';
import type { TeamMailInput } from './team-texts';

export const TEAM_MAIL_KINDS = [
  'password-reset',
  'invitation',
  'new-device',
  'webhooks-failing',
  'daily-summary',
] as const;
export type TeamMailKind = (typeof TEAM_MAIL_KINDS)[number];

/** How long a password reset's link works: an hour (a set-up or invitation link, 72 hours). */
export const PASSWORD_RESET_LIFETIME_MS = 3_600_000;

export function isTeamMailKind(value: string): value is TeamMailKind {
  return (TEAM_MAIL_KINDS as readonly string[]).includes(value);
}

/** The one-time link's token of a team mail (43 base64url characters, like lib/users' tokens). */
export function teamLinkToken(mailId: string, secret = appSecret()): string {
  return derivedToken('team-mail-link', mailId, secret);
}

/** The page a one-time link opens (first owner's set-up, invitation, password reset). */
export function setUpLinkUrl(token: string): string {
  return `${config().publicBaseUrl}/dashboard/set-up/${token}`;
}

const mm = mailMessages;
const MAIL_COLUMNS = sql.join(
  [mm.id, mm.merchantId, mm.mode, mm.kind, mm.eventKey, mm.recipient, mm.detail].map(bare),
  sql`, `,
);
/** Wakes the mailers when the transaction commits; answers the ids written. */
const notified = (insert: ReturnType<typeof sql>) =>
  sql`with added as (${insert} on conflict (${bare(mm.eventKey)}) do nothing returning ${bare(mm.id)})
  select id, pg_notify('${sql.raw(MAIL_CHANNEL)}', '') from added`;

const ADD_RESET_MAIL = statement<{ id: string }, { id: string; recipient: string }>(
  notified(sql`insert into ${mm} (${MAIL_COLUMNS})
    select ${param('id')}::uuid, ${users.merchantId}, 'live', 'password-reset', 'password-reset/' || ${param('id')}, ${users.email}, null
      from ${users} where ${users.email} = ${param('recipient')} and ${users.disabledAt} is null`),
);

/**
 * Writes a password reset's mail to `recipient` in `tx` when the address has an active account
 * (answers whether it did). `id` is the message's id, chosen by the caller: its link's token
 * follows from it.
 */
export async function enqueueResetMail(tx: Queryable, mail: { id: string; recipient: string }): Promise<boolean> {
  const rows = await ADD_RESET_MAIL.run(tx, mail);
  return rows.length > 0;
}

const ti = teamInvitations;
const ADD_INVITATION_MAIL = statement<{ id: string }, { id: string }>(
  notified(sql`insert into ${mm} (${MAIL_COLUMNS})
    select ${ti.id}, ${ti.merchantId}, 'live', 'invitation', 'invitation/' || ${ti.id}, ${ti.email}, null
      from ${ti} where ${ti.id} = ${param('id')}`),
);

/** Writes the mail of the invitation `id` (its message has the invitation's id), in the invitation's transaction. */
export async function enqueueInvitationMail(tx: Queryable, invitationId: string): Promise<void> {
  await ADD_INVITATION_MAIL.run(tx, { id: invitationId });
}

const ADD_NEW_DEVICE_MAIL = statement<{ id: string }, { userId: string; detail: string }>(
  notified(sql`insert into ${mm} (${MAIL_COLUMNS})
    select gen_random_uuid(), ${users.merchantId}, 'live', 'new-device', 'new-device/' || gen_random_uuid(), ${users.email}, ${param('detail')}::jsonb
      from ${users} where ${users.id} = ${param('userId')} and ${users.disabledAt} is null`),
);

/** Tells a user, by mail, of a sign-in from a browser it had not used (in the sign-in's transaction). */
export async function enqueueNewDeviceMail(
  tx: Queryable,
  userId: string,
  sign: { at: Date; ip?: string | null; userAgent?: string | null },
): Promise<void> {
  // A browser names itself: one line of printable text (jsonb refuses NUL; a mail shows no controls).
  const userAgent = (sign.userAgent ?? '').replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ').slice(0, 200);
  const detail = { at: sign.at.toISOString(), ip: sign.ip ?? '', userAgent };
  await ADD_NEW_DEVICE_MAIL.run(tx, { userId, detail: JSON.stringify(detail) });
}

const ADD_DAILY_SUMMARIES = statement<{ id: string }, { day: string }>(
  notified(sql`insert into ${mm} (${MAIL_COLUMNS})
    select gen_random_uuid(), ${merchants.id}, 'live', 'daily-summary', 'daily-summary/' || ${merchants.id} || '/' || ${param('day')}::text || '/' || ${users.id},
           ${users.email}, jsonb_build_object('day', ${param('day')}::text)
      from ${merchants} join ${users} on ${users.merchantId} = ${merchants.id} and ${users.role} in ('owner', 'admin') and ${users.disabledAt} is null
     where ${merchants.dailySummary}`),
);

/** The UTC day before `now`, as YYYY-MM-DD: the day a summary written at `now` tells. */
export function summaryDay(now: Date): string {
  return new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
}

/**
 * Writes the daily summary of `day` (YYYY-MM-DD, UTC) for every merchant that has it on, one per
 * owner and admin: once whoever runs it and however often (its event key names the merchant, the
 * day and the recipient). Answers how many it wrote.
 */
export async function enqueueDailySummaries(db: Queryable, day: string): Promise<number> {
  return (await ADD_DAILY_SUMMARIES.run(db, { day })).length;
}

type InvitationRow = Pick<RowOf<typeof teamInvitations>, 'role' | 'expires_at' | 'created_at'> & {
  merchant_name: string;
  inviter: string | null;
  has_account: boolean;
};
const INVITATION = statement<InvitationRow, { id: string }>(
  sql`select ${ti.role}, ${ti.expiresAt}, ${ti.createdAt}, ${merchants.name} as merchant_name,
        (select ${users.email} from ${users} where ${users.id} = ${ti.invitedBy}) as inviter,
        exists (select 1 from ${users} where ${users.email} = ${ti.email}) as has_account
   from ${ti} join ${merchants} on ${merchants.id} = ${ti.merchantId} where ${ti.id} = ${param('id')}`,
);
const ENDPOINT = statement<{ url: string; merchant_name: string }, { id: string; merchantId: string }>(
  sql`select ${webhookEndpoints.url}, ${merchants.name} as merchant_name
   from ${webhookEndpoints} join ${merchants} on ${merchants.id} = ${webhookEndpoints.merchantId}
  where ${webhookEndpoints.id} = ${param('id')}::uuid and ${webhookEndpoints.merchantId} = ${param('merchantId')}`,
);
/** An endpoint's URL as a mail names it: without its query or fragment, where a receiver may keep a secret. */
function endpointShown(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(an endpoint)';
  }
}
const MERCHANT_NAME = statement<{ name: string }, { id: string }>(
  sql`select ${merchants.name} from ${merchants} where ${merchants.id} = ${param('id')}`,
);

/**
 * What a team mail says, read from its rows as they are when it is sent: an invitation to an
 * address that has an account (anywhere, as found now) carries no link and offers to join by
 * answering the inviter. Undefined when what it tells is gone.
 */
export async function teamMailInput(
  db: Queryable,
  mail: { id: string; kind: TeamMailKind; merchant_id: string; detail: Record<string, string> | null },
): Promise<TeamMailInput | undefined> {
  const base = config().publicBaseUrl;
  switch (mail.kind) {
    case 'password-reset':
      return {
        kind: 'password-reset',
        link: setUpLinkUrl(teamLinkToken(mail.id)),
        lifetimeMinutes: PASSWORD_RESET_LIFETIME_MS / 60_000,
      };
    case 'invitation': {
      const [row] = await INVITATION.run(db, { id: mail.id });
      if (!row) return undefined;
      return {
        kind: 'invitation',
        merchantName: row.merchant_name,
        role: row.role,
        inviter: row.inviter,
        link: row.has_account ? null : setUpLinkUrl(teamLinkToken(mail.id)),
        lifetimeHours: Math.round((row.expires_at.getTime() - row.created_at.getTime()) / 3_600_000),
      };
    }
    case 'webhooks-failing': {
      // Written by lib/webhooks/claims.ts (`alerted`) with the attempt that showed an hour of failures.
      const endpointId = mail.detail?.endpointId ?? '';
      if (!isUuid(endpointId)) return undefined;
      const [row] = await ENDPOINT.run(db, { id: endpointId, merchantId: mail.merchant_id });
      if (!row) return undefined;
      return {
        kind: 'webhooks-failing',
        merchantName: row.merchant_name,
        endpointUrl: endpointShown(row.url),
        failingSince: mail.detail?.failingSince ?? '',
        endpointsPage: `${base}/dashboard/webhooks/endpoints`,
      };
    }
    case 'daily-summary': {
      const day = mail.detail?.day ?? '';
      const start = new Date(`${day}T00:00:00.000Z`);
      if (!/^\d{4}-\d\d-\d\d$/.test(day) || Number.isNaN(start.getTime())) return undefined;
      const [merchant] = await MERCHANT_NAME.run(db, { id: mail.merchant_id });
      if (!merchant) return undefined;
      const report = await dayReport(db, { merchantId: mail.merchant_id, mode: 'live' }, start);
      return {
        kind: 'daily-summary',
        merchantName: merchant.name,
        day,
        orders: report.orders,
        received: report.received.map((row) => ({ coin: `${row.currency} (${row.network})`, amount: row.amount })),
        overviewPage: `${base}/dashboard`,
      };
    }
    case 'new-device': {
      const [merchant] = await MERCHANT_NAME.run(db, { id: mail.merchant_id });
      if (!merchant) return undefined;
      return {
        kind: 'new-device',
        merchantName: merchant.name,
        at: mail.detail?.at ?? '',
        ip: mail.detail?.ip || null,
        userAgent: mail.detail?.userAgent || null,
        accountPage: `${base}/dashboard/account`,
      };
    }
  }
}
