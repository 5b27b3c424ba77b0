/**
 * The signer's decisions, apart from its input and output (../signer.ts): read a plan, refuse what
 * its own configuration does not allow, show what the transaction does, ask, sign. It imports the
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
  isUtxoCoin,
  planHeaderRefusals,
  signCollectionPsbt,
  SignerRefusal,
  type Review,
  type UtxoCoin,
} from '../../lib/chains/utxo/transactions';
import { formatUnits, parseUnits } from '../../lib/money';
import { collectionPlanSchema, type CollectionPlan } from '../../lib/protocol';

/** Every Bitcoin-family coin of the catalog has 8 decimals. */
const DECIMALS = 8;

/** The signer's own configuration, a file on the merchant's machine: what it allows, whatever a plan says. */
export const signerConfigSchema = z.object({
  network: z.string().refine(isUtxoCoin, 'must be bitcoin, litecoin, dogecoin or bitcoincash'),
  chain: z.enum(['mainnet', 'testnet', 'regtest']).default('mainnet'),
  /** The only address, besides the seed's own, that the signer lets a plan pay. */
  treasury: z.string().min(1),
  /** The largest fee it signs, in the coin (a decimal string). */
  maxFee: z.string().regex(/^\d+(\.\d+)?$/),
  /** The merchant's own node, asked whether each input is still unspent (a stale plan is refused). */
  node: z.object({ url: z.url(), user: z.string().optional(), password: z.string().optional() }).optional(),
});
export type SignerConfig = z.output<typeof signerConfigSchema>;

/** The master key of a BIP 39 phrase (its checksum checked) and an optional passphrase. */
export function rootOfPhrase(phrase: string, passphrase = ''): HDKey {
  const words = phrase.trim().toLowerCase().split(/\s+/).join(' ');
  if (!validateMnemonic(words, wordlist))
    throw new Error('the seed is not a valid BIP 39 phrase (a word is misspelt, missing, or the checksum is wrong)');
  return HDKey.fromMasterSeed(mnemonicToSeedSync(words, passphrase));
}

/** Asks the merchant's node whether an output is unspent (`gettxout`, mempool included). */
export type UnspentCheck = (txid: string, vout: number) => Promise<boolean>;

export function nodeUnspentCheck(node: NonNullable<SignerConfig['node']>): UnspentCheck {
  const authorization =
    node.user !== undefined
      ? `Basic ${Buffer.from(`${node.user}:${node.password ?? ''}`).toString('base64')}`
      : undefined;
  return async (txid, vout) => {
    const response = await fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify({ jsonrpc: '1.0', id: 'signer', method: 'gettxout', params: [txid, vout, true] }),
    });
    const answer = z.object({ result: z.unknown(), error: z.unknown() }).parse(await response.json());
    if (answer.error) throw new Error(`your node refused gettxout: ${JSON.stringify(answer.error)}`);
    return answer.result !== null;
  };
}

export interface Signed {
  planId: string;
  txid: string;
  /** The finalized transaction, hex, to broadcast. */
  rawTx: string;
  /** The PSBT with its signatures, base64, for a node or wallet that finalizes and broadcasts itself. */
  signedPsbt: string;
}

/** What the merchant is asked to confirm: every output and the fee, from the decoded transaction. */
export function describeReview(plan: CollectionPlan, review: Review): string {
  const coin = (amount: bigint) => `${formatUnits(amount, DECIMALS)} ${plan.currency}`;
  const total = review.inputs.reduce((sum, input) => sum + input.amount, 0n);
  return [
    `Plan ${plan.planId}: collect ${review.inputs.length} outputs (${coin(total)}) on ${plan.network} ${plan.chain}, ${plan.mode} mode`,
    ...review.outputs.map(
      (o) =>
        `  pays ${coin(o.amount)} to ${o.address ?? '(no address)'} (${o.to === 'treasury' ? 'your treasury' : 'an address of your seed'})`,
    ),
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
  io: { confirm(summary: string): Promise<boolean>; unspent?: UnspentCheck },
): Promise<Signed> {
  let json: unknown;
  try {
    json = JSON.parse(planText);
  } catch {
    throw new Error('the plan is not JSON');
  }
  const parsed = collectionPlanSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `the plan is not a collection plan: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const plan = parsed.data;
  const header = planHeaderRefusals(plan, {
    network: config.network,
    chain: config.chain,
    masterFingerprint: root.fingerprint,
  });
  if (plan.format !== 'psbt')
    header.push(`plans of format ${plan.format} are not signed by this version of the signer`);
  if (plan.masterFingerprint !== fingerprintHex(root.fingerprint))
    header.push(`the plan spends the key ${plan.masterFingerprint}; this seed is ${fingerprintHex(root.fingerprint)}`);
  if (header.length > 0) throw new SignerRefusal(header);
  const maxFee = parseUnits(config.maxFee, DECIMALS);
  if (!maxFee.ok) throw new Error(`maxFee ${config.maxFee} is not an amount of ${DECIMALS} decimals`);
  // A PSBT plan is of bitcoin, litecoin or dogecoin: bitcoincash plans are raw (refused above).
  const coin = config.network as Exclude<UtxoCoin, 'bitcoincash'>;
  const policy = { coin, chain: config.chain, treasury: config.treasury, maxFee: maxFee.value };
  const psbt = base64.decode(plan.psbt);
  // Reviewed (and signed, in memory) before the node is asked: nothing of a refused plan leaves the machine.
  const signed = signCollectionPsbt(psbt, root, policy);
  if (io.unspent) {
    const spent: string[] = [];
    for (const input of signed.review.inputs)
      if (!(await io.unspent(input.txid, input.vout))) spent.push(`${input.txid}:${input.vout}`);
    if (spent.length > 0)
      throw new SignerRefusal(
        spent.map((o) => `input ${o} is spent already (or unknown to your node): the plan is stale; prepare a new one`),
      );
  }
  if (!(await io.confirm(describeReview(plan, signed.review)))) throw new SignerRefusal(['not confirmed']);
  return { planId: plan.planId, txid: signed.txid, rawTx: signed.rawTx, signedPsbt: base64.encode(signed.signedPsbt) };
}
