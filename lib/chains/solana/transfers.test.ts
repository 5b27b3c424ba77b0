import { describe, expect, it } from 'vitest';
import type { TransactionAnswer } from './answers';
import { referenceOf, transfersOf, transfersToAnyone, type ReceivingAccounts } from './transfers';

// Keys are any 32-byte base58 strings; these name their role.
const PAYER = 'PayerPayerPayerPayerPayerPayerPayerPayer1111';
const SOURCE = 'SourceSourceSourceSourceSourceSourceSource11';
const WALLET = 'Wa11etWa11etWa11etWa11etWa11etWa11etWa11et11';
const ATA = 'AtaAtaAtaAtaAtaAtaAtaAtaAtaAtaAtaAtaAtaAta11';
const MINT = 'MintMintMintMintMintMintMintMintMintMintMint';
const OTHER_MINT = 'XintXintXintXintXintXintXintXintXintXintXint';
const REFERENCE = 'RefRefRefRefRefRefRefRefRefRefRefRefRefRef11';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const SYSTEM = '11111111111111111111111111111111';

const receiving: ReceivingAccounts = {
  wallet: WALLET,
  native: 'SOL',
  tokens: [{ account: ATA, mint: MINT, ticker: 'USDC' }],
};
const at = { slot: 9, time: new Date(0) };

/**
 * A TransferChecked of `amount` (SOURCE -> ATA, the mint read-only) carrying `reference`; account
 * keys as a message orders them: writable signers, writable non-signers, read-only non-signers
 * (the mint first here, before the reference, as a wallet may order them).
 */
function tokenTx(amount: bigint, options: { mint?: string; owner?: string; err?: unknown; before?: bigint } = {}) {
  const mint = options.mint ?? MINT;
  const keys = [PAYER, SOURCE, ATA, mint, REFERENCE, TOKEN];
  const balance = (index: number, value: bigint, owner: string) => ({
    accountIndex: index,
    mint,
    owner,
    uiTokenAmount: { amount: value.toString() },
  });
  const before = options.before ?? 0n;
  return {
    slot: 9,
    blockTime: 0,
    meta: {
      err: options.err ?? null,
      preBalances: keys.map(() => 1_000_000),
      postBalances: keys.map((_, i) => (i === 0 ? 995_000 : 1_000_000)),
      preTokenBalances: [balance(1, 1_000n, PAYER), balance(2, before, options.owner ?? WALLET)],
      postTokenBalances: [balance(1, 1_000n - amount, PAYER), balance(2, before + amount, options.owner ?? WALLET)],
      loadedAddresses: { writable: [], readonly: [] },
      innerInstructions: [],
    },
    transaction: {
      signatures: ['5'.repeat(64)],
      message: {
        accountKeys: keys,
        header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 3 },
        instructions: [{ programIdIndex: 5, accounts: [1, 3, 2, 0, 4] }],
      },
    },
  } satisfies TransactionAnswer;
}

describe('Solana: the reference of a transaction', () => {
  it('is the first read-only non-signer key that is no mint, program or sysvar', () => {
    expect(referenceOf(tokenTx(5n))).toBe(REFERENCE);
  });

  it('is none when only the mint and programs are read-only', () => {
    const tx = tokenTx(5n);
    tx.transaction.message.accountKeys = [PAYER, SOURCE, ATA, MINT, SYSTEM, TOKEN];
    expect(referenceOf(tx)).toBeNull();
  });

  it('is not the receiving wallet a payment passes read-only to create its token account, ahead of the reference', () => {
    const tx = tokenTx(5n);
    tx.transaction.message.accountKeys = [PAYER, SOURCE, ATA, MINT, WALLET, REFERENCE, TOKEN];
    tx.transaction.message.header.numReadonlyUnsignedAccounts = 4;
    tx.transaction.message.instructions = [{ programIdIndex: 6, accounts: [1, 3, 2, 0, 4, 5] }];
    expect(referenceOf(tx)).toBe(REFERENCE);
  });
});

describe('Solana: what a transaction paid, from its balances', () => {
  it('credits the growth of the wallet token account of the mint, under the reference', () => {
    expect(transfersOf(tokenTx(7n, { before: 100n }), receiving, at)).toEqual([
      expect.objectContaining({
        currency: 'USDC',
        amount: 7n,
        tag: REFERENCE,
        to: WALLET,
        from: PAYER,
        outputIndex: 2,
      }),
    ]);
  });

  it('credits nothing of another mint, of an account another owner holds, or of a failed transaction', () => {
    expect(transfersOf(tokenTx(7n, { mint: OTHER_MINT }), receiving, at)).toEqual([]);
    expect(transfersOf(tokenTx(7n, { owner: PAYER }), receiving, at)).toEqual([]);
    expect(transfersOf(tokenTx(7n, { err: { InstructionError: [0, 'Custom'] } }), receiving, at)).toEqual([]);
  });

  it('refuses an answer whose balances are not one per account', () => {
    const tx = tokenTx(7n);
    tx.meta.postBalances.pop();
    expect(() => transfersOf(tx, receiving, at)).toThrow(/balances/);
  });
});

describe('Solana: every value a transaction moved (a refund sent by hand, looked up by its signature)', () => {
  const currencies = { native: 'SOL', tokens: [{ mint: MINT, ticker: 'USDC' }] };

  it("names the configured mint's tokens to the owner of the account that grew, and SOL to each account that grew", () => {
    const tx = tokenTx(7n, { before: 100n });
    // The payer also sent 2,000 lamports to the reference's key (any account whose lamports grew).
    (tx.meta.postBalances as number[])[4] = 1_002_000;
    expect(transfersToAnyone(tx, currencies, at)).toEqual([
      expect.objectContaining({ currency: 'SOL', amount: 2_000n, to: REFERENCE, from: PAYER, tag: null }),
      expect.objectContaining({ currency: 'USDC', amount: 7n, to: WALLET, from: PAYER, tag: null, outputIndex: 2 }),
    ]);
  });

  it('names nothing of another mint, of a failed transaction, or where nothing grew', () => {
    expect(transfersToAnyone(tokenTx(7n, { mint: OTHER_MINT }), currencies, at)).toEqual([]);
    expect(transfersToAnyone(tokenTx(7n, { err: { InstructionError: [0, 'Custom'] } }), currencies, at)).toEqual([]);
    expect(transfersToAnyone(tokenTx(0n), currencies, at)).toEqual([]);
  });
});
