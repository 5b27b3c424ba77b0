/**
 * The request bodies of the merchant API: one zod schema per operation (./operations pairs each
 * with its response), shared by the API edge, the typed client and the docs.
 *
 * Rules from the SPEC: unknown fields are ignored, `null` for an optional field means absent,
 * `returnURL` is an alias of `returnUrl`.
 */
import { z } from 'zod';
import { SUBSCRIPTION_INTERVAL_VALUES } from './subscription-values';
import { MAX_AMOUNT_DIGITS } from '../money';
import { EVENT_SUBSCRIPTION_VALUES, EVENT_TYPE_VALUES } from './events';
import { PLAN_STATUS_VALUES } from './plans';
import {
  ADDRESS_TRANSACTION_STATUS_VALUES,
  DEPOSIT_STAGE_VALUES,
  DEPOSIT_STATUS_VALUES,
  INVOICE_STATUS_VALUES,
  ORDER_STATUS_VALUES,
  WEBHOOK_STATE_VALUES,
} from './status';

/** An optional field: absent, or null, both mean "not given". */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/** NUL, or a UTF-16 surrogate without its other half. */
// eslint-disable-next-line no-control-regex -- NUL is what is looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when PostgreSQL can store `value` as given (see `text`). */
function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain a NUL character (\\u0000) or an unpaired UTF-16 surrogate';

/**
 * A string field that PostgreSQL can store as given; every string of a request goes through it.
 * Refused: NUL, which a PostgreSQL text value cannot hold (the statement fails), and unpaired
 * surrogates ("\ud800" in JSON), which have no UTF-8 form: the driver would store U+FFFD instead,
 * so two different values would become the same one. Other control characters are stored as given
 * (fields that must not hold them say so, as URLs do).
 */
export const text = (error = 'must be a string') => z.string({ error }).refine(isStorableText, UNSTORABLE_TEXT_MESSAGE);

const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;

/** False for a URL with a user name or password (`https://user:pass@host/`); true for anything else. */
function withoutCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username === '' && url.password === '';
  } catch {
    return true; // not a URL: the URL check says so
  }
}

/**
 * successWebhook, errorWebhook, returnUrl. No credentials: webhooks never send them (the delivery
 * would be refused every time, lib/webhooks/ssrf.ts), and a returnUrl's would land in the
 * shopper's browser history. No spaces or control characters, which URL parsers drop or encode
 * silently: the URL stored is the URL given.
 */
const webUrl = text('must be an absolute http(s) URL')
  .max(2048, 'must be at most 2048 characters')
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  .regex(/^[^\s\u0000-\u001f\u007f-\u009f]*$/, 'must not contain spaces or control characters')
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }))
  .refine(withoutCredentials, 'must not contain a user name or password');

/**
 * A price or an amount: a decimal string greater than 0. The currency's own bound (fewer digits for
 * more decimals) is checked once the currency is known.
 */
const positiveAmount = () =>
  z
    .string({ error: 'must be a decimal string such as "10.5"' })
    .regex(DECIMAL, 'must be a decimal string such as "10.5" (digits, optional fraction, no sign or exponent)')
    .refine((v) => /[1-9]/.test(v), 'must be greater than 0')
    .refine(
      (v) => v.split('.')[0]!.length <= MAX_AMOUNT_DIGITS,
      `is too large: at most ${MAX_AMOUNT_DIGITS} digits before the decimal point`,
    );

/** A percentage from 0 to less than 100 with at most 6 decimal places, as a decimal string ("0.5"). */
const percent = () =>
  z
    .string({ error: 'must be a decimal string such as "0.5"' })
    .regex(DECIMAL, 'must be a decimal string such as "0.5"')
    .refine((v) => Number.parseInt(v.split('.')[0]!, 10) < 100, 'must be at least 0 and less than 100')
    .refine((v) => (v.split('.')[1] ?? '').replace(/0+$/, '').length <= 6, 'must have at most 6 decimal places');

/** `returnURL` (the Go and Python clients' spelling) read as `returnUrl` when that is absent. */
function returnUrlAlias(body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (record.returnUrl == null && record.returnURL != null) return { ...record, returnUrl: record.returnURL };
  }
  return body;
}

/** A payer's e-mail address, where an order's mails and a refund's claim link go: make-order's, and the invoice page's (docs/decisions/110). */
// zod's e-mail pattern is ASCII-only, so it refuses NUL and surrogates itself.
export const payerEmailField = z.email('must be a valid e-mail address').max(254, 'must be at most 254 characters');

const makeOrderFields = z.object({
  currency: text().trim().min(1, 'is required').max(16, 'must be at most 16 characters'),
  network: text().trim().min(1, 'is required').max(32, 'must be at most 32 characters'),
  amount: positiveAmount(),
  order: text().min(1, 'is required').max(255, 'must be at most 255 characters'),
  paymentTolerancePercent: optional(percent()),
  errorWebhook: optional(webUrl),
  successWebhook: optional(webUrl),
  returnUrl: optional(webUrl),
  description: optional(text().max(1024, 'must be at most 1024 characters')),
  lifetime: optional(
    z
      .number({ error: 'must be an integer number of seconds' })
      .int('must be an integer number of seconds')
      .min(1800, 'must be at least 1800 seconds')
      .max(43200, 'must be at most 43200 seconds'),
  ),
  checkRisks: optional(z.boolean({ error: 'must be true or false' })),
  externalUserId: optional(text().min(1, 'must not be empty').max(255, 'must be at most 255 characters')),
  payerEmail: optional(payerEmailField),
});

export const makeOrderRequest = z.preprocess(returnUrlAlias, makeOrderFields);
export type MakeOrderRequest = z.output<typeof makeOrderRequest>;
/** The fields a caller sends to make-order (before validation). */
export type MakeOrderInput = z.input<typeof makeOrderFields>;

/** A currency code: a ticker of the catalog or a fiat code ("USD"); answered upper-case. */
const currencyCode = () => text().trim().min(1, 'is required').max(16, 'must be at most 16 characters');

/** The coins and networks an invoice's payer may choose from; an empty `networks` means every enabled one. */
const offeredCurrency = z.object(
  {
    currency: currencyCode(),
    networks: optional(
      z
        .array(text().trim().min(1, 'must not be empty').max(32, 'must be at most 32 characters'), {
          error: 'must be an array of network names',
        })
        .max(32, 'must have at most 32 networks'),
    ),
  },
  { error: 'must be an object {currency, networks}' },
);

/** The most line items an invoice takes. */
export const MAX_INVOICE_ITEMS = 100;

/**
 * One line of what an invoice's payer buys (a field of our own: the clients we follow send none):
 * shown on the receipt, the PDFs and the paid mail. The lines' total must be the invoice's `amount`.
 */
const invoiceItem = z.object(
  {
    name: text().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
    quantity: z
      .number({ error: 'must be a whole number from 1' })
      .int('must be a whole number from 1')
      .min(1, 'must be a whole number from 1')
      .max(1_000_000, 'must be at most 1000000'),
    /** The price of one, in the invoice's currency. */
    price: positiveAmount(),
  },
  { error: 'must be an object {name, quantity, price}' },
);

/** An invoice's lifetime in minutes: bounds and the default when absent. */
export const INVOICE_LIFETIME_MINUTES = { min: 1, max: 10_080, default: 60 } as const;

const makeInvoiceFields = z.object({
  /** The caller's own id of the invoice: the idempotency key (with `order` when it is absent). */
  externalId: optional(text().min(1, 'must not be empty').max(255, 'must be at most 255 characters')),
  currency: currencyCode(),
  amount: positiveAmount(),
  order: optional(text().min(1, 'must not be empty').max(255, 'must be at most 255 characters')),
  description: optional(text().max(1024, 'must be at most 1024 characters')),
  items: optional(
    z
      .array(invoiceItem, { error: 'must be an array of {name, quantity, price}' })
      .max(MAX_INVOICE_ITEMS, `must have at most ${MAX_INVOICE_ITEMS} entries`),
  ),
  includeFee: optional(z.boolean({ error: 'must be true or false' })),
  additionalFees: optional(
    z
      .array(text().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters'), {
        error: 'must be an array of tariff names',
      })
      .max(16, 'must have at most 16 entries'),
  ),
  insurancePercent: optional(percent()),
  slippagePercent: optional(percent()),
  webhookURL: optional(webUrl),
  returnUrl: optional(webUrl),
  /** Minutes (the clients' docstrings say so); the Python client may send it as a string of digits. */
  lifetime: optional(
    z
      .union(
        [
          z.number(),
          z
            .string()
            .regex(/^\d{1,6}$/)
            .transform(Number),
        ],
        { error: 'must be an integer number of minutes' },
      )
      .pipe(
        z
          .number({ error: 'must be an integer number of minutes' })
          .int('must be an integer number of minutes')
          .min(INVOICE_LIFETIME_MINUTES.min, `must be at least ${INVOICE_LIFETIME_MINUTES.min} minute`)
          .max(INVOICE_LIFETIME_MINUTES.max, `must be at most ${INVOICE_LIFETIME_MINUTES.max} minutes (7 days)`),
      ),
  ).transform((v) => v ?? INVOICE_LIFETIME_MINUTES.default),
  currencies: optional(
    z
      .array(offeredCurrency, { error: 'must be an array of {currency, networks}' })
      .max(64, 'must have at most 64 entries'),
  ),
});

export const makeInvoiceRequest = z.preprocess(returnUrlAlias, makeInvoiceFields);
export type MakeInvoiceRequest = z.output<typeof makeInvoiceRequest>;
/** The fields a caller sends to make-invoice (before validation). */
export type MakeInvoiceInput = z.input<typeof makeInvoiceFields> & { returnURL?: string | null };

/** An id the caller names (an order, deposit or webhook event). */
const id = () => text().min(1, 'is required').max(100, 'must be at most 100 characters');

export const getDepositRequest = z.object({ id: id() });
export const findTxRequest = z.object({ tx: optional(text().max(200, 'must be at most 200 characters')) });
export const getOrderRequest = z.object({ orderId: id() });
export const getInvoiceRequest = z.object({ invoiceId: id() });
/** price-rate: the price of one `from` in `to` (tickers of the catalog or fiat codes). */
export const priceRateRequest = z.object({ from: currencyCode(), to: currencyCode() });

/** A JSON integer within bounds, with one message for every way of missing them. */
const integer = (min: number, max: number) => {
  const message = `must be an integer from ${min} to ${max}`;
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
};

/** A list's page: `limit` 1..100 (default 20), `offset` from 0. */
const page = {
  limit: optional(integer(1, 100)).transform((v) => v ?? 20),
  offset: optional(integer(0, 1_000_000)).transform((v) => v ?? 0),
};

/** A network name as merchants send it (`network`). */
const networkName = () => text().trim().min(1, 'is required').max(32, 'must be at most 32 characters');

/** utils/validate-address: whether `address` is one of `network`'s. */
export const validateAddressRequest = z.object({
  address: text().max(200, 'must be at most 200 characters'),
  network: networkName(),
});

/** operation-by-tx-hash: find-tx under the name the Python client calls it. */
export const operationByTxHashRequest = findTxRequest;

/** advanced-balance: one of the caller's fee accounts; absent means the caller's own (there is one per merchant and mode). */
export const advancedBalanceRequest = z.object({
  // The Go client sends "" when it has not read one: the same as absent.
  advancedBalanceId: optional(text().max(100, 'must be at most 100 characters')).transform((v) => v || undefined),
});

/** orphan-deposits/get-deposits: the caller's orphan deposits, newest first, filtered. */
export const listDepositsRequest = z.object({
  id: optional(id()),
  orderId: optional(id()),
  stage: optional(z.enum(DEPOSIT_STAGE_VALUES, { error: `must be one of ${DEPOSIT_STAGE_VALUES.join(', ')}` })),
  status: optional(z.enum(DEPOSIT_STATUS_VALUES, { error: `must be one of ${DEPOSIT_STATUS_VALUES.join(', ')}` })),
  ...page,
});
export type ListDepositsInput = z.input<typeof listDepositsRequest>;

/** webhooks/get: the body a webhook event sent. */
export const getWebhookRequest = z.object({ webhookId: id() });
/** webhooks/get-verbose: the event with its request and answer; `fields` keeps only the fields named. */
export const getWebhookVerboseRequest = z.object({
  webhookId: id(),
  fields: optional(
    z
      .array(text().min(1, 'must not be empty').max(64, 'must be at most 64 characters'), {
        error: 'must be an array of field names',
      })
      .max(32, 'must have at most 32 fields'),
  ),
});

/** addresses/find-by-id: one of the caller's addresses by its id. */
export const findAddressByIdRequest = z.object({ id: id() });
/** addresses/find-by-address: one of the caller's addresses by its text (and tag, for tag networks). */
export const findAddressByAddressRequest = z.object({
  address: text().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  tag: optional(text().max(20, 'must be at most 20 characters')),
});
/** addresses/transactions: what went in and out of one of the caller's addresses, newest first. */
export const addressTransactionsRequest = z.object({
  id: id(),
  type: optional(z.enum(['deposit', 'withdrawal'], { error: 'must be deposit or withdrawal' })),
  status: optional(
    z
      .array(
        z.enum(ADDRESS_TRANSACTION_STATUS_VALUES, {
          error: `must be one of ${ADDRESS_TRANSACTION_STATUS_VALUES.join(', ')}`,
        }),
        {
          error: 'must be an array of statuses',
        },
      )
      .max(
        ADDRESS_TRANSACTION_STATUS_VALUES.length,
        `must have at most ${ADDRESS_TRANSACTION_STATUS_VALUES.length} statuses`,
      ),
  ),
  ...page,
});

/** A flag the API we follow has and this gateway accepts without acting on it (the answer says what it does instead). */
const ignoredFlag = () => optional(z.boolean({ error: 'must be true or false' }));

/**
 * personal-addresses/create-user: creates the caller's user `clientId` (make-order's
 * `externalUserId`), or updates the fields given of an existing one. `createAddresses` takes the
 * user's address on every network now rather than on first use. `groupByBlockchain` (addresses are
 * per network here anyway) and `checkRisks` (no screening service) are accepted and change nothing.
 */
export const createUserRequest = z.object({
  clientId: text().min(1, 'is required').max(255, 'must be at most 255 characters'),
  clientEmail: optional(z.email('must be a valid e-mail address').max(254, 'must be at most 254 characters')),
  clientName: optional(text().max(255, 'must be at most 255 characters')),
  depositWebhookUrl: optional(webUrl),
  createAddresses: optional(z.boolean({ error: 'must be true or false' })),
  groupByBlockchain: ignoredFlag(),
  checkRisks: ignoredFlag(),
});

/** personal-addresses/get-user: one of the caller's users by `id` or by `clientId`. */
export const getUserRequest = z
  .object({
    id: optional(id()),
    clientId: optional(text().min(1, 'must not be empty').max(255, 'must be at most 255 characters')),
  })
  .refine((v) => v.id !== undefined || v.clientId !== undefined, {
    path: ['id'],
    message: 'id or clientId is required',
  });

/**
 * personal-addresses/get-user-address: the user's address for a coin, taken on first use. An
 * address stays its user's for good, so `renewAddress` is accepted and answers the same one.
 */
export const getUserAddressRequest = z.object({
  id: id(),
  currency: currencyCode(),
  network: networkName(),
  renewAddress: ignoredFlag(),
});

/**
 * personal-addresses/get-user-addresses: the user's addresses, one per coin of each network it has
 * an address on. Every address stays active, so `isActive` (the Go client always sends it) changes nothing.
 */
export const getUserAddressesRequest = z.object({
  id: id(),
  isActive: ignoredFlag(),
  currency: optional(
    z.array(currencyCode(), { error: 'must be an array of currencies' }).max(64, 'must have at most 64 entries'),
  ),
  network: optional(
    z.array(networkName(), { error: 'must be an array of network names' }).max(32, 'must have at most 32 entries'),
  ),
  ...page,
});

export const listOrdersRequest = z.object({
  status: optional(
    z
      .array(z.enum(ORDER_STATUS_VALUES, { error: `must be one of ${ORDER_STATUS_VALUES.join(', ')}` }), {
        error: 'must be an array of statuses',
      })
      .max(ORDER_STATUS_VALUES.length, `must have at most ${ORDER_STATUS_VALUES.length} statuses`),
  ),
  limit: optional(integer(1, 100)).transform((v) => v ?? 20),
  offset: optional(integer(0, 1_000_000)).transform((v) => v ?? 0),
});
export const listInvoicesRequest = z.object({
  status: optional(
    z
      .array(z.enum(INVOICE_STATUS_VALUES, { error: `must be one of ${INVOICE_STATUS_VALUES.join(', ')}` }), {
        error: 'must be an array of statuses',
      })
      .max(INVOICE_STATUS_VALUES.length, `must have at most ${INVOICE_STATUS_VALUES.length} statuses`),
  ),
  limit: optional(integer(1, 100)).transform((v) => v ?? 20),
  offset: optional(integer(0, 1_000_000)).transform((v) => v ?? 0),
});
export type ListInvoicesInput = z.input<typeof listInvoicesRequest>;

/** The fields a caller sends to `orders` (before validation). */
export type ListOrdersInput = z.input<typeof listOrdersRequest>;
export const emptyRequest = z.object({});
/** webhooks/list: the webhook events of one of the caller's orders, with their delivery log. */
export const listWebhooksRequest = z.object({ orderId: id() });
/** webhooks/resend: sends one of the caller's webhook events again, now (same id and body). */
export const resendWebhookRequest = z.object({ id: id() });

/** How many events `events/list` and deliveries `webhook-endpoints/deliveries` answer at most per page. */
export const FEED_PAGE = { max: 100, default: 20 } as const;

/**
 * events/list: the caller's events after `after` (the id of the last event the caller saw; absent:
 * from the oldest kept), oldest first, of the `types` given (absent: every type).
 */
export const listEventsRequest = z.object({
  types: optional(
    z
      .array(z.enum(EVENT_TYPE_VALUES, { error: `must be one of ${EVENT_TYPE_VALUES.join(', ')}` }), {
        error: 'must be an array of event types',
      })
      .max(EVENT_TYPE_VALUES.length, `must have at most ${EVENT_TYPE_VALUES.length} types`),
  ),
  after: optional(id()),
  limit: optional(integer(1, FEED_PAGE.max)).transform((v) => v ?? FEED_PAGE.default),
});
export type ListEventsInput = z.input<typeof listEventsRequest>;

/** An endpoint's event types: `*` for every type, or types of the table (docs/webhooks.md, "Event types"). */
const eventSubscriptions = () =>
  z
    .array(z.enum(EVENT_SUBSCRIPTION_VALUES, { error: `must be * or one of ${EVENT_TYPE_VALUES.join(', ')}` }), {
      error: 'must be an array of event types (or ["*"])',
    })
    .min(1, 'must name at least one event type, or "*"')
    .max(EVENT_SUBSCRIPTION_VALUES.length, `must have at most ${EVENT_SUBSCRIPTION_VALUES.length} entries`)
    .refine((types) => new Set(types).size === types.length, 'must name each type once');
const endpointDescription = () => text().max(200, 'must be at most 200 characters');
/** An endpoint's state as its owner sets it (`disabled` is the gateway's, after days of failures). */
export const ENDPOINT_SETTABLE_STATUS_VALUES = ['enabled', 'paused'] as const;
const endpointStatus = () => z.enum(ENDPOINT_SETTABLE_STATUS_VALUES, { error: 'must be enabled or paused' });
/** A secret roll's overlap: how long the old secret still signs, 0 to 7 days. */
export const SECRET_OVERLAP_HOURS = { min: 0, max: 168, default: 24 } as const;

/** webhook-endpoints/create: a URL that receives the events of the types named, signed with a secret of its own. */
export const createEndpointRequest = z.object({
  url: webUrl,
  eventTypes: eventSubscriptions(),
  description: optional(endpointDescription()),
  status: optional(endpointStatus()).transform((v) => v ?? 'enabled'),
});
/** webhook-endpoints/get, delete, send-test: one of the caller's endpoints. */
export const endpointRequest = z.object({ id: id() });
/** webhook-endpoints/update: the fields given change; `status: "enabled"` also re-enables an endpoint the gateway disabled. */
export const updateEndpointRequest = z.object({
  id: id(),
  url: optional(webUrl),
  eventTypes: optional(eventSubscriptions()),
  description: optional(endpointDescription()),
  status: optional(endpointStatus()),
});
/** webhook-endpoints/roll-secret: a new secret; the old one keeps signing (beside it) for `overlapHours`. */
export const rollEndpointSecretRequest = z.object({
  id: id(),
  overlapHours: optional(
    z
      .number({ error: `must be a number of hours from ${SECRET_OVERLAP_HOURS.min} to ${SECRET_OVERLAP_HOURS.max}` })
      .min(SECRET_OVERLAP_HOURS.min, `must be at least ${SECRET_OVERLAP_HOURS.min}`)
      .max(SECRET_OVERLAP_HOURS.max, `must be at most ${SECRET_OVERLAP_HOURS.max} (7 days)`),
  ).transform((v) => v ?? SECRET_OVERLAP_HOURS.default),
});
/** webhook-endpoints/deliveries: one endpoint's delivery log, newest first, by event type and outcome. */
export const listEndpointDeliveriesRequest = z.object({
  id: id(),
  eventType: optional(
    z.enum([...EVENT_TYPE_VALUES, 'webhook_endpoint.test'], {
      error: `must be webhook_endpoint.test or one of ${EVENT_TYPE_VALUES.join(', ')}`,
    }),
  ),
  state: optional(z.enum(WEBHOOK_STATE_VALUES, { error: `must be one of ${WEBHOOK_STATE_VALUES.join(', ')}` })),
  /** The id of the last delivery of the previous page. */
  before: optional(id()),
  limit: optional(integer(1, FEED_PAGE.max)).transform((v) => v ?? FEED_PAGE.default),
});

/**
 * `nonce`: an integer or a string of digits, accepted once per key. Clients send millisecond
 * timestamps or random numbers, so nonces need not increase.
 */
const NONCE_MESSAGE = 'must be an integer up to 9007199254740991 or a string of at most 30 digits';
export const nonceField = z.union(
  [
    z.number().int(NONCE_MESSAGE).nonnegative(NONCE_MESSAGE).max(Number.MAX_SAFE_INTEGER, NONCE_MESSAGE),
    z.string().regex(/^\d{1,30}$/, NONCE_MESSAGE),
  ],
  { error: NONCE_MESSAGE },
);

/** Payment links (operations of our own, docs/payment-links.md): an image as a data: URL of PNG, JPEG, GIF or WebP. */
const imageDataUrl = () =>
  text('must be a data: URL of a PNG, JPEG, GIF or WebP image')
    .max(60_000, 'must be at most 60000 characters (the request body is at most 64 KiB)')
    .regex(
      /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/,
      'must be a data: URL of a PNG, JPEG, GIF or WebP image ("data:image/png;base64,...")',
    );

/** An ISO 8601 timestamp with its offset ("2026-12-24T18:00:00Z"). */
const isoTimestamp = () =>
  text('must be an ISO 8601 timestamp such as "2026-12-24T18:00:00Z"').pipe(
    z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp such as "2026-12-24T18:00:00Z"' }),
  );

/**
 * payment-links/create: a fixed `amount`, or `minAmount` and `maxAmount` for an amount the payer
 * chooses (not both). `maxQuantity` lets the payer buy several of a fixed price.
 */
export const createPaymentLinkRequest = z
  .object({
    title: text().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
    description: optional(text().max(1024, 'must be at most 1024 characters')),
    image: optional(imageDataUrl()),
    currency: currencyCode(),
    amount: optional(positiveAmount()),
    minAmount: optional(positiveAmount()),
    maxAmount: optional(positiveAmount()),
    maxQuantity: optional(integer(1, 1000)),
    currencies: optional(
      z
        .array(offeredCurrency, { error: 'must be an array of {currency, networks}' })
        .max(64, 'must have at most 64 entries'),
    ),
    expiresAt: optional(isoTimestamp()),
    maxUses: optional(integer(1, 1_000_000)),
    webhookURL: optional(webUrl),
    returnUrl: optional(webUrl),
  })
  .superRefine((link, ctx) => {
    const chosen = link.minAmount !== undefined || link.maxAmount !== undefined;
    if (link.amount === undefined && !chosen)
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: 'is required unless minAmount and maxAmount are given',
      });
    if (link.amount !== undefined && chosen)
      ctx.addIssue({ code: 'custom', path: ['minAmount'], message: 'must be absent when amount is given' });
    if (link.amount === undefined && chosen) {
      if (link.minAmount === undefined) ctx.addIssue({ code: 'custom', path: ['minAmount'], message: 'is required' });
      if (link.maxAmount === undefined) ctx.addIssue({ code: 'custom', path: ['maxAmount'], message: 'is required' });
    }
    if (chosen && link.maxQuantity !== undefined)
      ctx.addIssue({ code: 'custom', path: ['maxQuantity'], message: 'needs a fixed amount' });
  });
export type CreatePaymentLinkRequest = z.output<typeof createPaymentLinkRequest>;
export type CreatePaymentLinkInput = z.input<typeof createPaymentLinkRequest>;
export const getPaymentLinkRequest = z.object({ id: id() });
/** payment-links/list: the caller's links, newest first. */
export const listPaymentLinksRequest = z.object(page);
/** payment-links/disable: the link makes no more invoices; those it made run on. */
export const disablePaymentLinkRequest = z.object({ id: id() });

/** A refund's rate for a fiat price: the invoice's, the current one, or a decimal (price of one coin). */
const refundRate = () =>
  text()
    .trim()
    .max(100, 'must be at most 100 characters')
    .regex(
      /^(invoice|current|(0|[1-9]\d*)(\.\d+)?)$/,
      'must be "invoice", "current" or a decimal string such as "60000.5" (price of one coin)',
    );

/** Where refunds/make sends a refund: to the address the payer claims by link, or the payment's sender. */
export const REFUND_DESTINATION_VALUES = ['claim', 'sender'] as const;
export type RefundDestination = (typeof REFUND_DESTINATION_VALUES)[number];

/**
 * refunds/make: a refund of one order, invoice or orphan deposit (exactly one of the ids), in full
 * or in part. `amount` is in the coin, or with `currency` a fiat code, a price converted at `rate`
 * (default `invoice`: the invoice's own rate), rounded down to the coin's base units. `to`:
 * `claim` (default) waits for the payer's address by claim link; `sender` refunds to the one address
 * the payment came from, on account chains without destination tags (docs/decisions/125).
 */
export const makeRefundRequest = z
  .object({
    orderId: optional(id()),
    invoiceId: optional(id()),
    depositId: optional(id()),
    amount: positiveAmount(),
    currency: optional(currencyCode()),
    rate: optional(refundRate()),
    to: optional(z.enum(REFUND_DESTINATION_VALUES, { error: 'must be claim or sender' })),
  })
  .superRefine((request, ctx) => {
    const given = [request.orderId, request.invoiceId, request.depositId].filter((v) => v !== undefined).length;
    if (given !== 1)
      ctx.addIssue({ code: 'custom', path: ['orderId'], message: 'give exactly one of orderId, invoiceId, depositId' });
  });
export type MakeRefundRequest = z.output<typeof makeRefundRequest>;
/** refunds/get. */
export const getRefundRequest = z.object({ id: id() });
/**
 * refunds/complete: the caller's refund `id`, sent by hand from any wallet, completed by the
 * transaction `txId` that paid it (docs/decisions/092): the network's transaction id (EVM with or
 * without 0x, any case).
 */
export const completeRefundRequest = z.object({
  id: id(),
  txId: text()
    .trim()
    .min(1, 'is required')
    .max(200, 'must be at most 200 characters')
    .regex(/^[0-9A-Za-z]+$/, 'must be a transaction id: letters and digits only'),
});
/** refunds/list: the caller's refunds, newest first; of one order with `orderId`. */
export const listRefundsRequest = z.object({ orderId: optional(id()), ...page });
/** A fee rate as plans carry it: whole base units per virtual byte ("2"). */
const feeRate = () =>
  z
    .string({ error: 'must be a whole number of base units per vbyte, as a string such as "2"' })
    .regex(/^[1-9]\d{0,9}$/, 'must be a whole number of base units per vbyte from 1 to 9999999999, as a string');

/**
 * An account of the merchant's seed that pays an account chain's fees (docs/decisions/093), by its
 * address and its path: never a key.
 */
export const feePayerSchema = z.object({
  address: text()
    .trim()
    .regex(/^(0x[0-9a-fA-F]{40}|T[1-9A-HJ-NP-Za-km-z]{33})$/, 'must be an EVM or a Tron address'),
  path: text().regex(/^m(\/\d{1,10}'?){1,10}$/, "must be a derivation path such as m/44'/60'/1'/0/0"),
});

/**
 * collections/prepare: a plan that moves the network's confirmed deposit outputs (each at least
 * `minimum`, in the coin) to the treasury, at `feeRate` or the node's estimate (docs/collections.md).
 */
export const prepareCollectionRequest = z.object({
  network: networkName(),
  minimum: optional(positiveAmount()),
  feeRate: optional(feeRate()),
  /** EVM and Tron: the currency to collect; the network's first token when absent (docs/decisions/093). */
  currency: optional(currencyCode()),
  /**
   * EVM and Tron: the account of the merchant's seed that pays the network's fees, and its path (the
   * gas payer, `m/44'/60'/1'/0/0` by default; Tron's resource account with staked TRX, `m/44'/195'/1'/0/0`);
   * the one kept in the merchant's settings when absent (docs/decisions/099).
   */
  feePayer: optional(feePayerSchema),
});
/**
 * fee-payers/set: keeps the account of the merchant's seed that pays `network`'s collection fees in
 * the key's mode, the one a prepare without `feePayer` uses (docs/decisions/099, 107).
 */
export const setFeePayerRequest = z.object({ network: networkName(), ...feePayerSchema.shape });
/** collections/list: the caller's collection plans, newest first, of one status or all. */
export const listCollectionsRequest = z.object({ status: optional(z.enum(PLAN_STATUS_VALUES)), ...page });
/** collections/get. */
export const getCollectionRequest = z.object({ id: id() });
/**
 * A signed transaction, lower-case hex, at most 1,000,000 characters (a standard transaction is at
 * most 400 kB): collections/submit's `transaction`, and the same field of the plan page's form and
 * `npm run sandbox -- broadcast-raw` (docs/decisions/109), which lower-case what they are given first.
 */
export const signedTransactionHex = () =>
  z
    .string({ error: 'must be the signed transaction, hex' })
    .max(1_000_000, 'must be at most 1000000 characters')
    .regex(/^(?:[0-9a-f]{2})+$/, 'must be the signed transaction, lower-case hex');
/**
 * collections/submit: a plan's transaction, signed (docs/collections.md): the signed PSBT (base64)
 * or the signed transaction (hex), exactly one. A standard transaction is at most 400 kB, so a
 * submission may be up to a megabyte (`SUBMISSION_BODY_LIMIT_BYTES`).
 */
export const submitPlanRequest = z
  .object({
    id: id(),
    psbt: optional(
      z
        .string({ error: 'must be the signed PSBT, base64' })
        .max(1_000_000, 'must be at most 1000000 characters')
        .regex(/^(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, 'must be the signed PSBT, base64'),
    ),
    transaction: optional(signedTransactionHex()),
  })
  .superRefine((request, ctx) => {
    if ((request.psbt === undefined) === (request.transaction === undefined))
      ctx.addIssue({ code: 'custom', path: ['psbt'], message: 'give exactly one of psbt, transaction' });
  });
/** The body limit of collections/submit: a standard transaction (400 kB) as hex, with room for the PSBT's own fields. */
export const SUBMISSION_BODY_LIMIT_BYTES = 1024 * 1024;
/** refund-plans/prepare: the plan that sends a ready refund; the fee from the change unless `feeFromRefund`. */
export const prepareRefundPlanRequest = z.object({
  refundId: id(),
  feeFromRefund: optional(z.boolean({ error: 'must be true or false' })).transform((v) => v ?? false),
  feeRate: optional(feeRate()),
});
/** refund-plans/get: a refund plan by its id, or a refund's newest plan by `refundId` (exactly one). */
export const getRefundPlanRequest = z
  .object({ id: optional(id()), refundId: optional(id()) })
  .superRefine((request, ctx) => {
    if ((request.id === undefined) === (request.refundId === undefined))
      ctx.addIssue({ code: 'custom', path: ['id'], message: 'give exactly one of id, refundId' });
  });
/** subscriptions/create-plan: a price per period of `intervalCount` days, weeks, months or years. */
export const createSubscriptionPlanRequest = z.object({
  name: text().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  currency: currencyCode(),
  amount: positiveAmount(),
  interval: z.enum(SUBSCRIPTION_INTERVAL_VALUES, { error: 'must be day, week, month or year' }),
  intervalCount: optional(integer(1, 365)).transform((v) => v ?? 1),
  trialDays: optional(integer(0, 365)).transform((v) => v ?? 0),
  reminderDays: optional(integer(0, 60)).transform((v) => v ?? 3),
  graceDays: optional(integer(0, 60)).transform((v) => v ?? 7),
  currencies: optional(
    z
      .array(offeredCurrency, { error: 'must be an array of {currency, networks}' })
      .max(64, 'must have at most 64 entries'),
  ),
});
export type CreateSubscriptionPlanRequest = z.output<typeof createSubscriptionPlanRequest>;
export type CreateSubscriptionPlanInput = z.input<typeof createSubscriptionPlanRequest>;
/**
 * subscriptions/update-plan: a plan's name, and whether it takes new subscribers (`active`). Its
 * terms (price, period, trial, reminders, grace) never change: its subscribers keep the terms they
 * subscribed to; new terms are a new plan (docs/decisions/079).
 */
export const updateSubscriptionPlanRequest = z
  .object({
    id: id(),
    name: optional(text().trim().min(1, 'is required').max(200, 'must be at most 200 characters')),
    active: optional(z.boolean({ error: 'must be true or false' })),
  })
  .superRefine((request, ctx) => {
    if (request.name === undefined && request.active === undefined)
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'give name, active or both' });
  });
export type UpdateSubscriptionPlanRequest = z.output<typeof updateSubscriptionPlanRequest>;
/** subscriptions/list-plans: the caller's plans, newest first. */
export const listSubscriptionPlansRequest = z.object(page);
/** subscriptions/create: a subscriber of a plan, mailed at `email` in `language` (a payment page language). */
export const createSubscriptionRequest = z.object({
  planId: id(),
  email: z.email('must be a valid e-mail address').max(254, 'must be at most 254 characters'),
  customerId: optional(text().trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters')),
  language: optional(text().max(16, 'must be at most 16 characters')).transform((v) => v ?? 'en'),
});
export type CreateSubscriptionRequest = z.output<typeof createSubscriptionRequest>;
export const subscriptionRequest = z.object({ id: id() });
/** subscriptions/list: the caller's subscriptions, newest first, of one plan or all. */
export const listSubscriptionsRequest = z.object({ ...page, planId: optional(id()) });
/** subscriptions/advance-test-clock: moves the merchant's test clock forward (test mode only, docs/decisions/068). */
export const advanceTestClockRequest = z.object({
  days: optional(integer(0, 3660)).transform((v) => v ?? 0),
  hours: optional(integer(0, 24 * 3660)).transform((v) => v ?? 0),
});
