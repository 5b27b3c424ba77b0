import 'server-only';
/**
 * Invitations to a merchant's team (docs/decisions/074). An owner invites an address: the gateway
 * writes an invitation and its mail, the same rows by the same statements whether or not the
 * address has an account at another merchant, and answers the same; only the mail, chosen when
 * it is sent, differs (a link to accept, or, for an address that has an account, an offer to join
 * by answering the inviter). The user is created when the link is used. Where the gateway sends
 * no mail (no SMTP_URL), the owner also gets the link to copy, as before.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../config';
import {
  bare,
  insertValues,
  merchants,
  param,
  placeholders,
  sql,
  statement,
  teamInvitations,
  users,
  type Database,
  type Queryable,
  type RowOf,
} from '../db';
import { enqueueInvitationMail, teamLinkToken } from '../mail';
import { LINK_LIFETIME_MS, linkUrl, normaliseEmail, type LinkDetails, type OneTimeLink } from './accounts';
import { AccountError } from './errors';
import { hashPassword, passwordProblem } from './passwords';
import { ROLES, type Role } from './permissions';
import { isTokenShaped, tokenHash } from '../security';

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  expiresAt: Date;
}

const ti = teamInvitations;

const MEMBER = statement<{ id: string }, { merchantId: string; email: string }>(
  sql`select ${users.id} from ${users} where ${users.merchantId} = ${param('merchantId')} and ${users.email} = ${param('email')} and ${users.disabledAt} is null`,
);
const NEW = placeholders(['id', 'merchantId', 'email', 'role', 'invitedBy', 'tokenHash', 'expiresAt', 'now']);
const NEW_INSERT = insertValues([
  [ti.id, NEW.id],
  [ti.merchantId, NEW.merchantId],
  [ti.email, NEW.email],
  [ti.role, NEW.role],
  [ti.invitedBy, NEW.invitedBy],
  [ti.tokenHash, NEW.tokenHash],
  [ti.expiresAt, NEW.expiresAt],
  [ti.createdAt, NEW.now],
]);
const INSERT_INVITATION = statement<
  unknown,
  {
    id: string;
    merchantId: string;
    email: string;
    role: Role;
    invitedBy: string | null;
    tokenHash: string;
    expiresAt: Date;
    now: Date;
  }
>(sql`insert into ${ti} (${NEW_INSERT.columns}) values (${NEW_INSERT.values})`);

/**
 * Invites `email` to the merchant's team as `role`, mailing the invitation. Refused only for what
 * the inviter can see anyway: an address that is already a member of this team. Answers the
 * invitation, and its link when the gateway sends no mail (to be copied by the inviter).
 */
export async function inviteTeammate(
  db: Database,
  input: { merchantId: string; email: string; role: Role; invitedBy?: string },
  now = new Date(),
): Promise<{ invitation: Invitation; link?: OneTimeLink }> {
  const email = normaliseEmail(input.email);
  if (!(ROLES as readonly string[]).includes(input.role))
    throw new AccountError(`The role must be one of ${ROLES.join(', ')}.`);
  const id = randomUUID();
  const token = teamLinkToken(id);
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS);
  await db.transaction(async (tx) => {
    if ((await MEMBER.run(tx, { merchantId: input.merchantId, email })).length > 0)
      throw new AccountError(`${email} is already in your team.`);
    await INSERT_INVITATION.run(tx, {
      id,
      merchantId: input.merchantId,
      email,
      role: input.role,
      invitedBy: input.invitedBy ?? null,
      tokenHash: tokenHash(token),
      expiresAt,
      now,
    });
    await enqueueInvitationMail(tx, id);
  });
  const invitation = { id, email, role: input.role, expiresAt };
  return config().smtpUrl ? { invitation } : { invitation, link: { url: linkUrl(token), expiresAt } };
}

const PENDING = statement<
  Pick<RowOf<typeof ti>, 'id' | 'email' | 'role' | 'expires_at'>,
  { merchantId: string; now: Date }
>(
  sql`select ${ti.id}, ${ti.email}, ${ti.role}, ${ti.expiresAt} from ${ti}
       where ${ti.merchantId} = ${param('merchantId')} and ${ti.acceptedAt} is null and ${ti.expiresAt} > ${param('now')}
       order by ${ti.createdAt}`,
);

/** The team's invitations still waiting, oldest first (the team page). */
export async function listInvitations(db: Queryable, merchantId: string, now = new Date()): Promise<Invitation[]> {
  const rows = await PENDING.run(db, { merchantId, now });
  return rows.map((row) => ({ id: row.id, email: row.email, role: row.role, expiresAt: row.expires_at }));
}

const WITHDRAW = statement<Pick<RowOf<typeof ti>, 'email'>, { merchantId: string; id: string }>(
  sql`delete from ${ti} where ${ti.merchantId} = ${param('merchantId')} and ${ti.id} = ${param('id')} and ${ti.acceptedAt} is null
      returning ${bare(ti.email)}`,
);

/** Withdraws a waiting invitation: its link stops working (a mail not yet sent is not sent). Answers its address. */
export async function withdrawInvitation(db: Queryable, merchantId: string, id: string): Promise<string> {
  const [row] = await WITHDRAW.run(db, { merchantId, id });
  if (!row) throw new AccountError('No such invitation in this team.');
  return row.email;
}

type OpenRow = Pick<RowOf<typeof ti>, 'id' | 'email' | 'merchant_id' | 'role'> & { merchant_name: string };
const OPEN_INVITATION = statement<OpenRow, { tokenHash: string; now: Date }>(
  sql`select ${ti.id}, ${ti.email}, ${ti.merchantId}, ${ti.role}, ${merchants.name} as merchant_name
       from ${ti} join ${merchants} on ${merchants.id} = ${ti.merchantId}
      where ${ti.tokenHash} = ${param('tokenHash')} and ${ti.acceptedAt} is null and ${ti.expiresAt} > ${param('now')}`,
);

export interface InvitationLink {
  invitationId: string;
  email: string;
  merchantId: string;
  merchantName: string;
  role: Role;
  purpose: 'invite';
}

/** The invitation a link opens, while it can be accepted; undefined when unknown, accepted, withdrawn or expired. */
export async function readInvitation(
  db: Queryable,
  token: string,
  now = new Date(),
): Promise<InvitationLink | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const [row] = await OPEN_INVITATION.run(db, { tokenHash: tokenHash(token), now });
  return (
    row && {
      invitationId: row.id,
      email: row.email,
      merchantId: row.merchant_id,
      merchantName: row.merchant_name,
      role: row.role,
      purpose: 'invite',
    }
  );
}

const ACCEPT = statement<{ id: string }, { id: string; now: Date }>(
  sql`update ${ti} set ${bare(ti.acceptedAt)} = ${param('now')}
   where ${ti.id} = ${param('id')} and ${ti.acceptedAt} is null and ${ti.expiresAt} > ${param('now')} returning ${bare(ti.id)}`,
);
const ADD_USER = statement<
  { id: string },
  { merchantId: string; email: string; role: Role; passwordHash: string; now: Date }
>(
  sql`insert into ${users} (${sql.join([users.merchantId, users.email, users.role, users.passwordHash, users.createdAt, users.updatedAt].map(bare), sql`, `)})
      values (${param('merchantId')}, ${param('email')}, ${param('role')}, ${param('passwordHash')}, ${param('now')}, ${param('now')})
      on conflict (${bare(users.email)}) do nothing returning ${bare(users.id)}`,
);

/**
 * Accepts an invitation (as `readInvitation` found it) with the password its invitee chose: the user is created in the team,
 * with the invitation's role, and the invitation spent (once, even at the same moment). Answers
 * the new user as a set-up link's details.
 */
export async function acceptInvitation(
  db: Database,
  invitation: InvitationLink,
  password: string,
  now = new Date(),
): Promise<LinkDetails> {
  const problem = passwordProblem(password, invitation.email);
  if (problem) throw new AccountError(problem);
  const hash = await hashPassword(password);
  return db.transaction(async (tx) => {
    if ((await ACCEPT.run(tx, { id: invitation.invitationId, now })).length === 0)
      throw new AccountError('This link was used already.');
    const [user] = await ADD_USER.run(tx, {
      merchantId: invitation.merchantId,
      email: invitation.email,
      role: invitation.role,
      passwordHash: hash,
      now,
    });
    // The invitee holds the link (and, on a gateway without mail, the inviter: docs/decisions/074).
    if (!user)
      throw new AccountError(
        'This address already has a dashboard account, with another team: sign in with it, or ask for an invitation to another address.',
      );
    return {
      userId: user.id,
      email: invitation.email,
      merchantId: invitation.merchantId,
      merchantName: invitation.merchantName,
      purpose: 'invite',
      twoFactorEnabled: false,
    };
  });
}
