import 'server-only';
/**
 * Mail to the dashboard's team (docs/mail.md "Team mail", docs/decisions/065): a password reset's
 * link. The outbox row holds no token: the link's token is derived from the row's id and
 * APP_SECRET (`teamLinkToken`), so lib/users keeps only its hash (user_tokens) and the renderer
 * makes the same link on every attempt. The row is written only where the address has an active
 * account, by one statement that runs for every address alike (an unknown address writes nothing,
 * and costs the same): the answer to "forgot password" does not tell which addresses have accounts.
 */
import { createHmac } from 'node:crypto';
import { config } from '../config';
import { bare, mailMessages, param, sql, statement, users, type Queryable } from '../db';
import { appSecret } from '../merchants';
import { escapeHtml, type ComposedMail } from './compose';
import { MAIL_CHANNEL } from './outbox';

export const TEAM_MAIL_KINDS = ['password-reset'] as const;
export type TeamMailKind = (typeof TEAM_MAIL_KINDS)[number];

/** How long a password reset's link works: an hour (a set-up or invitation link, 72 hours). */
export const PASSWORD_RESET_LIFETIME_MS = 3_600_000;

export function isTeamMailKind(value: string): value is TeamMailKind {
  return (TEAM_MAIL_KINDS as readonly string[]).includes(value);
}

/** The one-time link's token of a team mail (43 base64url characters, like lib/users' tokens). */
export function teamLinkToken(mailId: string, secret = appSecret()): string {
  return createHmac('sha256', `team-mail-link\0${secret}`).update(mailId, 'utf8').digest('base64url');
}

/** The page a one-time link opens (first owner's set-up, invitation, password reset). */
export function setUpLinkUrl(token: string): string {
  return `${config().publicBaseUrl}/dashboard/set-up/${token}`;
}

const mm = mailMessages;
const ADD_TEAM_MAIL = statement<
  { id: string },
  { id: string; kind: TeamMailKind; recipient: string }
>(sql`with added as (
    insert into ${mm} (${sql.join([mm.id, mm.merchantId, mm.mode, mm.kind, mm.eventKey, mm.recipient].map(bare), sql`, `)})
    select ${param('id')}::uuid, ${users.merchantId}, 'live', ${param('kind')}, ${param('kind')} || '/' || ${param('id')}, ${users.email}
      from ${users} where ${users.email} = ${param('recipient')} and ${users.disabledAt} is null
    on conflict (${bare(mm.eventKey)}) do nothing
    returning ${bare(mm.id)}
  )
  select id, pg_notify('${sql.raw(MAIL_CHANNEL)}', '') from added`);

/**
 * Writes a team mail to `recipient` in `tx` when the address has an active account (answers
 * whether it did). `id` is the message's id, chosen by the caller: its link's token follows from it.
 */
export async function enqueueTeamMail(
  tx: Queryable,
  mail: { id: string; kind: TeamMailKind; recipient: string },
): Promise<boolean> {
  const rows = await ADD_TEAM_MAIL.run(tx, mail);
  return rows.length > 0;
}

export interface TeamMailInput {
  kind: TeamMailKind;
  /** The one-time link. */
  link: string;
  /** How long the link works, in minutes. */
  lifetimeMinutes: number;
}

/** A team mail's texts: English only, like the dashboard. Pure. */
export function composeTeamMail(input: TeamMailInput): ComposedMail {
  const subject = 'Reset your dashboard password';
  const lines = [
    'Someone, probably you, asked to reset the password of the dashboard account of this address.',
    `Choose a new password here (the link works once, for ${input.lifetimeMinutes} minutes):`,
  ];
  const after = [
    'Setting a new password signs the account out everywhere else.',
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ];
  const text = [...lines, '', input.link, '', ...after, ''].join('\n');
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:16px;background:#f4f4f5;color:#18181b;font-family:system-ui,sans-serif">
<table role="presentation" style="max-width:560px;width:100%;margin:0 auto;background:#fff;border-radius:8px;padding:16px">
<tr><td>
<h1 style="font-size:20px;margin:0 0 8px">${escapeHtml(subject)}</h1>
${lines.map((line) => `<p style="margin:0 0 12px">${escapeHtml(line)}</p>`).join('\n')}
<p><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 16px;background:#1f4fd1;color:#fff;text-decoration:none;border-radius:6px">Choose a new password</a></p>
${after.map((line) => `<p style="margin:0 0 12px;font-size:14px;color:#555">${escapeHtml(line)}</p>`).join('\n')}
</td></tr>
</table>
</body>
</html>
`;
  return { subject, text, html };
}
