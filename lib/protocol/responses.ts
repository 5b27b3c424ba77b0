/**
 * What the merchant API answers, operation by operation, as zod schemas. The serializers that
 * write these answers are typed by them (a renamed field fails the type check there), and the
 * typed client checks every answer against them, so a caller never holds data of the wrong shape.
 *
 * A reader of another compatible gateway may meet answers that differ, so the schemas are lenient
 * where that does not matter to a caller's code: extra fields are dropped, the statuses of
 * payments and deposits are plain strings (this gateway's values are in ./status), and the fields
 * this gateway adds to the seed's objects are optional. They are strict where a caller's code
 * branches: order status, amounts as decimal strings, timestamps.
 */
import { z } from 'zod';
import { decimalString } from './decimal';
import {
  ADDRESS_TRANSACTION_STATUS_VALUES,
  INVOICE_STATUS_VALUES,
  ORDER_STATUS_VALUES,
  WEBHOOK_KIND_VALUES,
  WEBHOOK_OUTCOME_VALUES,
  WEBHOOK_STATE_VALUES,
} from './status';
import {
  SUBSCRIPTION_CANCEL_REASON_VALUES,
  SUBSCRIPTION_INTERVAL_VALUES,
  SUBSCRIPTION_STATUS_VALUES,
} from './subscription-values';

/** ISO 8601 UTC with milliseconds. */
const timestamp = z.iso.datetime({ offset: true });
const nullableText = z.string().nullable();
const count = z.number().int().nonnegative();

/** The order object of seed section 2.2 (make-order's answer); fields absent from the request are null. */
export const orderResponse = z.object({
  status: z.enum(ORDER_STATUS_VALUES),
  link: z.url(),
  amount: decimalString,
  paymentTolerancePercent: decimalString,
  currency: z.string(),
  network: z.string(),
  address: z.string(),
  addressId: z.string(),
  tag: nullableText,
  orderId: z.string(),
  clientOrderId: z.string(),
  externalUserId: nullableText,
  payerEmail: nullableText,
  description: nullableText,
  successWebhook: nullableText,
  errorWebhook: nullableText,
  returnUrl: nullableText,
  expiresAt: timestamp,
  createdAt: timestamp,
});
export type Order = z.infer<typeof orderResponse>;

/** A payment of an order, as the order's `transactions` list it. */
export const orderTransaction = z.object({
  id: z.string(),
  tx: z.string(),
  amount: decimalString,
  currency: z.string(),
  network: z.string(),
  status: z.string(),
  confirmations: count,
  createdAt: timestamp,
});
export type OrderTransaction = z.infer<typeof orderTransaction>;

/**
 * The `order` operation's answer (and the webhook body's): the order object plus what happened
 * since, and the request's other fields.
 */
export const orderDetailsResponse = orderResponse.extend({
  received: decimalString,
  message: nullableText,
  // This gateway's additions to the seed's object.
  checkRisks: z.boolean().optional(),
  lifetime: z.number().int().positive().optional(),
  updatedAt: timestamp.optional(),
  transactions: z.array(orderTransaction),
});
export type OrderDetails = z.infer<typeof orderDetailsResponse>;

/** `orders`: the caller's orders, newest first. */
export const orderListResponse = z.object({
  orders: z.array(orderResponse),
  total: count,
  limit: z.number().int().positive(),
  offset: count,
});
export type OrderList = z.infer<typeof orderListResponse>;

/** The orphan deposit object of seed section 2.3; `outTransactions` is null until one is seen. */
export const depositResponse = z.object({
  id: z.string(),
  organizationId: z.string(),
  orderId: nullableText,
  stage: z.string(),
  status: z.string(),
  message: nullableText,
  currency: z.string(),
  network: z.string(),
  amount: decimalString,
  canWithdrawal: z.boolean(),
  inTransaction: z.object({
    addressType: z.string(),
    addressId: z.string(),
    address: z.string(),
    /**
     * The destination tag the incoming transfer carried (tag networks: ripple); null without one and
     * on networks without tags. An orphan deposit's tag may name no order: the payer's, to refund or
     * match by hand. Not in the seed; added.
     */
    tag: nullableText,
    txId: z.string(),
    amount: decimalString,
    status: z.string(),
  }),
  outTransactions: z
    .object({
      address: nullableText,
      txId: z.string(),
      amount: decimalString,
      status: nullableText,
      feeAmount: decimalString,
      feeAmountUSD: decimalString.nullable(),
      withdrawalId: nullableText,
      createdAt: timestamp.nullable(),
    })
    .nullable(),
  createdAt: timestamp,
});
export type Deposit = z.infer<typeof depositResponse>;

/** An order payment as an operation search item of seed section 2.4. */
const paymentOperation = z.object({
  type: z.literal('IN'),
  source: z.literal('ORDER'),
  address: z.string(),
  result: z.object({
    id: z.string(),
    addressId: z.string(),
    currency: z.string(),
    network: z.string(),
    tx: z.string(),
    status: z.string(),
    address: z.string(),
    tag: nullableText,
    amount: decimalString,
    feeCurrency: z.string(),
    feeSource: z.string(),
    feeAmount: decimalString,
    createdAt: timestamp,
  }),
});
export type PaymentOperation = z.infer<typeof paymentOperation>;

/** A deposit as an operation search item of seed section 2.4: IN for its incoming transfer, OUT for the outgoing one. */
const depositOperation = z.object({
  type: z.enum(['IN', 'OUT']),
  source: z.enum(['ORPHAN_DEPOSIT', 'PERSONAL_DEPOSIT']),
  address: z.string(),
  result: depositResponse,
});
export type DepositOperation = z.infer<typeof depositOperation>;

/** `find-tx`: every operation of the caller with the hash, order payments first. */
export const operationsResponse = z.array(z.discriminatedUnion('source', [paymentOperation, depositOperation]));
export type Operation = z.infer<typeof operationsResponse>[number];

/** `available-currencies`: what the key's mode can create orders in, by currency. */
export const availableCurrenciesResponse = z.array(
  z.object({
    currency: z.string(),
    name: z.string(),
    /** The price of one coin in US dollars from the rate service; null when no fresh price exists. */
    priceUSD: decimalString.nullable().optional(),
    networks: z.array(
      z.object({
        network: z.string(),
        name: z.string(),
        decimals: count,
        contract: nullableText,
        confirmations: count,
        tagRequired: z.boolean(),
        defaultLifetime: z.number().int().positive(),
        /** The pattern of the network's addresses (utils/validate-address answers the same). */
        addressRegex: z.string(),
        /** The pattern of its destination tags; null for a network without tags. */
        tagRegex: nullableText,
      }),
    ),
  }),
);
export type AvailableCurrency = z.infer<typeof availableCurrenciesResponse>[number];

/** `advanced-balances`: the merchant's fee account, always one element. */
export const advancedBalancesResponse = z.array(
  z.object({
    advancedBalanceId: z.string(),
    currency: z.string(),
    balance: decimalString,
    availableCurrenciesForDeposit: z.array(z.string()),
  }),
);
export type AdvancedBalance = z.infer<typeof advancedBalancesResponse>[number];

/**
 * `test-signature`: whether the signature matched and what is wrong; `signature` and
 * `receivedBody` only for a correctly signed request.
 */
export const testSignatureResponse = z.object({
  checkSignatureResult: z.boolean(),
  errors: z.array(z.string()),
  signature: z.string().optional(),
  receivedBody: z.string().optional(),
});
export type TestSignatureResult = z.infer<typeof testSignatureResponse>;

/** The coins and networks an invoice offers, each network with the amount its payer would send. */
export const invoiceCurrency = z.object({
  currency: z.string(),
  networks: z.array(z.object({ name: z.string(), amount: decimalString })),
});
export type InvoiceCurrency = z.infer<typeof invoiceCurrency>;

/**
 * The invoice object (make-invoice, get-invoice, the invoice webhook), field for field as the
 * clients of the API we follow read it. Absent request fields are null; the `received*` fields
 * and `rate` are null until the payer has chosen a coin.
 */
export const invoiceResponse = z.object({
  id: z.string(),
  advancedBalanceId: z.string(),
  externalId: nullableText,
  status: z.enum(INVOICE_STATUS_VALUES),
  order: nullableText,
  orderId: nullableText,
  orderLink: z.url().nullable(),
  invoiceLink: z.url(),
  description: nullableText,
  currency: z.string(),
  amount: decimalString,
  receivedNetwork: nullableText,
  receivedCurrency: nullableText,
  receivedAmount: decimalString.nullable(),
  receivedAmountInInvoiceCurrency: decimalString.nullable(),
  /** The price of one `receivedCurrency` in `currency`, locked when the coin was chosen. */
  rate: decimalString.nullable(),
  includeFee: z.boolean(),
  additionalFees: z.array(z.string()).nullable(),
  insurancePercent: decimalString.nullable(),
  slippagePercent: decimalString.nullable(),
  webhookURL: nullableText,
  returnUrl: nullableText,
  expiresAt: timestamp,
  createdAt: timestamp,
  currencies: z.array(invoiceCurrency),
});
export type Invoice = z.infer<typeof invoiceResponse>;

/** `get-invoices`: the caller's invoices, newest first. */
export const invoiceListResponse = z.object({ total: count, invoices: z.array(invoiceResponse) });
export type InvoiceList = z.infer<typeof invoiceListResponse>;

/** `price-rate`: the price of one `from` in `to`, a decimal string. */
export const priceRateResponse = decimalString;

/**
 * The body of an invoice's webhook: the invoice as `get-invoice` answers it (`id` is the invoice's),
 * plus `event` and `webhookId`, the event id that `x-webhook-id` repeats.
 */
export const invoiceWebhookPayload = invoiceResponse.extend({ event: z.literal('INVOICE'), webhookId: z.string() });
export type InvoiceWebhookPayload = z.infer<typeof invoiceWebhookPayload>;

/** One delivery attempt of a webhook event. */
export const webhookAttempt = z.object({
  attempt: z.number().int().positive(),
  at: timestamp,
  statusCode: z.number().int().nullable(),
  latencyMs: count,
  outcome: z.enum(WEBHOOK_OUTCOME_VALUES),
  error: nullableText,
  responseExcerpt: nullableText,
});
export type WebhookAttempt = z.infer<typeof webhookAttempt>;

/** A webhook event with its delivery log, oldest attempt first (`webhooks/resend` answers one). */
export const webhookEventResponse = z.object({
  id: z.string(),
  /** The order the event is about; for an invoice's event, the order of its chosen coin (null when none was chosen). */
  orderId: nullableText,
  /** Set for an invoice's event (kind `invoice`). */
  invoiceId: nullableText.optional(),
  kind: z.enum(WEBHOOK_KIND_VALUES),
  /** The order's status the event reports; null for an invoice's event. */
  orderStatus: z.enum(ORDER_STATUS_VALUES).nullable(),
  /** The invoice's status an invoice's event reports. */
  invoiceStatus: z.enum(INVOICE_STATUS_VALUES).nullable().optional(),
  url: z.string(),
  state: z.enum(WEBHOOK_STATE_VALUES),
  attempts: count,
  nextAttemptAt: timestamp.nullable(),
  deliveredAt: timestamp.nullable(),
  createdAt: timestamp,
  log: z.array(webhookAttempt),
});
export type WebhookEvent = z.infer<typeof webhookEventResponse>;

/** `webhooks/list`: the webhook events of one of the caller's orders. */
export const webhookEventsResponse = z.array(webhookEventResponse);

/** The body of a webhook: the order as `order` answers it, plus `event` and the event `id` (`x-webhook-id`). */
export const webhookPayload = orderDetailsResponse.extend({ event: z.literal('ORDER'), id: z.string() });
export type WebhookPayload = z.infer<typeof webhookPayload>;

/**
 * `utils/validate-address`: whether the address is one of the network's (checksum included), and
 * the pattern its addresses match (`available-currencies` answers the same per network).
 */
export const validateAddressResponse = z.object({ isValid: z.boolean(), regex: z.string() });
export type AddressValidation = z.infer<typeof validateAddressResponse>;

/** `advanced-balance`: one fee account, as `advanced-balances` lists it. */
export const advancedBalanceResponse = advancedBalancesResponse.element;

/** `orphan-deposits/get-deposits`: the caller's orphan deposits, newest first. */
export const depositListResponse = z.array(depositResponse);

/**
 * `webhooks/get-verbose`: a webhook event as the API we follow describes one (field names of its
 * clients), with this gateway's delivery log. `responseStatus`, `responseBody` and `sentAt` are
 * the last attempt's, null before the first.
 */
export const webhookVerboseResponse = z
  .object({
    id: z.string(),
    /** ORDER for an order's event, INVOICE for an invoice's. */
    event: z.enum(['ORDER', 'INVOICE']),
    /** The order or invoice the event is about. */
    eventId: z.string(),
    requestUrl: z.string(),
    /** The exact JSON sent (and signed) on every attempt. */
    requestBody: z.string(),
    responseStatus: z.enum(['SUCCESS', 'ERROR']).nullable(),
    responseCode: z.number().int().nullable(),
    responseBody: nullableText,
    sentAt: timestamp.nullable(),
    state: z.enum(WEBHOOK_STATE_VALUES),
    attempts: count,
    log: z.array(webhookAttempt),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  // webhooks/get-verbose's `fields` keeps only the fields named.
  .partial();
export type WebhookVerbose = z.infer<typeof webhookVerboseResponse>;

/** `webhooks/get`: the body the event sent, an order's or an invoice's. */
export const webhookBodyResponse = z.union([webhookPayload, invoiceWebhookPayload]);

/**
 * `addresses/find-by-id`, `addresses/find-by-address`: one of the caller's addresses. `type` is
 * PAY_IN (an order's) or PERSONAL (an external user's); `currency` is the order's for PAY_IN and
 * null for PERSONAL (any coin of the network); `balance` is what was received in `currency` less
 * what was seen leaving ("0" for PERSONAL). This gateway keeps no alias or meta: null; no address is archived.
 */
export const addressResponse = z.object({
  id: z.string(),
  type: z.string(),
  alias: nullableText,
  currency: nullableText,
  network: z.string(),
  balance: decimalString,
  address: z.string(),
  tag: nullableText,
  meta: z.unknown(),
  isArchived: z.boolean(),
});
export type Address = z.infer<typeof addressResponse>;

/** One transfer to (deposit) or from (withdrawal) an address. */
export const addressTransaction = z.object({
  id: z.string(),
  status: z.enum(ADDRESS_TRANSACTION_STATUS_VALUES),
  type: z.enum(['deposit', 'withdrawal']),
  currency: z.string(),
  network: z.string(),
  /** The sender, when known; a watch-only gateway sees it only for a withdrawal. */
  addressFrom: nullableText,
  addressTo: nullableText,
  amount: decimalString,
  tx: z.string(),
  feeCurrency: nullableText,
  feeAmount: decimalString.nullable(),
  feeAmountUSD: decimalString.nullable(),
  withdrawalId: nullableText,
  orphanDepositId: nullableText,
  createdAt: timestamp,
});
export type AddressTransaction = z.infer<typeof addressTransaction>;

/** `addresses/transactions`: newest first. */
export const addressTransactionsResponse = z.array(addressTransaction);

/** A user's address for one coin (personal-addresses/*); `balance` is what it received of that coin, confirmed. */
export const personalAddressResponse = z.object({
  id: z.string(),
  userId: z.string(),
  currency: z.string(),
  network: z.string(),
  address: z.string(),
  tag: nullableText,
  balance: decimalString,
  isActive: z.boolean(),
});
export type PersonalAddress = z.infer<typeof personalAddressResponse>;

/** A user of personal addresses (personal-addresses/*): `clientId` is make-order's `externalUserId`. */
export const personalUserResponse = z.object({
  id: z.string(),
  clientId: z.string(),
  clientEmail: nullableText,
  clientName: nullableText,
  depositWebhookUrl: nullableText,
  createdAt: timestamp,
  updatedAt: timestamp,
  /** create-user with `createAddresses`: the user's addresses, one per coin of every network. */
  addresses: z.array(personalAddressResponse).optional(),
});
export type PersonalUser = z.infer<typeof personalUserResponse>;

/** `personal-addresses/get-user-addresses`. */
export const personalAddressesResponse = z.array(personalAddressResponse);

export const PAYMENT_LINK_STATUS_VALUES = ['ACTIVE', 'DISABLED', 'EXPIRED', 'USED_UP'] as const;
export type PaymentLinkStatus = (typeof PAYMENT_LINK_STATUS_VALUES)[number];

/**
 * A payment link (payment-links/*, operations of our own): what it sells, its public `link`, and
 * its counts. `status` is ACTIVE while it makes invoices; `paidTotal` is in `currency`.
 */
export const paymentLinkResponse = z.object({
  id: z.string(),
  link: z.url(),
  status: z.enum(PAYMENT_LINK_STATUS_VALUES),
  title: z.string(),
  description: nullableText,
  image: nullableText,
  currency: z.string(),
  amount: decimalString.nullable(),
  minAmount: decimalString.nullable(),
  maxAmount: decimalString.nullable(),
  maxQuantity: z.number().int().nullable(),
  currencies: z.array(z.object({ currency: z.string(), networks: z.array(z.string()).optional() })).nullable(),
  expiresAt: timestamp.nullable(),
  maxUses: z.number().int().nullable(),
  webhookURL: nullableText,
  returnUrl: nullableText,
  views: count,
  invoices: count,
  paid: count,
  paidTotal: decimalString,
  createdAt: timestamp,
});
export type PaymentLink = z.infer<typeof paymentLinkResponse>;
export const paymentLinkListResponse = z.object({ total: count, links: z.array(paymentLinkResponse) });

/** A subscription plan (subscriptions/*): its price per period in `currency`. */
export const subscriptionPlanResponse = z.object({
  id: z.string(),
  name: z.string(),
  currency: z.string(),
  amount: decimalString,
  interval: z.enum(SUBSCRIPTION_INTERVAL_VALUES),
  intervalCount: z.number().int(),
  trialDays: count,
  reminderDays: count,
  graceDays: count,
  currencies: z.array(z.object({ currency: z.string(), networks: z.array(z.string()).optional() })).nullable(),
  active: z.boolean(),
  createdAt: timestamp,
});
export type SubscriptionPlan = z.infer<typeof subscriptionPlanResponse>;
export const subscriptionPlanListResponse = z.object({ total: count, plans: z.array(subscriptionPlanResponse) });

/**
 * A subscription (subscriptions/*, and the object of every `subscription.*` event). Times are the
 * subscription's clock (a test-mode merchant's test clock, docs/decisions/068). `creditPeriods` are
 * periods paid beyond the current one: later renewals draw on them before any invoice is made.
 */
export const subscriptionResponse = z.object({
  id: z.string(),
  planId: z.string(),
  email: z.string(),
  customerId: nullableText,
  language: z.string(),
  status: z.enum(SUBSCRIPTION_STATUS_VALUES),
  cycle: count,
  /** The current period (0 is the first after the trial), null during the trial. */
  period: count.nullable(),
  currentPeriodStart: timestamp.nullable(),
  currentPeriodEnd: timestamp.nullable(),
  /** Periods of this cycle paid, from the first; the subscription is paid until `paidUntil`. */
  paidPeriods: count,
  paidUntil: timestamp.nullable(),
  creditPeriods: count,
  trialEnd: timestamp.nullable(),
  /** The open renewal or reactivation invoice the subscriber is asked to pay, if any. */
  openInvoiceId: nullableText,
  canceledAt: timestamp.nullable(),
  cancelReason: z.enum(SUBSCRIPTION_CANCEL_REASON_VALUES).nullable(),
  startedAt: timestamp,
  createdAt: timestamp,
});
export type Subscription = z.infer<typeof subscriptionResponse>;
export const subscriptionListResponse = z.object({ total: count, subscriptions: z.array(subscriptionResponse) });
/** subscriptions/advance-test-clock: the test clock's time after the move, and what the renewal pass did. */
export const testClockResponse = z.object({ now: timestamp, offsetMs: z.number().int(), changed: count });
