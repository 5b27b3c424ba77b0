/**
 * What the signer checks before it signs a collection PSBT, and the signing. The signer trusts
 * nothing the gateway says: it decodes the PSBT itself and signs only what its own allowlist names
 * (docs/decisions/052):
 * - every input spends an output of a key of its own seed (the derivation's fingerprint is the
 *   seed's, the key at that path is the one named, the spent output pays that key) and carries its
 *   full previous transaction, whose id is the input's and whose output is the amount signed for;
 * - every input signs with SIGHASH_ALL (SIGHASH_NONE, SINGLE or ANYONECANPAY would let the
 *   outputs or the other inputs change after signing);
 * - every output pays the treasury pinned in the signer's own configuration, or an address of its
 *   own seed, except, in a refund plan, one output of exactly the refund to the payer's address,
 *   which the signer allows only after checking the refund's payment itself (docs/decisions/081);
 * - the fee (inputs less outputs, from the previous transactions) is within its bound.
 * A PSBT that breaks any of these is refused as a whole, with every reason.
 */
import { HDKey } from '@scure/bip32';
import { SigHash, Transaction } from '@scure/btc-signer/transaction.js';
import { RawTx } from '@scure/btc-signer/script.js';
import { hex } from '@scure/base';
import { formatPath, fingerprintHex } from './descriptor';
import { addressOfScript, depositScript, scriptOf } from './psbt';
import type { UtxoChain, UtxoCoin } from './networks';

/** The master fingerprint of the public test seed ("abandon ... about"), which signs test plans only. */
export const PUBLIC_TEST_SEED_FINGERPRINT = 0x73c5da0a;

export interface SignerPolicy {
  coin: Exclude<UtxoCoin, 'bitcoincash'>;
  chain: UtxoChain;
  /** The treasury pinned in the signer's configuration on the merchant's machine. */
  treasury: string;
  /** The largest fee, in base units, the signer signs. */
  maxFee: bigint;
  /**
   * A refund the signer checked (scripts/signer): exactly one output may pay `pays` to
   * `destination`, which is neither the treasury nor the seed's. Without it, no such output is signed.
   */
  refund?: { destination: string; pays: bigint };
}

export interface ReviewedInput {
  txid: string;
  vout: number;
  amount: bigint;
  path: string;
  address: string | null;
}
export interface ReviewedOutput {
  address: string | null;
  amount: bigint;
  to: 'treasury' | 'own' | 'refund';
}
export interface Review {
  inputs: ReviewedInput[];
  outputs: ReviewedOutput[];
  fee: bigint;
}

/** A PSBT the signer will not sign; `reasons` says each thing it found wrong. */
export class SignerRefusal extends Error {
  constructor(readonly reasons: string[]) {
    super(`refused to sign:\n- ${reasons.join('\n- ')}`);
    this.name = 'SignerRefusal';
  }
}

type Derivation = [Uint8Array, { fingerprint: number; path: number[] }];

/** The key of `root` a derivation names, when it names one of this seed's keys correctly. */
function ownKey(root: HDKey, derivations: readonly Derivation[] | undefined): { key: HDKey; path: number[] } | null {
  for (const [publicKey, { fingerprint, path }] of derivations ?? []) {
    if (fingerprint >>> 0 !== root.fingerprint >>> 0) continue;
    const key = root.derive(formatPath(path));
    if (key.publicKey && hex.encode(key.publicKey) === hex.encode(publicKey)) return { key, path };
  }
  return null;
}

/** Decodes a PSBT and checks it against the policy; answers what it spends and pays, or throws SignerRefusal. */
export function reviewCollectionPsbt(psbt: Uint8Array, root: HDKey, policy: SignerPolicy): Review {
  let tx: Transaction;
  try {
    tx = Transaction.fromPSBT(psbt);
  } catch (error) {
    throw new SignerRefusal([`the PSBT does not decode: ${(error as Error).message}`]);
  }
  const reasons: string[] = [];
  const type = policy.coin === 'dogecoin' ? 'pkh' : 'wpkh';
  const treasury = hex.encode(scriptOf(policy.coin, policy.chain, policy.treasury));
  const inputs: ReviewedInput[] = [];
  let total = 0n;
  for (let i = 0; i < tx.inputsLength; i++) {
    const input = tx.getInput(i);
    const txid = input.txid ? hex.encode(input.txid) : '?';
    const where = `input ${i} (${txid}:${input.index})`;
    if (input.sighashType !== undefined && input.sighashType !== SigHash.ALL)
      reasons.push(`${where} asks for sighash 0x${input.sighashType.toString(16)}; only SIGHASH_ALL is signed`);
    const own = ownKey(root, input.bip32Derivation as Derivation[] | undefined);
    if (!own) {
      reasons.push(`${where} names no key of this seed (master fingerprint ${fingerprintHex(root.fingerprint)})`);
      continue;
    }
    const previous = input.nonWitnessUtxo;
    if (!previous || input.index === undefined) {
      reasons.push(`${where} lacks its full previous transaction`);
      continue;
    }
    // Its id (without witnesses), as the node would compute it: a rewritten amount changes it.
    const previousId = Transaction.fromRaw(RawTx.encode(previous), {
      allowUnknownOutputs: true,
      allowUnknownInputs: true,
      disableScriptCheck: true,
    }).id;
    const spent = previous.outputs[input.index];
    const script = depositScript(type, own.key.publicKey!, policy.coin, policy.chain);
    if (previousId !== txid) reasons.push(`${where}: its previous transaction is ${previousId}, not ${txid}`);
    else if (!spent || hex.encode(spent.script) !== hex.encode(script))
      reasons.push(`${where} does not spend an output of the key at ${formatPath(own.path)}`);
    else if (
      input.witnessUtxo &&
      (input.witnessUtxo.amount !== spent.amount || hex.encode(input.witnessUtxo.script) !== hex.encode(spent.script))
    )
      reasons.push(`${where}: its witness UTXO differs from its previous transaction`);
    else {
      total += spent.amount;
      inputs.push({
        txid,
        vout: input.index,
        amount: spent.amount,
        path: formatPath(own.path),
        address: addressOfScript(policy.coin, policy.chain, spent.script),
      });
    }
  }
  const outputs: ReviewedOutput[] = [];
  const refund = policy.refund ? hex.encode(scriptOf(policy.coin, policy.chain, policy.refund.destination)) : null;
  if (refund === treasury) reasons.push('the refund pays the treasury');
  let paid = 0n;
  for (let i = 0; i < tx.outputsLength; i++) {
    const output = tx.getOutput(i);
    const amount = output.amount ?? 0n;
    const script = output.script ? hex.encode(output.script) : '';
    const address = output.script ? addressOfScript(policy.coin, policy.chain, output.script) : null;
    paid += amount;
    if (script === treasury) {
      outputs.push({ address, amount, to: 'treasury' });
      continue;
    }
    const own = ownKey(root, output.bip32Derivation as Derivation[] | undefined);
    if (own && hex.encode(depositScript(type, own.key.publicKey!, policy.coin, policy.chain)) === script) {
      outputs.push({ address, amount, to: 'own' });
      continue;
    }
    if (refund !== null && script === refund) {
      if (outputs.some((o) => o.to === 'refund')) reasons.push(`output ${i} pays the refund's address a second time`);
      else if (amount !== policy.refund!.pays)
        reasons.push(`output ${i} pays the refund's address ${amount}, not the ${policy.refund!.pays} of the refund`);
      outputs.push({ address, amount, to: 'refund' });
      continue;
    }
    reasons.push(
      `output ${i} pays ${address ?? 'a script without an address'}, which is neither the treasury ${policy.treasury} nor an address of this seed`,
    );
  }
  const fee = total - paid;
  if (refund !== null && !outputs.some((o) => o.to === 'refund')) reasons.push("no output pays the refund's address");
  if (reasons.length === 0) {
    if (fee < 0n) reasons.push(`the outputs (${paid}) spend more than the inputs (${total})`);
    else if (fee > policy.maxFee) reasons.push(`the fee ${fee} is above this signer's bound ${policy.maxFee}`);
  }
  if (reasons.length > 0) throw new SignerRefusal(reasons);
  return { inputs, outputs, fee };
}

/**
 * Reviews, then signs every input with SIGHASH_ALL and finalizes: answers the signed PSBT and the
 * transaction ready to broadcast. Throws SignerRefusal before signing anything.
 */
export function signCollectionPsbt(
  psbt: Uint8Array,
  root: HDKey,
  policy: SignerPolicy,
): { review: Review; signedPsbt: Uint8Array; rawTx: string; txid: string } {
  const review = reviewCollectionPsbt(psbt, root, policy);
  const tx = Transaction.fromPSBT(psbt);
  for (let i = 0; i < tx.inputsLength; i++) {
    const own = ownKey(root, tx.getInput(i).bip32Derivation as Derivation[] | undefined)!;
    tx.signIdx(own.key.privateKey!, i, [SigHash.ALL]);
  }
  const signedPsbt = tx.toPSBT(0);
  tx.finalize();
  return { review, signedPsbt, rawTx: tx.hex, txid: tx.id };
}

/** What a plan says it is, checked against what the signer was set up for before its PSBT is read. */
export interface PlanHeader {
  mode: 'test' | 'live';
  network: string;
  chain: UtxoChain;
}

/**
 * Refusals of a plan for another network, chain or mode than the signer's. The public test seed
 * signs test plans and plans of a test chain (regtest, testnet: coins of no value) only; any other
 * seed never signs a test plan, so that a live seed is never used where the test seed is expected
 * (and its signatures never leave the merchant's machine for a sandbox).
 */
export function planHeaderRefusals(
  plan: PlanHeader,
  signer: { network: string; chain: UtxoChain; masterFingerprint: number },
): string[] {
  const reasons: string[] = [];
  if (plan.network !== signer.network)
    reasons.push(`the plan is for ${plan.network}; this signer signs ${signer.network}`);
  if (plan.chain !== signer.chain)
    reasons.push(`the plan is for the ${plan.chain} chain; this signer signs ${signer.chain}`);
  const testSeed = signer.masterFingerprint >>> 0 === PUBLIC_TEST_SEED_FINGERPRINT;
  if (testSeed && plan.mode === 'live' && plan.chain === 'mainnet')
    reasons.push('the plan is live on mainnet and this signer holds the public test seed, which anyone can spend from');
  if (!testSeed && plan.mode === 'test')
    reasons.push(
      'the plan is a test plan and this signer holds a seed of its own: test plans are signed with the public test seed',
    );
  return reasons;
}
