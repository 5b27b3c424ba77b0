/**
 * Events: every change a merchant may care about, as the event feed (`events/list`) and the
 * webhook endpoints carry it (SPEC "Events", docs/decisions/050). One table of types; each names
 * the object it carries, answered as that object's own read operation answers it.
 *
 * A later issue adds its types here, with the object they carry and its schema in `eventResponse`.
 */
import { z } from 'zod';
import { planSummarySchema } from './plans';
import { refundResponse } from './refunds';
import { depositResponse, invoiceResponse, orderDetailsResponse, subscriptionResponse } from './responses';

/**
 * How a final order's mispayment was settled (docs/decisions/069): the order keeps its status, so
 * its settlement is an object of its own, naming the order, the remainder order that paid the rest
 * (if any) and what the two received in the order's coin, in total.
 */
export const orderResolutionResponse = z.object({
  orderId: z.string(),
  /** `remainder_paid`: the remainder order was paid; `accepted`: what arrived (late payments included) was taken as settling it, by the merchant's rule or in the dashboard; `left`: the merchant left it as it is; `refunded`: the merchant refunded what arrived (its refunds' `refund.*` events name the order). */
  kind: z.enum(['remainder_paid', 'accepted', 'left', 'refunded']),
  /** `payer` (paid the rest), `rule` (the merchant's late-payment rule) or `merchant` (a dashboard decision). */
  decidedBy: z.enum(['payer', 'rule', 'merchant']),
  remainderOrderId: z.string().nullable(),
  currency: z.string(),
  network: z.string(),
  /** The order's amount, and what it, its late payments and its remainder received: decimal strings. */
  amount: z.string(),
  totalReceived: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type OrderResolution = z.infer<typeof orderResolutionResponse>;

/** The object an event carries, named as its read operation answers it. */
export const EVENT_OBJECTS = {
  /** An order's settlement (no read operation of its own: the event is where a store reads it). */
  resolution: orderResolutionResponse,
  /** `order`'s answer. */
  order: orderDetailsResponse,
  /** `get-invoice`'s answer. */
  invoice: invoiceResponse,
  /** `orphan-deposits/get-deposit`'s answer. */
  deposit: depositResponse,
  /** `refunds/get`'s answer. */
  refund: refundResponse,
  /** `subscriptions/get`'s answer. */
  subscription: subscriptionResponse,
  /**
   * A collection plan as `collections/list` answers it: what it moved, its status, transaction and
   * reason, without its inputs and PSBT (`collections/get`, for a signing-plans key, has those).
   */
  collection: planSummarySchema,
} as const;
export type EventObject = keyof typeof EVENT_OBJECTS;

export const EVENT_TYPES = {
  'order.processed': { object: 'order', description: 'An order received at least its threshold, at most its amount.' },
  'order.overpaid': { object: 'order', description: 'An order received more than its amount.' },
  'order.partial': { object: 'order', description: 'An order expired with something received, below its threshold.' },
  'order.expired': { object: 'order', description: 'An order expired with nothing received.' },
  'order.error': { object: 'order', description: 'A payment of an order was refused by risk screening.' },
  'order.paid_late': {
    object: 'order',
    description:
      "A transfer of an expired or underpaid order's coin reached its address after the deadline, and is confirmed (an orphan deposit of the order).",
  },
  'order.resolved': {
    object: 'resolution',
    description:
      "A final order's mispayment was settled: its remainder order was paid, a late payment was accepted (by the merchant's rule or in the dashboard), or the merchant left it or refunded what arrived. The order keeps its status.",
  },
  'invoice.paid': { object: 'invoice', description: 'An invoice became PROCESSED or OVERPAID.' },
  'invoice.partial': { object: 'invoice', description: 'An invoice became PARTIAL.' },
  'invoice.expired': { object: 'invoice', description: 'An invoice became EXPIRED.' },
  'invoice.rejected': { object: 'invoice', description: 'An invoice became REJECTED (risk screening).' },
  'deposit.received': {
    object: 'deposit',
    description: 'A transfer that is no payment of an order (orphan or personal deposit) is confirmed.',
  },
  'refund.created': {
    object: 'refund',
    description: 'A refund was made; its claim link waits for the payer to confirm an address.',
  },
  'refund.ready': { object: 'refund', description: 'The payer confirmed the address (and tag) to refund to.' },
  'refund.reopened': {
    object: 'refund',
    description: "The merchant reopened a refund's claim: the old link is dead, a new one waits for an address.",
  },
  'refund.sent': { object: 'refund', description: "A refund's transfer is on the chain, not yet confirmed." },
  'refund.confirmed': { object: 'refund', description: "A refund's transfer has the network's confirmations." },
  'refund.canceled': { object: 'refund', description: 'The merchant canceled a refund before it was sent.' },
  'refund.failed': { object: 'refund', description: "A refund's transfer was dropped from the chain." },
  'subscription.created': { object: 'subscription', description: 'A subscription was made (trialing or active).' },
  'subscription.invoice_created': {
    object: 'subscription',
    description:
      'A renewal invoice was made for the first unpaid period and mailed to the subscriber (`openInvoiceId`); a period paid ahead makes none.',
  },
  'subscription.paid': {
    object: 'subscription',
    description: 'An invoice of the subscription was paid: its periods were added (`paidPeriods`, `creditPeriods`).',
  },
  'subscription.renewed': {
    object: 'subscription',
    description: 'A paid period started (`period`), from a renewal invoice or from prepaid credit.',
  },
  'subscription.past_due': { object: 'subscription', description: 'The current period started unpaid.' },
  'subscription.canceled': {
    object: 'subscription',
    description: 'No more renewals: unpaid after the grace period, or canceled by the subscriber or the merchant.',
  },
  'subscription.reactivated': {
    object: 'subscription',
    description: 'A canceled subscription was paid again and starts a new cycle from the payment.',
  },
  'collection.completed': {
    object: 'collection',
    description: "A collection plan's transaction has the network's confirmations: the treasury holds what it sent.",
  },
  'collection.stale': {
    object: 'collection',
    description:
      "An input of a collection plan was spent by another transaction before the plan's was seen: nothing of it moved, it is never to be signed again, and its other outputs are in the next plan (`reason`).",
  },
  'collection.failed': {
    object: 'collection',
    description:
      'A collection plan failed after its transaction was seen: its block was replaced by a chain where an input is spent by another transaction, or (Tron) a step failed on chain or expired unmined; `reason` says which.',
  },
} as const satisfies Record<string, { object: EventObject; description: string }>;

export type EventType = keyof typeof EVENT_TYPES;
export const EVENT_TYPE_VALUES = Object.keys(EVENT_TYPES) as [EventType, ...EventType[]];
const typesOf = (object: EventObject) =>
  EVENT_TYPE_VALUES.filter((type) => EVENT_TYPES[type].object === object) as [EventType, ...EventType[]];

/** What an endpoint subscribes to: event types, or `*` for every type (those added later included). */
export const EVENT_SUBSCRIPTION_VALUES = ['*', ...EVENT_TYPE_VALUES] as const;
export type EventSubscription = (typeof EVENT_SUBSCRIPTION_VALUES)[number];

/** The type of the test event "Send test event" delivers to one endpoint; never in the feed. */
export const TEST_EVENT_TYPE = 'webhook_endpoint.test';

const eventFields = { id: z.string(), createdAt: z.iso.datetime({ offset: true }) };

/**
 * An event as `events/list` answers it and as a webhook endpoint receives it (the body of an
 * endpoint's delivery is this object, byte for byte what was stored when it happened).
 */
export const eventResponse = z.discriminatedUnion('type', [
  z.object({ ...eventFields, type: z.enum(typesOf('order')), data: EVENT_OBJECTS.order }),
  z.object({ ...eventFields, type: z.enum(typesOf('invoice')), data: EVENT_OBJECTS.invoice }),
  z.object({ ...eventFields, type: z.enum(typesOf('deposit')), data: EVENT_OBJECTS.deposit }),
  z.object({ ...eventFields, type: z.enum(typesOf('resolution')), data: EVENT_OBJECTS.resolution }),
  z.object({ ...eventFields, type: z.enum(typesOf('refund')), data: EVENT_OBJECTS.refund }),
  z.object({ ...eventFields, type: z.enum(typesOf('subscription')), data: EVENT_OBJECTS.subscription }),
  z.object({ ...eventFields, type: z.enum(typesOf('collection')), data: EVENT_OBJECTS.collection }),
]);
export type GatewayEvent = z.infer<typeof eventResponse>;

/** `events/list`: events after the cursor, oldest first; `hasMore` when another page follows. */
export const eventListResponse = z.object({ events: z.array(eventResponse), hasMore: z.boolean() });
