/**
 * The signer's decisions, apart from its input and output (../signer.ts): read a plan, refuse what
 * its own configuration does not allow, show what the transaction does, ask, sign. A refund plan is
 * checked first against the seed, the signer's ledger and its daily cap (./refunds.ts). It imports the
 * wire contract (the plan's shape), lib/money and the client-safe transaction code only: nothing
 * that opens the gateway's database or reads its configuration (docs/decisions/052).
 */
import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { base64 } from '@scure/base';
import { z } from 'zod';
import {
  fingerprintHex,
  isRawCoin,
  isUtxoCoin,
  planHeaderRefusals,
  signCollectionPsbt,
  signRawCollection,
  SignerRefusal,
  type RawCoin,
  type RawSignerPolicy,
  type Review,
  type SignerPolicy,
  type UtxoCoin,
} from '../../lib/chains/utxo/transactions';
import { formatUnits, parseUnits } from '../../lib/money';
import {
  bitcoinFamilyPlanSchema,
  type MoneyOutPlan,
  type PlanRefund,
  type RawCollectionPlan,
  type RawRefundPlan,
  decimalString,
} from '../../lib/protocol';
import {
  checkRefund,
  describeRefund,
  ledgerEntry,
  type CheckedRefund,
  type LedgerEntry,
  type PlanOfRefund,
  type RefundLedger,
} from './refunds';

/** Every Bitcoin-family coin of the catalog has 8 decimals. */
const DECIMALS = 8;

/** The signer's own configuration, a file on the merchant's machine: what it allows, whatever a plan says. */
export const signerConfigSchema = z.object({
  network: z.string().refine(isUtxoCoin, 'must be bitcoin, litecoin, dogecoin or bitcoincash'),
  chain: z.enum(['mainnet', 'testnet', 'regtest']).default('mainnet'),
  /** The only address, besides the seed's own, that the signer lets a plan pay. */
  treasury: z.string().min(1),
  /** The largest fee it signs, in the coin (a decimal string). */
  maxFee: decimalString,
  /** The merchant's own node, asked whether each input is still unspent (a stale plan is refused). */
  node: z.object({ url: z.url(), user: z.string().optional(), password: z.string().optional() }).optional(),
  /** The most it signs in refunds within 24 hours, in the coin; without it, it signs no refund (docs/decisions/081). */
  refundDailyCap: decimalString.optional(),
  /** Its ledger of the refunds it signed; `signer-ledger.json` beside the configuration when absent. */
  ledger: z.string().min(1).optional(),
});
export type SignerConfig = z.output<typeof signerConfigSchema>;

/** The BIP 39 seed of a phrase (its checksum checked) and an optional passphrase. */
export function seedOfPhrase(phrase: string, passphrase = ''): Uint8Array {
  const words = phrase.trim().toLowerCase().split(/\s+/).join(' ');
  if (!validateMnemonic(words, wordlist))
    throw new Error('the seed is not a valid BIP 39 phrase (a word is misspelt, missing, or the checksum is wrong)');
  return mnemonicToSeedSync(words, passphrase);
}

/** The master key of a BIP 39 phrase (its checksum checked) and an optional passphrase. */
export function rootOfPhrase(phrase: string, passphrase = ''): HDKey {
  return HDKey.fromMasterSeed(seedOfPhrase(phrase, passphrase));
}

/** Asks the merchant's node whether an output is unspent (`gettxout`, mempool included). */
export type UnspentCheck = (txid: string, vout: number) => Promise<boolean>;
/** Asks the merchant's node whether a transaction is in a block of its best chain. */
export type InChainCheck = (txid: string, blockHash: string) => Promise<boolean>;

function nodeCall(node: NonNullable<SignerConfig['node']>) {
  const authorization =
    node.user !== undefined
      ? `Basic ${Buffer.from(`${node.user}:${node.password ?? ''}`).toString('base64')}`
      : undefined;
  return async (method: string, params: unknown[]) => {
    const response = await fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify({ jsonrpc: '1.0', id: 'signer', method, params }),
    });
    return z.object({ result: z.unknown(), error: z.unknown() }).parse(await response.json());
  };
}

export function nodeUnspentCheck(node: NonNullable<SignerConfig['node']>): UnspentCheck {
  const call = nodeCall(node);
  return async (txid, vout) => {
    const answer = await call('gettxout', [txid, vout, true]);
    if (answer.error) throw new Error(`your node refused gettxout: ${JSON.stringify(answer.error)}`);
    return answer.result !== null;
  };
}

/** `getrawtransaction txid true blockhash` (no -txindex needed): in the block, and the block in the best chain. */
export function nodeInChainCheck(node: NonNullable<SignerConfig['node']>): InChainCheck {
  const call = nodeCall(node);
  return async (txid, blockHash) => {
    const answer = await call('getrawtransaction', [txid, true, blockHash]);
    if (answer.error) return false;
    const found = z
      .object({ in_active_chain: z.boolean().optional(), confirmations: z.number().optional() })
      .safeParse(answer.result);
    return found.success && found.data.in_active_chain !== false && (found.data.confirmations ?? 0) >= 1;
  };
}

export interface Signed {
  planId: string;
  txid: string;
  /** The finalized transaction, hex, to broadcast. */
  rawTx: string;
  /** The PSBT with its signatures, base64, for a node or wallet that finalizes and broadcasts itself (PSBT plans). */
  signedPsbt?: string;
}

/** What signing answers: the transaction, and for a refund the entry its ledger must keep. */
export interface SignOutcome {
  signed: Signed;
  ledgerEntry: LedgerEntry | null;
}

/** What the merchant is asked to confirm: every output and the fee, from the decoded transaction. */
const OUTPUT_WORDS = { treasury: 'your treasury', own: 'an address of your seed', refund: 'the REFUND to the payer' };

export function describeReview(
  plan: Pick<MoneyOutPlan, 'planId' | 'kind' | 'network' | 'chain' | 'mode' | 'currency'>,
  review: Review,
): string {
  const coin = (amount: bigint) => `${formatUnits(amount, DECIMALS)} ${plan.currency}`;
  const total = review.inputs.reduce((sum, input) => sum + input.amount, 0n);
  const what = plan.kind === 'refund' ? 'spend' : 'collect';
  return [
    `Plan ${plan.planId}: ${what} ${review.inputs.length} outputs (${coin(total)}) on ${plan.network} ${plan.chain}, ${plan.mode} mode`,
    ...review.outputs.map((o) => `  pays ${coin(o.amount)} to ${o.address ?? '(no address)'} (${OUTPUT_WORDS[o.to]})`),
    `  fee ${coin(review.fee)}`,
  ].join('\n');
}

/**
 * Signs a plan or throws SignerRefusal (or Error for an unreadable plan): the header against the
 * signer's network, chain and seed, each input against the merchant's node when one is configured,
 * the transaction against the allowlist, then the merchant's confirmation.
 */
export async function signPlan(
  planText: string,
  config: SignerConfig,
  root: HDKey,
  io: {
    confirm(summary: string): Promise<boolean>;
    unspent?: UnspentCheck;
    inChain?: InChainCheck;
    /** The refunds this signer signed before (its ledger file), and the time now. */
    ledger?: RefundLedger;
    now?: Date;
  },
): Promise<SignOutcome> {
  let json: unknown;
  try {
    json = JSON.parse(planText);
  } catch {
    throw new Error('the plan is not JSON');
  }
  const parsed = bitcoinFamilyPlanSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `the plan is not a collection or refund plan: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const plan = parsed.data;
  const header = planHeaderRefusals(plan, {
    network: config.network,
    chain: config.chain,
    masterFingerprint: root.fingerprint,
  });
  if ((plan.format === 'raw') !== isRawCoin(config.network))
    header.push(`${config.network} plans are not of format ${plan.format}`);
  if (plan.masterFingerprint !== fingerprintHex(root.fingerprint))
    header.push(`the plan spends the key ${plan.masterFingerprint}; this seed is ${fingerprintHex(root.fingerprint)}`);
  if (header.length > 0) throw new SignerRefusal(header);
  const maxFee = parseUnits(config.maxFee, DECIMALS);
  if (!maxFee.ok) throw new Error(`maxFee ${config.maxFee} is not an amount of ${DECIMALS} decimals`);
  const now = io.now ?? new Date();
  let refund: CheckedRefund | null = null;
  if (plan.kind === 'refund') {
    let dailyCap: bigint | null = null;
    if (config.refundDailyCap !== undefined) {
      const cap = parseUnits(config.refundDailyCap, DECIMALS);
      if (!cap.ok) throw new Error(`refundDailyCap ${config.refundDailyCap} is not an amount of ${DECIMALS} decimals`);
      dailyCap = cap.value;
    }
    const policy = { coin: config.network as UtxoCoin, chain: config.chain, dailyCap };
    refund = checkRefund(plan, root, policy, io.ledger ?? { refunds: [] }, now);
  }
  const policy = {
    chain: config.chain,
    treasury: config.treasury,
    maxFee: maxFee.value,
    ...(refund ? { refund: refund.allowance } : {}),
  };
  // Reviewed (and signed, in memory) before the node is asked: nothing of a refused plan leaves the machine.
  const signed: Omit<Signed, 'planId'> & { review: Review } =
    plan.format === 'raw'
      ? signRaw(plan, root, { ...policy, coin: config.network as RawCoin })
      : signPsbt(plan.psbt, root, { ...policy, coin: config.network as Exclude<UtxoCoin, 'bitcoincash'> });
  if (plan.kind === 'refund') await refuseUnprovenPayment(plan.refund, refund!, signed.review, io.inChain);
  await refuseSpentInputs(signed.review, io.unspent);
  const summary = [
    ...(refund ? [describeRefund(plan as PlanOfRefund, refund)] : []),
    describeReview(plan, signed.review),
  ];
  if (!(await io.confirm(summary.join('\n')))) throw new SignerRefusal(['not confirmed']);
  const { review: _, ...transaction } = signed;
  return {
    signed: { ...transaction, planId: plan.planId },
    ledgerEntry: refund ? ledgerEntry(plan as PlanOfRefund, refund, signed.txid, now) : null,
  };
}

/** A PSBT plan (bitcoin, litecoin) signed by the PSBT signer's allowlist. */
function signPsbt(psbt: string, root: HDKey, policy: SignerPolicy): Omit<Signed, 'planId'> & { review: Review } {
  const signed = signCollectionPsbt(base64.decode(psbt), root, policy);
  return {
    review: signed.review,
    txid: signed.txid,
    rawTx: signed.rawTx,
    signedPsbt: base64.encode(signed.signedPsbt),
  };
}

/**
 * A raw plan (dogecoin, bitcoincash; docs/decisions/118, 121): the transaction decoded and checked
 * by the PSBT signer's allowlist, then signed with the coin's signature hash.
 */
function signRaw(
  plan: RawCollectionPlan | RawRefundPlan,
  root: HDKey,
  policy: RawSignerPolicy,
): Omit<Signed, 'planId'> & { review: Review } {
  const inputs = plan.inputs.map((input) => {
    const amount = parseUnits(input.amount, DECIMALS);
    if (!amount.ok) throw new Error(`input ${input.txid}:${input.vout}: ${input.amount} is not an amount`);
    return { ...input, amount: amount.value };
  });
  const raw = { transaction: plan.unsignedTx, masterFingerprint: parseInt(plan.masterFingerprint, 16), inputs };
  return signRawCollection(raw, root, policy);
}

/**
 * The refunded payment exists (docs/decisions/081): the transaction spends one of its outputs (a
 * transaction spending an output that does not exist is invalid), or the signer's own node has its
 * transactions in its best chain. Throws SignerRefusal otherwise.
 */
async function refuseUnprovenPayment(
  refund: PlanRefund,
  checked: CheckedRefund,
  review: Review,
  inChain: InChainCheck | undefined,
): Promise<void> {
  if (review.inputs.some((i) => checked.outpoints.includes(`${i.txid}:${i.vout}`))) return;
  if (!inChain)
    throw new SignerRefusal([
      "the plan does not spend the refunded payment's outputs and this signer has no node to find the payment on: add node to its configuration",
    ]);
  const missing: string[] = [];
  for (const t of refund.payment.transactions) if (!(await inChain(t.txid, t.blockHash))) missing.push(t.txid);
  if (missing.length > 0)
    throw new SignerRefusal(
      missing.map((t) => `your node does not have the refunded payment's transaction ${t} in its best chain`),
    );
}

/** Refuses a plan of which the merchant's node (when configured) says an input is spent already. */
async function refuseSpentInputs(review: Review, unspent: UnspentCheck | undefined): Promise<void> {
  if (!unspent) return;
  const spent: string[] = [];
  for (const input of review.inputs)
    if (!(await unspent(input.txid, input.vout))) spent.push(`${input.txid}:${input.vout}`);
  if (spent.length > 0)
    throw new SignerRefusal(
      spent.map((o) => `input ${o} is spent already (or unknown to your node): the plan is stale; prepare a new one`),
    );
}
