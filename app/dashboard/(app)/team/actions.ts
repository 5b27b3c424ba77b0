'use server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { changeRole, inviteTeammate, removeUser, ROLES, withdrawInvitation } from '@/lib/users';
import type { ActionState } from '../../action-form';
import { requireAction } from '../../session';
import { postedForm } from '@/lib/security';
import { accountRefusal, auditAction } from '@/app/dashboard/action-helpers';

const role = z.enum(ROLES, { error: 'Choose a role: owner, admin, viewer or cashier.' });
const invite = z.object({ email: z.string().trim().min(1, 'Type an e-mail address.').max(254), role });
const member = z.object({ userId: z.uuid({ error: 'No such user in this team.' }) });

/**
 * Invites a person by mail (docs/decisions/074): the same answer whether or not the address has an
 * account elsewhere. Without SMTP_URL the one-time link is also shown, once, to be copied.
 */
export async function inviteAction(_state: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('team');
  const parsed = invite.safeParse({ email: form.get('email'), role: form.get('role') });
  if (!parsed.success) return { message: parsed.error.issues[0]!.message };
  return accountRefusal(async () => {
    const db = await getDatabase();
    const { invitation, link } = await inviteTeammate(db, {
      merchantId: session.merchantId,
      email: parsed.data.email,
      role: parsed.data.role,
      invitedBy: session.userId,
    });
    await auditAction(db, session, 'user.invite', { email: invitation.email, role: invitation.role });
    revalidatePath('/dashboard/team');
    const notice = `Invitation mailed to ${invitation.email} as ${invitation.role}.`;
    if (!link) return { notice };
    return {
      notice,
      once: {
        title: `This gateway sends no mail: give this one-time link to ${invitation.email} (valid 72 hours; it is shown only now):`,
        lines: [link.url],
      },
    };
  });
}

const pending = z.object({ invitationId: z.uuid({ error: 'No such invitation in this team.' }) });

/** Withdraws a waiting invitation: its link stops working. */
export async function withdrawAction(_state: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('team');
  const parsed = pending.safeParse({ invitationId: form.get('invitationId') });
  if (!parsed.success) return { message: parsed.error.issues[0]!.message };
  return accountRefusal(async () => {
    const db = await getDatabase();
    const email = await withdrawInvitation(db, session.merchantId, parsed.data.invitationId);
    await auditAction(db, session, 'user.invite-withdraw', { email });
    revalidatePath('/dashboard/team');
    return { notice: `Withdrew the invitation of ${email}.` };
  });
}

export async function changeRoleAction(_state: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('team');
  const parsed = member.extend({ role }).safeParse({ userId: form.get('userId'), role: form.get('role') });
  if (!parsed.success) return { message: parsed.error.issues[0]!.message };
  return accountRefusal(async () => {
    const db = await getDatabase();
    const user = await changeRole(db, session.merchantId, parsed.data.userId, parsed.data.role);
    await auditAction(db, session, 'user.role', { email: user.email, role: user.role });
    revalidatePath('/dashboard/team');
    return { notice: `${user.email} is now ${user.role}.` };
  });
}

/** Removes a person from the team: disabled, signed out everywhere. */
export async function removeAction(_state: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('team');
  const parsed = member.safeParse({ userId: form.get('userId') });
  if (!parsed.success) return { message: parsed.error.issues[0]!.message };
  return accountRefusal(async () => {
    const db = await getDatabase();
    const user = await removeUser(db, session.merchantId, parsed.data.userId);
    await auditAction(db, session, 'user.remove', { email: user.email });
    revalidatePath('/dashboard/team');
    return { notice: `Removed ${user.email}.` };
  });
}
