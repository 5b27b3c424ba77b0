/**
 * Signed litecoin transactions of the public test seed's keys, for the tests of what the sandbox
 * takes (docs/decisions/097, 109): a spend of deposit outputs paying one address, and the same
 * transaction with one signature changed.
 */
import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { RawTx } from '@scure/btc-signer/script.js';
import { SigHash, Transaction } from '@scure/btc-signer/transaction.js';
import { findNetwork } from '@/lib/catalog';
import { testAccountXpub } from '@/lib/chains';
import { depositScript, scriptOf } from '@/lib/chains/utxo/transactions';
import { rootOfPhrase } from '@/scripts/signer/sign-plan';

export const TEST_PHRASE =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const seed = rootOfPhrase(TEST_PHRASE);
/** The external chain of test mode's litecoin deposit addresses (m/84'/2'/0'/0). */
const depositChain = HDKey.fromExtendedKey(testAccountXpub(findNetwork('litecoin')!));

/** A deposit output of the test seed: its transaction, output, amount and the address's child index. */
export interface DepositOutput {
  txid: string;
  vout: number;
  amount: bigint;
  index: number;
}

/** A transaction of the test seed's keys spending `inputs` and paying `pays` to `to`, signed and finalized (hex). */
export function spendOf(inputs: readonly DepositOutput[], to: string, pays: bigint): string {
  const tx = new Transaction({ version: 2 });
  for (const input of inputs) {
    const key = depositChain.deriveChild(input.index);
    tx.addInput({
      txid: input.txid,
      index: input.vout,
      witnessUtxo: { script: depositScript('wpkh', key.publicKey!, 'litecoin', 'mainnet'), amount: input.amount },
    });
  }
  tx.addOutput({ script: scriptOf('litecoin', 'mainnet', to), amount: pays });
  inputs.forEach((input, i) => {
    const child = seed.derive(`m/84'/2'/0'/0/${input.index}`);
    tx.signIdx(child.privateKey!, i, [SigHash.ALL]);
  });
  // btc-signer refuses to finalize what pays more than it spends: the sandbox must refuse it too.
  for (let i = 0; i < tx.inputsLength; i++) {
    const [[publicKey, signature]] = tx.getInput(i).partialSig! as [[Uint8Array, Uint8Array]];
    tx.updateInput(i, { finalScriptWitness: [signature, publicKey] }, true);
  }
  return hex.encode(tx.toBytes(true, true));
}

/** `rawTx` (hex) with one byte of its first input's signature changed (in its witness, or a P2PKH scriptSig): no valid signature. */
export function forgedSignature(rawTx: string): string {
  const forged = RawTx.decode(hex.decode(rawTx));
  if (!forged.segwitFlag) {
    // P2PKH: the signature is the scriptSig's first push (its length byte, then DER).
    const scriptSig = Uint8Array.from(forged.inputs[0]!.finalScriptSig);
    scriptSig[10]! ^= 1;
    forged.inputs[0]!.finalScriptSig = scriptSig;
    return hex.encode(RawTx.encode(forged));
  }
  const signature = Uint8Array.from(forged.witnesses![0]![0]!);
  signature[10]! ^= 1;
  forged.witnesses![0]![0] = signature;
  return hex.encode(RawTx.encode(forged));
}
