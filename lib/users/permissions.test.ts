import { describe, expect, it } from 'vitest';
import { can, PERMISSIONS, planPermission, ROLES } from './permissions';

describe('roles', () => {
  it('gives owners everything, admins all but team and audit, viewers only reading, cashiers only the point of sale', () => {
    const table = Object.fromEntries(ROLES.map((role) => [role, PERMISSIONS.filter((p) => can(role, p))]));
    expect(table).toEqual({
      owner: ['view', 'resend', 'keys', 'settings', 'team', 'audit', 'links', 'pos', 'refunds'],
      admin: ['view', 'resend', 'keys', 'settings', 'links', 'pos', 'refunds'],
      viewer: ['view'],
      cashier: ['pos'],
    });
  });
});

describe('plans', () => {
  it('are acted on with the refunds permission for a refund, settings for a collection', () => {
    expect(planPermission('refund')).toBe('refunds');
    expect(planPermission('collection')).toBe('settings');
  });
});
