/**
 * XRP Ledger refund plans (docs/decisions/119) as they travel between the gateway and the signer:
 * one Payment of XRP from the merchant's own account (its deposit key on `ripple`, decision 114)
 * to the account and destination tag the payer confirmed. The plan carries the unsigned
 * transaction's canonical binary and the same fields as JSON; the signer decodes the binary and
 * refuses any difference, and reads the refunded payment on its own node.
 */
import { z } from 'zod';
import { PLAN_STATUS_VALUES, planRefundSchema } from './plans';
import { MODE_VALUES } from './status';

const classicAddress = z.string().regex(/^r[1-9A-HJ-NP-Za-km-z]{24,34}$/, 'must be a classic address (r...)');
const drops = z.string().regex(/^\d{1,20}$/, 'must be drops');
const ledgerHash = z.string().regex(/^[0-9A-F]{64}$/, 'must be 64 upper-case hex digits');
const uint32 = z
  .number()
  .int()
  .min(0)
  .max(2 ** 32 - 1);

/** What an XRP Ledger refund plan says of its refund: the claim with its tag, and the payment as the transactions that paid the account under the order's tag. */
export const xrplPlanRefundSchema = planRefundSchema.omit({ payment: true }).extend({
  /** The destination tag the payer confirmed with its account; null when it gave none. */
  tag: z
    .string()
    .regex(/^\d{1,10}$/)
    .nullable(),
  payment: z.object({
    /** The account and tag the refunded payment was made to: the plan's account and the order's (or deposit's) tag. */
    account: classicAddress,
    tag: z
      .string()
      .regex(/^\d{1,10}$/)
      .nullable(),
    transactions: z.array(ledgerHash).min(1).max(50),
  }),
});
export type XrplPlanRefund = z.infer<typeof xrplPlanRefundSchema>;

/** A refund's Payment as JSON: the fields of the binary, nothing else. */
export const xrplRefundFieldsSchema = z.object({
  TransactionType: z.literal('Payment'),
  Account: classicAddress,
  Destination: classicAddress,
  DestinationTag: uint32.optional(),
  Amount: drops,
  Fee: drops,
  Sequence: uint32,
  LastLedgerSequence: uint32,
  Flags: uint32,
});

export const xrplRefundPlanSchema = z.object({
  planId: z.uuid(),
  kind: z.literal('refund'),
  format: z.literal('xrpl'),
  mode: z.enum(MODE_VALUES),
  network: z.literal('ripple'),
  chain: z.enum(['mainnet', 'testnet', 'regtest']),
  currency: z.string(),
  status: z.enum(PLAN_STATUS_VALUES),
  /** The merchant's own account that pays the refund and its fee (its deposit key on ripple). */
  account: classicAddress,
  transaction: z.object({
    /** The unsigned transaction's canonical binary, hex: what the signer decodes and signs. */
    blob: z.string().regex(/^([0-9A-F]{2})+$/),
    fields: xrplRefundFieldsSchema,
    /** The node refuses it once this ledger is validated without it: sign and submit before. */
    lastLedgerSequence: uint32,
  }),
  refund: xrplPlanRefundSchema,
  /** Its transaction's hash once submitted (it commits to the signature), and why a plan failed. */
  txid: z.string().nullable(),
  reason: z.string().nullable(),
  /** When the node took its transaction through `collections/submit`. */
  acceptedAt: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type XrplRefundPlan = z.infer<typeof xrplRefundPlanSchema>;
