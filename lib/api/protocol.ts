/**
 * The wire protocol of the merchant API: one zod schema per request body, shared by the routes,
 * the typed client and the docs. Client-safe (no server imports).
 *
 * Rules from the SPEC: unknown fields are ignored, `null` for an optional field means absent,
 * `returnURL` is an alias of `returnUrl`.
 */
import { z } from 'zod';
import { ORDER_STATUS_VALUES } from '../orders/status';

/** An optional field: absent, or null, both mean "not given". */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;

const webUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }));

const makeOrderFields = z.object({
  currency: z.string().trim().min(1, 'is required').max(16),
  network: z.string().trim().min(1, 'is required').max(32),
  amount: z
    .string({ error: 'must be a decimal string such as "10.5"' })
    .regex(DECIMAL, 'must be a decimal string such as "10.5" (digits, optional fraction, no sign or exponent)')
    .refine((v) => /[1-9]/.test(v), 'must be greater than 0'),
  order: z.string().min(1, 'is required').max(255, 'must be at most 255 characters'),
  paymentTolerancePercent: optional(
    z
      .string({ error: 'must be a decimal string such as "0.5"' })
      .regex(DECIMAL, 'must be a decimal string such as "0.5"')
      .refine((v) => Number.parseInt(v.split('.')[0]!, 10) < 100, 'must be at least 0 and less than 100')
      .refine((v) => (v.split('.')[1] ?? '').replace(/0+$/, '').length <= 6, 'must have at most 6 decimal places'),
  ),
  errorWebhook: optional(webUrl),
  successWebhook: optional(webUrl),
  returnUrl: optional(webUrl),
  description: optional(z.string().max(1024, 'must be at most 1024 characters')),
  lifetime: optional(
    z
      .number({ error: 'must be an integer number of seconds' })
      .int('must be an integer number of seconds')
      .min(1800, 'must be at least 1800 seconds')
      .max(43200, 'must be at most 43200 seconds'),
  ),
  checkRisks: optional(z.boolean({ error: 'must be true or false' })),
  externalUserId: optional(z.string().min(1).max(255, 'must be at most 255 characters')),
  payerEmail: optional(z.email('must be a valid e-mail address').max(254)),
});

export const makeOrderRequest = z.preprocess((body) => {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (record.returnUrl == null && record.returnURL != null) return { ...record, returnUrl: record.returnURL };
  }
  return body;
}, makeOrderFields);
export type MakeOrderRequest = z.output<typeof makeOrderRequest>;
/** The fields a caller sends to make-order (before validation). */
export type MakeOrderInput = z.input<typeof makeOrderFields>;

export const getDepositRequest = z.object({ id: z.string().min(1, 'is required').max(100) });
export const findTxRequest = z.object({ tx: optional(z.string().max(200)) });
export const getOrderRequest = z.object({ orderId: z.string().min(1, 'is required').max(100) });
export const listOrdersRequest = z.object({
  status: optional(z.array(z.enum(ORDER_STATUS_VALUES)).max(ORDER_STATUS_VALUES.length)),
  limit: optional(z.number().int().min(1).max(100)).transform((v) => v ?? 20),
  offset: optional(z.number().int().min(0).max(1_000_000)).transform((v) => v ?? 0),
});
export const emptyRequest = z.object({});
/** webhooks/list: the webhook events of one of the caller's orders, with their delivery log. */
export const listWebhooksRequest = z.object({ orderId: z.string().min(1, 'is required').max(100) });
/** webhooks/resend: sends one of the caller's webhook events again, now (same id and body). */
export const resendWebhookRequest = z.object({ id: z.string().min(1, 'is required').max(100) });

/**
 * `nonce`: an integer or a string of digits, accepted once per key. Clients send millisecond
 * timestamps or random numbers, so nonces need not increase.
 */
export const nonceField = z.union(
  [
    z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    z.string().regex(/^\d{1,30}$/),
  ],
  { error: 'must be an integer up to 9007199254740991 or a string of at most 30 digits' },
);
