/**
 * Collection PSBTs (BIP 174, version 0: Bitcoin Core and the Litecoin Core here read no other).
 * Every input carries what a signer needs to check it on its own: its BIP 32 derivation (master
 * fingerprint and full path), the full previous transaction (hardware wallets ask for it even for
 * segwit inputs, since BIP 143 lets a lying host misstate amounts across two signings) and the
 * spent output; the global xpub names the account. One output: the treasury.
 */
import { Address, OutScript, p2pkh, p2wpkh } from '@scure/btc-signer/payment.js';
import { Transaction } from '@scure/btc-signer/transaction.js';
import { RawTx } from '@scure/btc-signer/script.js';
import { createBase58check, hex } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import type { HDKey } from '@scure/bip32';
import { addressParams, type UtxoChain, type UtxoCoin } from './networks';

const base58check = createBase58check(sha256);

export interface CollectionInput {
  txid: string;
  vout: number;
  /** Base units, as the watcher credited it (checked against the previous transaction). */
  amount: bigint;
  /** The child index under the key's external chain. */
  index: number;
  /** The full previous transaction, hex, as the node answered it. */
  previousTx: string;
}

export interface CollectionKey {
  script: 'wpkh' | 'pkh';
  masterFingerprint: number;
  accountPath: number[];
  /** The account's extended public key (depth = accountPath.length), for the global xpub. */
  accountXpub: string;
  /** The external chain node (account/0) the inputs' keys are children of. */
  chain: HDKey;
}

export interface CollectionDraft {
  coin: Exclude<UtxoCoin, 'bitcoincash'>;
  chain: UtxoChain;
  key: CollectionKey;
  inputs: readonly CollectionInput[];
  treasury: string;
  /** Base units per virtual byte. */
  feeRate: bigint;
}

export interface BuiltCollection {
  psbt: Uint8Array;
  fee: bigint;
  /** What reaches the treasury: the inputs' sum less the fee. */
  sent: bigint;
  vsize: number;
}

/** The script of an address of the coin's chain; throws on an address of another coin or chain. */
export function scriptOf(coin: Exclude<UtxoCoin, 'bitcoincash'>, chain: UtxoChain, address: string): Uint8Array {
  return OutScript.encode(Address(addressParams(coin, chain)).decode(address));
}

/** The address an output script pays, in the coin's format; null for a script without one (OP_RETURN). */
export function addressOfScript(
  coin: Exclude<UtxoCoin, 'bitcoincash'>,
  chain: UtxoChain,
  script: Uint8Array,
): string | null {
  try {
    return Address(addressParams(coin, chain)).encode(OutScript.decode(script));
  } catch {
    return null;
  }
}

/** The output script of a deposit key. */
export function depositScript(
  type: 'wpkh' | 'pkh',
  publicKey: Uint8Array,
  coin: Exclude<UtxoCoin, 'bitcoincash'>,
  chain: UtxoChain,
): Uint8Array {
  const network = addressParams(coin, chain);
  return (type === 'wpkh' ? p2wpkh(publicKey, network) : p2pkh(publicKey, network)).script;
}

/**
 * The virtual size of a collection: a P2WPKH input spends 68 vB (41 bytes, plus a 107-byte witness
 * at a quarter), a P2PKH one 148; an output is 9 bytes and its script; 10 bytes of version, counts
 * and lock time, and half a byte more for segwit's marker and flag. Signatures vary by a byte, so
 * this rounds up: the fee rate is never below the one asked for.
 */
export function estimateVsize(type: 'wpkh' | 'pkh', inputs: number, outputScriptBytes: number): number {
  const input = type === 'wpkh' ? 68 : 148;
  const overhead = type === 'wpkh' ? 10.5 : 10;
  return Math.ceil(overhead + inputs * input + 9 + outputScriptBytes);
}

/** Builds the unsigned collection PSBT; throws when a previous transaction does not match its input. */
export function buildCollectionPsbt(draft: CollectionDraft): BuiltCollection {
  if (draft.inputs.length === 0) throw new Error('a collection needs at least one input');
  const treasury = scriptOf(draft.coin, draft.chain, draft.treasury);
  const total = draft.inputs.reduce((sum, input) => sum + input.amount, 0n);
  const vsize = estimateVsize(draft.key.script, draft.inputs.length, treasury.length);
  const fee = BigInt(vsize) * draft.feeRate;
  const sent = total - fee;
  // Dust: an output below what spending it costs is non-standard (Bitcoin Core's 294 sat for P2WPKH).
  if (sent < 546n) throw new Error(`the inputs (${total}) do not cover the fee (${fee}) and a spendable output`);
  const tx = new Transaction({ version: 2, PSBTVersion: 0 });
  for (const input of draft.inputs) {
    const path = [...draft.key.accountPath, 0, input.index];
    const publicKey = draft.key.chain.deriveChild(input.index).publicKey!;
    const script = depositScript(draft.key.script, publicKey, draft.coin, draft.chain);
    const previous = RawTx.decode(hex.decode(input.previousTx));
    const spent = previous.outputs[input.vout];
    if (!spent || spent.amount !== input.amount || hex.encode(spent.script) !== hex.encode(script))
      throw new Error(`output ${input.txid}:${input.vout} is not ${input.amount} to the key at index ${input.index}`);
    tx.addInput({
      txid: input.txid,
      index: input.vout,
      nonWitnessUtxo: previous,
      ...(draft.key.script === 'wpkh' ? { witnessUtxo: { script, amount: input.amount } } : {}),
      bip32Derivation: [[publicKey, { fingerprint: draft.key.masterFingerprint, path }]],
    });
  }
  tx.addOutput({ script: treasury, amount: sent });
  const raw = base58check.decode(draft.key.accountXpub);
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  (tx as unknown as { global: { xpub?: unknown } }).global.xpub = [
    [
      {
        version: view.getUint32(0, false),
        depth: raw[4]!,
        parentFingerprint: view.getUint32(5, false),
        childNumber: view.getUint32(9, false),
        chainCode: raw.slice(13, 45),
        publicKey: raw.slice(45, 78),
      },
      { fingerprint: draft.key.masterFingerprint, path: draft.key.accountPath },
    ],
  ];
  return { psbt: tx.toPSBT(0), fee, sent, vsize };
}
