/**
 * Collections and refunds of the networks whose wallets read no PSBT (`SIGNING_FORMAT` raw:
 * dogecoin, bitcoincash; docs/decisions/118, 121): the gateway hands the signer the unsigned transaction and, per
 * input, what the signer checks before it signs (outpoint, amount, script, derivation, the full
 * previous transaction), and the signer signs the raw transaction itself: dogecoin with the legacy
 * signature hash, bitcoincash with SIGHASH_ALL|FORKID over the BIP 143 digest with amounts in
 * (Bitcoin Cash's replay-protected sighash, fork id 0). The allowlist is the PSBT signer's
 * (./signing.ts, docs/decisions/052, with a refund's one output of 081). Client-safe and pure.
 */
import { HDKey } from '@scure/bip32';
import { hex } from '@scure/base';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { p2pkh } from '@scure/btc-signer/payment.js';
import { RawTx, Script } from '@scure/btc-signer/script.js';
import { Transaction } from '@scure/btc-signer/transaction.js';
import { formatPath } from './descriptor';
import { SIGNING_FORMAT, type UtxoChain, type UtxoCoin } from './networks';
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
  const feeRate = rawFeeRate(draft.coin, draft.feeRate);
  const total = draft.inputs.reduce((sum, input) => sum + input.amount, 0n);
  const size = estimateVsize('pkh', draft.inputs.length, treasury.length);
  const fee = BigInt(size) * feeRate;
  const sent = total - fee;
  if (sent < RAW_DUST_LIMIT[draft.coin])
    throw new Error(`the inputs (${total}) do not cover the fee (${fee}) and a spendable output`);
  const { tx, inputs } = unsignedWithInputs(draft, draft.inputs);
  tx.addOutput({ script: treasury, amount: sent });
  return {
    plan: { transaction: hex.encode(tx.unsignedTx), masterFingerprint: draft.key.masterFingerprint, inputs },
    fee,
    sent,
    feeRate,
    size,
  };
}

export interface RawRefundDraft extends Omit<RawCollectionDraft, 'inputs'> {
  /** Outputs it may spend, in the order it takes them: the refunded payment's own first. */
  candidates: readonly CollectionInput[];
  /** The payer's confirmed address. */
  destination: string;
  /** The refund, base units. */
  amount: bigint;
  /** The network fee is taken from the refund (the payer gets amount - fee) rather than from the change. */
  feeFromRefund: boolean;
}

export interface BuiltRawRefund extends Omit<BuiltRawCollection, 'sent'> {
  /** The candidates it spends, in the transaction's order. */
  spent: CollectionInput[];
  /** What the payer's output pays. */
  pays: bigint;
  /** What goes back to the treasury (0: no change output, its dust went to the fee). */
  change: bigint;
}

/**
 * Builds an unsigned raw refund (docs/decisions/121), as `buildRefundPsbt` builds a PSBT one: the
 * fewest candidates (in their order) that cover the refund and the fee at the coin's floor, one
 * output of the refund to the destination and the change to the treasury; change below the coin's
 * dust limit goes to the fee. Throws when the candidates do not cover it or the payer's output
 * would be dust.
 */
export function buildRawRefund(draft: RawRefundDraft): BuiltRawRefund {
  const destination = outputScriptOf(draft.coin, draft.chain, draft.destination);
  const treasury = outputScriptOf(draft.coin, draft.chain, draft.treasury);
  if (draft.amount <= 0n) throw new Error('a refund is of an amount above 0');
  const feeRate = rawFeeRate(draft.coin, draft.feeRate);
  const dust = RAW_DUST_LIMIT[draft.coin];
  const spent: CollectionInput[] = [];
  let total = 0n;
  let fee = 0n;
  let size = 0;
  for (const candidate of draft.candidates) {
    spent.push(candidate);
    total += candidate.amount;
    size = estimateVsize('pkh', spent.length, destination.length, treasury.length);
    fee = BigInt(size) * feeRate;
    if (total >= draft.amount + (draft.feeFromRefund ? 0n : fee)) break;
  }
  const needed = draft.amount + (draft.feeFromRefund ? 0n : fee);
  if (total < needed)
    throw new Error(`the deposit outputs that can be spent (${total}) do not cover the refund and its fee (${needed})`);
  const pays = draft.feeFromRefund ? draft.amount - fee : draft.amount;
  if (pays < dust)
    throw new Error(`the refund less its fee (${pays}) is below the dust limit (${dust}): it cannot be paid`);
  let change = total - pays - fee;
  if (change < dust) {
    fee += change;
    change = 0n;
  }
  const { tx, inputs } = unsignedWithInputs(draft, spent);
  tx.addOutput({ script: destination, amount: pays });
  if (change > 0n) tx.addOutput({ script: treasury, amount: change });
  return {
    plan: { transaction: hex.encode(tx.unsignedTx), masterFingerprint: draft.key.masterFingerprint, inputs },
    spent,
    fee,
    pays,
    change,
    feeRate,
    size,
  };
}

/** A fee rate raised to the coin's floor. */
function rawFeeRate(coin: RawCoin, asked: bigint): bigint {
  return asked > RAW_MIN_FEE_RATE[coin] ? asked : RAW_MIN_FEE_RATE[coin];
}

/**
 * The coin's unsigned transaction spending `spent`, and what the signer checks of each input;
 * throws when a previous transaction does not hash to its outpoint or does not pay its key the amount.
 */
function unsignedWithInputs(
  draft: Pick<RawCollectionDraft, 'coin' | 'key'>,
  spent: readonly CollectionInput[],
): { tx: Transaction; inputs: RawPlanInput[] } {
  const tx = new Transaction({ version: RAW_TX_VERSION[draft.coin], allowUnknownOutputs: true });
  const inputs: RawPlanInput[] = [];
  for (const input of spent) {
    const script = pkhScript(draft.key.chain.deriveChild(input.index).publicKey!);
    const output = RawTx.decode(hex.decode(input.previousTx)).outputs[input.vout];
    if (
      transactionId(input.previousTx) !== input.txid ||
      !output ||
      output.amount !== input.amount ||
      hex.encode(output.script) !== hex.encode(script)
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
  return { tx, inputs };
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

/** The PSBT signer's policy on a raw coin: a refund's one allowed output too (docs/decisions/121). */
export interface RawSignerPolicy extends Omit<SignerPolicy, 'coin'> {
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
 * every output pays the pinned treasury or a key of the inputs, except, with a refund the signer
 * checked (`policy.refund`, docs/decisions/121), one output of exactly the refund to its address;
 * the fee within the bound. Answers what it spends and pays, or throws SignerRefusal with every reason.
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
  const refund = policy.refund ? refundScript(policy, reasons) : null;
  if (refund !== null && refund === treasury) reasons.push('the refund pays the treasury');
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
    else if (refund !== null && script === refund) {
      // The one output a checked refund lets pay outside the wallet: once, and exactly the refund.
      if (outputs.some((o) => o.to === 'refund')) reasons.push(`output ${i} pays the refund's address a second time`);
      else if (amount !== policy.refund!.pays)
        reasons.push(`output ${i} pays the refund's address ${amount}, not the ${policy.refund!.pays} of the refund`);
      outputs.push({ address, amount, to: 'refund' });
    } else
      reasons.push(
        `output ${i} pays ${address ?? 'a script without an address'}, which is neither the treasury ${policy.treasury} nor an address of this seed`,
      );
  }
  if (policy.refund && !outputs.some((o) => o.to === 'refund')) reasons.push("no output pays the refund's address");
  const fee = total - paid;
  if (reasons.length === 0) {
    if (fee < 0n) reasons.push(`the outputs (${paid}) spend more than the inputs (${total})`);
    else if (fee > policy.maxFee) reasons.push(`the fee ${fee} is above this signer's bound ${policy.maxFee}`);
  }
  if (reasons.length > 0) throw new SignerRefusal(reasons);
  return { inputs, outputs, fee };
}

/** The script a checked refund's destination names, hex; null (with its reason) when it is no address of the coin's chain. */
function refundScript(policy: RawSignerPolicy, reasons: string[]): string | null {
  try {
    return hex.encode(outputScriptOf(policy.coin, policy.chain, policy.refund!.destination));
  } catch {
    reasons.push(`the refund's address ${policy.refund!.destination} is not a ${policy.coin} ${policy.chain} address`);
    return null;
  }
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
  return SIGNING_FORMAT[coin] === 'raw';
}
