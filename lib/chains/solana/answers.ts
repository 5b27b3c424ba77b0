import 'server-only';
/**
 * The shapes of the Solana JSON-RPC answers the adapter reads, as https://solana.com/docs/rpc/http
 * gives them, checked with zod at the edge. Only the fields read are named; amounts stay strings of
 * digits (token amounts) or safe integers (lamports, which JSON carries as numbers: a u64 above 2^53
 * would lose digits, and is refused rather than read wrong).
 */
import { z } from 'zod';

const base58 = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{32,88}$/, 'is not base58');
const slot = z.number().int().nonnegative();
/** Lamports: a JSON number; one that is not a safe integer could not be read exactly. */
const lamports = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER, 'is too large to read exactly');

export const slotAnswer = slot;
export const slotsAnswer = z.array(slot);

/** getBlock with `transactionDetails: "none"`: the header alone. */
export const blockAnswer = z
  .object({
    blockhash: base58,
    previousBlockhash: base58,
    parentSlot: slot,
    blockTime: z.number().int().nullable(),
  })
  .nullable();
export type BlockAnswer = NonNullable<z.output<typeof blockAnswer>>;

export const signaturesAnswer = z.array(
  z.object({
    signature: base58,
    slot,
    // Null when the transaction succeeded; any other value is the error it failed with.
    err: z.unknown(),
  }),
);
export type SignatureInfo = z.output<typeof signaturesAnswer>[number];

const tokenBalance = z.object({
  accountIndex: z.number().int().nonnegative(),
  mint: base58,
  owner: base58.optional(),
  programId: base58.optional(),
  uiTokenAmount: z.object({ amount: z.string().regex(/^\d{1,30}$/, 'is not a token amount') }),
});
export type TokenBalance = z.output<typeof tokenBalance>;

const compiledInstruction = z.object({
  programIdIndex: z.number().int().nonnegative(),
  accounts: z.array(z.number().int().nonnegative()),
});

/** getTransaction with `encoding: "json"` (legacy and version 0 transactions). */
export const transactionAnswer = z
  .object({
    slot,
    blockTime: z.number().int().nullable().optional(),
    meta: z.object({
      err: z.unknown(),
      /** Lamports the transaction paid for itself. */
      fee: lamports.optional(),
      preBalances: z.array(lamports),
      postBalances: z.array(lamports),
      preTokenBalances: z.array(tokenBalance).default([]),
      postTokenBalances: z.array(tokenBalance).default([]),
      loadedAddresses: z
        .object({ writable: z.array(base58), readonly: z.array(base58) })
        .default({ writable: [], readonly: [] }),
      innerInstructions: z
        .array(z.object({ index: z.number().int(), instructions: z.array(compiledInstruction) }))
        .nullable()
        .default([]),
    }),
    transaction: z.object({
      signatures: z.array(base58).min(1),
      message: z.object({
        accountKeys: z.array(base58).min(1),
        header: z.object({
          numRequiredSignatures: z.number().int().nonnegative(),
          numReadonlySignedAccounts: z.number().int().nonnegative(),
          numReadonlyUnsignedAccounts: z.number().int().nonnegative(),
        }),
        instructions: z.array(compiledInstruction),
      }),
    }),
  })
  .nullable();
export type TransactionAnswer = NonNullable<z.output<typeof transactionAnswer>>;

/** getAccountInfo with `encoding: "base64"`: null where no account is. */
export const accountAnswer = z.object({
  value: z
    .object({
      owner: base58,
      lamports,
      data: z.tuple([z.string(), z.literal('base64')]),
    })
    .nullable(),
});
export type AccountAnswer = z.output<typeof accountAnswer>['value'];

export const latestBlockhashAnswer = z.object({
  value: z.object({ blockhash: base58, lastValidBlockHeight: z.number().int().nonnegative() }),
});
