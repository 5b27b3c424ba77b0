import { describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationName } from './operations';
import {
  BASE_KEY_SCOPES,
  KEY_SCOPES,
  MONEY_OUT_SCOPES,
  moneyOutAccess,
  OPERATION_ACCESS_VALUES,
  scopesAllow,
  scopesGranting,
  validKeyScopes,
} from './scopes';

const NAMES = Object.keys(OPERATIONS) as OperationName[];
const allowed = (scope: keyof typeof KEY_SCOPES) =>
  NAMES.filter((name) => scopesAllow([scope], OPERATIONS[name].access)).sort();

describe('the key scopes', () => {
  it('grant a full key every operation of the table but those that move money out', () => {
    const moneyOut = NAMES.filter((name) =>
      scopesGranting(OPERATIONS[name].access).every((s) => KEY_SCOPES[s].moneyOut),
    );
    expect(moneyOut).toEqual([
      'refunds/make',
      'refunds/complete',
      'collections/prepare',
      'collections/list',
      'collections/get',
      'collections/submit',
      'fee-payers/set',
      'fee-payers/list',
      'refund-plans/prepare',
      'refund-plans/get',
    ]);
    expect(allowed('full')).toEqual(NAMES.filter((name) => !moneyOut.includes(name)).sort());
    expect(KEY_SCOPES.full.grants).not.toContain('refunds:create');
    expect(KEY_SCOPES.full.grants).not.toContain('plans:submit');
    expect(KEY_SCOPES.full.grants).not.toContain('plans:prepare');
  });

  it('grant a read-only key every read and no write', () => {
    const writes: OperationName[] = [
      'make-order',
      'make-invoice',
      'webhooks/resend',
      'personal-addresses/create-user',
      'personal-addresses/get-user-address',
      'webhook-endpoints/create',
      'webhook-endpoints/update',
      'webhook-endpoints/delete',
      'webhook-endpoints/roll-secret',
      'webhook-endpoints/send-test',
      'payment-links/create',
      'payment-links/disable',
      'refunds/make',
      'refunds/complete',
      'collections/prepare',
      'collections/submit',
      'refund-plans/prepare',
      // Signing plans are money out: read by the signing-plans scope only.
      'collections/list',
      'collections/get',
      'refund-plans/get',
      'fee-payers/set',
      'fee-payers/list',
      'subscriptions/create-plan',
      'subscriptions/update-plan',
      'subscriptions/create',
      'subscriptions/cancel',
      'subscriptions/advance-test-clock',
    ];
    expect(allowed('read-only')).toEqual(NAMES.filter((name) => !writes.includes(name)).sort());
  });

  it("grant a checkout's key its orders and invoices, and nothing else of the account", () => {
    expect(allowed('orders-and-invoices')).toEqual(
      [
        'make-order',
        'order',
        'orders',
        'make-invoice',
        'get-invoice',
        'get-invoices',
        'personal-addresses/create-user',
        'personal-addresses/get-user-address',
        'price-rate',
        'test-signature',
        'available-currencies',
        'advanced-balances',
        'advanced-balance',
        'utils/validate-address',
      ].sort(),
    );
  });

  it('keep the money-out accesses to the money-out scopes', () => {
    for (const access of ['plans:read', 'plans:prepare', 'plans:submit', 'refunds:create'] as const) {
      expect(scopesGranting(access).every((scope) => KEY_SCOPES[scope].moneyOut)).toBe(true);
      expect(moneyOutAccess(access)).toBe(true);
    }
    for (const access of ['base', 'read', 'refunds:read', 'orders:write'] as const)
      expect(moneyOutAccess(access)).toBe(false);
    expect(MONEY_OUT_SCOPES.sort()).toEqual(['refunds', 'signing-plans']);
    expect(OPERATION_ACCESS_VALUES.every((access) => scopesGranting(access).length > 0)).toBe(true);
  });

  it('let a key hold one base scope and any money-out scopes, each once', () => {
    expect(validKeyScopes(['full'])).toBe(true);
    expect(validKeyScopes(['read-only', 'refunds', 'signing-plans'])).toBe(true);
    expect(validKeyScopes(['refunds'])).toBe(true);
    expect(validKeyScopes([])).toBe(false);
    expect(validKeyScopes(['full', 'read-only'])).toBe(false);
    expect(validKeyScopes(['full', 'full'])).toBe(false);
    expect(validKeyScopes(['admin'])).toBe(false);
    expect(BASE_KEY_SCOPES).toEqual(['full', 'read-only', 'orders-and-invoices']);
  });
});
