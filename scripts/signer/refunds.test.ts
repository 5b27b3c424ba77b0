/**
 * The signer's checks of refund plans (docs/decisions/081), each against a gateway that lies: the
 * payment it names, the ledger of refunds signed before, the daily cap, the one output allowed to
 * pay outside the wallet, and proof that the payment is on the chain; and the same on dogecoin and
 * bitcoincash, whose refund plans are raw transactions (docs/decisions/121). (On a real chain:
 * tests/refunds-litecoind.pg.test.ts; raw ones on the sandbox: tests/collections-sandbox.pglite.test.ts.)
 */
import { HDKey } from '@scure/bip32';
import { base64, hex } from '@scure/base';
import { p2pkh } from '@scure/btc-signer/payment.js';
import { Transaction } from '@scure/btc-signer/transaction.js';
import { describe, expect, it } from 'vitest';
import {
  addressOfOutputScript,
  addressOfScript,
  buildRawRefund,
  buildRefundPsbt,
  depositScript,
  parseKeyDescriptor,
  RAW_MIN_FEE_RATE,
  SignerRefusal,
  verifyInputSignatures,
  type RawCoin,
} from '../../lib/chains/utxo/transactions';
import { formatUnits } from '../../lib/money';
import type { RawRefundPlan, RefundPlan } from '../../lib/protocol';
import type { LedgerEntry } from './refunds';
import { rootOfPhrase, signPlan, type SignerConfig } from './sign-plan';

const TEST_WORDS = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const OTHER_WORDS = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const testRoot = rootOfPhrase(TEST_WORDS);
const otherRoot = rootOfPhrase(OTHER_WORDS);
const now = new Date('2026-11-27T12:00:00.000Z');
const REFUND_ID = '0b6f7d52-1c3e-4a8b-9f10-2d3e4f5a6b7c';
const ORDER_ID = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';

const address = (root: HDKey, path: string) =>
  addressOfScript('litecoin', 'regtest', depositScript('wpkh', root.derive(path).publicKey!, 'litecoin', 'regtest'))!;
const treasury = address(otherRoot, "m/84'/1'/9'/0/0");
const payer = address(otherRoot, "m/84'/1'/7'/0/0");
const attacker = address(otherRoot, "m/84'/1'/6'/0/0");

/** A payment of 0.1 LTC to the seed's key at index `index` (of `root`), as its transaction. */
function payment(root: HDKey, index: number, amount = 10_000_000n): Transaction {
  const script = depositScript('wpkh', root.derive(`m/84'/1'/0'/0/${index}`).publicKey!, 'litecoin', 'regtest');
  const funding = new Transaction({ allowUnknownInputs: true });
  funding.addOutput({ script, amount });
  funding.addInput({ txid: new Uint8Array(32).fill(index), index: 0, finalScriptSig: new Uint8Array([0x51]) });
  return funding;
}

/** A refund plan of `amount` to `destination`, spending (and refunding) `paid`; `overrides` changes what the plan says. */
function refundPlan(
  options: { amount?: bigint; destination?: string; spend?: Transaction; paid?: Transaction; root?: HDKey } = {},
  overrides: Partial<RefundPlan['refund']> = {},
): RefundPlan {
  const root = options.root ?? testRoot;
  const paid = options.paid ?? payment(root, 3);
  const spend = options.spend ?? paid;
  const account = root.derive("m/84'/1'/0'");
  const fingerprint = root.fingerprint.toString(16).padStart(8, '0');
  const key = parseKeyDescriptor(`wpkh([${fingerprint}/84h/1h/0h]${account.publicExtendedKey}/0/*)`);
  const amount = options.amount ?? 4_000_000n;
  const built = buildRefundPsbt({
    coin: 'litecoin',
    chain: 'regtest',
    key,
    treasury,
    feeRate: 1n,
    candidates: [
      {
        txid: spend.id,
        vout: 0,
        amount: spend.getOutput(0).amount!,
        index: spend === paid ? 3 : 4,
        previousTx: hex.encode(spend.toBytes(true, false)),
      },
    ],
    destination: options.destination ?? payer,
    amount,
    feeFromRefund: false,
  });
  return {
    planId: '6f1f6c3e-2b7a-4c55-9d4e-1a2b3c4d5e6f',
    kind: 'refund',
    mode: 'live',
    network: 'litecoin',
    chain: 'regtest',
    currency: 'LTC',
    format: 'psbt',
    status: 'prepared',
    treasury,
    masterFingerprint: fingerprint,
    inputs: [{ txid: spend.id, vout: 0, address: 'x', amount: '0.1', path: "m/84'/1'/0'/0/3" }],
    total: '0.1',
    fee: '0.00000141',
    feeRate: '1',
    sent: '0.09999859',
    psbt: base64.encode(built.psbt),
    txid: null,
    reason: null,
    createdAt: now.toISOString(),
    refund: {
      refundId: REFUND_ID,
      orderId: ORDER_ID,
      invoiceId: null,
      depositId: null,
      amount: formatUnits(amount, 8),
      pays: formatUnits(amount, 8),
      feeFromRefund: false,
      destination: options.destination ?? payer,
      addressConfirmedAt: now.toISOString(),
      payment: {
        outputs: [{ txid: paid.id, vout: 0, path: "m/84'/1'/0'/0/3" }],
        transactions: [{ txid: paid.id, blockHash: 'ab'.repeat(32), hex: hex.encode(paid.toBytes(true, false)) }],
      },
      ...overrides,
    },
  };
}

const config: SignerConfig = { network: 'litecoin', chain: 'regtest', treasury, maxFee: '0.001', refundDailyCap: '1' };
const yes = { confirm: async () => true, now };
const entry = (fields: Partial<LedgerEntry>): LedgerEntry => ({
  refundId: '11111111-2222-4333-8444-555555555555',
  outpoints: [],
  destination: payer,
  amount: '1000000',
  txid: 'cd'.repeat(32),
  signedAt: now.toISOString(),
  ...fields,
});
const reasonsOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SignerRefusal) return error.reasons.join('\n');
    throw error;
  }
  return 'signed';
};

describe("the signer's refunds", () => {
  it('signs a refund of a payment to its seed, after showing the claim, and answers its ledger entry', async () => {
    const plan = refundPlan();
    let shown = '';
    const { signed, ledgerEntry } = await signPlan(JSON.stringify(plan), config, testRoot, {
      ...yes,
      confirm: async (summary) => ((shown = summary), true),
    });
    expect(shown).toContain(`REFUND ${REFUND_ID} of order ${ORDER_ID}`);
    expect(shown).toContain(`pays 0.04 LTC to ${payer}, the address the payer confirmed at ${now.toISOString()}`);
    expect(shown).toContain('its payment paid your seed 0.1 LTC');
    expect(shown).toContain(`pays 0.04 LTC to ${payer} (the REFUND to the payer)`);
    expect(ledgerEntry).toEqual({
      refundId: REFUND_ID,
      outpoints: [`${plan.refund.payment.outputs[0]!.txid}:0`],
      destination: payer,
      amount: '4000000',
      txid: signed.txid,
      signedAt: now.toISOString(),
    });
  });

  it('refuses a plan that calls its destination the address the payment came from (decision 126)', async () => {
    const plan = refundPlan({}, { delivery: 'sender' });
    expect(await reasonsOf(signPlan(JSON.stringify(plan), config, testRoot, yes))).toMatch(
      'on litecoin a refund is paid only to the address the payer confirmed by its claim link',
    );
  });

  it('signs a refund id once', async () => {
    const ledger = { refunds: [entry({ refundId: REFUND_ID })] };
    expect(await reasonsOf(signPlan(JSON.stringify(refundPlan()), config, testRoot, { ...yes, ledger }))).toMatch(
      new RegExp(`refund ${REFUND_ID} was signed on`),
    );
  });

  it('refuses more than what is left of the payment, counting every earlier refund of one of its outputs', async () => {
    const plan = refundPlan({ amount: 7_000_000n });
    const outpoint = `${plan.refund.payment.outputs[0]!.txid}:0`;
    const ledger = { refunds: [entry({ outpoints: [outpoint, 'ef'.repeat(32) + ':1'], amount: '4000000' })] };
    expect(await reasonsOf(signPlan(JSON.stringify(plan), config, testRoot, { ...yes, ledger }))).toContain(
      'above what is left of its payment: 0.06 of 0.1 received',
    );
    // The same payment with nothing refunded yet: signed.
    expect(await reasonsOf(signPlan(JSON.stringify(plan), config, testRoot, yes))).toBe('signed');
  });

  it('refuses a payment that did not pay its seed, and a payment transaction that is not the one named', async () => {
    const theirs = payment(otherRoot, 3);
    const plan = refundPlan({ spend: payment(testRoot, 4), paid: theirs });
    expect(await reasonsOf(signPlan(JSON.stringify(plan), config, testRoot, yes))).toContain(
      `did not pay the key at m/84'/1'/0'/0/3 of this seed`,
    );
    const honest = refundPlan();
    const forged = payment(testRoot, 3, 90_000_000n); // the same payment, claimed ten times larger
    const lying = refundPlan(
      {},
      {
        payment: {
          ...honest.refund.payment,
          transactions: [{ ...honest.refund.payment.transactions[0]!, hex: hex.encode(forged.toBytes(true, false)) }],
        },
      },
    );
    expect(await reasonsOf(signPlan(JSON.stringify(lying), config, testRoot, yes))).toMatch(
      /the payment's transaction .* is not the one given/,
    );
  });

  it('refuses a changed destination or amount: only the exact refund may pay outside the wallet', async () => {
    const plan = refundPlan();
    const redirected = { ...plan, refund: { ...plan.refund, destination: attacker } };
    const reasons = await reasonsOf(signPlan(JSON.stringify(redirected), config, testRoot, yes));
    expect(reasons).toContain(`pays ${payer}, which is neither the treasury`);
    expect(reasons).toContain("no output pays the refund's address");
    const shrunk = { ...plan, refund: { ...plan.refund, amount: '0.01', pays: '0.01' } };
    expect(await reasonsOf(signPlan(JSON.stringify(shrunk), config, testRoot, yes))).toContain(
      "pays the refund's address 4000000, not the 1000000 of the refund",
    );
    const feeless = { ...plan, refund: { ...plan.refund, pays: '0.03' } };
    expect(await reasonsOf(signPlan(JSON.stringify(feeless), config, testRoot, yes))).toContain(
      'and the fee is not taken from it',
    );
    const collection = { ...plan, kind: 'collection' };
    expect(await reasonsOf(signPlan(JSON.stringify(collection), config, testRoot, yes))).toContain(
      `pays ${payer}, which is neither the treasury`,
    );
  });

  it('keeps to its daily cap over the last 24 hours, and signs no refund without one', async () => {
    const plan = refundPlan();
    const recent = {
      refunds: [entry({ amount: '97000000', signedAt: new Date(now.getTime() - 3_600_000).toISOString() })],
    };
    expect(await reasonsOf(signPlan(JSON.stringify(plan), config, testRoot, { ...yes, ledger: recent }))).toContain(
      "above this signer's refundDailyCap 1",
    );
    const yesterday = {
      refunds: [entry({ amount: '97000000', signedAt: new Date(now.getTime() - 86_400_000).toISOString() })],
    };
    expect(await reasonsOf(signPlan(JSON.stringify(plan), config, testRoot, { ...yes, ledger: yesterday }))).toBe(
      'signed',
    );
    const { refundDailyCap: _, ...uncapped } = config;
    expect(await reasonsOf(signPlan(JSON.stringify(plan), uncapped, testRoot, yes))).toContain(
      'no refundDailyCap in its configuration',
    );
  });

  it('needs proof that the payment is on the chain: spending one of its outputs, or its own node', async () => {
    const plan = refundPlan({ spend: payment(testRoot, 4) });
    expect(await reasonsOf(signPlan(JSON.stringify(plan), config, testRoot, yes))).toContain(
      'this signer has no node to find the payment on',
    );
    const asked: string[] = [];
    const absent = { ...yes, inChain: async (txid: string) => (asked.push(txid), false) };
    expect(await reasonsOf(signPlan(JSON.stringify(plan), config, testRoot, absent))).toContain(
      "your node does not have the refunded payment's transaction",
    );
    expect(asked).toEqual([plan.refund.payment.transactions[0]!.txid]);
    const present = { ...yes, inChain: async () => true };
    expect(await reasonsOf(signPlan(JSON.stringify(plan), config, testRoot, present))).toBe('signed');
  });
});

describe.each([
  { coin: 'dogecoin' as const, currency: 'DOGE', coinType: 3 },
  { coin: 'bitcoincash' as const, currency: 'BCH', coinType: 145 },
])("the signer's $coin refunds, raw transactions (docs/decisions/121)", ({ coin, currency, coinType }) => {
  const H = 0x80000000;
  const account = testRoot.derive(`m/44'/${coinType}'/0'`);
  const key = {
    script: 'pkh' as const,
    masterFingerprint: testRoot.fingerprint,
    accountPath: [44 + H, coinType + H, H],
    accountXpub: account.publicExtendedKey,
    chain: account.deriveChild(0),
  };
  const addressOf = (root: HDKey, path: string) =>
    addressOfOutputScript(coin, 'mainnet', p2pkh(root.derive(path).publicKey!).script)!;
  const rawTreasury = addressOf(testRoot, `m/44'/${coinType}'/0'/0/90000`);
  const rawPayer = addressOf(otherRoot, `m/44'/${coinType}'/7'/0/0`);
  const rawAttacker = addressOf(otherRoot, `m/44'/${coinType}'/6'/0/0`);
  const rawConfig: SignerConfig = {
    network: coin,
    chain: 'mainnet',
    treasury: rawTreasury,
    maxFee: '0.1',
    refundDailyCap: '10',
  };

  /** A payment of 1 coin to the test seed's key at `index`, as its transaction (hex) and outpoint. */
  function rawPayment(index: number, salt: number) {
    const funding = new Transaction({ allowUnknownInputs: true, version: 1 });
    funding.addOutput({ script: p2pkh(key.chain.deriveChild(index).publicKey!).script, amount: 100_000_000n });
    funding.addInput({ txid: new Uint8Array(32).fill(salt), index: 0, finalScriptSig: new Uint8Array([0x51]) });
    return { txid: funding.id, vout: 0, amount: 100_000_000n, index, previousTx: funding.hex };
  }

  /** A test-mode refund plan of 0.4 coin to `destination`, spending (and refunding) the payment at index 3. */
  function rawRefundPlan(options: { destination?: string; treasury?: string; spend?: number } = {}): RawRefundPlan {
    const paid = rawPayment(3, 3);
    const spend = options.spend === undefined ? paid : rawPayment(options.spend, options.spend);
    const built = buildRawRefund({
      coin,
      chain: 'mainnet',
      key,
      treasury: options.treasury ?? rawTreasury,
      feeRate: 1n,
      candidates: [spend],
      destination: options.destination ?? rawPayer,
      amount: 40_000_000n,
      feeFromRefund: false,
    });
    const total = built.spent.reduce((sum, i) => sum + i.amount, 0n);
    return {
      planId: '6f1f6c3e-2b7a-4c55-9d4e-1a2b3c4d5e6f',
      kind: 'refund',
      mode: 'test',
      network: coin,
      chain: 'mainnet',
      currency,
      format: 'raw',
      status: 'prepared',
      treasury: rawTreasury,
      masterFingerprint: '73c5da0a',
      inputs: built.plan.inputs.map((i) => ({ ...i, address: 'x', amount: formatUnits(i.amount, 8) })),
      total: formatUnits(total, 8),
      fee: formatUnits(built.fee, 8),
      feeRate: built.feeRate.toString(),
      sent: formatUnits(total - built.fee, 8),
      unsignedTx: built.plan.transaction,
      txid: null,
      reason: null,
      createdAt: now.toISOString(),
      refund: {
        refundId: REFUND_ID,
        orderId: ORDER_ID,
        invoiceId: null,
        depositId: null,
        amount: '0.4',
        pays: '0.4',
        feeFromRefund: false,
        destination: options.destination ?? rawPayer,
        addressConfirmedAt: now.toISOString(),
        payment: {
          outputs: [{ txid: paid.txid, vout: 0, path: `m/44'/${coinType}'/0'/0/3` }],
          transactions: [{ txid: paid.txid, blockHash: 'ab'.repeat(32), hex: paid.previousTx }],
        },
      },
    };
  }

  it('signs an honest refund at the coin’s fee floor, change to the treasury, and its signatures verify', async () => {
    const plan = rawRefundPlan();
    expect(plan.feeRate).toBe(RAW_MIN_FEE_RATE[coin as RawCoin].toString());
    let shown = '';
    const { signed, ledgerEntry } = await signPlan(JSON.stringify(plan), rawConfig, testRoot, {
      ...yes,
      confirm: async (summary) => ((shown = summary), true),
    });
    expect(shown).toContain(`REFUND ${REFUND_ID} of order ${ORDER_ID}`);
    expect(shown).toContain(`pays 0.4 ${currency} to ${rawPayer} (the REFUND to the payer)`);
    expect(shown).toContain(`to ${rawTreasury} (your treasury)`);
    expect(ledgerEntry).toMatchObject({ refundId: REFUND_ID, amount: '40000000', txid: signed.txid });
    const tx = Transaction.fromRaw(hex.decode(signed.rawTx), { allowUnknownOutputs: true });
    expect(tx.id).toBe(signed.txid);
    const spent = plan.inputs.map((i) => ({ script: hex.decode(i.script), amount: 100_000_000n }));
    expect(verifyInputSignatures(tx, spent, coin)).toEqual([]);
  });

  it('refuses another destination or amount, change to a foreign script, a previous transaction that is not its outpoint’s, a fee above its bound, more than is left', async () => {
    const plan = rawRefundPlan();
    const sign = (p: unknown, options: Partial<Parameters<typeof signPlan>[3]> = {}, config = rawConfig) =>
      reasonsOf(signPlan(JSON.stringify(p), config, testRoot, { ...yes, ...options }));
    const redirected = await sign({ ...plan, refund: { ...plan.refund, destination: rawAttacker } });
    expect(redirected).toContain(`output 0 pays ${rawPayer}, which is neither the treasury`);
    expect(redirected).toContain("no output pays the refund's address");
    expect(await sign({ ...plan, refund: { ...plan.refund, amount: '0.1', pays: '0.1' } })).toContain(
      "output 0 pays the refund's address 40000000, not the 10000000 of the refund",
    );
    expect(await sign(rawRefundPlan({ treasury: rawAttacker }))).toContain(
      `output 1 pays ${rawAttacker}, which is neither the treasury ${rawTreasury}`,
    );
    const other = rawPayment(4, 4);
    const [input] = plan.inputs;
    expect(await sign({ ...plan, inputs: [{ ...input!, previousTx: other.previousTx }] })).toContain(
      `its previous transaction is ${other.txid}, not ${input!.txid}`,
    );
    expect(await sign(plan, {}, { ...rawConfig, maxFee: '0.000001' })).toContain("above this signer's bound 100");
    const outpoint = `${plan.refund.payment.outputs[0]!.txid}:0`;
    const ledger = { refunds: [entry({ outpoints: [outpoint], amount: '70000000', destination: rawPayer })] };
    expect(await sign(plan, { ledger })).toContain('above what is left of its payment: 0.3 of 1 received');
    // The payment spent by none of its inputs: only the signer's own node proves it.
    expect(await sign(rawRefundPlan({ spend: 5 }))).toContain('this signer has no node to find the payment on');
  });
});
