import 'server-only';
/**
 * What the dashboard's server actions share, one home each: the audit record of who did what from
 * where, a refusal of lib/users shown as the form's message, and a posted form's text and number
 * fields read the one way.
 */
import { isDomainErrorOf } from '@/lib/errors';
import { recordAudit, type DashboardSession } from '@/lib/users';
import type { ActionState } from './action-form';
import { clientAddress } from './session';

type Queryable = Parameters<typeof recordAudit>[0];

/** Records an action in the merchant's audit log: the signed-in person, their address, what and on what. */
export async function auditAction(
  db: Queryable,
  session: Pick<DashboardSession, 'merchantId' | 'userId' | 'email'>,
  action: string,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await recordAudit(db, {
    merchantId: session.merchantId,
    userId: session.userId,
    actor: session.email,
    action,
    detail,
    ip: await clientAddress(),
  });
}

/** A refusal of lib/users (a wrong code, a weak password, a last owner) as the form's message; anything else is a bug. */
export async function accountRefusal(work: () => Promise<ActionState>): Promise<ActionState> {
  try {
    return await work();
  } catch (error) {
    if (isDomainErrorOf(error, 'AccountError')) return { message: error.message };
    throw error;
  }
}

/** A form's text field: absent and empty are the same (not given). */
export function formText(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A form's whole-number field as a number when it is one, else as typed (for zod to refuse with its message). */
export function formWhole(form: FormData, name: string): number | string | undefined {
  const value = formText(form, name);
  return value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : value;
}
