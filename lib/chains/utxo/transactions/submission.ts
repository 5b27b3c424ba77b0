/**
 * A signed plan coming back (`collections/submit`, docs/decisions/094): before the gateway hands
 * it to its node, the transaction must be the plan's and nothing else. It spends exactly the
 * plan's inputs (none missing, none added: another plan's output or a stranger's is refused, so a
 * submission never spends what another plan holds) and pays exactly its outputs (none added,
 * none changed), in the plan's order, version, lock time and sequences: the unsigned transaction
 * is byte for byte the one prepared, so its id is the plan's. Signatures are the node's to check
 * (it verifies every script before it relays anything); a PSBT must carry one for every input.
 */
import { hex } from '@scure/base';
import { Transaction } from '@scure/btc-signer/transaction.js';
import type { UtxoChain, UtxoCoin } from './networks';
import { addressOfOutputScript } from './output-scripts';

/** What a signer sends back: the signed PSBT, or the signed transaction itself. */
export type PlanSubmission = { psbt: Uint8Array } | { rawTx: Uint8Array };

/** A submission that is not the plan's transaction, or not signed; `reasons` says each thing found wrong. */
export class SubmissionRefusal extends Error {
  constructor(readonly reasons: string[]) {
    super(`the submitted transaction is not this plan's: ${reasons.join('; ')}`);
    this.name = 'SubmissionRefusal';
  }
}

/** The fully signed transaction to broadcast (hex) and its id. */
export interface CheckedSubmission {
  rawTx: string;
  txid: string;
}

const RAW_OPTIONS = { allowUnknownOutputs: true, allowUnknownInputs: true, disableScriptCheck: true } as const;

function decode(submission: PlanSubmission): Transaction {
  try {
    return 'psbt' in submission
      ? Transaction.fromPSBT(submission.psbt, RAW_OPTIONS)
      : Transaction.fromRaw(submission.rawTx, RAW_OPTIONS);
  } catch (error) {
    throw new SubmissionRefusal([
      `the ${'psbt' in submission ? 'PSBT' : 'transaction'} does not decode: ${(error as Error).message}`,
    ]);
  }
}

/** The id of a signed transaction handed on without a plan (docs/decisions/109); SubmissionRefusal when it does not decode. */
export function signedTransactionId(rawTx: Uint8Array): string {
  return decode({ rawTx }).id;
}

function outpoints(tx: Transaction): string[] {
  const out: string[] = [];
  for (let i = 0; i < tx.inputsLength; i++) {
    const input = tx.getInput(i);
    out.push(`${input.txid ? hex.encode(input.txid) : '?'}:${input.index ?? '?'}`);
  }
  return out;
}

function payments(tx: Transaction): { script: string; amount: bigint }[] {
  const out: { script: string; amount: bigint }[] = [];
  for (let i = 0; i < tx.outputsLength; i++) {
    const output = tx.getOutput(i);
    out.push({ script: output.script ? hex.encode(output.script) : '', amount: output.amount ?? 0n });
  }
  return out;
}

/** A plan's transaction as prepared: its unsigned PSBT, or (raw plans, docs/decisions/118) its unsigned transaction. */
export type PlannedTransaction = { psbt: Uint8Array } | { unsignedTx: Uint8Array };

/**
 * Checks a signed submission against the plan's unsigned transaction and answers the transaction
 * to broadcast; throws SubmissionRefusal with every reason. A PSBT is finalized here (its
 * signatures in place of its metadata); a raw transaction is taken as sent.
 */
export function checkSubmission(
  prepared: PlannedTransaction,
  submission: PlanSubmission,
  network: { coin: UtxoCoin; chain: UtxoChain },
): CheckedSubmission {
  const plan =
    'psbt' in prepared
      ? Transaction.fromPSBT(prepared.psbt, RAW_OPTIONS)
      : Transaction.fromRaw(prepared.unsignedTx, RAW_OPTIONS);
  const tx = decode(submission);
  const reasons: string[] = [];
  const planned = outpoints(plan);
  const spent = outpoints(tx);
  spent.forEach((outpoint, i) => {
    if (!planned.includes(outpoint)) reasons.push(`input ${i} spends ${outpoint}, which is not an input of this plan`);
    else if (spent.indexOf(outpoint) !== i) reasons.push(`input ${i} spends ${outpoint} a second time`);
  });
  for (const outpoint of planned)
    if (!spent.includes(outpoint)) reasons.push(`the plan's input ${outpoint} is not spent`);
  const describe = (o: { script: string; amount: bigint }) =>
    `${o.amount} to ${addressOfOutputScript(network.coin, network.chain, hex.decode(o.script)) ?? `script ${o.script || '(none)'}`}`;
  const pays = payments(plan);
  const paid = payments(tx);
  const unmatched = [...pays];
  paid.forEach((output, i) => {
    const at = unmatched.findIndex((o) => o.script === output.script && o.amount === output.amount);
    if (at === -1) reasons.push(`output ${i} pays ${describe(output)}, which this plan does not`);
    else unmatched.splice(at, 1);
  });
  for (const output of unmatched) reasons.push(`the plan's output of ${describe(output)} is missing`);
  if (reasons.length === 0 && hex.encode(tx.unsignedTx) !== hex.encode(plan.unsignedTx))
    reasons.push("its inputs, outputs, version, lock time or sequences are not in the plan's order and form");
  if (reasons.length > 0) throw new SubmissionRefusal(reasons);
  if ('rawTx' in submission) return { rawTx: hex.encode(submission.rawTx), txid: tx.id };
  try {
    // An input another wallet finalized already (walletprocesspsbt does) keeps its final scripts.
    for (let i = 0; i < tx.inputsLength; i++) {
      const input = tx.getInput(i);
      if (!input.finalScriptSig && !input.finalScriptWitness) tx.finalizeIdx(i);
    }
  } catch (error) {
    throw new SubmissionRefusal([`the PSBT is not signed for every input: ${(error as Error).message}`]);
  }
  return { rawTx: tx.hex, txid: tx.id };
}
