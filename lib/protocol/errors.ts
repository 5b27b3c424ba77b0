/**
 * The merchant API's errors: one name, one numeric code and one HTTP status each, and the
 * envelopes around every answer. The API edge (lib/api), the typed client and the docs use this
 * table.
 */
import { z } from 'zod';

export const API_ERRORS = {
  INVALID_JSON: { code: 1001, status: 400, message: 'The request body is not valid JSON.' },
  VALIDATION_ERROR: { code: 1002, status: 400, message: 'Some fields are invalid.' },
  BODY_TOO_LARGE: { code: 1003, status: 413, message: 'The request body is larger than 64 KiB.' },
  BODY_TIMEOUT: { code: 1004, status: 408, message: 'The request body did not arrive in time.' },
  METHOD_NOT_ALLOWED: { code: 1005, status: 405, message: 'Operations are called with POST.' },
  TOO_MANY_SLOW_BODIES: {
    code: 1006,
    status: 429,
    message: 'Too many requests from this address are still sending their bodies; finish or close them first.',
  },
  /** A money-out operation's body holds a private key or a seed (docs/decisions/052): `details` names the field, never the value. */
  KEY_MATERIAL_REFUSED: {
    code: 1007,
    status: 400,
    message: 'The body holds a private key or a recovery phrase; the gateway never takes one.',
  },
  MISSING_CREDENTIALS: {
    code: 2001,
    status: 401,
    message: 'The x-api-public-key and x-api-signature headers are required.',
  },
  UNKNOWN_PUBLIC_KEY: { code: 2002, status: 401, message: 'The public key is unknown or revoked.' },
  INVALID_SIGNATURE: { code: 2003, status: 401, message: 'The signature does not match the request body.' },
  NONCE_REUSED: { code: 2004, status: 409, message: 'This nonce was already used with this key.' },
  RATE_LIMITED: {
    code: 2005,
    status: 429,
    message: 'Too many requests with this key; retry after the time in the retry-after header.',
  },
  /** The key is genuine but its scopes (./scopes) do not grant the operation; `details` names what would. */
  INSUFFICIENT_SCOPE: { code: 2006, status: 403, message: "This key's scope does not allow this operation." },
  /** The key's expiry (set when it was made, or the end of a roll's overlap) has passed. */
  KEY_EXPIRED: { code: 2007, status: 401, message: 'This key has expired: use its replacement or create a new key.' },
  NOT_FOUND: { code: 3001, status: 404, message: 'Not found.' },
  ORDER_CONFLICT: {
    code: 3002,
    status: 409,
    message: 'An order with this identifier already exists with other values.',
  },
  PERSONAL_ADDRESS_BUSY: {
    code: 3003,
    status: 409,
    message: 'This user already has a pending order for this currency.',
  },
  INVOICE_CONFLICT: {
    code: 3004,
    status: 409,
    message: 'An invoice with this externalId (or order) already exists with another currency or amount.',
  },
  PAYMENT_LINK_CLOSED: {
    code: 3005,
    status: 409,
    message: 'This payment link makes no more invoices: it is disabled, expired or used up.',
  },
  REFUND_REFUSED: {
    code: 3101,
    status: 409,
    message: 'This cannot be refunded: the message says why (a pending order, an unconfirmed deposit, no rate).',
  },
  REFUND_EXCEEDS_RECEIVED: {
    code: 3102,
    status: 409,
    message: 'The refunds of this payment would exceed what it received.',
  },
  REFUND_STATE_CONFLICT: { code: 3103, status: 409, message: "The refund's state does not allow this." },
  /** A transaction entered to complete a refund does not (docs/decisions/092); the message says what the chain showed. */
  REFUND_TRANSACTION_REFUSED: {
    code: 3104,
    status: 422,
    message:
      'This transaction does not complete the refund: the message says why (unknown, another address or tag, less than owed, already used).',
  },
  /** refunds/make's `to: "sender"` cannot be made (docs/decisions/125); the message says why. */
  REFUND_DESTINATION_REFUSED: {
    code: 3105,
    status: 422,
    message:
      'This refund cannot go back to the address the payment came from: the message says why (no one sender, a network whose refunds need a tag); use the claim link.',
  },
  /** A collection or refund plan cannot be prepared as asked, or does not take a submitted transaction; the message says why (docs/collections.md). */
  PLAN_REFUSED: {
    code: 3201,
    status: 409,
    message:
      'This plan cannot be prepared, or does not take this transaction: the message says why (no treasury, nothing to collect, not its transaction).',
  },
  UNSUPPORTED_CURRENCY: { code: 4001, status: 422, message: 'This currency and network are not available.' },
  /** An operation of the API we follow that a watch-only gateway cannot perform (./unsupported.ts says why, per operation). */
  NOT_SUPPORTED: { code: 4002, status: 501, message: 'This gateway does not support this operation.' },
  RATE_UNAVAILABLE: {
    code: 5004,
    status: 503,
    message: 'No fresh exchange rate is available for this pair; retry shortly.',
  },
  /** The node of the network asked did not answer (a refund's transaction looked up); nothing changed. */
  NETWORK_UNAVAILABLE: { code: 5005, status: 503, message: "The network's node did not answer; retry shortly." },
  OVERLOADED: { code: 5003, status: 503, message: 'The gateway is busy; retry shortly.' },
  INTERNAL_ERROR: { code: 5000, status: 500, message: 'Internal error.' },
} as const;

export type ApiErrorName = keyof typeof API_ERRORS;

/** One problem of one field: `path` names the field (`amount`, `nonce`, `status.0`). */
export const errorDetail = z.object({ path: z.string(), message: z.string() });
export type ErrorDetail = z.infer<typeof errorDetail>;

/**
 * The problems zod found in a request body's fields as VALIDATION_ERROR's details name them, after
 * those `known` (the nonce's): the first problem of each field, "is required" for one absent.
 */
export function fieldProblems(
  issues: readonly z.core.$ZodIssue[],
  json: Record<string, unknown>,
  known: readonly ErrorDetail[] = [],
): ErrorDetail[] {
  const details = [...known];
  for (const issue of issues) {
    const path = issue.path.join('.');
    if (details.some((d) => d.path === path)) continue; // the first problem of a field says enough
    const given = issue.path.reduce<unknown>(
      (v, p) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined),
      json,
    );
    details.push({
      path,
      message: given === undefined && issue.code === 'invalid_type' ? 'is required' : issue.message,
    });
  }
  return details;
}

/** VALIDATION_ERROR's message: each field with its problem. */
export function describeProblems(details: readonly ErrorDetail[]): string {
  return details.map((d) => `${d.path} ${d.message}`).join('; ');
}

/** `{"success": true, "response": ...}`: the response is the operation's own (./responses). */
export const successEnvelope = z.object({ success: z.literal(true), response: z.unknown() });

/**
 * `{"success": false, "error": {code, name, message, details}, "requestId"}`, as a client reads
 * it: any name and code (another compatible gateway may have more), `details` and `requestId`
 * possibly absent.
 */
export const errorEnvelope = z.object({
  success: z.literal(false),
  error: z.object({
    code: z.number().int(),
    name: z.string(),
    message: z.string(),
    details: z.array(errorDetail).default([]),
  }),
  requestId: z.string().optional(),
});

/** The error envelope as this gateway writes it: a name of the table, every field present. */
export type ErrorBody = z.output<typeof errorEnvelope> & { error: { name: ApiErrorName }; requestId: string };
