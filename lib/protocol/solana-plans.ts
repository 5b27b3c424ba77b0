/**
 * Solana refund plans as they travel between the gateway and the signer (docs/decisions/106): one
 * transfer from the merchant's receiving wallet to the wallet the payer confirmed, of SOL (a
 * System Program transfer) or of a token (a TransferChecked, the payer's associated token account
 * created first when missing, its rent paid by the merchant), carrying a fresh reference key by
 * which the watcher finds it. No blockhash: one expires in about a minute, so the signer fetches
 * it when it signs. The signer builds the transaction itself from `body` and refuses a body that
 * does not pay exactly the refund it shows to the address the payer confirmed.
 */
import { z } from 'zod';
import { PLAN_STATUS_VALUES, planRefundSchema } from './plans';
import { MODE_VALUES } from './status';

const solanaAddress = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, 'must be a base58 Solana address');
/** A transaction signature, 64 bytes in base58. */
const solanaSignature = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/, 'must be a base58 signature');

/**
 * How long before a Solana refund plan's `expiresAt` the signer stops signing it: a blockhash's life
 * (150 slots, about a minute) and finalization (about 13 s), with room for a slow network.
 */
export const SOLANA_PLAN_SIGNING_MARGIN_MS = 5 * 60_000;

/** The transfer a Solana refund plan asks the signer to build and sign. */
export const solanaRefundBodySchema = z.object({
  /** The merchant's receiving wallet: the source, the fee payer and the only signer. */
  wallet: solanaAddress,
  /** The payer's wallet (for a token, the owner of the associated token account paid). */
  recipient: solanaAddress,
  /** The token's mint and program; both null for SOL. */
  mint: solanaAddress.nullable(),
  tokenProgram: solanaAddress.nullable(),
  decimals: z.number().int().min(0).max(18),
  /** Base units (lamports, or the mint's). */
  amount: z.string().regex(/^[1-9]\d{0,19}$/, 'must be a positive whole number of base units below 10^20'),
  /** A fresh public key of no one's, read-only in the transfer: what the watcher matches the plan by. */
  reference: solanaAddress,
  /**
   * After this the plan is stale unless its transfer was seen (docs/decisions/111): the signer signs
   * it only until `SOLANA_PLAN_SIGNING_MARGIN_MS` before, so that a transaction it signed has expired
   * (its blockhash lives about 150 slots) or is finalized by then.
   */
  expiresAt: z.string(),
});
export type SolanaRefundBody = z.infer<typeof solanaRefundBodySchema>;

/**
 * What a Solana refund plan says of its refund: the claim as for every refund plan, and the
 * payment it refunds as the signatures of the transactions that paid the merchant's wallet, which
 * the signer reads from its own node to learn what the payment paid it.
 */
export const solanaPlanRefundSchema = planRefundSchema
  .omit({ payment: true })
  .extend({ payment: z.object({ signatures: z.array(solanaSignature).min(1).max(20) }) });
export type SolanaPlanRefund = z.infer<typeof solanaPlanRefundSchema>;

export const solanaRefundPlanSchema = z.object({
  planId: z.uuid(),
  mode: z.enum(MODE_VALUES),
  network: z.literal('solana'),
  currency: z.string(),
  kind: z.literal('refund'),
  format: z.literal('solana'),
  status: z.enum(PLAN_STATUS_VALUES),
  body: solanaRefundBodySchema,
  refund: solanaPlanRefundSchema,
  /** Its transaction's signature once seen, and why a plan failed or went stale. */
  txid: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type SolanaRefundPlan = z.infer<typeof solanaRefundPlanSchema>;
