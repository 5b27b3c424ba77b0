import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { DashboardFrame, type NavItem } from '@/components/dashboard/frame';
import { can, type Permission } from '@/lib/users';
import { signOut } from '../actions';
import { requirePage } from '../session';
import { switchMode } from './actions';

export const metadata: Metadata = {
  title: { template: '%s · Dashboard', default: 'Dashboard' },
  robots: { index: false, follow: false },
};

/** The navigation, in order; each entry shows only to roles that may open it (lib/users `can`). */
const NAV: readonly (NavItem & { permission: Permission })[] = [
  { href: '/dashboard', label: 'Overview', permission: 'view' },
  { href: '/dashboard/orders', label: 'Orders', permission: 'view' },
  { href: '/dashboard/invoices', label: 'Invoices', permission: 'view' },
  { href: '/dashboard/links', label: 'Payment links', permission: 'view' },
  { href: '/dashboard/subscriptions', label: 'Subscriptions', permission: 'view' },
  { href: '/dashboard/deposits', label: 'Deposits', permission: 'view' },
  { href: '/dashboard/funds', label: 'Funds', permission: 'view' },
  { href: '/dashboard/webhooks', label: 'Webhooks', permission: 'view' },
  { href: '/dashboard/webhooks/endpoints', label: 'Webhook endpoints', permission: 'view' },
  { href: '/dashboard/mail', label: 'Mail', permission: 'view' },
  { href: '/dashboard/keys', label: 'API keys', permission: 'keys' },
  { href: '/dashboard/settings', label: 'Settings', permission: 'settings' },
  { href: '/dashboard/team', label: 'Team', permission: 'team' },
  { href: '/dashboard/audit', label: 'Audit log', permission: 'audit' },
  { href: '/dashboard/account', label: 'Account', permission: 'view' },
];

/**
 * The signed-in dashboard's frame. Each page still calls requirePage itself: a layout is not
 * re-rendered on every navigation, so it cannot be the only guard. The frame opens to an owner
 * who must still enrol in two-factor (`enrolment`), since the account page where they do it is
 * inside it; every other page sends them there.
 */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await requirePage('view', { enrolment: true });
  return (
    <DashboardFrame
      merchantName={session.merchantName}
      email={session.email}
      role={session.role}
      mode={session.mode}
      nav={NAV.filter((item) => can(session.role, item.permission)).map(({ href, label }) => ({ href, label }))}
      switchMode={switchMode}
      signOut={signOut}
    >
      {children}
    </DashboardFrame>
  );
}
