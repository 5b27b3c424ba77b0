/**
 * Collections of the networks whose wallets read no PSBT (`SIGNING_FORMAT` raw: dogecoin,
 * bitcoincash; docs/decisions/118): the gateway hands the signer the unsigned transaction and, per
 * input, what the signer checks before it signs (outpoint, amount, script, derivation, the full
 * previous transaction), and the signer signs the raw transaction itself: dogecoin with the legacy
 * signature hash, bitcoincash with SIGHASH_ALL|FORKID over the BIP 143 digest with amounts in
 * (Bitcoin Cash's replay-protected sighash, fork id 0). The allowlist is the PSBT signer's
 * (./signing.ts, docs/decisions/052). Client-safe and pure.
 */
import { HDKey } from '@scure/bip32';
import { hex } from '@scure/base';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { p2pkh } from '@scure/btc-signer/payment.js';
import { RawTx, Script } from '@scure/btc-signer/script.js';
import { Transaction } from '@scure/btc-signer/transaction.js';
import { formatPath } from './descriptor';
import type { UtxoChain, UtxoCoin } from './networks';
import { addressOfOutputScript, outputScriptOf } from './output-scripts';
import { estimateVsize, type CollectionInput, type CollectionKey } from './psbt';
import { SignerRefusal, type Review, type ReviewedInput, type ReviewedOutput, type SignerPolicy } from './signing';
import type { SpentOutput } from './verify';

/** The coins whose collections are raw transactions (`SIGNING_FORMAT`). */
export type RawCoin = 'dogecoin' | 'bitcoincash';

/**
 * The one signature hash type each raw coin's signer signs with: SIGHASH_ALL, with Bitcoin Cash's
 * SIGHASH_FORKID (0x40) and fork id 0, without which its nodes refuse a signature since 2017.
 */
export const RAW_SIGHASH: Record<RawCoin, number> = { dogecoin: 0x01, bitcoincash: 0x41 };

/** The transaction version: Dogecoin Core's wallet writes 1; Bitcoin Cash nodes take 2 (BIP 68 sequences). */
export const RAW_TX_VERSION: Record<RawCoin, number> = { dogecoin: 1, bitcoincash: 2 };

/**
 * The smallest output a collection pays, base units. Dogecoin Core (doc/fee-recommendation.md):
 * an output below the soft dust limit of 0.01 DOGE costs 0.01 DOGE more in fee, one below 0.001
 * DOGE is refused; Bitcoin Cash nodes keep Bitcoin's 546 satoshis for P2PKH.
 */
export const RAW_DUST_LIMIT: Record<RawCoin, bigint> = { dogecoin: 1_000_000n, bitcoincash: 546n };

/**
 * The lowest fee rate a plan is built at, base units per byte, whatever the node estimates: Dogecoin
 * Core recommends 0.01 DOGE per kB (doc/fee-recommendation.md; its relay floor is 0.001), so 1000
 * koinu per byte; Bitcoin Cash nodes relay from 1 satoshi per byte.
 */
export const RAW_MIN_FEE_RATE: Record<RawCoin, bigint> = { dogecoin: 1000n, bitcoincash: 1n };

/** One input of a raw plan: what the signer needs and checks (amount and script against the previous transaction). */
export interface RawPlanInput {
  txid: string;
  vout: number;
  /** Base units. */
  amount: bigint;
  /** The spent output's script, hex. */
  script: string;
  /** The full derivation path from the master key, `m/44'/3'/0'/0/7`. */
  path: string;
  /** The full previous transaction, hex: it must hash to `txid`. */
  previousTx: string;
  /** The signature hash type asked for; the coin's `RAW_SIGHASH` when absent, and no other is signed. */
  sighash?: number;
}

/** What the signer reads of a raw plan. */
export interface RawPlan {
  /** The unsigned transaction, hex. */
  transaction: string;
  /** The master fingerprint of the key the inputs come from. */
  masterFingerprint: number;
  /** One per input of the transaction, in its order. */
  inputs: readonly RawPlanInput[];
}

export interface RawCollectionDraft {
  coin: RawCoin;
  chain: UtxoChain;
  key: CollectionKey;
  inputs: readonly CollectionInput[];
  treasury: string;
  /** Base units per byte; raised to the coin's `RAW_MIN_FEE_RATE`. */
  feeRate: bigint;
}

export interface BuiltRawCollection {
  plan: RawPlan;
  fee: bigint;
  sent: bigint;
  /** The fee rate used, base units per byte. */
  feeRate: bigint;
  size: number;
}

/** The P2PKH script of a key (both raw coins' deposit addresses are P2PKH; CashAddr is only their text). */
function pkhScript(publicKey: Uint8Array): Uint8Array {
  return p2pkh(publicKey).script;
}

/** The id of a serialized transaction without witnesses, as a node computes it. */
function transactionId(raw: string): string {
  return Transaction.fromRaw(hex.decode(raw), {
    allowUnknownOutputs: true,
    allowUnknownInputs: true,
    disableScriptCheck: true,
  }).id;
}

/** Builds an unsigned raw collection of every input to the treasury; throws when a previous transaction does not match its input. */
export function buildRawCollection(draft: RawCollectionDraft): BuiltRawCollection {
  if (draft.inputs.length === 0) throw new Error('a collection needs at least one input');
  const treasury = outputScriptOf(draft.coin, draft.chain, draft.treasury);
  const feeRate = draft.feeRate > RAW_MIN_FEE_RATE[draft.coin] ? draft.feeRate : RAW_MIN_FEE_RATE[draft.coin];
  const total = draft.inputs.reduce((sum, input) => sum + input.amount, 0n);
  const size = estimateVsize('pkh', draft.inputs.length, treasury.length);
  const fee = BigInt(size) * feeRate;
  const sent = total - fee;
  if (sent < RAW_DUST_LIMIT[draft.coin])
    throw new Error(`the inputs (${total}) do not cover the fee (${fee}) and a spendable output`);
  const tx = new Transaction({ version: RAW_TX_VERSION[draft.coin], allowUnknownOutputs: true });
  const inputs: RawPlanInput[] = [];
  for (const input of draft.inputs) {
    const script = pkhScript(draft.key.chain.deriveChild(input.index).publicKey!);
    const spent = RawTx.decode(hex.decode(input.previousTx)).outputs[input.vout];
    if (
      transactionId(input.previousTx) !== input.txid ||
      !spent ||
      spent.amount !== input.amount ||
      hex.encode(spent.script) !== hex.encode(script)
    )
      throw new Error(`output ${input.txid}:${input.vout} is not ${input.amount} to the key at index ${input.index}`);
    tx.addInput({ txid: input.txid, index: input.vout });
    inputs.push({
      txid: input.txid,
      vout: input.vout,
      amount: input.amount,
      script: hex.encode(script),
      path: formatPath([...draft.key.accountPath, 0, input.index]),
      previousTx: input.previousTx,
    });
  }
  tx.addOutput({ script: treasury, amount: sent });
  return {
    plan: { transaction: hex.encode(tx.unsignedTx), masterFingerprint: draft.key.masterFingerprint, inputs },
    fee,
    sent,
    feeRate,
    size,
  };
}

/**
 * The digest input `idx` signs: dogecoin's the legacy signature hash (the transaction with this
 * input's script in its scriptSig, the others' empty, and the hash type; btc-signer's
 * `preimageLegacy`); bitcoincash's the BIP 143 digest (btc-signer's `preimageWitnessV0`, which
 * writes the hash type as given: 0x41 is SIGHASH_ALL|FORKID with fork id 0), whose scriptCode for
 * a P2PKH input is its script and which commits to the amount spent.
 */
export function rawSignatureHash(
  tx: Transaction,
  idx: number,
  coin: RawCoin,
  spent: SpentOutput,
  hashType: number,
): Uint8Array {
  if (coin === 'bitcoincash') {
    if ((hashType & 0x40) === 0) throw new Error('a bitcoincash signature hash carries SIGHASH_FORKID');
    return tx.preimageWitnessV0(idx, spent.script, hashType, spent.amount);
  }
  return (tx as unknown as WithLegacyPreimage).preimageLegacy(idx, spent.script, hashType);
}

/** The legacy signature hash, which btc-signer computes but does not export. */
type WithLegacyPreimage = { preimageLegacy(idx: number, prevOutScript: Uint8Array, hashType: number): Uint8Array };

export interface RawSignerPolicy extends Omit<SignerPolicy, 'coin' | 'refund'> {
  coin: RawCoin;
}

function decodeUnsigned(transaction: string): Transaction {
  try {
    return Transaction.fromRaw(hex.decode(transaction), {
      allowUnknownOutputs: true,
      allowUnknownInputs: true,
      disableScriptCheck: true,
    });
  } catch (error) {
    throw new SignerRefusal([`the transaction does not decode: ${(error as Error).message}`]);
  }
}

/**
 * Decodes a raw plan's transaction itself and checks it against the policy, as the PSBT signer
 * does: every input is the plan's, at a path of this seed, its previous transaction hashing to the
 * outpoint's id and paying that key's script the amount named, asking for the coin's one hash type;
 * every output pays the pinned treasury or a key of the inputs; the fee within the bound. Answers
 * what it spends and pays, or throws SignerRefusal with every reason.
 */
export function reviewRawCollection(plan: RawPlan, root: HDKey, policy: RawSignerPolicy): Review {
  const tx = decodeUnsigned(plan.transaction);
  const reasons: string[] = [];
  if (plan.masterFingerprint >>> 0 !== root.fingerprint >>> 0)
    reasons.push(`the plan's key is not this seed's (master fingerprint ${root.fingerprint.toString(16)})`);
  if (tx.inputsLength !== plan.inputs.length)
    reasons.push(`the transaction spends ${tx.inputsLength} outputs; the plan describes ${plan.inputs.length}`);
  const inputs: ReviewedInput[] = [];
  const ownScripts = new Set<string>();
  let total = 0n;
  for (let i = 0; i < Math.min(tx.inputsLength, plan.inputs.length); i++) {
    const input = tx.getInput(i);
    const described = plan.inputs[i]!;
    const outpoint = `${hex.encode(input.txid!)}:${input.index}`;
    const where = `input ${i} (${outpoint})`;
    if (outpoint !== `${described.txid}:${described.vout}`) {
      reasons.push(`${where} is not the plan's ${described.txid}:${described.vout}`);
      continue;
    }
    if (input.finalScriptSig && input.finalScriptSig.length > 0) reasons.push(`${where} carries a script already`);
    const sighash = described.sighash ?? RAW_SIGHASH[policy.coin];
    if (sighash !== RAW_SIGHASH[policy.coin])
      reasons.push(
        `${where} asks for sighash 0x${sighash.toString(16)}; only 0x${RAW_SIGHASH[policy.coin].toString(16)} is signed`,
      );
    let script: Uint8Array;
    try {
      script = pkhScript(root.derive(described.path).publicKey!);
    } catch {
      reasons.push(`${where} names the path ${described.path}, which this seed cannot derive`);
      continue;
    }
    let previousId: string;
    let spent: { amount: bigint; script: Uint8Array } | undefined;
    try {
      previousId = transactionId(described.previousTx);
      spent = RawTx.decode(hex.decode(described.previousTx)).outputs[described.vout];
    } catch {
      reasons.push(`${where}: its previous transaction does not decode`);
      continue;
    }
    if (previousId !== described.txid)
      reasons.push(`${where}: its previous transaction is ${previousId}, not ${described.txid}`);
    else if (!spent || hex.encode(spent.script) !== hex.encode(script))
      reasons.push(`${where} does not spend an output of the key at ${described.path}`);
    else if (spent.amount !== described.amount || described.script !== hex.encode(spent.script))
      reasons.push(`${where}: the plan says ${described.amount}; its previous transaction pays ${spent.amount}`);
    else {
      total += spent.amount;
      ownScripts.add(hex.encode(script));
      inputs.push({
        txid: described.txid,
        vout: described.vout,
        amount: spent.amount,
        path: described.path,
        address: addressOfOutputScript(policy.coin, policy.chain, spent.script),
      });
    }
  }
  const treasury = hex.encode(outputScriptOf(policy.coin, policy.chain, policy.treasury));
  const outputs: ReviewedOutput[] = [];
  let paid = 0n;
  for (let i = 0; i < tx.outputsLength; i++) {
    const output = tx.getOutput(i);
    const amount = output.amount ?? 0n;
    const script = output.script ? hex.encode(output.script) : '';
    const address = output.script ? addressOfOutputScript(policy.coin, policy.chain, output.script) : null;
    paid += amount;
    if (script === treasury) outputs.push({ address, amount, to: 'treasury' });
    else if (ownScripts.has(script)) outputs.push({ address, amount, to: 'own' });
    else
      reasons.push(
        `output ${i} pays ${address ?? 'a script without an address'}, which is neither the treasury ${policy.treasury} nor an address of this seed`,
      );
  }
  const fee = total - paid;
  if (reasons.length === 0) {
    if (fee < 0n) reasons.push(`the outputs (${paid}) spend more than the inputs (${total})`);
    else if (fee > policy.maxFee) reasons.push(`the fee ${fee} is above this signer's bound ${policy.maxFee}`);
  }
  if (reasons.length > 0) throw new SignerRefusal(reasons);
  return { inputs, outputs, fee };
}

/**
 * Reviews, then signs every input with the coin's hash type and a P2PKH scriptSig (DER signature,
 * low S, with its hash type byte; the compressed public key): answers the transaction ready to
 * broadcast and its id. Throws SignerRefusal before signing anything.
 */
export function signRawCollection(
  plan: RawPlan,
  root: HDKey,
  policy: RawSignerPolicy,
): { review: Review; rawTx: string; txid: string } {
  const review = reviewRawCollection(plan, root, policy);
  const tx = decodeUnsigned(plan.transaction);
  const hashType = RAW_SIGHASH[policy.coin];
  const decoded = RawTx.decode(hex.decode(plan.transaction));
  plan.inputs.forEach((input, i) => {
    const key = root.derive(input.path);
    const digest = rawSignatureHash(
      tx,
      i,
      policy.coin,
      { script: hex.decode(input.script), amount: input.amount },
      hashType,
    );
    const signature = secp256k1.sign(digest, key.privateKey!, { prehash: false, lowS: true, format: 'der' });
    decoded.inputs[i]!.finalScriptSig = Script.encode([Uint8Array.from([...signature, hashType]), key.publicKey!]);
  });
  const rawTx = hex.encode(RawTx.encode(decoded));
  return { review, rawTx, txid: transactionId(rawTx) };
}

/** Whether a coin's collections are raw transactions. */
export function isRawCoin(coin: UtxoCoin): coin is RawCoin {
  return coin === 'dogecoin' || coin === 'bitcoincash';
}
