/**
 * A signed plan coming back to the gateway (`collections/submit`): only the plan's own transaction
 * is taken. Plans are built here over made-up previous transactions paying the public test seed's
 * litecoin regtest deposit addresses, as in ./transactions.test.ts.
 */
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { hex } from '@scure/base';
import { Transaction } from '@scure/btc-signer/transaction.js';
import { describe, expect, it } from 'vitest';
import {
  SubmissionRefusal,
  addressOfScript,
  buildCollectionPsbt,
  checkSubmission,
  depositScript,
  parseKeyDescriptor,
  signCollectionPsbt,
  type CollectionInput,
} from '.';

const testRoot = HDKey.fromMasterSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
);
const ACCOUNT = "m/84'/1'/0'";
const key = parseKeyDescriptor(`wpkh([73c5da0a/84h/1h/0h]${testRoot.derive(ACCOUNT).publicExtendedKey}/0/*)`);
const scriptAt = (index: number) =>
  depositScript('wpkh', testRoot.derive(`${ACCOUNT}/0/${index}`).publicKey!, 'litecoin', 'regtest');
const treasury = addressOfScript('litecoin', 'regtest', scriptAt(1000))!;
const elsewhere = scriptAt(2000);
const network = { coin: 'litecoin', chain: 'regtest' } as const;

/** A made-up transaction paying deposit addresses `first`.. of the test seed; `salt` makes its id its own. */
function funding(first: number, amounts: bigint[], salt: number): CollectionInput[] {
  const tx = new Transaction({ allowUnknownInputs: true });
  amounts.forEach((amount, i) => tx.addOutput({ script: scriptAt(first + i), amount }));
  tx.addInput({ txid: new Uint8Array(32).fill(salt), index: 0, finalScriptSig: new Uint8Array([0x51]) });
  const raw = hex.encode(tx.toBytes(true, false));
  return amounts.map((amount, i) => ({ txid: tx.id, vout: i, amount, index: first + i, previousTx: raw }));
}

const build = (inputs: CollectionInput[]) =>
  buildCollectionPsbt({ coin: 'litecoin', chain: 'regtest', key, inputs, treasury, feeRate: 2n }).psbt;
const inputsA = funding(1, [50_000_000n, 25_000_000n, 1_000_000n], 7);
const inputsB = funding(10, [3_000_000n], 8);
const planA = build(inputsA);
const planB = build(inputsB);
const sign = (psbt: Uint8Array) =>
  signCollectionPsbt(psbt, testRoot, { coin: 'litecoin', chain: 'regtest', treasury, maxFee: 100_000n });

function refusal(submitted: Uint8Array): string[] {
  try {
    checkSubmission({ psbt: planA }, { psbt: submitted }, network);
  } catch (error) {
    if (error instanceof SubmissionRefusal) return error.reasons;
    throw error;
  }
  throw new Error('taken');
}

describe('checkSubmission', () => {
  it("takes the plan's transaction signed, as a PSBT or raw, with the plan's id", () => {
    const signed = sign(planA);
    const planId = Transaction.fromPSBT(planA).id;
    expect(checkSubmission({ psbt: planA }, { psbt: signed.signedPsbt }, network)).toEqual({
      rawTx: signed.rawTx,
      txid: planId,
    });
    expect(checkSubmission({ psbt: planA }, { rawTx: hex.decode(signed.rawTx) }, network)).toEqual({
      rawTx: signed.rawTx,
      txid: planId,
    });
    // A PSBT another wallet finalized (its signatures already in place, as walletprocesspsbt answers).
    const finalized = Transaction.fromPSBT(signed.signedPsbt);
    finalized.finalize();
    expect(checkSubmission({ psbt: planA }, { psbt: finalized.toPSBT(0) }, network)).toEqual({
      rawTx: signed.rawTx,
      txid: planId,
    });
  });

  it('refuses an extra output, naming it', () => {
    const tx = Transaction.fromPSBT(planA);
    tx.addOutput({ script: elsewhere, amount: 10_000n });
    expect(refusal(tx.toPSBT(0))).toEqual([
      `output 1 pays 10000 to ${addressOfScript('litecoin', 'regtest', elsewhere)}, which this plan does not`,
    ]);
  });

  it('refuses a transaction missing one of its inputs', () => {
    const reasons = refusal(sign(build(inputsA.slice(0, 2))).signedPsbt);
    expect(reasons).toContain(`the plan's input ${inputsA[2]!.txid}:2 is not spent`);
  });

  it("refuses another plan's input, and an input spent twice", () => {
    const tx = Transaction.fromPSBT(planA);
    const other = Transaction.fromPSBT(planB).getInput(0);
    tx.addInput({ txid: other.txid!, index: other.index!, witnessUtxo: other.witnessUtxo! });
    tx.addInput({ txid: inputsA[0]!.txid, index: 0, witnessUtxo: tx.getInput(0).witnessUtxo! });
    expect(refusal(tx.toPSBT(0))).toEqual([
      `input 3 spends ${inputsB[0]!.txid}:0, which is not an input of this plan`,
      `input 4 spends ${inputsA[0]!.txid}:0 a second time`,
    ]);
  });

  it('refuses the same inputs and outputs in another form, and a PSBT not signed', () => {
    const tx = Transaction.fromPSBT(planA);
    tx.updateInput(0, { sequence: 1 });
    expect(refusal(tx.toPSBT(0))).toEqual([
      "its inputs, outputs, version, lock time or sequences are not in the plan's order and form",
    ]);
    expect(refusal(planA)[0]).toMatch(/^the PSBT is not signed for every input/);
    expect(refusal(new Uint8Array([1, 2, 3]))[0]).toMatch(/^the PSBT does not decode/);
  });
});
