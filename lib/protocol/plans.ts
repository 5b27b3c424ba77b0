/**
 * Money-out plans as they travel between the gateway and the signer (scripts/signer, on the
 * merchant's machine): a collection of a network's deposit outputs to the merchant's treasury, or
 * a refund paid from them to the address a payer confirmed, the change to the treasury.
 * The gateway prepares; the signer reads this shape, but trusts only what it decodes from the
 * transaction itself and what it checks of a refund's payment (docs/decisions/052, 081).
 *
 * Plan statuses (lib/payouts lifecycle):
 * - prepared: built, waiting for a signature.
 * - broadcast: its transaction was seen on the network (mempool or a block below the required confirmations).
 * - confirmed: its transaction has the network's required confirmations. Final; `collection.completed`.
 * - failed: its transaction was dropped, or never appeared; `reason` says which. Final; `collection.failed`.
 * - stale: an input was spent by another transaction before this plan's was seen. Final; never signed; `collection.stale`.
 * Refund plans have no events of their own: their refund's (`refund.sent`, `refund.failed`...) say it.
 */
import { z } from 'zod';
import { decimalString } from './decimal';
import { CLAIM_DELIVERY_VALUES } from './refunds';
import { MODE_VALUES } from './status';

export const PLAN_STATUS_VALUES = ['prepared', 'broadcast', 'confirmed', 'failed', 'stale'] as const;
export type PlanStatus = (typeof PLAN_STATUS_VALUES)[number];

/** What a plan does: `collection` pays the treasury only; `refund` pays one refund to its payer, the change to the treasury. */
export const PLAN_KIND_VALUES = ['collection', 'refund'] as const;
export type PlanKind = (typeof PLAN_KIND_VALUES)[number];

/**
 * How a stored plan carries its transactions: `psbt`, one Bitcoin-family PSBT; `raw`, one unsigned
 * dogecoin or bitcoincash transaction the signer signs itself (docs/decisions/118); `evm`, an EVM plan's
 * unsigned transactions (./evm-plans.ts); `tron`, a Tron plan's steps (docs/decisions/093); `solana`,
 * a Solana refund's one transfer, which the signer builds (./solana-plans.ts, docs/decisions/106);
 * `xrpl`, an XRP Ledger refund's one Payment (./xrpl-plans.ts, docs/decisions/119).
 */
export const PLAN_FORMAT_VALUES = ['psbt', 'raw', 'evm', 'tron', 'solana', 'xrpl'] as const;
export type PlanFormat = (typeof PLAN_FORMAT_VALUES)[number];

export const planInputSchema = z.object({
  txid: z.string().regex(/^[0-9a-f]{64}$/),
  vout: z.number().int().nonnegative(),
  address: z.string(),
  /** In the coin, a decimal string. */
  amount: decimalString,
  /** The full derivation path from the master key, `m/84'/2'/0'/0/7`. */
  path: z.string().regex(/^m(\/\d+'?)+$/),
});

const planFields = {
  planId: z.uuid(),
  mode: z.enum(MODE_VALUES),
  network: z.string(),
  /** The coin's chain: mainnet, or a test chain whose coins have no value. */
  chain: z.enum(['mainnet', 'testnet', 'regtest']),
  currency: z.string(),
  /** A BIP 174 version 0 PSBT (bitcoin, litecoin); dogecoin and bitcoincash plans are `raw` (`rawCollectionPlanSchema`). */
  format: z.literal('psbt'),
  status: z.enum(PLAN_STATUS_VALUES),
  treasury: z.string(),
  /** The master fingerprint of the key the inputs come from, eight hex digits. */
  masterFingerprint: z.string().regex(/^[0-9a-f]{8}$/),
  inputs: z.array(planInputSchema).min(1),
  total: decimalString,
  fee: decimalString,
  /** Base units per virtual byte. */
  feeRate: z.string().regex(/^\d+$/),
  sent: decimalString,
  /** base64 */
  psbt: z.string(),
  /** The collecting transaction once seen, and why a plan failed. */
  txid: z.string().nullable(),
  reason: z.string().nullable(),
  /**
   * When the network's node (the sandbox in test mode) first held the plan's transaction unmined:
   * taken through `collections/submit`, or seen by the watcher in its mempool; null until then. Its status stays `prepared` until it is mined
   * (docs/decisions/105). Absent from plan files written before it existed.
   */
  acceptedAt: z.string().nullable().optional(),
  createdAt: z.string(),
};

export const collectionPlanSchema = z.object({ ...planFields, kind: z.literal('collection') });
export type CollectionPlan = z.infer<typeof collectionPlanSchema>;

const txid = z.string().regex(/^[0-9a-f]{64}$/);
const hexBytes = z.string().regex(/^([0-9a-f]{2})+$/, 'must be lower-case hex');

/**
 * A raw plan's input: the PSBT plan's, with what the signer checks and signs over (docs/decisions/118):
 * the spent output's script and the full previous transaction, which must hash to `txid` and pay
 * `amount` to `script` (bitcoincash's signature hash commits to the amount).
 */
export const rawPlanInputSchema = planInputSchema.extend({ script: hexBytes, previousTx: hexBytes });

/**
 * A collection of a network whose wallets read no PSBT (dogecoin, bitcoincash): the unsigned
 * transaction, hex (version 1 on dogecoin, 2 on bitcoincash), which the signer decodes, checks and
 * signs itself: the legacy signature hash on dogecoin, SIGHASH_ALL|FORKID on bitcoincash.
 */
export const rawCollectionPlanSchema = collectionPlanSchema
  .omit({ format: true, psbt: true, inputs: true })
  .extend({ format: z.literal('raw'), unsignedTx: hexBytes, inputs: z.array(rawPlanInputSchema).min(1) });
export type RawCollectionPlan = z.infer<typeof rawCollectionPlanSchema>;

/**
 * What a refund plan says of its refund, for the signer to check and show: the claim (where the
 * payer asked to be paid, and when), and the payment it refunds as the signer can verify it on its
 * own: the outputs of that payment that paid keys of the merchant's seed, with their full
 * transactions (and the block each is in, for the signer's node).
 */
export const planRefundSchema = z.object({
  refundId: z.uuid(),
  orderId: z.uuid().nullable(),
  invoiceId: z.uuid().nullable(),
  depositId: z.uuid().nullable(),
  /** The refund, in the coin. */
  amount: decimalString,
  /** What the output to the payer pays: `amount`, less the network fee when the fee is taken from the refund. */
  pays: decimalString,
  feeFromRefund: z.boolean(),
  /**
   * The address, and when it was confirmed: by the payer through the claim link, or by the merchant
   * choosing the address the payment came from (`delivery` `sender`, docs/decisions/125 and 126,
   * which the signer checks on its own node).
   */
  destination: z.string(),
  addressConfirmedAt: z.string(),
  /** The refund's `claim.delivery`; absent from plans prepared before it was stated, all of them the payer's claims. */
  delivery: z.enum(CLAIM_DELIVERY_VALUES).optional(),
  payment: z.object({
    outputs: z.array(z.object({ txid, vout: z.number().int().nonnegative(), path: planInputSchema.shape.path })).min(1),
    transactions: z.array(z.object({ txid, blockHash: txid, hex: z.string().regex(/^([0-9a-f]{2})+$/) })).min(1),
  }),
});
export type PlanRefund = z.infer<typeof planRefundSchema>;

export const refundPlanSchema = z.object({ ...planFields, kind: z.literal('refund'), refund: planRefundSchema });
export type RefundPlan = z.infer<typeof refundPlanSchema>;

/**
 * A refund plan of dogecoin or bitcoincash (docs/decisions/121): a raw collection plan's unsigned
 * transaction and inputs, paying the refund to its address and the change to the treasury, with the
 * refund as a PSBT refund plan carries it.
 */
export const rawRefundPlanSchema = rawCollectionPlanSchema
  .omit({ kind: true })
  .extend({ kind: z.literal('refund'), refund: planRefundSchema });
export type RawRefundPlan = z.infer<typeof rawRefundPlanSchema>;

/** Any plan the signer reads. */
export const moneyOutPlanSchema = z.discriminatedUnion('kind', [collectionPlanSchema, refundPlanSchema]);
export type MoneyOutPlan = z.infer<typeof moneyOutPlanSchema>;

/** Any Bitcoin-family plan the signer signs: a PSBT plan, or a raw collection or refund. */
export const bitcoinFamilyPlanSchema = z.union([moneyOutPlanSchema, rawCollectionPlanSchema, rawRefundPlanSchema]);

const sun = z.string().regex(/^\d{1,30}$/, 'must be a whole number of base units');
const tronAccount = z.string().regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'must be a Tron address');

/** The steps of one Tron deposit address's collection, in the order they are broadcast (docs/decisions/086). */
const TRON_PLAN_STEP_VALUES = ['activate', 'fund', 'delegate', 'transfer', 'reclaim', 'sweep'] as const;

const tronPlanStepSchema = z.object({
  step: z.enum(TRON_PLAN_STEP_VALUES),
  txID: txid,
  /** The transaction's `raw_data` protobuf, hex: what the signer decodes and signs. */
  rawDataHex: z.string().regex(/^([0-9a-f]{2})+$/),
  /** TRX this step burns, in sun, at the node's prices when the plan was prepared (bandwidth, energy, account creation). */
  burn: sun,
  status: z.enum(PLAN_STATUS_VALUES),
  reason: z.string().nullable(),
});

const tronPlanAddressSchema = z.object({
  address: tronAccount,
  /** The full derivation path of the deposit key, `m/44'/195'/0'/0/7`. */
  path: planInputSchema.shape.path,
  /** The token held, in its base units; in a plan of TRX itself, the sun its sweep sends. */
  amount: sun,
  /** Whether the address was an account on chain when the plan was prepared. */
  active: z.boolean(),
  /** Energy the token transfer uses, read from the node (the contract's energy use with its dynamic factor). */
  energy: sun,
  /** Staked TRX delegated for that energy, in sun (0 when the transfer burns TRX instead). */
  delegated: sun,
  steps: z.array(tronPlanStepSchema).min(1),
});

/**
 * A Tron collection: each deposit address's TRC-20 balance to the treasury, with energy delegated
 * from the merchant's staked TRX (its resource account, a path of its own seed) or, without
 * stake, TRX burned for it. Every cost is read from the node when the plan is prepared.
 * Base units throughout (sun for TRX, the token's own for `amount`).
 */
export const tronCollectionPlanSchema = z.object({
  planId: z.uuid(),
  kind: z.literal('collection'),
  format: z.literal('tron'),
  mode: z.enum(MODE_VALUES),
  network: z.literal('tron'),
  chain: z.enum(['mainnet', 'testnet', 'regtest']),
  currency: z.string(),
  /** The token's contract; null in a plan of TRX itself, whose steps are each address's `sweep` (docs/decisions/113). */
  token: tronAccount.nullable(),
  treasury: tronAccount,
  /** The merchant's account holding staked TRX, which activates, lends energy and pays bandwidth. */
  resourceAccount: z.object({ address: tronAccount, path: planInputSchema.shape.path }),
  /** Energy delegated from stake (`stake`), or TRX burned for it (`burn`). */
  energySource: z.enum(['stake', 'burn']),
  /** The node's prices when the plan was prepared (wallet/getchainparameters, the token contract's energy factor). */
  prices: z.object({
    energyFee: sun,
    transactionFee: sun,
    createAccountFee: sun,
    createNewAccountFeeInSystemContract: sun,
    energyFactor: sun,
  }),
  addresses: z.array(tronPlanAddressSchema).min(1),
  /** Tokens collected, and TRX burned by the whole plan, base units. */
  total: sun,
  burn: sun,
  status: z.enum(PLAN_STATUS_VALUES),
  /** The transactions expire then (java-tron refuses them later): sign and broadcast before. */
  expiresAt: z.string(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type TronCollectionPlan = z.infer<typeof tronCollectionPlanSchema>;

/**
 * What a Tron refund plan says of its refund (docs/decisions/115): the claim as for every refund
 * plan, and the payment it refunds as the transactions that paid deposit addresses of the merchant's
 * seed (each address with its path), which the signer reads on its own node to learn what they paid.
 */
export const tronPlanRefundSchema = planRefundSchema.omit({ payment: true }).extend({
  payment: z.object({
    transfers: z
      .array(z.object({ txHash: txid, address: tronAccount, path: planInputSchema.shape.path }))
      .min(1)
      .max(50),
  }),
});
export type TronPlanRefund = z.infer<typeof tronPlanRefundSchema>;

/**
 * A Tron refund plan (docs/decisions/115): one transaction from the merchant's treasury, TRX to the
 * address the payer confirmed (TransferContract) or a TRC-20's `transfer(destination, amount)`
 * (TriggerSmartContract) with its fee limit, built on the node's head block as a collection's steps
 * are. Its id is sha256 of its raw_data, known before it is signed. Base units throughout.
 */
export const tronRefundPlanSchema = z.object({
  planId: z.uuid(),
  kind: z.literal('refund'),
  /** The family's plan format (`collection_plans.format`): what tells a refund plan's shape. */
  format: z.literal('tron'),
  mode: z.enum(MODE_VALUES),
  network: z.literal('tron'),
  chain: z.enum(['mainnet', 'testnet', 'regtest']),
  currency: z.string(),
  /** The token's contract and decimals; null for TRX. */
  token: z.object({ contract: tronAccount, decimals: z.number().int().min(0).max(36) }).nullable(),
  status: z.enum(PLAN_STATUS_VALUES),
  /** The account that pays the refund and its fee: the merchant's treasury for tron. */
  treasury: tronAccount,
  transaction: z.object({
    txID: txid,
    /** The transaction's `raw_data` protobuf, hex: what the signer decodes and signs. */
    rawDataHex: z.string().regex(/^([0-9a-f]{2})+$/),
    /** The most TRX (sun) the transaction may burn for energy (0 for TRX itself), and what it burns at the node's prices. */
    feeLimit: sun,
    burn: sun,
    /** java-tron refuses it after then: sign and submit before. */
    expiresAt: z.string(),
  }),
  refund: tronPlanRefundSchema,
  /** Its transaction's id (known when prepared), and why a plan failed. */
  txid: z.string().nullable(),
  reason: z.string().nullable(),
  /** When the node took its transaction through `collections/submit` (docs/decisions/105). */
  acceptedAt: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type TronRefundPlan = z.infer<typeof tronRefundPlanSchema>;

/** A plan in a list (`collections/list`): what it moves and where it stands, without its PSBT. */
export const planSummarySchema = z.object({
  planId: z.uuid(),
  kind: z.enum(PLAN_KIND_VALUES),
  network: z.string(),
  currency: z.string(),
  status: z.enum(PLAN_STATUS_VALUES),
  /** How many deposit outputs it spends. */
  inputs: z.number().int().nonnegative(),
  total: decimalString,
  fee: decimalString,
  sent: decimalString,
  treasury: z.string(),
  /** The refund a refund plan pays; null for a collection. */
  refundId: z.uuid().nullable(),
  txid: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type PlanSummary = z.infer<typeof planSummarySchema>;

/** collections/list's answer, newest first. */
export const planListResponse = z.object({ plans: z.array(planSummarySchema) });

/** collections/submit's answer: the plan, whose transaction the gateway's node took (its status moves as the watcher sees it). */
export const planSubmittedResponse = z.object({
  planId: z.uuid(),
  kind: z.enum(PLAN_KIND_VALUES),
  status: z.enum(PLAN_STATUS_VALUES),
  /** Bitcoin family: 64 hex digits; EVM: 0x and 64 (docs/decisions/112); XRP Ledger: 64 upper-case, as the ledger writes them (119). */
  txid: z.string().regex(/^((0x)?[0-9a-f]{64}|[0-9A-F]{64})$/),
});
export type PlanSubmitted = z.infer<typeof planSubmittedResponse>;
