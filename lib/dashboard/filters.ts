import 'server-only';
/**
 * The dashboard's list filters, parsed from URL search params with one zod schema, and the opaque
 * keyset cursors of its tables. A bad value raises `InvalidFilter`, whose message names the
 * parameter, for the page to show; nothing is queried with it.
 */
import { z } from 'zod';
import { NETWORKS, FIAT_CURRENCIES } from '../catalog';
import { DomainError } from '../errors';
import { INVOICE_STATUS_VALUES, isUuid, ORDER_STATUS_VALUES } from '../protocol';

/** A search param the dashboard cannot use: `message` says which and why. */
export class InvalidFilter extends DomainError<'InvalidFilter'> {
  constructor(
    message: string,
    readonly parameter: string,
  ) {
    super('InvalidFilter', message, [{ path: parameter, message }]);
  }
}

/** The longest search text taken: a tx hash, an address or a merchant's order id fits well within it. */
export const MAX_SEARCH_LENGTH = 200;

const NETWORK_NAMES = NETWORKS.map((n) => n.name);
const COIN_TICKERS = [...new Set(NETWORKS.flatMap((n) => n.currencies.map((c) => c.ticker)))];

/** A position in a list ordered by (created_at desc, id desc). */
export interface PageCursor {
  createdAt: Date;
  id: string;
}

/** base64url of "ISO time|id": opaque to the page, exact to the millisecond the column keeps. */
export function encodeCursor(row: { created_at: Date; id: string }): string {
  return Buffer.from(`${row.created_at.toISOString()}|${row.id}`).toString('base64url');
}

export function decodeCursor(text: string): PageCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined;
  const [time, id, extra] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !time || !id || !isUuid(id) || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(time))
    return undefined;
  const createdAt = new Date(time);
  return Number.isNaN(createdAt.getTime()) ? undefined : { createdAt, id: id.toLowerCase() };
}

const DATE_ONLY = /^\d{4}-\d\d-\d\d$/;

/**
 * An ISO date (a whole UTC day) or an ISO datetime with a zone. `end` makes a date-only value the
 * start of the next day, so that `to=2026-01-31` includes the 31st.
 */
const isoTime = (end: boolean) =>
  z
    .string({ error: 'is required' })
    .refine(
      (v) => DATE_ONLY.test(v) || z.iso.datetime({ offset: true }).safeParse(v).success,
      'must be a date (2026-01-31) or a date and time (2026-01-31T12:00:00Z)',
    )
    .transform((v, ctx) => {
      const at = new Date(DATE_ONLY.test(v) ? `${v}T00:00:00.000Z` : v);
      // Date rolls 2026-02-30 over to March; a real calendar day reads back the same.
      const day = new Date(`${v.slice(0, 10)}T00:00:00.000Z`);
      if (
        Number.isNaN(at.getTime()) ||
        Number.isNaN(day.getTime()) ||
        day.toISOString().slice(0, 10) !== v.slice(0, 10)
      ) {
        ctx.addIssue({ code: 'custom', message: 'is not a real date' });
        return z.NEVER;
      }
      if (end && DATE_ONLY.test(v)) at.setUTCDate(at.getUTCDate() + 1);
      return at;
    });

const cursor = z.string().transform((v, ctx) => {
  const decoded = decodeCursor(v);
  if (!decoded) {
    ctx.addIssue({ code: 'custom', message: 'is not a page position of this list' });
    return z.NEVER;
  }
  return decoded;
});

/**
 * The filters of the orders and invoices tables. `status` takes the statuses of `kind` (orders'
 * lower-case, invoices' upper-case, as the API answers them); `network` and `currency` the
 * catalog's (an invoice's `currency` is its price currency, a fiat code too); `from` inclusive,
 * `to` exclusive (a date-only `to` includes that day); `q` an order id, the merchant's order id,
 * a deposit address or a transaction hash, matched exactly; `after`/`before` a cursor from a
 * previous page, one at a time.
 */
export const ORDER_FILTERS = z
  .object({
    kind: z.enum(['orders', 'invoices']).default('orders'),
    status: z.string().optional(),
    network: z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(NETWORK_NAMES as [string, ...string[]], { error: 'is not a network of the catalog' }))
      .optional(),
    currency: z
      .string()
      .transform((v) => v.toUpperCase())
      .pipe(
        z.enum([...COIN_TICKERS, ...FIAT_CURRENCIES] as [string, ...string[]], {
          error: 'is not a currency of the catalog',
        }),
      )
      .optional(),
    from: isoTime(false).optional(),
    to: isoTime(true).optional(),
    q: z
      .string()
      .trim()
      .max(MAX_SEARCH_LENGTH, `is longer than ${MAX_SEARCH_LENGTH} characters`)
      .transform((v) => (v === '' ? undefined : v))
      .optional(),
    after: cursor.optional(),
    before: cursor.optional(),
  })
  .superRefine((f, ctx) => {
    const statuses: readonly string[] = f.kind === 'orders' ? ORDER_STATUS_VALUES : INVOICE_STATUS_VALUES;
    if (f.status !== undefined && !statuses.includes(f.status)) {
      ctx.addIssue({ code: 'custom', path: ['status'], message: `must be one of ${statuses.join(', ')}` });
    }
    if (f.kind === 'orders' && f.currency !== undefined && FIAT_CURRENCIES.includes(f.currency)) {
      ctx.addIssue({ code: 'custom', path: ['currency'], message: 'is not a currency of the catalog' });
    }
    if (f.from && f.to && f.from >= f.to)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be later than from' });
    if (f.after && f.before) ctx.addIssue({ code: 'custom', path: ['before'], message: 'cannot be given with after' });
  });

export type OrderFilters = z.output<typeof ORDER_FILTERS>;
export type OrderFiltersInput = z.input<typeof ORDER_FILTERS>;

/** What a page hands over: Next.js's `searchParams` object or a URLSearchParams. */
export type SearchParams = URLSearchParams | Record<string, string | string[] | undefined>;

/** The first value of each parameter; empty values count as absent (an unselected form field). */
export function searchParamsObject(params: SearchParams): Record<string, string> {
  const entries: [string, string | string[] | undefined][] =
    params instanceof URLSearchParams
      ? [...params.keys()].map((k) => [k, params.get(k) ?? undefined])
      : Object.entries(params);
  const out: Record<string, string> = {};
  for (const [key, value] of entries) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== '') out[key] = first;
  }
  return out;
}

/** Parses with `schema`, or raises InvalidFilter naming the first bad parameter. */
export function parseWith<S extends z.ZodType>(schema: S, params: SearchParams): z.output<S> {
  const result = schema.safeParse(searchParamsObject(params));
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const parameter = String(issue.path[0] ?? 'filter');
  throw new InvalidFilter(`${parameter} ${issue.message}`.trim(), parameter);
}

/** The filters of a page's URL search params; InvalidFilter when one is bad. */
export function parseOrderFilters(params: SearchParams): OrderFilters {
  return parseWith(ORDER_FILTERS, params);
}

/** The filters of the deposits list. */
export const DEPOSIT_FILTERS = z
  .object({ kind: z.enum(['ORPHAN', 'PERSONAL']).optional(), after: cursor.optional(), before: cursor.optional() })
  .refine((f) => !(f.after && f.before), { path: ['before'], message: 'cannot be given with after' });
export type DepositFilters = z.output<typeof DEPOSIT_FILTERS>;

/** The filters of the webhook deliveries list: `failed=1` shows failed and refused ones only. */
export const DELIVERY_FILTERS = z
  .object({
    failed: z
      .enum(['1', 'true', '0', 'false'])
      .transform((v) => v === '1' || v === 'true')
      .or(z.boolean())
      .optional(),
    after: cursor.optional(),
    before: cursor.optional(),
  })
  .refine((f) => !(f.after && f.before), { path: ['before'], message: 'cannot be given with after' });
export type DeliveryFilters = z.output<typeof DELIVERY_FILTERS>;

export function parseDepositFilters(params: SearchParams): DepositFilters {
  return parseWith(DEPOSIT_FILTERS, params);
}

export function parseDeliveryFilters(params: SearchParams): DeliveryFilters {
  return parseWith(DELIVERY_FILTERS, params);
}

/** The CSV export's query (`?kind=orders&from=2026-01-01&to=2026-01-31`): both dates required, `to` inclusive of a date-only day. */
export const EXPORT_PARAMS = z
  .object({ kind: z.enum(['orders', 'invoices']).default('orders'), from: isoTime(false), to: isoTime(true) })
  .refine((p) => p.from < p.to, { path: ['to'], message: 'must be later than from' })
  .transform(({ kind, from, to }) => ({ kind, range: { from, to } }));
export type ExportParams = z.output<typeof EXPORT_PARAMS>;

export function parseExportParams(params: SearchParams): ExportParams {
  return parseWith(EXPORT_PARAMS, params);
}
