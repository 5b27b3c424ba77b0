'use server';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { changeRole, inviteTeammate, recordAudit, removeUser, ROLES, withdrawInvitation } from '@/lib/users';
import type { ActionState } from '../../action-form';
import { clientAddress, requireAction } from '../../session';
import { postedForm } from '@/lib/security';

async function refusalOf(work: () => Promise<ActionState>): Promise<ActionState> {
  try {
    return await work();
  } catch (error) {
    if (isDomainErrorOf(error, 'AccountError')) return { message: error.message };
    throw error;
  }
}

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
  return refusalOf(async () => {
    const db = await getDatabase();
    const { invitation, link } = await inviteTeammate(db, {
      merchantId: session.merchantId,
      email: parsed.data.email,
      role: parsed.data.role,
      invitedBy: session.userId,
    });
    await recordAudit(db, {
      merchantId: session.merchantId,
      userId: session.userId,
      actor: session.email,
      action: 'user.invite',
      detail: { email: invitation.email, role: invitation.role },
      ip: await clientAddress(),
    });
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
  return refusalOf(async () => {
    const db = await getDatabase();
    const email = await withdrawInvitation(db, session.merchantId, parsed.data.invitationId);
    await recordAudit(db, {
      merchantId: session.merchantId,
      userId: session.userId,
      actor: session.email,
      action: 'user.invite-withdraw',
      detail: { email },
      ip: await clientAddress(),
    });
    revalidatePath('/dashboard/team');
    return { notice: `Withdrew the invitation of ${email}.` };
  });
}

export async function changeRoleAction(_state: ActionState, posted: FormData): Promise<ActionState> {
  const form = postedForm(posted);
  const session = await requireAction('team');
  const parsed = member.extend({ role }).safeParse({ userId: form.get('userId'), role: form.get('role') });
  if (!parsed.success) return { message: parsed.error.issues[0]!.message };
  return refusalOf(async () => {
    const db = await getDatabase();
    const user = await changeRole(db, session.merchantId, parsed.data.userId, parsed.data.role);
    await recordAudit(db, {
      merchantId: session.merchantId,
      userId: session.userId,
      actor: session.email,
      action: 'user.role',
      detail: { email: user.email, role: user.role },
      ip: await clientAddress(),
    });
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
  return refusalOf(async () => {
    const db = await getDatabase();
    const user = await removeUser(db, session.merchantId, parsed.data.userId);
    await recordAudit(db, {
      merchantId: session.merchantId,
      userId: session.userId,
      actor: session.email,
      action: 'user.remove',
      detail: { email: user.email },
      ip: await clientAddress(),
    });
    revalidatePath('/dashboard/team');
    return { notice: `Removed ${user.email}.` };
  });
}
