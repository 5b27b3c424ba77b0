/**
 * What an API key may do: the one table of key scopes for every operation of the merchant API,
 * this wave's money-out operations included (docs/decisions/048). Each operation of OPERATIONS
 * names the access it needs; a key's scopes grant accesses; the API edge refuses an operation
 * whose access none of the key's scopes grants with INSUFFICIENT_SCOPE (403).
 *
 * Accesses, what an operation does as far as keys are concerned:
 * - `base`: what every client library calls to start or to check its set-up (test-signature,
 *   available-currencies, price-rate, the fee account, address validation). Harmless; every scope.
 * - `orders:read`: read orders and invoices.
 * - `orders:write`: make orders and invoices, and personal-address users and their addresses
 *   (make-order with `externalUserId` makes the user too; a user's address is taken on first use).
 * - `read`: read everything else the merchant has (deposits, addresses, users, webhooks, events,
 *   webhook endpoints, payment links).
 * - `webhooks:write`: re-send webhooks, manage webhook endpoints.
 * - `links:write`: create and disable payment links (public pages that make invoices).
 * - `subscriptions:write`: create subscription plans and subscribers, cancel subscriptions, move
 *   the test clock (test mode only). Subscriptions make invoices and mail subscribers.
 * - `plans:read`, `plans:prepare`, `plans:submit`: read signing plans (collections, refunds),
 *   prepare them and submit their signatures. Money out: their bodies are searched for key
 *   material (`moneyOutAccess`).
 * - `refunds:create`: create refunds. Money out.
 * - `refunds:read`: read refunds: every key that reads, and the refunds scope (which reads what it made).
 */
import type { ErrorDetail } from './errors';
export const OPERATION_ACCESS_VALUES = [
  'base',
  'orders:read',
  'orders:write',
  'read',
  'webhooks:write',
  'links:write',
  'subscriptions:write',
  'plans:read',
  'plans:prepare',
  'plans:submit',
  'refunds:create',
  'refunds:read',
] as const;
export type OperationAccess = (typeof OPERATION_ACCESS_VALUES)[number];

export interface KeyScopeDefinition {
  /** As the keys page and the docs name it. */
  label: string;
  /** What a key with this scope may do, in a sentence. */
  description: string;
  grants: readonly OperationAccess[];
  /**
   * Lets a key take part in moving money out: no key has it by default, and only an owner who has
   * just confirmed a second factor grants it (the keys page asks for a current code).
   */
  moneyOut: boolean;
}

export const KEY_SCOPES = {
  full: {
    label: 'Full',
    description:
      'Every operation that takes payments: orders, invoices, payment links, subscriptions, reads, webhooks and webhook endpoints. Not money out.',
    grants: [
      'base',
      'orders:read',
      'orders:write',
      'read',
      'refunds:read',
      'webhooks:write',
      'links:write',
      'subscriptions:write',
    ],
    moneyOut: false,
  },
  'read-only': {
    label: 'Read-only',
    description:
      'Every read (orders, invoices, deposits, addresses, webhooks, events, payment links, subscriptions); no write of any kind.',
    grants: ['base', 'orders:read', 'read', 'refunds:read'],
    moneyOut: false,
  },
  'orders-and-invoices': {
    label: 'Orders and invoices',
    description:
      "A checkout's key: make and read orders and invoices (and personal-address users); nothing else of the account.",
    grants: ['base', 'orders:read', 'orders:write'],
    moneyOut: false,
  },
  'signing-plans': {
    label: 'Signing plans',
    description:
      'Money out: prepare and read the signing plans of collections and refunds, and submit their signatures.',
    grants: ['base', 'plans:read', 'plans:prepare', 'plans:submit'],
    moneyOut: true,
  },
  refunds: {
    label: 'Refunds',
    description: 'Money out: create refunds of payments received, and read refunds.',
    grants: ['base', 'refunds:create', 'refunds:read'],
    moneyOut: true,
  },
} as const satisfies Record<string, KeyScopeDefinition>;

export type KeyScope = keyof typeof KEY_SCOPES;
export const KEY_SCOPE_VALUES = Object.keys(KEY_SCOPES) as [KeyScope, ...KeyScope[]];
/** The scopes of a key nobody chose scopes for: every operation that takes payments, nothing that moves money out. */
export const DEFAULT_KEY_SCOPES: readonly KeyScope[] = ['full'];
/** A key has one of these, and any of the money-out scopes besides. */
export const BASE_KEY_SCOPES = KEY_SCOPE_VALUES.filter((scope) => !KEY_SCOPES[scope].moneyOut);
export const MONEY_OUT_SCOPES = KEY_SCOPE_VALUES.filter((scope) => KEY_SCOPES[scope].moneyOut);

/** Whether a key with `scopes` may call an operation that needs `access`. */
export function scopesAllow(scopes: readonly KeyScope[], access: OperationAccess): boolean {
  return scopes.some((scope) => (KEY_SCOPES[scope].grants as readonly OperationAccess[]).includes(access));
}

/**
 * Whether only money-out scopes grant `access`: the operations that take part in moving money out,
 * whose bodies the API edge searches for key material before anything else reads them.
 */
export function moneyOutAccess(access: OperationAccess): boolean {
  return scopesGranting(access).every((scope) => KEY_SCOPES[scope].moneyOut);
}

/** The scopes that grant `access` (for an error's details and the docs). */
export function scopesGranting(access: OperationAccess): KeyScope[] {
  return KEY_SCOPE_VALUES.filter((scope) => (KEY_SCOPES[scope].grants as readonly OperationAccess[]).includes(access));
}

/**
 * What INSUFFICIENT_SCOPE says to a key with `scopes` (its own scopes and those that would do),
 * as the API edge answers it and the OpenAPI document shows it.
 */
export function scopeRefusal(
  scopes: readonly KeyScope[],
  access: OperationAccess,
): { message: string; details: ErrorDetail[] } {
  const would = scopesGranting(access);
  return {
    message: `This key's scope (${scopes.join(', ')}) does not allow this operation; a key with ${would.join(' or ')} does.`,
    details: [
      {
        path: 'x-api-public-key',
        message: `has scopes ${scopes.join(', ')}; this operation needs ${would.join(' or ')}`,
      },
    ],
  };
}

/** Whether `scopes` is a set a key may hold: one base scope at most, each scope once, at least one. */
export function validKeyScopes(scopes: readonly string[]): scopes is KeyScope[] {
  const known = scopes.every((scope) => (KEY_SCOPE_VALUES as readonly string[]).includes(scope));
  return (
    known &&
    scopes.length > 0 &&
    new Set(scopes).size === scopes.length &&
    scopes.filter((scope) => !KEY_SCOPES[scope as KeyScope].moneyOut).length <= 1
  );
}
