/**
 * EVM collection plans as they travel between the gateway and the signer (docs/decisions/085): the
 * unsigned transactions that move the deposit addresses' token and native balances to the
 * merchant's treasury, and for each the key that signs it (the merchant's gas payer, or a deposit
 * address) by its derivation path. The gateway prepares; the signer decodes every transaction and
 * authorization itself and signs only what its own configuration allows.
 *
 * - `sweep`: a type-4 (EIP-7702) transaction from the gas payer to the sweeper, calling
 *   `sweepMany(accounts, tokens)`, with one authorization per account delegating it to the sweeper.
 * - `clear`: a type-4 transaction from the gas payer to itself, carrying one authorization per swept
 *   account to address 0, which removes the delegation (so a plain 21,000-gas transfer to it works again).
 * - `fund`: native coin from the gas payer to a deposit address, for the gas of its own transfers.
 * - `transfer`: from a deposit address, a token's `transfer(treasury, amount)` or the native coin to the treasury.
 */
import { z } from 'zod';
import { solanaRefundPlanSchema } from './solana-plans';
import { xrplRefundPlanSchema } from './xrpl-plans';
import { MODE_VALUES } from './status';
import {
  PLAN_STATUS_VALUES,
  collectionPlanSchema,
  rawCollectionPlanSchema,
  rawRefundPlanSchema,
  planRefundSchema,
  refundPlanSchema,
  tronCollectionPlanSchema,
  tronRefundPlanSchema,
} from './plans';

const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x and 40 hex digits');
/** An integer amount in base units (wei, or the token's), at most 78 digits (2^256). */
const baseUnits = z.string().regex(/^\d{1,78}$/, 'must be an integer in base units');
const hexData = z.string().regex(/^0x([0-9a-fA-F]{2})*$/, 'must be 0x and whole bytes in hex');
/** The full derivation path from the master key, `m/44'/60'/0'/0/7`. */
const derivationPath = z.string().regex(/^m(\/\d{1,10}'?){1,10}$/);
const nonce = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** An EIP-7702 authorization the deposit key is asked to sign: delegate `address` to `contract` on `chainId`. */
export const evmAuthorizationRequestSchema = z.object({
  address: evmAddress,
  path: derivationPath,
  chainId: z.number().int().nonnegative(),
  /** The sweeper, or 0x00…00 to clear the delegation. */
  contract: evmAddress,
  nonce,
});
export type EvmAuthorizationRequest = z.infer<typeof evmAuthorizationRequestSchema>;

export const EVM_TRANSACTION_PURPOSES = ['sweep', 'clear', 'fund', 'transfer'] as const;
export type EvmTransactionPurpose = (typeof EVM_TRANSACTION_PURPOSES)[number];

export const evmUnsignedTransactionSchema = z.object({
  purpose: z.enum(EVM_TRANSACTION_PURPOSES),
  /** The signing key's address and path: the gas payer's or a deposit address's. */
  from: evmAddress,
  path: derivationPath,
  chainId: z.number().int().positive(),
  nonce,
  to: evmAddress,
  /** The path of `to` when it is a deposit address the gas payer funds. */
  toPath: derivationPath.optional(),
  value: baseUnits,
  data: hexData,
  gas: baseUnits,
  maxFeePerGas: baseUnits,
  maxPriorityFeePerGas: baseUnits,
  /** Only in `sweep` and `clear` transactions (type 4). */
  authorizations: z.array(evmAuthorizationRequestSchema).max(1000),
});
export type EvmUnsignedTransaction = z.infer<typeof evmUnsignedTransactionSchema>;

/** A deposit address the plan collects, and how: delegated to the sweeper, or funded then transferring. */
export const evmPlanItemSchema = z.object({
  address: evmAddress,
  path: derivationPath,
  /** A personal address (reused by its user) is never delegated: it always takes `transfers`. */
  personal: z.boolean(),
  method: z.enum(['sweep', 'transfers']),
  balances: z.array(z.object({ currency: z.string(), amount: baseUnits })).min(1),
});
export type EvmPlanItem = z.infer<typeof evmPlanItemSchema>;

export const evmCollectionPlanSchema = z.object({
  planId: z.uuid(),
  kind: z.literal('collection'),
  family: z.literal('evm'),
  mode: z.enum(MODE_VALUES),
  network: z.string(),
  chainId: z.number().int().positive(),
  status: z.enum(PLAN_STATUS_VALUES),
  treasury: evmAddress,
  /** The sweeper paying `treasury` (its CREATE2 address); the signer computes its own and compares. */
  sweeper: evmAddress,
  gasPayer: z.object({ address: evmAddress, path: derivationPath }),
  tokens: z.array(z.object({ ticker: z.string(), contract: evmAddress, decimals: z.number().int().min(0).max(36) })),
  items: z.array(evmPlanItemSchema).min(1),
  /** In the order they must be mined: each key's nonces in sequence. */
  transactions: z.array(evmUnsignedTransactionSchema).min(1).max(10_000),
  /** The most the gas payer can spend: every transaction's gas at its fee cap, plus what it funds. */
  maxGasPayerSpend: baseUnits,
  createdAt: z.string(),
});
export type EvmCollectionPlan = z.infer<typeof evmCollectionPlanSchema>;

/** A stored EVM plan as `collections/get` answers it: the signer's plan, with why it failed (docs/decisions/093). */
export const storedEvmPlanSchema = evmCollectionPlanSchema.extend({ reason: z.string().nullable() });

/** A stored plan of an account chain (EVM or Tron), its status the watcher's. */
export const storedAccountPlanSchema = z.union([storedEvmPlanSchema, tronCollectionPlanSchema]);
export type StoredAccountPlan = z.infer<typeof storedAccountPlanSchema>;

/**
 * What `collections/prepare` and `collections/get` answer: a PSBT plan (bitcoin, litecoin; `format`
 * psbt), a raw one (dogecoin, bitcoincash; `format` raw), an EVM plan (`family` evm) or a Tron plan
 * (`format` tron), as `npm run signer` reads each.
 */
export const anyCollectionPlanSchema = z.union([
  collectionPlanSchema,
  rawCollectionPlanSchema,
  storedEvmPlanSchema,
  tronCollectionPlanSchema,
]);
export type AnyCollectionPlan = z.infer<typeof anyCollectionPlanSchema>;

/**
 * The one transaction of an EVM refund plan (docs/decisions/112): from the merchant's treasury, the
 * refund's coin to the address the payer confirmed, or a token's `transfer(destination, amount)` to
 * its contract, with the nonce and fee fields of a collection plan's transactions. Type 2
 * (EIP-1559). The signer signs it with the treasury's key at the path of its own configuration.
 */
export const evmRefundTransactionSchema = evmUnsignedTransactionSchema
  .pick({ chainId: true, nonce: true, to: true, value: true, data: true, gas: true })
  .extend({
    /** The treasury: the account that pays the refund and its gas. */
    from: evmAddress,
    maxFeePerGas: baseUnits,
    maxPriorityFeePerGas: baseUnits,
  });

/**
 * What an EVM refund plan says of its refund: the claim as for every refund plan, and the payment
 * it refunds as the transfers that paid deposit addresses of the merchant's seed (each address
 * with its path), which the signer reads from its own node to learn what they paid.
 */
export const evmPlanRefundSchema = planRefundSchema.omit({ payment: true }).extend({
  payment: z.object({
    transfers: z
      .array(
        z.object({
          txHash: z.string().regex(/^0x[0-9a-f]{64}$/, 'must be 0x and 64 lower-case hex digits'),
          address: evmAddress,
          path: derivationPath,
        }),
      )
      .min(1)
      .max(50),
  }),
});
export type EvmPlanRefund = z.infer<typeof evmPlanRefundSchema>;

export const evmRefundPlanSchema = z.object({
  planId: z.uuid(),
  kind: z.literal('refund'),
  /** The family's plan format (`collection_plans.format`): what tells a refund plan's shape. */
  format: z.literal('evm'),
  mode: z.enum(MODE_VALUES),
  network: z.string(),
  chainId: z.number().int().positive(),
  currency: z.string(),
  /** The token's contract and decimals; null for the network's coin. */
  token: z.object({ contract: evmAddress, decimals: z.number().int().min(0).max(36) }).nullable(),
  status: z.enum(PLAN_STATUS_VALUES),
  treasury: evmAddress,
  transaction: evmRefundTransactionSchema,
  refund: evmPlanRefundSchema,
  /** Its transaction's hash once submitted (or seen), and why a plan failed or went stale. */
  txid: z.string().nullable(),
  reason: z.string().nullable(),
  /** When the network's node took its transaction through `collections/submit` (docs/decisions/105). */
  acceptedAt: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type EvmRefundPlan = z.infer<typeof evmRefundPlanSchema>;

/**
 * What `refund-plans/prepare` and `refund-plans/get` answer, told apart by `format`: a
 * Bitcoin-family refund plan (`psbt`; `raw` on dogecoin and bitcoincash, docs/decisions/121), an EVM one (`evm`), a Solana
 * transfer (`solana`, ./solana-plans.ts), a Tron transaction (`tron`, ./plans.ts) or an XRP Ledger
 * Payment (`xrpl`, ./xrpl-plans.ts).
 */
export const anyRefundPlanSchema = z.discriminatedUnion('format', [
  refundPlanSchema,
  rawRefundPlanSchema,
  evmRefundPlanSchema,
  solanaRefundPlanSchema,
  tronRefundPlanSchema,
  xrplRefundPlanSchema,
]);
export type AnyRefundPlan = z.infer<typeof anyRefundPlanSchema>;
