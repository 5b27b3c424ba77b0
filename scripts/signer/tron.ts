/**
 * The signer's decisions for a Tron collection plan (docs/decisions/086), apart from its input and
 * output (../signer.ts). It believes nothing of the plan's JSON but which transactions to look at:
 * each step's raw_data is decoded here (lib/chains/tron/transactions), its id recomputed, and it
 * is signed only when it is the contract its step names, between the accounts this seed derives
 * (the resource account at the configured path, the deposit at the path the plan names, which
 * must be of the deposit chain) and the treasury and token pinned in the configuration.
 */
import type { HDKey } from '@scure/bip32';
import { z } from 'zod';
import {
  encodeSignedTransaction,
  reviewStep,
  signTransactionId,
  tronAccountBytes,
  tronAddressBytes,
  tronAddressOfBytes,
  isValidTronAddress,
  type StepReview,
} from '../../lib/chains/tron/transactions';
import { planHeaderRefusals, SignerRefusal } from '../../lib/chains/utxo/transactions';
import { formatUnits, parseUnits } from '../../lib/money';
import { tronCollectionPlanSchema, type TronCollectionPlan } from '../../lib/protocol';

/** TRX has 6 decimals (sun). */
const TRX_DECIMALS = 6;
/** The deposit addresses' chain (lib/chains/derivation.ts: BIP 44, coin type 195). */
const DEPOSIT_PATH = /^m\/44'\/195'\/0'\/0\/\d{1,10}$/;
const tronAddress = z.string().refine(isValidTronAddress, 'must be a Tron address');

/** A Tron signer's own configuration: what it allows, whatever a plan says. */
export const tronSignerConfigSchema = z.object({
  network: z.literal('tron'),
  chain: z.enum(['mainnet', 'testnet', 'regtest']).default('mainnet'),
  /** The only address a token transfer may pay. */
  treasury: tronAddress,
  /** The token contracts whose `transfer` it signs (USDT's on mainnet: TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t). */
  tokens: z.array(tronAddress).min(1),
  /** The account holding the merchant's staked TRX: its path in this seed. */
  resourcePath: z
    .string()
    .regex(/^m(\/\d+'?)+$/)
    .default("m/44'/195'/1'/0/0"),
  /** The most TRX (a decimal string) one step may send to a deposit address, or burn for a transfer's energy (a refund's fee limit too). */
  maxBurn: z.string().regex(/^\d+(\.\d{1,6})?$/),
  /**
   * Refunds (docs/decisions/115): the treasury's path in this seed (its key signs them), the
   * merchant's own Tron node (its HTTP API) the refunded payment is read on, each currency's most
   * in 24 hours, and the ledger file (`signer-ledger.json` beside the configuration when absent).
   * Without them it signs no refund.
   */
  treasuryPath: z
    .string()
    .regex(/^m(\/\d{1,10}'?){1,10}$/)
    .optional(),
  node: z.object({ url: z.url(), apiKey: z.string().min(1).optional() }).optional(),
  refundDailyCaps: z
    .record(z.string().regex(/^[A-Z0-9]{2,10}$/), z.string().regex(/^\d{1,30}(\.\d{1,18})?$/))
    .default({}),
  ledger: z.string().min(1).optional(),
});
export type TronSignerConfig = z.output<typeof tronSignerConfigSchema>;

export interface SignedTronStep {
  step: string;
  address: string;
  txID: string;
  /** The signed Transaction protobuf, hex, for /wallet/broadcasthex. */
  transaction: string;
}

export interface SignedTronPlan {
  planId: string;
  /** In the order they must be broadcast. */
  transactions: SignedTronStep[];
}

function privateKeyAt(root: HDKey, path: string): { key: Uint8Array; account: Uint8Array } {
  const child = root.derive(path);
  if (!child.privateKey || !child.publicKey) throw new Error(`the seed gives no key at ${path}`);
  return { key: child.privateKey, account: tronAccountBytes(child.publicKey) };
}

function describeStep(review: StepReview, plan: TronCollectionPlan, burn: string): string {
  const c = review.contract;
  const trx = (sun: bigint) => `${formatUnits(sun, TRX_DECIMALS)} TRX`;
  const to = (bytes: Uint8Array) => tronAddressOfBytes(bytes);
  const what =
    c.type === 'TransferContract'
      ? `send ${trx(c.amount)} ${review.step === 'sweep' ? 'of its own ' : ''}to ${to(c.to)}`
      : c.type === 'DelegateResourceContract'
        ? `lend the energy of ${trx(c.balance)} staked to ${to(c.receiver)}`
        : c.type === 'UnDelegateResourceContract'
          ? `take back the energy of ${trx(c.balance)} from ${to(c.receiver)}`
          : `transfer ${review.amount} base units of ${plan.currency} (${to(c.contract)}) to ${plan.treasury}, burning at most ${trx(review.feeLimit)}`;
  return `  ${review.step.padEnd(8)} ${what}; burns about ${trx(BigInt(burn))}`;
}

/**
 * Signs every step of a Tron plan, or throws SignerRefusal with every reason (Error for an
 * unreadable plan). The merchant confirms after reading each step and the TRX the plan burns.
 */
export async function signTronPlan(
  plan: TronCollectionPlan,
  config: TronSignerConfig,
  root: HDKey,
  confirm: (summary: string) => Promise<boolean>,
): Promise<SignedTronPlan> {
  const refusals = planHeaderRefusals(plan, {
    network: config.network,
    chain: config.chain,
    masterFingerprint: root.fingerprint,
  });
  const maxBurn = parseUnits(config.maxBurn, TRX_DECIMALS);
  if (!maxBurn.ok) throw new Error(`maxBurn ${config.maxBurn} is not an amount of TRX`);
  // A plan of TRX itself has no token: its steps are sweeps, checked against the pinned treasury alone.
  if (plan.token !== null && !config.tokens.includes(plan.token))
    refusals.push(`the token ${plan.token} is not one this signer's configuration names`);
  if (plan.treasury !== config.treasury)
    refusals.push(`the plan pays ${plan.treasury}; this signer's treasury is ${config.treasury}`);
  if (plan.resourceAccount.path !== config.resourcePath)
    refusals.push(
      `the plan's resource account is at ${plan.resourceAccount.path}; this signer's is at ${config.resourcePath}`,
    );
  const resource = privateKeyAt(root, config.resourcePath);
  if (tronAddressOfBytes(resource.account) !== plan.resourceAccount.address)
    refusals.push(
      `the resource account of this seed is ${tronAddressOfBytes(resource.account)}, not ${plan.resourceAccount.address}`,
    );
  // What the signer checks a step against is its own: the token and treasury of its configuration.
  const token = tronAddressBytes(
    plan.token !== null && config.tokens.includes(plan.token) ? plan.token : config.tokens[0]!,
  );
  const treasury = tronAddressBytes(config.treasury);

  const lines: string[] = [];
  const signed: SignedTronStep[] = [];
  let burn = 0n;
  for (const item of plan.addresses) {
    if (!DEPOSIT_PATH.test(item.path)) {
      refusals.push(`${item.address}: ${item.path} is not a deposit path (m/44'/195'/0'/0/i)`);
      continue;
    }
    const deposit = privateKeyAt(root, item.path);
    if (tronAddressOfBytes(deposit.account) !== item.address)
      refusals.push(`${item.address}: this seed's address at ${item.path} is ${tronAddressOfBytes(deposit.account)}`);
    lines.push(`${item.address} (${item.path}):`);
    /** Sun of staked TRX this item's steps lend the deposit address. */
    let lent = 0n;
    for (const step of item.steps) {
      // A TRX plan only sweeps; a token plan never does (its address's TRX is a plan of its own).
      if ((plan.token === null) !== (step.step === 'sweep')) {
        refusals.push(
          `${item.address}: ${step.step} is not a step of a plan of ${plan.token === null ? 'TRX itself' : 'a token'}`,
        );
        continue;
      }
      const answer = reviewStep(step.step, step.txID, step.rawDataHex, {
        resource: resource.account,
        deposit: deposit.account,
        treasury,
        token,
        maxBurn: maxBurn.value,
      });
      if ('refusals' in answer) {
        refusals.push(...answer.refusals.map((r) => `${item.address}: ${r}`));
        continue;
      }
      const c = answer.review.contract;
      // A reclaim takes back exactly what this address was lent: nothing stays delegated, nothing else is taken.
      if (c.type === 'DelegateResourceContract') lent += c.balance;
      if (c.type === 'UnDelegateResourceContract' && c.balance !== lent)
        refusals.push(`${item.address}: reclaims ${c.balance} sun, not the ${lent} delegated before it`);
      burn += BigInt(step.burn);
      lines.push(describeStep(answer.review, plan, step.burn));
      const key = c.type === 'TriggerSmartContract' || step.step === 'sweep' ? deposit.key : resource.key;
      const signature = signTransactionId(answer.review.txID, key);
      const transaction = encodeSignedTransaction(Uint8Array.from(Buffer.from(step.rawDataHex, 'hex')), [signature]);
      signed.push({
        step: step.step,
        address: item.address,
        txID: answer.review.txID,
        transaction: Buffer.from(transaction).toString('hex'),
      });
    }
    if (lent > 0n && !item.steps.some((s) => s.step === 'reclaim'))
      refusals.push(`${item.address}: energy is delegated and never reclaimed`);
  }
  if (refusals.length > 0) throw new SignerRefusal(refusals);
  const summary = [
    `Plan ${plan.planId}: collect ${plan.currency} from ${plan.addresses.length} addresses on tron ${plan.chain}, ${plan.mode} mode, ${plan.token === null ? 'each address paying its own bandwidth' : `energy by ${plan.energySource === 'stake' ? 'your staked TRX' : 'burning TRX'}`}`,
    ...lines,
    `  TRX burned in all: about ${formatUnits(burn, TRX_DECIMALS)} TRX; sign and broadcast before ${plan.expiresAt}`,
  ].join('\n');
  if (!(await confirm(summary))) throw new SignerRefusal(['not confirmed']);
  return { planId: plan.planId, transactions: signed };
}

/** The plan if the text is a Tron plan; null when it is another kind of plan (the UTXO signer's). */
export function tronPlanOf(json: unknown): TronCollectionPlan | null {
  if (!json || typeof json !== 'object' || (json as { format?: unknown }).format !== 'tron') return null;
  const parsed = tronCollectionPlanSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `the plan is not a Tron collection plan: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}
