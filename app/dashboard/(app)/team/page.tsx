import type { Metadata } from 'next';
import { PageBody } from '@/components/dashboard/ui';
import { getDatabase } from '@/lib/db';
import { listInvitations, listUsers, ROLES } from '@/lib/users';
import { ActionForm } from '../../action-form';
import { requirePage } from '../../session';
import { changeRoleAction, inviteAction, removeAction, withdrawAction } from './actions';
import { Label } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { CELL, DataTable } from '@/components/ui/table';

export const metadata: Metadata = { title: 'Team' };

/** The merchant's users and waiting invitations: invite by mail, change a role, remove. Owners only (permission `team`). */
// The dashboard frame ((app)/layout.tsx, pages helper) holds the page's <main>.
export default async function TeamPage() {
  const session = await requirePage('team');
  const db = await getDatabase();
  const users = (await listUsers(db, session.merchantId)).filter((u) => !u.disabled);
  const invitations = await listInvitations(db, session.merchantId);
  return (
    <PageBody title="Team">
      <p className="mt-2">
        Owners manage the team and read the audit log; admins manage keys, settings and resends; viewers only read.
      </p>

      <section className="mt-6" aria-labelledby="members">
        <h2 id="members" className="text-lg font-semibold">
          Members
        </h2>
        <div className="mt-2">
          <DataTable caption="Members" head={['E-mail', 'Status', 'Role', 'Remove']}>
            {users.map((u) => (
              <tr key={u.id} data-testid="team-member">
                <td className={`${CELL} break-all`}>
                  {u.email}
                  {u.id === session.userId && ' (you)'}
                </td>
                <td className={CELL}>
                  {!u.hasPassword ? 'Invited' : u.twoFactorEnabled ? 'Active, two-factor' : 'Active'}
                </td>
                <td className={CELL}>
                  <ActionForm
                    action={changeRoleAction}
                    submit="Change role"
                    variant="secondary"
                    className="flex flex-wrap items-center gap-2"
                  >
                    <input type="hidden" name="userId" value={u.id} />
                    <label className="sr-only" htmlFor={`role-${u.id}`}>
                      Role of {u.email}
                    </label>
                    <Select id={`role-${u.id}`} name="role" defaultValue={u.role} className="w-auto">
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </Select>
                  </ActionForm>
                </td>
                <td className={CELL}>
                  <ActionForm action={removeAction} submit={`Remove ${u.email}`} variant="danger" className="space-y-2">
                    <input type="hidden" name="userId" value={u.id} />
                  </ActionForm>
                </td>
              </tr>
            ))}
          </DataTable>
        </div>
      </section>

      {invitations.length > 0 && (
        <section className="mt-6" aria-labelledby="invitations">
          <h2 id="invitations" className="text-lg font-semibold">
            Invitations
          </h2>
          <ul className="mt-2 divide-y divide-line rounded-lg border border-line">
            {invitations.map((invitation) => (
              <li
                key={invitation.id}
                data-testid="team-invitation"
                className="flex flex-wrap items-center justify-between gap-2 p-3"
              >
                <span className="break-all">
                  {invitation.email} as {invitation.role}, until {invitation.expiresAt.toISOString().slice(0, 16)} UTC
                </span>
                <ActionForm
                  action={withdrawAction}
                  submit={`Withdraw the invitation of ${invitation.email}`}
                  variant="secondary"
                >
                  <input type="hidden" name="invitationId" value={invitation.id} />
                </ActionForm>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section className="mt-8 rounded-lg border border-line p-4" aria-labelledby="invite">
        <h2 id="invite" className="text-lg font-semibold">
          Invite someone
        </h2>
        <p className="mt-2">
          The invitation is mailed, with a one-time link (valid 72 hours) to choose a password. A gateway without mail
          also shows the link here, once, to copy and give to the person.
        </p>
        <div className="mt-4">
          <ActionForm action={inviteAction} submit="Invite">
            <div>
              <Label htmlFor="invite-email">E-mail address</Label>
              <Input id="invite-email" name="email" type="email" autoComplete="off" required maxLength={254} />
            </div>
            <div>
              <Label htmlFor="invite-role">Role</Label>
              <Select id="invite-role" name="role" defaultValue="viewer" className="mt-1">
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </Select>
            </div>
          </ActionForm>
        </div>
      </section>
    </PageBody>
  );
}
