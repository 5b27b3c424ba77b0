/**
 * The signer against a gateway playing attacker on XRP Ledger refund plans (docs/decisions/119): an
 * honest refund is signed with a secp256k1 family seed and with an Ed25519 one, and the gateway's
 * check takes back exactly that transaction (another key's signature, a rewritten field refused);
 * a plan whose Payment pays another account, tag or amount, carries Paths, pays a fee above the
 * bound, pays from another account, names another chain or network, a payment the node does not
 * know, and a refund above what is left of its payment are refused, naming why.
 */
import { encode } from 'ripple-binary-codec';
import { deriveAddress, deriveKeypair, generateSeed } from 'ripple-keypairs';
import { describe, expect, it } from 'vitest';
import { SignerRefusal } from '../../lib/chains/utxo/transactions';
import {
  checkXrplRefundSubmission,
  encodeXrplRefund,
  signXrplRefund,
  XrplSubmissionRefusal,
  type XrplRefundFields,
} from '../../lib/chains/xrpl/transactions';
import { xrplRefundPlanSchema, type XrplRefundPlan } from '../../lib/protocol';
import type { RefundLedger } from './refunds';
import { signXrplRefundPlan, xrplSignerConfigSchema, type XrplPaymentAnswer } from './sign-xrpl-refund';

const SEED = generateSeed({ entropy: new Uint8Array(16).fill(3), algorithm: 'ecdsa-secp256k1' });
const ED_SEED = generateSeed({ entropy: new Uint8Array(16).fill(4), algorithm: 'ed25519' });
const ACCOUNT = deriveAddress(deriveKeypair(SEED).publicKey);
const ED_ACCOUNT = deriveAddress(deriveKeypair(ED_SEED).publicKey);
const PAYER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const ATTACKER = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const PAYMENT_TX = 'AB'.repeat(32);
const ORDER_TAG = 4242;
const NOW = new Date('2026-11-28T01:00:00Z');

const configOf = (account: string, rest: Record<string, unknown> = {}) =>
  xrplSignerConfigSchema.parse({
    network: 'ripple',
    chain: 'mainnet',
    account,
    maxFee: '0.01',
    node: { url: 'http://127.0.0.1:5005/' },
    refundDailyCaps: { XRP: '100' },
    ...rest,
  });
const config = configOf(ACCOUNT);

/** An honest plan: `drops` to the payer under tag 77 from `account`; `rewrite` changes the transaction the gateway built. */
function plan(
  drops: bigint,
  rewrite: Partial<XrplRefundFields> & { extra?: Record<string, unknown> } = {},
  account = ACCOUNT,
): XrplRefundPlan {
  const { extra, ...changed } = rewrite;
  const fields: XrplRefundFields = {
    TransactionType: 'Payment',
    Account: account,
    Destination: PAYER,
    DestinationTag: 77,
    Amount: drops.toString(),
    Fee: '12',
    Sequence: 7,
    LastLedgerSequence: 90_001_000,
    Flags: 0x8000_0000,
    ...changed,
  };
  const blob = extra
    ? encode({ ...fields, ...extra, SigningPubKey: '' } as Parameters<typeof encode>[0])
    : encodeXrplRefund(fields);
  const xrp = (v: bigint) => (Number(v) / 1e6).toString();
  return xrplRefundPlanSchema.parse({
    planId: '00000000-0000-4000-8000-000000000001',
    kind: 'refund',
    format: 'xrpl',
    mode: 'live',
    network: 'ripple',
    chain: 'mainnet',
    currency: 'XRP',
    status: 'prepared',
    account,
    transaction: { blob, fields, lastLedgerSequence: fields.LastLedgerSequence },
    refund: {
      refundId: '00000000-0000-4000-8000-000000000002',
      orderId: '00000000-0000-4000-8000-000000000003',
      invoiceId: null,
      depositId: null,
      amount: xrp(drops),
      pays: xrp(drops),
      feeFromRefund: false,
      destination: PAYER,
      tag: '77',
      addressConfirmedAt: NOW.toISOString(),
      payment: { account, tag: String(ORDER_TAG), transactions: [PAYMENT_TX] },
    },
    txid: null,
    reason: null,
    acceptedAt: null,
    createdAt: NOW.toISOString(),
  });
}

/** The signer's node: the payment delivered `drops` to `to` under the order's tag. */
const paid =
  (drops: bigint, to = ACCOUNT) =>
  async (hash: string): Promise<XrplPaymentAnswer | null> =>
    hash === PAYMENT_TX
      ? { validated: true, result: 'tesSUCCESS', destination: to, tag: ORDER_TAG, delivered: drops }
      : null;

const io = (readPayment = paid(5_000_000n), ledger: RefundLedger = { refunds: [] }) => ({
  readPayment,
  ledger,
  now: NOW,
  confirm: async () => true,
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SignerRefusal);
  return (error as Error).message;
}

describe('XRP Ledger refund plans in the signer', () => {
  it('signs an honest refund with a secp256k1 seed, and the gateway takes exactly that transaction back', async () => {
    const honest = plan(2_000_000n);
    let shown = '';
    const { signed, ledgerEntry } = await signXrplRefundPlan(honest, config, SEED, {
      ...io(),
      confirm: async (summary) => ((shown = summary), true),
    });
    expect(shown).toContain(`pays 2 XRP to ${PAYER} with destination tag 77`);
    expect(shown).toContain('paid your account 5 XRP');
    expect(checkXrplRefundSubmission(honest.transaction.blob, ACCOUNT, signed.rawTx)).toEqual({
      blob: signed.rawTx.toUpperCase(),
      hash: signed.txid,
    });
    expect(ledgerEntry).toMatchObject({ outpoints: [PAYMENT_TX], amount: '2000000', txid: signed.txid });

    // Another key's signature over the same fields, and the plan's bytes with another destination, are not taken.
    const forged = signXrplRefund(honest.transaction.blob, ED_SEED).blob;
    expect(() => checkXrplRefundSubmission(honest.transaction.blob, ACCOUNT, forged)).toThrow(XrplSubmissionRefusal);
    const elsewhere = signXrplRefund(plan(2_000_000n, { Destination: ATTACKER }).transaction.blob, SEED).blob;
    expect(() => checkXrplRefundSubmission(honest.transaction.blob, ACCOUNT, elsewhere)).toThrow(/not the plan's/);
  });

  it('signs with an Ed25519 family seed too', async () => {
    const honest = plan(1_000_000n, {}, ED_ACCOUNT);
    const { signed } = await signXrplRefundPlan(
      honest,
      configOf(ED_ACCOUNT),
      ED_SEED,
      io(paid(1_000_000n, ED_ACCOUNT)),
    );
    expect(checkXrplRefundSubmission(honest.transaction.blob, ED_ACCOUNT, signed.rawTx).hash).toBe(signed.txid);
  });

  it.each([
    ['another destination', plan(2_000_000n, { Destination: ATTACKER }), /pays rHb9.*not the claimed account/],
    ['another tag', plan(2_000_000n, { DestinationTag: 78 }), /destination tag is 78, not the claimed 77/],
    ['no tag', plan(2_000_000n, { DestinationTag: undefined }), /destination tag is none, not the claimed 77/],
    ['another amount', plan(2_000_000n, { Amount: '3000000' }), /pays 3000000 drops, not the refund's 2000000/],
    [
      'a Paths field',
      plan(2_000_000n, { extra: { Paths: [[{ currency: 'USD', issuer: ATTACKER }]] } }),
      /carries Paths/,
    ],
    ['a fee above the bound', plan(2_000_000n, { Fee: '20000' }), /fee 20000 drops is above the bound of 10000/],
    ['a partial payment flag', plan(2_000_000n, { Flags: 0x0002_0000 }), /only tfFullyCanonicalSig/],
    [
      'its destination called the address the payment came from (decision 126)',
      (() => {
        const p = plan(2_000_000n);
        p.refund.delivery = 'sender';
        return p;
      })(),
      /on the XRP Ledger a refund is paid only to the address the payer confirmed by its claim link/,
    ],
  ])('refuses a plan with %s', async (_what, rewritten, reason) => {
    expect(await refusal(signXrplRefundPlan(rewritten, config, SEED, io()))).toMatch(reason);
  });

  it("refuses a plan stating other fields than its binary's", async () => {
    const honest = plan(2_000_000n);
    const stated = {
      ...honest,
      transaction: { ...honest.transaction, fields: { ...honest.transaction.fields, Amount: '1' } },
    };
    expect(await refusal(signXrplRefundPlan(stated, config, SEED, io()))).toMatch(/the plan states Amount 1/);
  });

  it("refuses another account's plan, a secret of another account, another chain and another network", async () => {
    expect(await refusal(signXrplRefundPlan(plan(1_000_000n, {}, ED_ACCOUNT), config, SEED, io()))).toMatch(
      new RegExp(`pays from ${ED_ACCOUNT}; this signer's account is ${ACCOUNT}`),
    );
    expect(await refusal(signXrplRefundPlan(plan(1_000_000n), config, ED_SEED, io()))).toMatch(
      /the secret given is the key of .*not of the account/,
    );
    expect(
      await refusal(signXrplRefundPlan(plan(1_000_000n), configOf(ACCOUNT, { chain: 'testnet' }), SEED, io())),
    ).toMatch(/the plan is for ripple mainnet; this signer signs testnet/);
    const tron = { ...plan(1_000_000n), network: 'tron' } as unknown as XrplRefundPlan;
    expect(await refusal(signXrplRefundPlan(tron, config, SEED, io()))).toMatch(/not a currency this signer signs/);
    expect(await refusal(signXrplRefundPlan(plan(1_000_000n), config, 'not a seed', io()))).toMatch(
      /not an XRP Ledger family seed/,
    );
  });

  it('refuses a payment its node does not know, one to another account, and a refund above what is left of it', async () => {
    expect(
      await refusal(
        signXrplRefundPlan(
          plan(1_000_000n),
          config,
          SEED,
          io(async () => null),
        ),
      ),
    ).toMatch(/transaction ABAB.* is unknown to your node/);
    expect(await refusal(signXrplRefundPlan(plan(1_000_000n), config, SEED, io(paid(5_000_000n, PAYER))))).toMatch(
      /paid rPT1.*not your account/,
    );
    const earlier: RefundLedger = {
      refunds: [
        {
          refundId: 'earlier',
          outpoints: [PAYMENT_TX],
          destination: PAYER,
          amount: '4500000',
          txid: 'CD'.repeat(32),
          signedAt: NOW.toISOString(),
          currency: 'XRP',
        },
      ],
    };
    expect(await refusal(signXrplRefundPlan(plan(1_000_000n), config, SEED, io(paid(5_000_000n), earlier)))).toMatch(
      /above what is left of its payment: 0.5 of 5 received/,
    );
    const { readPayment: _none, ...noNode } = io();
    expect(await refusal(signXrplRefundPlan(plan(1_000_000n), config, SEED, noNode))).toMatch(/has no node/);
  });
});
