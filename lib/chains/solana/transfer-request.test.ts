import {
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Address,
} from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { describe, expect, it } from 'vitest';
import { MEMO_PROGRAM_ADDRESS, type TransferContext } from './transactions';
import { transferRequest, transferTransaction } from './transfer-request';

// Keys are any 32 bytes in base58 (32 ones, twos, threes).
const PAYER = '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi' as Address;
const WALLET = '8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR' as Address;
const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' as Address;
const REFERENCE = 'CktRuQ2mttgRGkXJtyksdKHjUdc2C4TgDzyB98oEzy8' as Address;
const BLOCKHASH = 'BLockhashBLockhashBLockhashBLockhashBLockha1';
const SYSTEM = '11111111111111111111111111111111';
const TOKEN_2022 = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb' as Address;

const decimalsOf = (mint: string | null) => (mint === null ? 9 : mint === MINT ? 6 : undefined);
const context: TransferContext = { blockhash: BLOCKHASH, lastValidBlockHeight: 100 };

/** The transaction's message as a wallet reads it: signatures, keys by role, instructions with their keys. */
function decode(base64: string) {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(base64));
  const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
  const keys = message.staticAccounts.map(String);
  const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
  const role = (i: number) =>
    i < numSignerAccounts
      ? i < numSignerAccounts - numReadonlySignerAccounts
        ? 'writable signer'
        : 'signer'
      : i < keys.length - numReadonlyNonSignerAccounts
        ? 'writable'
        : 'read-only';
  return {
    version: message.version,
    blockhash: message.lifetimeToken,
    signatures: Object.entries(tx.signatures).map(([key, signature]) => [key, signature]),
    instructions: ('instructions' in message ? message.instructions : []).map((ix) => ({
      program: keys[ix.programAddressIndex],
      accounts: (ix.accountIndices ?? []).map((i) => [keys[i], role(i)]),
      data: [...(ix.data ?? [])],
    })),
  };
}

const ata = async (owner: Address, program: Address = TOKEN_PROGRAM_ADDRESS) =>
  (await findAssociatedTokenPda({ owner, mint: MINT, tokenProgram: program }))[0];
const u64 = (n: bigint) => [...new Uint8Array(new BigUint64Array([n]).buffer)];

describe('transferRequest', () => {
  it('reads recipient, amount in base units, mint, the one reference and the memo', () => {
    expect(
      transferRequest(
        `solana:${WALLET}?amount=12.5&spl-token=${MINT}&reference=${REFERENCE}&label=Shop&memo=order%2042`,
        decimalsOf,
      ),
    ).toEqual({ recipient: WALLET, amount: 12_500_000n, splToken: MINT, reference: REFERENCE, memo: 'order 42' });
    expect(transferRequest(`solana:${WALLET}?amount=0.000000001&reference=${REFERENCE}`, decimalsOf)).toEqual({
      recipient: WALLET,
      amount: 1n,
      reference: REFERENCE,
    });
  });

  it('is null for a request that asks for nothing, or that is not one of ours', () => {
    for (const uri of [
      `solana:${WALLET}?reference=${REFERENCE}`, // nothing left to pay
      `solana:${WALLET}?amount=0&reference=${REFERENCE}`,
      `solana:${WALLET}?amount=1.0000000001&reference=${REFERENCE}`, // more decimals than SOL has
      `solana:${WALLET}?amount=1&spl-token=${REFERENCE}&reference=${REFERENCE}`, // a mint of no currency
      `solana:${WALLET}?amount=1`, // no reference
      `solana:${WALLET}?amount=1&reference=${REFERENCE}&reference=${PAYER}`,
      `solana:${WALLET}?amount=1&reference=0OIl`,
      `solana:0OIl?amount=1&reference=${REFERENCE}`,
      `ethereum:0x0000000000000000000000000000000000000000@1?value=1`,
      `solana:${WALLET}?amount=-1&reference=${REFERENCE}`,
      `solana:${WALLET}?amount=${'9'.repeat(80)}&reference=${REFERENCE}`,
    ])
      expect(transferRequest(uri, decimalsOf), uri).toBeNull();
  });
});

describe('transferTransaction', () => {
  it('SOL: one System transfer of the lamports, the reference read-only after its accounts, the payer the only signer', async () => {
    const request = transferRequest(`solana:${WALLET}?amount=1.5&reference=${REFERENCE}`, decimalsOf)!;
    expect(decode(await transferTransaction(request, PAYER, context))).toEqual({
      version: 'legacy',
      blockhash: BLOCKHASH,
      // The wallet signs: the transaction comes with the payer's slot empty.
      signatures: [[PAYER, null]],
      instructions: [
        {
          program: SYSTEM,
          accounts: [
            [PAYER, 'writable signer'],
            [WALLET, 'writable'],
            [REFERENCE, 'read-only'],
          ],
          // Transfer (2, u32) and the lamports (u64), little-endian.
          data: [2, 0, 0, 0, ...u64(1_500_000_000n)],
        },
      ],
    });
  });

  it("a token: a memo, then TransferChecked from the payer's to the wallet's associated account, with the decimals", async () => {
    const request = transferRequest(
      `solana:${WALLET}?amount=12.5&spl-token=${MINT}&reference=${REFERENCE}&memo=order%2042`,
      decimalsOf,
    )!;
    const built = decode(
      await transferTransaction(request, PAYER, { ...context, token: { program: TOKEN_PROGRAM_ADDRESS, decimals: 6 } }),
    );
    expect(built.instructions).toEqual([
      { program: MEMO_PROGRAM_ADDRESS, accounts: [], data: [...new TextEncoder().encode('order 42')] },
      {
        program: TOKEN_PROGRAM_ADDRESS,
        accounts: [
          [await ata(PAYER), 'writable'],
          [MINT, 'read-only'],
          [await ata(WALLET), 'writable'],
          [PAYER, 'writable signer'],
          [REFERENCE, 'read-only'],
        ],
        // TransferChecked (12), the amount (u64) and the decimals (u8).
        data: [12, ...u64(12_500_000n), 6],
      },
    ]);
    expect(built.signatures).toEqual([[PAYER, null]]);
  });

  it("a Token-2022 mint: its program, and the accounts of that program (other addresses than the SPL Token's)", async () => {
    const request = transferRequest(`solana:${WALLET}?amount=1&spl-token=${MINT}&reference=${REFERENCE}`, decimalsOf)!;
    const [transfer] = decode(
      await transferTransaction(request, PAYER, { ...context, token: { program: TOKEN_2022, decimals: 6 } }),
    ).instructions;
    expect(transfer!.program).toBe(TOKEN_2022);
    expect(transfer!.accounts.map(([key]) => key)).toEqual([
      await ata(PAYER, TOKEN_2022),
      MINT,
      await ata(WALLET, TOKEN_2022),
      PAYER,
      REFERENCE,
    ]);
    expect(await ata(WALLET, TOKEN_2022)).not.toBe(await ata(WALLET));
  });

  it('a token request without its program is refused rather than guessed', async () => {
    const request = transferRequest(`solana:${WALLET}?amount=1&spl-token=${MINT}&reference=${REFERENCE}`, decimalsOf)!;
    await expect(transferTransaction(request, PAYER, context)).rejects.toThrow(/mint program/);
  });
});
