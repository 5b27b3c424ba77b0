/**
 * Whether each input of a signed transaction carries a valid signature for the output it spends:
 * what a node checks before it relays a transaction, for the sandbox of test mode, which has no
 * node (docs/decisions/097). P2WPKH inputs by BIP 143's signature hash, P2PKH inputs by the legacy
 * one, except on bitcoincash, whose P2PKH signatures carry SIGHASH_FORKID over the BIP 143 digest
 * (./raw.ts `rawSignatureHash`, docs/decisions/118); secp256k1 ECDSA, DER, low S (as Bitcoin Core
 * relays). Client-safe and pure.
 */
import { hex } from '@scure/base';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { OutScript } from '@scure/btc-signer/payment.js';
import { Script } from '@scure/btc-signer/script.js';
import type { Transaction } from '@scure/btc-signer/transaction.js';
import { hash160 } from '@scure/btc-signer/utils.js';
import type { UtxoCoin } from './networks';
import { rawSignatureHash } from './raw';

/** The output an input spends: its script and amount. */
export interface SpentOutput {
  script: Uint8Array;
  amount: bigint;
}

/** One reason per input whose signature is missing, malformed or does not verify; empty when all verify. */
export function verifyInputSignatures(tx: Transaction, spent: readonly SpentOutput[], coin: UtxoCoin): string[] {
  const reasons: string[] = [];
  for (let i = 0; i < tx.inputsLength; i++) {
    const reason = inputRefusal(tx, i, spent[i], coin);
    if (reason) reasons.push(`input ${i}: ${reason}`);
  }
  return reasons;
}

function inputRefusal(tx: Transaction, i: number, output: SpentOutput | undefined, coin: UtxoCoin): string | null {
  if (!output) return 'its spent output is unknown';
  let type;
  try {
    type = OutScript.decode(output.script);
  } catch {
    return 'it spends a script the sandbox does not check';
  }
  const input = tx.getInput(i);
  let items: Uint8Array[];
  if (type.type === 'wpkh') items = input.finalScriptWitness ?? [];
  else if (type.type === 'pkh') {
    try {
      items = Script.decode(input.finalScriptSig ?? new Uint8Array(0)).map((item) =>
        item instanceof Uint8Array ? item : new Uint8Array(0),
      );
    } catch {
      return 'its signature script does not decode';
    }
  } else return `it spends a ${type.type} script, which the sandbox does not check (P2WPKH and P2PKH only)`;
  if (items.length !== 2) return 'it is not signed (a signature and a public key)';
  const [signature, publicKey] = items as [Uint8Array, Uint8Array];
  if (hex.encode(hash160(publicKey)) !== hex.encode(type.hash)) return 'its public key is not the spent output’s';
  if (signature.length < 9) return 'its signature is malformed';
  const hashType = signature[signature.length - 1]!;
  if (coin === 'bitcoincash' && (hashType & 0x40) === 0)
    return 'its signature lacks SIGHASH_FORKID, without which Bitcoin Cash takes none';
  let hash: Uint8Array;
  try {
    hash =
      type.type === 'wpkh'
        ? tx.preimageWitnessV0(i, OutScript.encode({ type: 'pkh', hash: type.hash }), hashType, output.amount)
        : rawSignatureHash(tx, i, coin === 'bitcoincash' ? 'bitcoincash' : 'dogecoin', output, hashType);
  } catch (error) {
    return `its signature hash cannot be computed: ${(error as Error).message}`;
  }
  try {
    if (secp256k1.verify(signature.subarray(0, -1), hash, publicKey, { prehash: false, format: 'der' })) return null;
  } catch {
    return 'its signature is malformed';
  }
  return 'its signature does not verify';
}
