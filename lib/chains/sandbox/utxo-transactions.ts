import 'server-only';
/**
 * Real transactions on the sandbox's Bitcoin-family chains (docs/decisions/097). A sandbox payment
 * to such an address is a serialized transaction from the faucet (one input from a faucet outpoint,
 * its output in the network's real script), whose txid is its hash: a test-mode plan carries it as
 * the previous transaction the signer checks. A signed plan coming back is judged by
 * `judgeSpend` (pure): it spends outputs the sandbox holds unspent, pays no more than they hold,
 * and every input's signature verifies against the script it spends.
 */
import { randomBytes } from 'node:crypto';
import { hex } from '@scure/base';
import { RawTx } from '@scure/btc-signer/script.js';
import { Transaction } from '@scure/btc-signer/transaction.js';
import type { Network } from '../../catalog';
import { utxoOutputScript } from '../utxo/address';
import { addressOfOutputScript, isUtxoCoin, verifyInputSignatures, type UtxoCoin } from '../utxo/transactions';

/** What a sandbox transaction's decoding needs: nothing of it is a standard a wallet checks here. */
const RAW_OPTIONS = { allowUnknownOutputs: true, allowUnknownInputs: true, disableScriptCheck: true } as const;

/** A transaction the sandbox keeps: its id and its bytes (hex). */
export interface MintedTransaction {
  txHash: string;
  raw: string;
}

/** True for the networks whose sandbox transfers are real transactions. */
export function mintsTransactions(network: Network): boolean {
  return network.family === 'utxo' && isUtxoCoin(network.name);
}

/**
 * A payment of `amount` to `to` from the faucet: version 2, one input spending a fresh faucet
 * outpoint (the sandbox's coin source: nothing checks it), one output in the network's script.
 */
export function mintPayment(network: Network, to: string, amount: bigint): MintedTransaction {
  const raw = RawTx.encode({
    version: 2,
    segwitFlag: false,
    inputs: [{ txid: randomBytes(32), index: 0, finalScriptSig: new Uint8Array(0), sequence: 0xffffffff }],
    outputs: [{ amount, script: utxoOutputScript(network.name as UtxoCoin, to, network.chain ?? 'mainnet') }],
    witnesses: [],
    lockTime: 0,
  });
  return { txHash: Transaction.fromRaw(raw, RAW_OPTIONS).id, raw: hex.encode(raw) };
}

/** A sandbox output a submitted transaction spends, as the ledger holds it. */
export interface HeldOutput {
  txHash: string;
  outputIndex: number;
  address: string;
  amount: bigint;
  /** The transaction that spent it already, or null. */
  spentByTx: string | null;
}

/** An output the accepted transaction pays, as a sandbox transfer. */
export interface PaidOutput {
  outputIndex: number;
  to: string;
  amount: bigint;
}

export type SpendJudgement =
  | { outcome: 'taken'; txHash: string; from: string; outputs: PaidOutput[]; spent: HeldOutput[] }
  | { outcome: 'known'; txHash: string }
  | { outcome: 'refused'; reason: string };

/** A raw transaction's id and the outpoints it spends; null for bytes that are not a transaction. */
export function readSpends(
  rawTx: string,
): { txHash: string; spends: { txHash: string; outputIndex: number }[] } | null {
  let tx: Transaction;
  try {
    tx = Transaction.fromRaw(hex.decode(rawTx), RAW_OPTIONS);
  } catch {
    return null;
  }
  const spends: { txHash: string; outputIndex: number }[] = [];
  for (let i = 0; i < tx.inputsLength; i++) {
    const input = tx.getInput(i);
    spends.push({ txHash: hex.encode(input.txid!), outputIndex: input.index! });
  }
  return { txHash: tx.id, spends };
}

/**
 * Whether the sandbox takes the signed transaction `rawTx` (hex) of `network`, given the outputs
 * it spends as the ledger holds them (`held`, by `txid:vout`; absent: the ledger has none) and
 * whether the ledger knows its id already. Every reason is said.
 */
export function judgeSpend(
  network: Network,
  rawTx: string,
  held: ReadonlyMap<string, HeldOutput>,
  known: (txHash: string) => boolean,
): SpendJudgement {
  let tx: Transaction;
  try {
    tx = Transaction.fromRaw(hex.decode(rawTx), RAW_OPTIONS);
  } catch (error) {
    return { outcome: 'refused', reason: `the transaction does not decode: ${(error as Error).message}` };
  }
  if (known(tx.id)) return { outcome: 'known', txHash: tx.id };
  const coin = network.name as UtxoCoin;
  const chain = network.chain ?? 'mainnet';
  const reasons: string[] = [];
  const spent: HeldOutput[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < tx.inputsLength; i++) {
    const input = tx.getInput(i);
    const outpoint = `${hex.encode(input.txid!)}:${input.index}`;
    const output = held.get(outpoint);
    if (seen.has(outpoint)) reasons.push(`input ${i} spends ${outpoint} a second time`);
    else if (!output)
      reasons.push(`input ${i} spends ${outpoint}, which is not an output of the sandbox's ${network.name}`);
    else if (output.spentByTx !== null)
      reasons.push(`input ${i} spends ${outpoint}, spent already by ${output.spentByTx}`);
    else spent.push(output);
    seen.add(outpoint);
  }
  if (tx.inputsLength === 0) reasons.push('the transaction spends nothing');
  const outputs: PaidOutput[] = [];
  let paid = 0n;
  for (let i = 0; i < tx.outputsLength; i++) {
    const output = tx.getOutput(i);
    const to = output.script ? addressOfOutputScript(coin, chain, output.script) : null;
    paid += output.amount ?? 0n;
    if (to === null) reasons.push(`output ${i} pays a script without a ${network.name} address`);
    else outputs.push({ outputIndex: i, to, amount: output.amount ?? 0n });
  }
  if (reasons.length === 0) {
    const total = spent.reduce((sum, o) => sum + o.amount, 0n);
    if (paid > total) reasons.push(`its outputs (${paid}) pay more than its inputs hold (${total})`);
    reasons.push(
      ...verifyInputSignatures(
        tx,
        spent.map((o) => ({ script: utxoOutputScript(coin, o.address, chain), amount: o.amount })),
        coin,
      ),
    );
  }
  if (reasons.length > 0) return { outcome: 'refused', reason: reasons.join('; ') };
  return { outcome: 'taken', txHash: tx.id, from: spent[0]!.address, outputs, spent };
}
