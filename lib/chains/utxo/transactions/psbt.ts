/**
 * Collection PSBTs (BIP 174, version 0: Bitcoin Core and the Litecoin Core here read no other).
 * Every input carries what a signer needs to check it on its own: its BIP 32 derivation (master
 * fingerprint and full path), the full previous transaction (hardware wallets ask for it even for
 * segwit inputs, since BIP 143 lets a lying host misstate amounts across two signings) and the
 * spent output; the global xpub names the account. A collection has one output, the treasury; a
 * refund (docs/decisions/081) pays the payer's address and its change to the treasury.
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
export function estimateVsize(type: 'wpkh' | 'pkh', inputs: number, ...outputScriptBytes: number[]): number {
  const input = type === 'wpkh' ? 68 : 148;
  const overhead = type === 'wpkh' ? 10.5 : 10;
  const outputs = outputScriptBytes.reduce((sum, bytes) => sum + 9 + bytes, 0);
  return Math.ceil(overhead + inputs * input + outputs);
}

/** Dust: an output below what spending it costs is non-standard (Bitcoin Core's 294 sat for P2WPKH; 546 for any script). */
export const DUST_LIMIT = 546n;

/** Builds the unsigned collection PSBT; throws when a previous transaction does not match its input. */
export function buildCollectionPsbt(draft: CollectionDraft): BuiltCollection {
  if (draft.inputs.length === 0) throw new Error('a collection needs at least one input');
  const treasury = scriptOf(draft.coin, draft.chain, draft.treasury);
  const total = draft.inputs.reduce((sum, input) => sum + input.amount, 0n);
  const vsize = estimateVsize(draft.key.script, draft.inputs.length, treasury.length);
  const fee = BigInt(vsize) * draft.feeRate;
  const sent = total - fee;
  if (sent < DUST_LIMIT) throw new Error(`the inputs (${total}) do not cover the fee (${fee}) and a spendable output`);
  const tx = unsignedWithInputs(draft);
  tx.addOutput({ script: treasury, amount: sent });
  return { psbt: withAccountXpub(tx, draft.key).toPSBT(0), fee, sent, vsize };
}

export interface RefundDraft extends Omit<CollectionDraft, 'inputs'> {
  /** Outputs it may spend, in the order it takes them: the refunded payment's own first. */
  candidates: readonly CollectionInput[];
  /** The payer's confirmed address. */
  destination: string;
  /** The refund, base units. */
  amount: bigint;
  /** The network fee is taken from the refund (the payer gets amount - fee) rather than from the change. */
  feeFromRefund: boolean;
}

export interface BuiltRefund {
  psbt: Uint8Array;
  /** The candidates it spends. */
  inputs: CollectionInput[];
  fee: bigint;
  /** What the payer's output pays. */
  pays: bigint;
  /** What goes back to the treasury (0: no change output, its dust went to the fee). */
  change: bigint;
  vsize: number;
}

/**
 * Builds an unsigned refund PSBT: the fewest candidates (in their order) that cover the refund and
 * the fee, one output of the refund to the destination and the change to the treasury. Change
 * below the dust limit goes to the fee rather than to an output nobody would spend.
 */
export function buildRefundPsbt(draft: RefundDraft): BuiltRefund {
  const destination = scriptOf(draft.coin, draft.chain, draft.destination);
  const treasury = scriptOf(draft.coin, draft.chain, draft.treasury);
  if (draft.amount <= 0n) throw new Error('a refund is of an amount above 0');
  const inputs: CollectionInput[] = [];
  let total = 0n;
  let fee = 0n;
  let vsize = 0;
  for (const candidate of draft.candidates) {
    inputs.push(candidate);
    total += candidate.amount;
    vsize = estimateVsize(draft.key.script, inputs.length, destination.length, treasury.length);
    fee = BigInt(vsize) * draft.feeRate;
    if (total >= draft.amount + (draft.feeFromRefund ? 0n : fee)) break;
  }
  const needed = draft.amount + (draft.feeFromRefund ? 0n : fee);
  if (total < needed)
    throw new Error(`the deposit outputs that can be spent (${total}) do not cover the refund and its fee (${needed})`);
  const pays = draft.feeFromRefund ? draft.amount - fee : draft.amount;
  if (pays < DUST_LIMIT)
    throw new Error(`the refund less its fee (${pays}) is below the dust limit (${DUST_LIMIT}): it cannot be paid`);
  let change = total - pays - fee;
  if (change < DUST_LIMIT) {
    fee += change;
    change = 0n;
  }
  const tx = unsignedWithInputs({ ...draft, inputs });
  tx.addOutput({ script: destination, amount: pays });
  if (change > 0n) tx.addOutput({ script: treasury, amount: change });
  return { psbt: withAccountXpub(tx, draft.key).toPSBT(0), inputs, fee, pays, change, vsize };
}

/** A version 2 transaction spending `draft.inputs`, each with what a signer checks; throws on a previous transaction that does not match. */
function unsignedWithInputs(draft: Pick<CollectionDraft, 'coin' | 'chain' | 'key' | 'inputs'>): Transaction {
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
  return tx;
}

/** Names the account in the PSBT's global xpub. */
function withAccountXpub(tx: Transaction, key: CollectionKey): Transaction {
  const raw = base58check.decode(key.accountXpub);
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
      { fingerprint: key.masterFingerprint, path: key.accountPath },
    ],
  ];
  return tx;
}
