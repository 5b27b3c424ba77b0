import 'server-only';
/**
 * The shapes of the node's answers this adapter reads, as java-tron's HTTP API writes them
 * (protobuf messages printed as JSON without `visible`: addresses in hex with their 0x41 version
 * byte, fields at their default value left out, e.g. block 0's `number`). Only the fields used
 * are checked; the rest passes untouched. Amounts arrive as text (./node quotes them).
 *
 * - Block: /wallet/getblock, /wallet/getblockbylimitnext (developers.tron.network/reference/getblock,
 *   .../getblockbylimitnext).
 * - TransactionInfo: /wallet/gettransactioninfobyblocknum (.../gettransactioninfobyblocknum).
 * - A constant call's result: /wallet/triggerconstantcontract (.../triggerconstantcontract).
 * - Block 0: /wallet/getblockbynum (tronprotocol.github.io/documentation-en/api/http/block-and-tx-query/getblockbynum/).
 */
import { z } from 'zod';

const hex = z.string().regex(/^[0-9a-fA-F]*$/, 'must be hex');
const hash = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits');
/** "41" + 20 bytes: an account as the node writes it without `visible`. */
const account = z.string().regex(/^41[0-9a-fA-F]{40}$/, 'must be a hex Tron address (41 + 40 hex digits)');
const amount = z
  .string()
  .regex(/^\d{1,78}$/, 'must be a whole number of sun')
  .transform(BigInt);

const header = z.object({
  raw_data: z.object({
    number: z.number().int().nonnegative().default(0),
    parentHash: hash,
    timestamp: z.number().int().nonnegative().default(0),
  }),
});

const contract = z.object({ type: z.string(), parameter: z.object({ value: z.record(z.string(), z.unknown()) }) });

const transaction = z.object({
  txID: hash,
  ret: z.array(z.object({ contractRet: z.string().optional() })).default([]),
  raw_data: z.object({ contract: z.array(contract).default([]) }),
});

export const block = z.object({
  blockID: hash,
  block_header: header,
  transactions: z.array(transaction).default([]),
});
export type Block = z.output<typeof block>;
export type Transaction = z.output<typeof transaction>;

/** /wallet/getblock answers `{}` for a height above its head. */
export const blockOrNone = z.union([
  block,
  z
    .object({})
    .strict()
    .transform(() => null),
]);

/** /wallet/getblockbylimitnext: `{}` when no block is in the range. */
export const blockRange = z.object({ block: z.array(block).default([]) });

/** A TransferContract's parameters: a native TRX payment. */
export const trxTransfer = z.object({ amount, owner_address: account, to_address: account });

const log = z.object({
  /** The emitting contract's 20 bytes (no version byte). */
  address: hex,
  topics: z.array(hex).default([]),
  data: hex.default(''),
});

export const transactionInfo = z.object({
  id: hash,
  blockNumber: z.number().int().nonnegative().default(0),
  /** "FAILED" when the transaction failed; left out on success. */
  result: z.string().optional(),
  /** A contract call's outcome: SUCCESS, REVERT, OUT_OF_ENERGY...; left out for plain transfers. */
  receipt: z.object({ result: z.string().optional() }).default({}),
  log: z.array(log).default([]),
  /** What the transaction burned, in sun (bandwidth, energy, account creation); left out when nothing. */
  fee: z.number().int().nonnegative().default(0),
});
export type TransactionInfo = z.output<typeof transactionInfo>;

/** /wallet/gettransactioninfobyid: `{}` for an id the node does not have in a block. */
export const transactionInfoOrNone = z.union([
  transactionInfo,
  z
    .object({})
    .strict()
    .transform(() => null),
]);

/** `{}` for a block with no transaction. */
export const transactionInfos = z.union([
  z.array(transactionInfo),
  z
    .object({})
    .strict()
    .transform(() => []),
]);

/**
 * /wallet/triggerconstantcontract: the call's return data as hex words; `result.code` and its
 * hex-encoded `message` when the node refused it (no contract at the address, a revert...).
 */
export const constantCall = z.object({
  result: z
    .object({ result: z.boolean().optional(), code: z.string().optional(), message: hex.optional() })
    .default({}),
  constant_result: z.array(hex).default([]),
});

/**
 * /wallet/getblockbynum {"num": 0}: the genesis block's id (its header's `number` left out, being
 * 0); `{}` from a node that has no such block. Its transactions (the first allocations) are not read.
 */
export const genesisBlockOrNone = z.union([
  z.object({
    blockID: hash,
    block_header: z.object({ raw_data: z.object({ number: z.number().int().nonnegative().default(0) }) }),
  }),
  z
    .object({})
    .strict()
    .transform(() => null),
]);
