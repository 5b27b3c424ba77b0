/**
 * Refunds on the wire (issue 37, docs/decisions/071): a refund is a new object linked to what it
 * pays back (an order, an invoice through its order, or an orphan deposit); the order itself never
 * changes because of one. `refunds/get` answers this object; the `refund.*` events carry it.
 */
import { z } from 'zod';
import { decimalString } from './decimal';

/**
 * A refund's state (lib/refunds/lifecycle.ts moves it):
 * - `awaiting_address`: the claim link is out; the payer has not confirmed an address yet;
 * - `ready`: the payer confirmed an address (and tag); the refund may be signed and sent;
 * - `sent`: its transfer is on the chain, not yet with the network's confirmations;
 * - `confirmed`: its transfer has the confirmations; final;
 * - `canceled`: the merchant canceled it before it was sent; final, its amount is refundable again;
 * - `failed`: its transfer was dropped from the chain; final, its amount is refundable again.
 */
export const REFUND_STATE_VALUES = ['awaiting_address', 'ready', 'sent', 'confirmed', 'canceled', 'failed'] as const;
export type RefundState = (typeof REFUND_STATE_VALUES)[number];

/**
 * What a refund draws on, the unit whose refunds together never exceed what it received: an order
 * (its counted payments; an invoice's refund draws on the invoice's order) or an orphan deposit.
 */
export const REFUND_SOURCE_VALUES = ['order', 'deposit'] as const;
export type RefundSource = (typeof REFUND_SOURCE_VALUES)[number];

/**
 * How the refund's address was claimed: by a link mailed to the order's `payerEmail` (`mail`) or
 * shared by the merchant (`shared`), or by no link at all: the merchant refunded to the address the
 * payment came from (`sender`, docs/decisions/125), confirmed when the refund was made.
 */
export const CLAIM_DELIVERY_VALUES = ['mail', 'shared', 'sender'] as const;
export type ClaimDelivery = (typeof CLAIM_DELIVERY_VALUES)[number];

/**
 * The rate a fiat-priced refund was converted at (price of one coin in the fiat): the invoice's own
 * (the rate its order was made at), the rate service's current one, or one the merchant gave.
 */
export const REFUND_RATE_SOURCE_VALUES = ['invoice', 'current', 'custom'] as const;
export type RefundRateSource = (typeof REFUND_RATE_SOURCE_VALUES)[number];

/**
 * Whether a refund waits for a second person (docs/decisions/082): `none` (below the owner's
 * threshold, or none set), `required` (it is not sent until approved), `approved`.
 */
export const REFUND_APPROVAL_VALUES = ['none', 'required', 'approved'] as const;
export type RefundApproval = (typeof REFUND_APPROVAL_VALUES)[number];

const timestamp = z.iso.datetime({ offset: true });

/** A refund as `refunds/get` answers it and as its `refund.*` events carry it. */
export const refundResponse = z.object({
  id: z.string(),
  state: z.enum(REFUND_STATE_VALUES),
  /** The order it pays back (an invoice's: the invoice's order; an orphan deposit's: the order it was linked to, or null). */
  orderId: z.string().nullable(),
  invoiceId: z.string().nullable(),
  depositId: z.string().nullable(),
  network: z.string(),
  currency: z.string(),
  /** In the coin, canonical decimal string. */
  amount: decimalString,
  /** For a refund priced in fiat: the price, its currency, and the rate (price of one coin) that made `amount`, rounded down. */
  price: z
    .object({
      amount: decimalString,
      currency: z.string(),
      rate: decimalString,
      rateSource: z.enum(REFUND_RATE_SOURCE_VALUES),
    })
    .nullable(),
  claim: z.object({
    delivery: z.enum(CLAIM_DELIVERY_VALUES),
    expiresAt: timestamp,
  }),
  /** The address (and tag) the payer confirmed, or the payment's sender (`claim.delivery` `sender`); null until then. */
  address: z.string().nullable(),
  tag: z.string().nullable(),
  /** The transaction that paid it, once seen. */
  txId: z.string().nullable(),
  /**
   * A refund sent by hand whose transaction the gateway's node no longer finds (dropped, replaced,
   * or no longer paying): since when; null while it is found (docs/decisions/129).
   */
  missingSince: timestamp.nullable(),
  approval: z.enum(REFUND_APPROVAL_VALUES),
  reason: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type RefundResponse = z.infer<typeof refundResponse>;

/**
 * refunds/make's answer: the refund, and its claim link for the merchant to share with the payer;
 * null for a refund to the address the payment came from (`to: "sender"`), which has no link.
 */
export const madeRefundResponse = refundResponse.extend({ claimUrl: z.string().nullable() });
/** refunds/list's answer, newest first. */
export const refundListResponse = z.object({ refunds: z.array(refundResponse) });
