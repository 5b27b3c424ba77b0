/**
 * The signer's Solana refunds (docs/decisions/106): the transaction it builds from a plan's body,
 * signed by the wallet's key, and each check against a gateway that rewrites the plan.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import {
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  lamports,
  type Address,
} from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { beforeAll, describe, expect, it } from 'vitest';
import { solanaPrivateKeyOfSeed, solanaWalletOfPrivateKey } from '../../lib/chains/solana/transactions';
import { SignerRefusal } from '../../lib/chains/utxo/transactions';
import { solanaRefundPlanSchema, type SolanaRefundPlan } from '../../lib/protocol';
import type { LedgerEntry } from './refunds';
import {
  ata as facadeAta,
  fundedSigner,
  litesvmMissing,
  mintTo,
  newSolanaLedger,
  writeMint,
  type SolanaLedger,
} from '../../tests/support/solana-facade';
import { checkSolanaRefund, signSolanaRefund, solanaLedgerEntry } from './sign-solana';
import { describeSolanaRefund, paidToWallet, type SolanaNode } from './solana';

const KEY = solanaPrivateKeyOfSeed(new Uint8Array(64).fill(7));
const WALLET = solanaWalletOfPrivateKey(KEY);
const OTHER_WALLET = solanaWalletOfPrivateKey(solanaPrivateKeyOfSeed(new Uint8Array(64).fill(8)));
// Any 32 bytes in base58 (ones, twos, threes).
const PAYER = '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi';
const ATTACKER = '8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR';
const REFERENCE = 'CktRuQ2mttgRGkXJtyksdKHjUdc2C4TgDzyB98oEzy8';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const PAYMENT = base58.encode(new Uint8Array(64).fill(9));
const LIFETIME = { blockhash: 'BLockhashBLockhashBLockhashBLockhashBLockha1', lastValidBlockHeight: 100 };
const now = new Date('2026-11-27T12:00:00.000Z');
const policy = { wallet: WALLET, dailyCap: 1_000_000_000n };

/** A refund plan of 2.5 USDC (or 0.25 SOL) to PAYER; `body` and `refund` rewrite what the plan says. */
function plan(
  currency: 'USDC' | 'SOL',
  body: Partial<SolanaRefundPlan['body']> = {},
  refund: Partial<SolanaRefundPlan['refund']> = {},
): SolanaRefundPlan {
  const usdc = currency === 'USDC';
  return solanaRefundPlanSchema.parse({
    planId: '3f0b7a52-1c3e-4a8b-9f10-2d3e4f5a6b7c',
    mode: 'live',
    network: 'solana',
    currency,
    kind: 'refund',
    format: 'solana',
    status: 'prepared',
    body: {
      wallet: WALLET,
      recipient: PAYER,
      mint: usdc ? USDC : null,
      tokenProgram: usdc ? TOKEN_PROGRAM_ADDRESS : null,
      decimals: usdc ? 6 : 9,
      amount: usdc ? '2500000' : '250000000',
      reference: REFERENCE,
      expiresAt: '2026-11-27T12:03:00.000Z',
      ...body,
    },
    refund: {
      refundId: '0b6f7d52-1c3e-4a8b-9f10-2d3e4f5a6b7c',
      orderId: '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d',
      invoiceId: null,
      depositId: null,
      amount: usdc ? '2.5' : '0.25',
      pays: usdc ? '2.5' : '0.25',
      feeFromRefund: false,
      destination: PAYER,
      addressConfirmedAt: '2026-11-27T11:00:00.000Z',
      payment: { signatures: [PAYMENT] },
      ...refund,
    },
    txid: null,
    reason: null,
    createdAt: '2026-11-27T11:59:00.000Z',
  });
}

/** The signed transaction as a node reads it: its one signature, and each instruction's program, keys and data. */
function decode(wire: string) {
  const tx = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
  const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
  const keys = message.staticAccounts.map(String);
  return {
    tx,
    feePayer: keys[0],
    blockhash: message.lifetimeToken,
    instructions: ('instructions' in message ? message.instructions : []).map((ix) => ({
      program: keys[ix.programAddressIndex],
      accounts: (ix.accountIndices ?? []).map((i) => keys[i]),
      data: [...(ix.data ?? [])],
    })),
  };
}

const ata = async (owner: string) =>
  (
    await findAssociatedTokenPda({
      owner: owner as Address,
      mint: USDC as Address,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    })
  )[0];
const u64 = (n: bigint) => [...new Uint8Array(new BigUint64Array([n]).buffer)];

/** What the signer's node showed of the payment: `received` by the wallet, its one transaction sent by `sender`. */
const paid = (received: bigint, sender: string = PAYER) => ({ received, senders: [{ transaction: PAYMENT, sender }] });

/** The reasons a check refuses with. */
function refusal(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof SignerRefusal) return error.reasons;
    throw error;
  }
  throw new Error('the check passed');
}

describe('a Solana refund signed', () => {
  it('USDC: creates the payer account if missing, then a TransferChecked of exactly the refund carrying the reference', async () => {
    const usdc = plan('USDC');
    expect(checkSolanaRefund(usdc, policy, paid(5_000_000n), { refunds: [] }, now)).toMatchObject({
      amount: 2_500_000n,
      left: 5_000_000n,
    });
    const { signature, transaction } = await signSolanaRefund(usdc, KEY, LIFETIME);
    const { tx, feePayer, blockhash, instructions } = decode(transaction);
    expect([feePayer, blockhash]).toEqual([WALLET, LIFETIME.blockhash]);
    expect(
      ed25519.verify(tx.signatures[WALLET as Address]!, new Uint8Array(tx.messageBytes), base58.decode(WALLET)),
    ).toBe(true);
    expect(base58.encode(tx.signatures[WALLET as Address]!)).toBe(signature);
    const [create, transfer] = instructions;
    expect(instructions).toHaveLength(2);
    // The associated token program's CreateIdempotent (1): payer, account, owner, mint, system, token program.
    expect(create).toMatchObject({
      data: [1],
      accounts: [WALLET, await ata(PAYER), PAYER, USDC, '11111111111111111111111111111111', TOKEN_PROGRAM_ADDRESS],
    });
    // TransferChecked (12): source, mint, destination, authority, then the reference.
    expect(transfer).toEqual({
      program: TOKEN_PROGRAM_ADDRESS,
      accounts: [await ata(WALLET), USDC, await ata(PAYER), WALLET, REFERENCE],
      data: [12, ...u64(2_500_000n), 6],
    });
    expect(
      solanaLedgerEntry(usdc, { amount: 2_500_000n, received: 0n, left: 0n, decimals: 6 }, signature, now),
    ).toEqual({
      refundId: usdc.refund.refundId,
      outpoints: [PAYMENT],
      destination: PAYER,
      amount: '2500000',
      txid: signature,
      signedAt: now.toISOString(),
      currency: 'USDC',
    });
  });

  it('SOL: a System transfer of exactly the refund carrying the reference', async () => {
    const sol = plan('SOL');
    checkSolanaRefund(sol, policy, paid(300_000_000n), { refunds: [] }, now);
    const { instructions } = decode((await signSolanaRefund(sol, KEY, LIFETIME)).transaction);
    expect(instructions).toEqual([
      {
        program: '11111111111111111111111111111111',
        accounts: [WALLET, PAYER, REFERENCE],
        data: [2, 0, 0, 0, ...u64(250_000_000n)],
      },
    ]);
  });

  it('refuses to sign with a key that is not the wallet the plan pays from', async () => {
    await expect(signSolanaRefund(plan('SOL', { wallet: OTHER_WALLET }), KEY, LIFETIME)).rejects.toThrow(
      /not the key of/,
    );
  });
});

describe('a Solana refund plan rewritten by the gateway is refused', () => {
  const check = (p: SolanaRefundPlan, received = 5_000_000n, refunds: LedgerEntry[] = []) =>
    refusal(() => checkSolanaRefund(p, policy, paid(received), { refunds }, now));

  it('to another recipient than the address the payer confirmed', () => {
    expect(check(plan('USDC', { recipient: ATTACKER }))).toEqual([
      `the plan pays ${ATTACKER}, not ${PAYER}, the address the payer confirmed`,
    ]);
  });

  it('a SOL refund bearing its fee leaves out exactly one signature fee; a token refund never pays it', () => {
    const bearing = (pays: string, amount: string) => plan('SOL', { amount }, { pays, feeFromRefund: true });
    expect(() =>
      checkSolanaRefund(bearing('0.249995', '249995000'), policy, paid(250_000_000n), { refunds: [] }, now),
    ).not.toThrow();
    expect(check(bearing('0.24', '240000000'), 250_000_000n)).toEqual([
      "the plan pays 0.24: the refund's 0.25 less 0.01 SOL, not less its transaction's fee of 0.000005 SOL",
    ]);
    expect(check(plan('USDC', { amount: '2400000' }, { pays: '2.4', feeFromRefund: true }))).toEqual([
      'the plan takes the fee from a token refund: the fee is paid in the coin, never from the token',
    ]);
  });

  it('to another amount than the one it shows, or more than the refund', () => {
    expect(check(plan('USDC', { amount: '25000000' }))).toEqual(['the plan transfers 25, not the 2.5 it shows']);
    expect(check(plan('USDC', {}, { pays: '3' }))).toEqual(
      expect.arrayContaining(["the plan pays 3, more than the refund's 2.5"]),
    );
  });

  it('with a look-alike mint, other decimals or a program that is no token program', () => {
    expect(check(plan('USDC', { mint: ATTACKER, decimals: 9, tokenProgram: REFERENCE }))).toEqual([
      `the plan pays mint ${ATTACKER}, not USDC's ${USDC}`,
      'the plan writes USDC in 9 decimals, not its 6',
      `${REFERENCE} is not a token program for USDC`,
    ]);
  });

  it("from another wallet than this signer's, or with the reference an account of the transfer", () => {
    expect(check(plan('USDC', { wallet: OTHER_WALLET, reference: PAYER }))).toEqual([
      `the plan pays from ${OTHER_WALLET}, not from this signer's wallet ${WALLET}`,
      `the plan's reference ${PAYER} is an account of the transfer: the watcher could not find it by it`,
    ]);
  });

  it('above what its payment paid this wallet, less the refunds of it signed before, or above the daily cap', () => {
    const earlier: LedgerEntry = {
      refundId: '1b6f7d52-1c3e-4a8b-9f10-2d3e4f5a6b7c',
      outpoints: [PAYMENT],
      destination: PAYER,
      amount: '2000000',
      txid: 'x',
      signedAt: '2026-11-27T11:30:00.000Z',
      currency: 'USDC',
    };
    expect(check(plan('USDC'), 2_000_000n)).toEqual([
      'the refund (2.5) is above what is left of its payment: 2 of 2 received',
    ]);
    expect(check(plan('USDC'), 4_000_000n, [earlier])).toEqual([
      'the refund (2.5) is above what is left of its payment: 2 of 4 received',
    ]);
    // A SOL refund of the same signatures is counted in SOL, apart.
    expect(() => checkSolanaRefund(plan('SOL'), policy, paid(251_000_000n), { refunds: [earlier] }, now)).not.toThrow();
    expect(
      refusal(() =>
        checkSolanaRefund(
          plan('USDC'),
          { ...policy, dailyCap: 4_000_000n },
          paid(9_000_000n),
          {
            refunds: [{ ...earlier, outpoints: ['another payment'] }],
          },
          now,
        ),
      ),
    ).toEqual(["the refund would take the last 24 hours' refunds to 4.5, above this signer's refundDailyCap 4"]);
  });
});

describe('a Solana refund to the address the payment came from (decision 126)', () => {
  const PAYER_ATA = 'Gx8Qvuyf4Yq5uf2G5v4iCRV5TRVzpPMzmCeXmMg2Y6kA';
  const WALLET_ATA = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
  /** The signer's node, answering getTransaction of the payment: `from` paid the wallet 5 USDC, or 0.3 SOL. */
  const node = (from: string, currency: 'USDC' | 'SOL'): SolanaNode => ({
    call: async (method) => {
      if (method !== 'getTransaction') throw new Error(`no ${method} here`);
      const token = (index: number, owner: string, amount: string) => ({
        accountIndex: index,
        mint: USDC,
        owner,
        uiTokenAmount: { amount },
      });
      return currency === 'SOL'
        ? {
            meta: {
              err: null,
              preBalances: [1_000_000_000, 0, 1],
              postBalances: [699_995_000, 300_000_000, 1],
              preTokenBalances: [],
              postTokenBalances: [],
            },
            transaction: { message: { accountKeys: [from, WALLET, '11111111111111111111111111111111'] } },
          }
        : {
            meta: {
              err: null,
              preBalances: [1_000_000_000, 2_039_280, 2_039_280, 1, 1],
              postBalances: [999_995_000, 2_039_280, 2_039_280, 1, 1],
              preTokenBalances: [token(1, from, '5000000'), token(2, WALLET, '0')],
              postTokenBalances: [token(1, from, '0'), token(2, WALLET, '5000000')],
            },
            transaction: { message: { accountKeys: [from, PAYER_ATA, WALLET_ATA, USDC, TOKEN_PROGRAM_ADDRESS] } },
          };
    },
  });
  const read = (from: string, currency: 'USDC' | 'SOL') =>
    paidToWallet(node(from, currency), [PAYMENT], WALLET, currency === 'USDC' ? USDC : null);

  it("signs one to the payment's sender (the token account's owner, the SOL it came from) and says the merchant chose it", async () => {
    const usdc = plan('USDC', {}, { delivery: 'sender' });
    const payment = await read(PAYER, 'USDC');
    expect(payment).toEqual({ received: 5_000_000n, senders: [{ transaction: PAYMENT, sender: PAYER }] });
    const summary = describeSolanaRefund(usdc, checkSolanaRefund(usdc, policy, payment, { refunds: [] }, now));
    expect(summary).toContain(
      `pays 2.5 USDC to ${PAYER}, the address the payment came from, chosen by the merchant at 2026-11-27T11:00:00.000Z (exchange deposit addresses often cannot receive refunds)`,
    );
    expect(summary).not.toContain('the payer confirmed');
    const sol = plan('SOL', {}, { delivery: 'sender' });
    expect(() => checkSolanaRefund(sol, policy, paid(300_000_000n), { refunds: [] }, now)).not.toThrow();
    expect(await read(PAYER, 'SOL')).toEqual({
      received: 300_000_000n,
      senders: [{ transaction: PAYMENT, sender: PAYER }],
    });
  });

  it('refuses one to another address than the sender, naming both: a gateway calling its own address the sender', async () => {
    const forged = (currency: 'USDC' | 'SOL') =>
      plan(currency, { recipient: ATTACKER }, { destination: ATTACKER, delivery: 'sender' });
    const expected = `the plan pays ${ATTACKER} as the address the payment came from, but the payment's transaction ${PAYMENT} came from ${PAYER} on your node`;
    for (const currency of ['USDC', 'SOL'] as const)
      expect(
        refusal(() => checkSolanaRefund(forged(currency), policy, paid(300_000_000n), { refunds: [] }, now)),
      ).toEqual([expected]);
    const payment = await read(PAYER, 'USDC');
    expect(refusal(() => checkSolanaRefund(forged('USDC'), policy, payment, { refunds: [] }, now))).toEqual([expected]);
  });

  it("leaves a claim refund as it was: the payer's address, whoever paid", async () => {
    const usdc = plan('USDC');
    const checked = checkSolanaRefund(usdc, policy, await read(ATTACKER, 'USDC'), { refunds: [] }, now);
    expect(describeSolanaRefund(usdc, checked)).toContain(
      `pays 2.5 USDC to ${PAYER}, the address the payer confirmed at 2026-11-27T11:00:00.000Z\n`,
    );
  });
});

// The real System, SPL Token and Associated Token Account programs (litesvm, tests/support/solana-facade.ts),
// one ledger for both refunds: the signed transactions run, pay exactly, and carry their reference.
describe.skipIf(litesvmMissing)('a signed Solana refund on the Solana runtime', () => {
  let ledger: SolanaLedger;
  const tokenBalance = (account: Address) => {
    const found = ledger.svm.getAccount(account);
    return found.exists ? Buffer.from(found.data).readBigUInt64LE(64) : 0n;
  };
  const run = async (p: SolanaRefundPlan) => {
    const lifetime = { blockhash: ledger.svm.latestBlockhash(), lastValidBlockHeight: 1000 };
    const { signature, transaction } = await signSolanaRefund(p, KEY, lifetime);
    const sent = ledger.send(getTransactionDecoder().decode(getBase64Encoder().encode(transaction)));
    expect(sent).toBe(signature);
    return ledger.transactions.get(signature)!;
  };

  beforeAll(async () => {
    ledger = await newSolanaLedger();
    ledger.svm.airdrop(WALLET as Address, lamports(2_000_000_000n));
    const authority = await fundedSigner(ledger);
    writeMint(ledger, USDC as Address, authority.address, { decimals: 6 });
    await mintTo(ledger, authority, WALLET as Address, USDC as Address, 10_000_000n);
  });

  it('USDC to a payer without a token account: created, paid exactly, the reference among its keys', async () => {
    const recorded = await run(plan('USDC'));
    expect(recorded.err).toBeNull();
    expect(recorded.keys).toContain(REFERENCE);
    expect(tokenBalance(await facadeAta(PAYER as Address, USDC as Address))).toBe(2_500_000n);
    expect(tokenBalance(await facadeAta(WALLET as Address, USDC as Address))).toBe(7_500_000n);
  });

  it('SOL: the payer gets exactly the refund, the merchant pays the fee', async () => {
    const before = ledger.svm.getBalance(PAYER as Address) ?? 0n;
    const recorded = await run(plan('SOL'));
    expect(recorded.err).toBeNull();
    expect((ledger.svm.getBalance(PAYER as Address) ?? 0n) - before).toBe(250_000_000n);
  });
});
