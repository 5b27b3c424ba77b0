/**
 * The signature check of the sandbox (docs/decisions/097): a transaction signed by the keys of the
 * outputs it spends verifies; a changed signature, another key, a changed amount or no signature
 * does not. P2WPKH (BIP 143) and P2PKH (legacy) inputs.
 */
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { SigHash, Transaction } from '@scure/btc-signer/transaction.js';
import { describe, expect, it } from 'vitest';
import { depositScript, verifyInputSignatures } from '.';

const root = HDKey.fromMasterSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
);
const keyAt = (index: number) => root.derive(`m/84'/2'/0'/0/${index}`);
const spent = (type: 'wpkh' | 'pkh', index: number, amount: bigint) => ({
  script: depositScript(type, keyAt(index).publicKey!, type === 'wpkh' ? 'litecoin' : 'dogecoin', 'mainnet'),
  amount,
});

/** A transaction spending `outputs` (made-up outpoints), signed by the keys at `signers`, finalized. */
function signed(
  type: 'wpkh' | 'pkh',
  outputs: { script: Uint8Array; amount: bigint }[],
  signers: number[],
): Transaction {
  const tx = new Transaction({ version: 2 });
  outputs.forEach((output, i) => {
    const previous = new Transaction({ allowUnknownInputs: true });
    previous.addOutput(output);
    previous.addInput({ txid: new Uint8Array(32).fill(i + 1), index: 0, finalScriptSig: new Uint8Array([0x51]) });
    tx.addInput({
      txid: previous.id,
      index: 0,
      ...(type === 'wpkh' ? { witnessUtxo: output } : { nonWitnessUtxo: previous.toBytes(true, false) }),
    });
  });
  tx.addOutput({ script: spent('wpkh', 99, 0n).script, amount: 1_000n });
  signers.forEach((index, i) => tx.signIdx(keyAt(index).privateKey!, i, [SigHash.ALL]));
  tx.finalize();
  return Transaction.fromRaw(tx.toBytes(true, true), { allowUnknownOutputs: true, disableScriptCheck: true });
}

describe('verifyInputSignatures', () => {
  it('takes P2WPKH and P2PKH inputs signed by their keys', () => {
    const outputs = [spent('wpkh', 0, 5_000n), spent('wpkh', 1, 7_000n)];
    expect(verifyInputSignatures(signed('wpkh', outputs, [0, 1]), outputs, 'litecoin')).toEqual([]);
    const legacy = [spent('pkh', 2, 9_000n)];
    expect(verifyInputSignatures(signed('pkh', legacy, [2]), legacy, 'dogecoin')).toEqual([]);
  });

  it('refuses a changed signature, an amount other than the one signed, and no signature', () => {
    const outputs = [spent('wpkh', 0, 5_000n)];
    const tx = signed('wpkh', outputs, [0]);
    // BIP 143 signs the amount: the same signature over another amount does not verify.
    expect(verifyInputSignatures(tx, [{ ...outputs[0]!, amount: 5_001n }], 'litecoin')).toEqual([
      'input 0: its signature does not verify',
    ]);
    const [signature, publicKey] = tx.getInput(0).finalScriptWitness!;
    const changed = Uint8Array.from(signature!);
    changed[10]! ^= 1;
    tx.updateInput(0, { finalScriptWitness: [changed, publicKey!] }, true);
    expect(verifyInputSignatures(tx, outputs, 'litecoin')).toEqual(['input 0: its signature does not verify']);
    tx.updateInput(0, { finalScriptWitness: [publicKey!] }, true);
    expect(verifyInputSignatures(tx, outputs, 'litecoin')).toEqual([
      'input 0: it is not signed (a signature and a public key)',
    ]);
  });

  it("refuses a signature by a key other than the spent output's", () => {
    const outputs = [spent('wpkh', 0, 5_000n)];
    const other = signed('wpkh', [spent('wpkh', 3, 5_000n)], [3]);
    expect(verifyInputSignatures(other, outputs, 'litecoin')).toEqual([
      'input 0: its public key is not the spent output’s',
    ]);
  });
});
