/**
 * The signer against a gateway playing attacker on Tron refund plans (docs/decisions/115): an honest
 * TRX refund and a USDT refund are signed by the treasury's key, and the gateway's check takes back
 * exactly that transaction; a plan whose transaction pays another recipient or amount than the claim
 * shows, calls another token contract, or allows a fee limit above its bound, a fee taken from the
 * refund that is not what its transaction burns or above the bound, or taken from a token refund
 * (decision 120), a payment its node
 * does not show paying this seed, a refund above what is left of its payment, and a signer without
 * a node are refused, naming why.
 */
import { describe, expect, it } from 'vitest';
import {
  buildTransaction,
  checkTronRefundSubmission,
  encodeSignedTransaction,
  signTransactionId,
  tronAddress,
  tronAddressBytes,
  tronAddressOfBytes,
  tronRefundContract,
  type TronRefundIntent,
} from '../../lib/chains/tron/transactions';
import { SignerRefusal } from '../../lib/chains/utxo/transactions';
import { tronRefundPlanSchema, type TronRefundPlan } from '../../lib/protocol';
import type { RefundLedger } from './refunds';
import { rootOfPhrase } from './sign-plan';
import { signTronRefundPlan, type TronPaymentAnswer } from './sign-tron-refund';
import { tronSignerConfigSchema } from './tron';

const root = rootOfPhrase('legal winner thank year wave sausage worth useful legal winner thank yellow');
const TREASURY_PATH = "m/44'/195'/2'/0/0";
const TREASURY = tronAddress(root.derive(TREASURY_PATH).publicKey!);
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const OTHER_TOKEN = tronAddressOfBytes(Uint8Array.of(0x41, ...new Uint8Array(20).fill(9)));
const PAYER = tronAddressOfBytes(Uint8Array.of(0x41, ...new Uint8Array(20).fill(0xa1)));
const ATTACKER = tronAddressOfBytes(Uint8Array.of(0x41, ...new Uint8Array(20).fill(0xba)));
const DEPOSIT_PATH = "m/44'/195'/0'/0/3";
const DEPOSIT = tronAddress(root.derive(DEPOSIT_PATH).publicKey!);
const PAYMENT_TX = 'ab'.repeat(32);
const NOW = new Date('2026-11-28T01:00:00Z');
const REF = { height: 100, id: 'cd'.repeat(32), timestamp: NOW.getTime() - 60_000 };

const config = tronSignerConfigSchema.parse({
  network: 'tron',
  chain: 'mainnet',
  treasury: TREASURY,
  tokens: [USDT],
  maxBurn: '20',
  treasuryPath: TREASURY_PATH,
  node: { url: 'http://127.0.0.1:8090' },
  refundDailyCaps: { TRX: '100', USDT: '100' },
});

/**
 * An honest plan: `amount` base units of TRX (or of USDT with `token`) to the payer, from the
 * treasury, burning `burn` sun; with `feeTaken`, that fee taken from the refund (the transaction pays
 * the amount less it); `claimed` names another destination of both the claim and the transaction,
 * `delivery` how it was claimed.
 */
function plan(
  amount: bigint,
  token = false,
  rewrite: Partial<TronRefundIntent> & {
    feeLimit?: bigint;
    burn?: bigint;
    feeTaken?: bigint;
    claimed?: string;
    delivery?: TronRefundPlan['refund']['delivery'];
  } = {},
) {
  const units = (v: bigint) => (Number(v) / 1e6).toString();
  const { feeLimit = token ? 15_000_000n : 0n, burn = 345_000n, feeTaken, claimed, delivery, ...intent } = rewrite;
  const pays = amount - (feeTaken ?? 0n);
  const destination = claimed ?? PAYER;
  const built = buildTransaction(
    REF,
    tronRefundContract({ treasury: TREASURY, destination, token: token ? USDT : null, amount: pays, ...intent }),
    { expiration: REF.timestamp + 3_600_000, timestamp: REF.timestamp },
    feeLimit,
  );
  return tronRefundPlanSchema.parse({
    planId: '6f1c2b9e-3d4a-4b5c-8d6e-7f8091a2b3c4',
    kind: 'refund',
    format: 'tron',
    mode: 'live',
    network: 'tron',
    chain: 'mainnet',
    currency: token ? 'USDT' : 'TRX',
    token: token ? { contract: USDT, decimals: 6 } : null,
    status: 'prepared',
    treasury: TREASURY,
    transaction: {
      ...built,
      feeLimit: feeLimit.toString(),
      burn: burn.toString(),
      expiresAt: new Date(REF.timestamp + 3_600_000).toISOString(),
    },
    refund: {
      refundId: '0b8c7f4e-1a2b-4c3d-9e8f-0a1b2c3d4e5f',
      orderId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      invoiceId: null,
      depositId: null,
      amount: units(amount),
      pays: units(pays),
      feeFromRefund: feeTaken !== undefined,
      destination,
      addressConfirmedAt: '2026-11-28T00:00:00.000Z',
      ...(delivery && { delivery }),
      payment: { transfers: [{ txHash: PAYMENT_TX, address: DEPOSIT, path: DEPOSIT_PATH }] },
    },
    txid: built.txID,
    reason: null,
    createdAt: '2026-11-28T00:30:00.000Z',
  });
}

const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** An address's 20-byte hash, hex, as a log's address and topics carry it. */
const hex20 = (address: string) => Buffer.from(tronAddressBytes(address).subarray(1)).toString('hex');

/** What the signer's node answers of the payment: `paid` to `to` in TRX, or in USDT with `token`, from `from`. */
function paying(
  paid: bigint,
  token = false,
  to = DEPOSIT,
  from = PAYER,
): (hash: string) => Promise<TronPaymentAnswer | null> {
  return async (hash) =>
    hash !== PAYMENT_TX
      ? null
      : token
        ? {
            success: true,
            trx: null,
            logs: [
              {
                address: hex20(USDT),
                topics: [TRANSFER_TOPIC, hex20(from).padStart(64, '0'), hex20(to).padStart(64, '0')],
                data: paid.toString(16).padStart(64, '0'),
              },
            ],
          }
        : { success: true, trx: { from, to, amount: paid }, logs: [] };
}

const sign = (
  p: TronRefundPlan,
  readPayment: ((hash: string) => Promise<TronPaymentAnswer | null>) | undefined,
  ledger: RefundLedger = { refunds: [] },
) =>
  signTronRefundPlan(p, config, root, {
    ...(readPayment && { readPayment }),
    ledger,
    confirm: async () => true,
    now: NOW,
  });

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SignerRefusal);
  return (error as Error).message;
}

describe('a Tron refund plan at the signer', () => {
  it("signs an honest TRX refund with the treasury key; the gateway's check takes exactly that transaction back", async () => {
    const honest = plan(20_000_000n);
    const { signed, ledgerEntry } = await sign(honest, paying(50_000_000n));
    expect(ledgerEntry).toMatchObject({
      refundId: honest.refund.refundId,
      outpoints: [PAYMENT_TX],
      currency: 'TRX',
      amount: '20000000',
    });
    expect(signed.txid).toBe(honest.transaction.txID);
    expect(checkTronRefundSubmission(honest.transaction, TREASURY, signed.rawTx)).toEqual({
      txid: honest.transaction.txID,
      hex: signed.rawTx,
    });
    // Another plan's transaction, and the plan's signed by a key that is not the treasury's.
    expect(() => checkTronRefundSubmission(plan(30_000_000n).transaction, TREASURY, signed.rawTx)).toThrow(
      /raw_data differs/,
    );
    const forged = Buffer.from(
      encodeSignedTransaction(Buffer.from(honest.transaction.rawDataHex, 'hex'), [
        signTransactionId(honest.transaction.txID, root.derive("m/44'/195'/9'/0/0").privateKey!),
      ]),
    ).toString('hex');
    expect(() => checkTronRefundSubmission(honest.transaction, TREASURY, forged)).toThrow(
      `not by the treasury ${TREASURY}`,
    );
    expect(() => checkTronRefundSubmission(honest.transaction, TREASURY, 'deadbeef')).toThrow(
      /not a signed Tron transaction/,
    );
  });

  it('signs an honest USDT refund: transfer(payer, amount) on the catalog contract', async () => {
    const { signed } = await sign(plan(25_000_000n, true), paying(40_000_000n, true));
    expect(signed.rawTx).toMatch(/^[0-9a-f]+$/);
  });

  it('refuses a transaction to another recipient, of another amount, on another contract, or above the fee bound', async () => {
    const elsewhere = plan(20_000_000n, false, { destination: ATTACKER });
    expect(await refusal(sign(elsewhere, paying(50_000_000n)))).toMatch(
      `is a transfer of 20000000 sun to ${ATTACKER} from ${TREASURY}, not a transfer of 20000000 sun to ${PAYER}`,
    );
    expect(await refusal(sign(plan(20_000_000n, false, { amount: 30_000_000n }), paying(50_000_000n)))).toMatch(
      `is a transfer of 30000000 sun to ${PAYER}`,
    );
    const token = plan(25_000_000n, true, { token: OTHER_TOKEN });
    expect(await refusal(sign(token, paying(40_000_000n, true)))).toMatch(`a call of ${OTHER_TOKEN}`);
    const costly = plan(25_000_000n, true, { feeLimit: 21_000_000n });
    expect(await refusal(sign(costly, paying(40_000_000n, true)))).toMatch(
      /may burn 21000000 sun for energy, above the bound 20000000/,
    );
  });

  it('signs a TRX refund less exactly what it burns when the payer bears the fee; refuses a larger or a token fee', async () => {
    const honest = plan(20_000_000n, false, { feeTaken: 345_000n });
    const { signed, ledgerEntry } = await sign(honest, paying(50_000_000n));
    expect(ledgerEntry!.amount).toBe('20000000');
    expect(checkTronRefundSubmission(honest.transaction, TREASURY, signed.rawTx).txid).toBe(honest.transaction.txID);
    // A gateway that shrinks the refund by a made-up fee, or states a burn above the signer's bound.
    expect(await refusal(sign(plan(20_000_000n, false, { feeTaken: 5_000_000n }), paying(50_000_000n)))).toMatch(
      "the plan pays 15: the refund's 20 less 5 TRX, not less its transaction's fee of 0.345 TRX",
    );
    const inflated = plan(50_000_000n, false, { feeTaken: 30_000_000n, burn: 30_000_000n });
    expect(await refusal(sign(inflated, paying(60_000_000n)))).toMatch(
      "a fee of 30 TRX burned; this signer's maxBurn is 20",
    );
    expect(await refusal(sign(plan(25_000_000n, true, { feeTaken: 345_000n }), paying(40_000_000n, true)))).toMatch(
      'the plan takes the fee from a token refund',
    );
  });

  it('refuses a payment its node does not show paying this seed, a refund above what is left, and no node', async () => {
    expect(await refusal(sign(plan(20_000_000n), paying(50_000_000n, false, ATTACKER)))).toMatch(
      `paid no TRX to ${DEPOSIT} on your node`,
    );
    expect(await refusal(sign(plan(20_000_000n, true), paying(50_000_000n, true, ATTACKER)))).toMatch(
      `paid no USDT to ${DEPOSIT} on your node`,
    );
    expect(await refusal(sign(plan(20_000_000n), async () => null))).toMatch(/is in no block on your node/);
    const notOurs = plan(20_000_000n);
    notOurs.refund.payment.transfers[0]!.address = ATTACKER;
    expect(await refusal(sign(notOurs, paying(50_000_000n)))).toMatch(
      `${ATTACKER} is not the address of this seed at ${DEPOSIT_PATH}`,
    );
    // The ledger: 40 of the 50 TRX paid were refunded already.
    const before: RefundLedger = {
      refunds: [
        {
          refundId: '9d8c7f4e-1a2b-4c3d-9e8f-0a1b2c3d4e5f',
          outpoints: [PAYMENT_TX],
          destination: PAYER,
          amount: '40000000',
          txid: 'ef'.repeat(32),
          signedAt: '2026-11-20T00:00:00.000Z',
          currency: 'TRX',
        },
      ],
    };
    expect(await refusal(sign(plan(20_000_000n), paying(50_000_000n), before))).toMatch(
      /above what is left of its payment: 10 of 50 received/,
    );
    expect(await refusal(sign(plan(20_000_000n), undefined))).toMatch(/has no node/);
  });
});

describe('a Tron refund to the address the payment came from (decision 126)', () => {
  /** The summary the merchant confirmed when the plan was signed. */
  async function shown(p: TronRefundPlan, readPayment: (hash: string) => Promise<TronPaymentAnswer | null>) {
    let summary = '';
    await signTronRefundPlan(p, config, root, {
      readPayment,
      ledger: { refunds: [] },
      confirm: async (s) => {
        summary = s;
        return true;
      },
      now: NOW,
    });
    return summary;
  }

  it("signs one to the payment's sender (the TRX transfer's owner, the TRC-20 Transfer's from) and says the merchant chose it", async () => {
    const trx = await shown(plan(20_000_000n, false, { delivery: 'sender' }), paying(50_000_000n));
    expect(trx).toContain(
      `pays 20 TRX to ${PAYER}, the address the payment came from, chosen by the merchant at 2026-11-28T00:00:00.000Z (exchange deposit addresses often cannot receive refunds)`,
    );
    expect(trx).not.toContain('the payer confirmed');
    expect(await shown(plan(25_000_000n, true, { delivery: 'sender' }), paying(40_000_000n, true))).toContain(
      `pays 25 USDT to ${PAYER}, the address the payment came from`,
    );
  });

  it('refuses one to another address than the sender, naming both: a gateway calling its own address the sender', async () => {
    const expected = `the plan pays ${ATTACKER} as the address the payment came from, but the payment's transaction ${PAYMENT_TX} came from ${PAYER} on your node`;
    const forged = (token: boolean) =>
      plan(token ? 25_000_000n : 20_000_000n, token, { claimed: ATTACKER, delivery: 'sender' });
    expect(await refusal(sign(forged(false), paying(50_000_000n)))).toContain(expected);
    expect(await refusal(sign(forged(true), paying(40_000_000n, true)))).toContain(expected);
  });

  it("leaves a claim refund as it was: the payer's address, whoever paid", async () => {
    const summary = await shown(plan(20_000_000n), paying(50_000_000n, false, DEPOSIT, ATTACKER));
    expect(summary).toContain(`pays 20 TRX to ${PAYER}, the address the payer confirmed at 2026-11-28T00:00:00.000Z\n`);
  });
});
