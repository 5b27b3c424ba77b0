import type { PlanKind } from '../protocol';

/**
 * Who may do what in the dashboard: the one table every page, server action and route handler
 * asks (through app/dashboard/session.ts), so a role's reach is decided in one place.
 */
export const ROLES = ['owner', 'admin', 'viewer', 'cashier'] as const;
export type Role = (typeof ROLES)[number];

/**
 * - `view`: every read-only screen (overview, orders, invoices, deposits, webhooks) and CSV export.
 * - `resend`: re-send a webhook.
 * - `keys`: see, create and revoke API keys.
 * - `settings`: brand and block explorer links.
 * - `team`: invite, change roles, remove; the two-factor requirement.
 * - `audit`: read the audit log.
 * - `links`: create and disable payment links.
 * - `pos`: the point of sale (/dashboard/pos): take sales, see one's own sales of the day. The
 *   `cashier` role has it alone: every other page and action refuses a cashier.
 * - `refunds`: make, cancel and reopen refunds, and act on their plans (money out, docs/refunds.md).
 */
export const PERMISSIONS = ['view', 'resend', 'keys', 'settings', 'team', 'audit', 'links', 'pos', 'refunds'] as const;
export type Permission = (typeof PERMISSIONS)[number];

const GRANTS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: ['view', 'resend', 'keys', 'settings', 'links', 'pos', 'refunds'],
  viewer: ['view'],
  cashier: ['pos'],
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

/**
 * The permission that acts on a money-out plan of `kind` (prepare, submit its signed transaction):
 * a refund's plan is money out of a refund, `refunds` (docs/decisions/116); a collection moves the
 * merchant's deposits to its own treasury, `settings`, as the treasury (docs/decisions/084).
 */
export function planPermission(kind: PlanKind): Permission {
  return kind === 'refund' ? 'refunds' : 'settings';
}
