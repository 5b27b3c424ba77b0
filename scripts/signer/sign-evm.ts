/**
 * The signer's decisions for EVM collection plans (docs/decisions/085), apart from its input and
 * output (../signer.ts): read the plan, check the header against its own configuration (chain id,
 * treasury, mode against the seed), let lib/chains/evm/transactions decode and check every
 * transaction and authorization, show what the plan moves, ask, sign.
 */
import type { HDKey } from '@scure/bip32';
import { z } from 'zod';
import { NETWORKS } from '../../lib/catalog';
import {
  EVM_GAS_PAYER_PATH,
  reviewEvmPlan,
  signEvmPlan,
  type EvmReview,
  type SignedEvmTransaction,
} from '../../lib/chains/evm/transactions';
import { PUBLIC_TEST_SEED_FINGERPRINT, SignerRefusal } from '../../lib/chains/utxo/transactions';
import { formatUnits, parseUnits } from '../../lib/money';
import { evmCollectionPlanSchema, type EvmCollectionPlan } from '../../lib/protocol';

const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be 0x and 40 hex digits');

/** An EVM signer's own configuration, a file on the merchant's machine. */
export const evmSignerConfigSchema = z.object({
  family: z.literal('evm'),
  /** The catalog network (for the coin's name), and the chain id it signs for, whatever a plan says. */
  network: z.string().refine((n) => NETWORKS.some((c) => c.name === n && c.family === 'evm'), 'must be an EVM network'),
  chainId: z.number().int().positive(),
  /** The only payee: the sweeper allowed is the one paying it, and transfers go to it. */
  treasury: evmAddress,
  /** Token contracts a plan may move. */
  tokens: z.array(evmAddress).max(100).default([]),
  /** The gas payer's path in the seed. */
  gasPayerPath: z
    .string()
    .regex(/^m(\/\d{1,10}'?){1,10}$/)
    .default(EVM_GAS_PAYER_PATH),
  /** The most the gas payer spends on one plan, in the native coin (a decimal string): gas at its fee cap plus top-ups. */
  maxGasPayerSpend: z.string().regex(/^\d{1,30}(\.\d{1,18})?$/),
  /**
   * Refunds (docs/decisions/112): the treasury's path in the seed (its key pays them), the merchant's
   * own node (an RPC URL) that the refunded payment is read from, the most refunded per currency in
   * 24 hours (a decimal string per ticker; a currency without one is never refunded), and the ledger
   * file (`signer-ledger.json` beside the configuration when absent). Without them it signs no refund.
   */
  treasuryPath: z
    .string()
    .regex(/^m(\/\d{1,10}'?){1,10}$/)
    .optional(),
  node: z.object({ url: z.url() }).optional(),
  refundDailyCaps: z
    .record(z.string().regex(/^[A-Z0-9]{2,10}$/), z.string().regex(/^\d{1,30}(\.\d{1,18})?$/))
    .default({}),
  ledger: z.string().min(1).optional(),
});
export type EvmSignerConfig = z.output<typeof evmSignerConfigSchema>;

const NATIVE_DECIMALS = 18;
/** The catalog's mainnet chain ids: a test seed never signs a live plan on one of them. */
const MAINNET_CHAIN_IDS = new Set(NETWORKS.flatMap((n) => (n.chainId ? [n.chainId] : [])));

export function describeEvmReview(plan: EvmCollectionPlan, review: EvmReview, nativeTicker: string): string {
  const native = (wei: bigint) => `${formatUnits(wei, NATIVE_DECIMALS)} ${nativeTicker}`;
  const tokenOf = new Map(plan.tokens.map((t) => [t.contract.toLowerCase(), t]));
  const swept = new Map<string, bigint>();
  for (const item of plan.items.filter((i) => i.method === 'sweep'))
    for (const b of item.balances) swept.set(b.currency, (swept.get(b.currency) ?? 0n) + BigInt(b.amount));
  const decimalsOf = (ticker: string) =>
    ticker === nativeTicker ? NATIVE_DECIMALS : (plan.tokens.find((t) => t.ticker === ticker)?.decimals ?? 0);
  return [
    `Plan ${plan.planId}: collect ${plan.items.length} addresses on ${plan.network} (chain id ${plan.chainId}), ${plan.mode} mode, to ${plan.treasury}`,
    `  ${review.swept.length} addresses delegated to the sweeper ${plan.sweeper} and swept, then cleared (${review.cleared.length})`,
    ...[...swept].map(([ticker, amount]) => `    their balances: ${formatUnits(amount, decimalsOf(ticker))} ${ticker}`),
    ...[...review.tokenToTreasury].map(([contract, amount]) => {
      const token = tokenOf.get(contract.toLowerCase());
      return `  transfers ${formatUnits(amount, token?.decimals ?? 0)} ${token?.ticker ?? contract} to the treasury`;
    }),
    ...(review.nativeToTreasury > 0n ? [`  transfers ${native(review.nativeToTreasury)} to the treasury`] : []),
    ...(review.funded.length > 0
      ? [`  funds gas on ${review.funded.length} addresses: ${native(review.funded.reduce((s, f) => s + f.value, 0n))}`]
      : []),
    `  the gas payer spends at most ${native(review.gasPayerSpend)}`,
  ].join('\n');
}

/** Signs an EVM plan or throws SignerRefusal (or Error for an unreadable plan). */
export async function signEvmPlanText(
  planText: string,
  config: EvmSignerConfig,
  root: HDKey,
  io: { confirm(summary: string): Promise<boolean> },
): Promise<{ planId: string; transactions: SignedEvmTransaction[] }> {
  let json: unknown;
  try {
    json = JSON.parse(planText);
  } catch {
    throw new Error('the plan is not JSON');
  }
  const parsed = evmCollectionPlanSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `the plan is not an EVM collection plan: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const plan = parsed.data;
  const header: string[] = [];
  if (plan.network !== config.network)
    header.push(`the plan is for ${plan.network}; this signer signs ${config.network}`);
  const testSeed = root.fingerprint >>> 0 === PUBLIC_TEST_SEED_FINGERPRINT;
  if (testSeed && plan.mode === 'live' && MAINNET_CHAIN_IDS.has(plan.chainId))
    header.push(
      'the plan is live on a mainnet and this signer holds the public test seed, which anyone can spend from',
    );
  if (!testSeed && plan.mode === 'test')
    header.push(
      'the plan is a test plan and this signer holds a seed of its own: test plans are signed with the public test seed',
    );
  if (header.length > 0) throw new SignerRefusal(header);
  const cap = parseUnits(config.maxGasPayerSpend, NATIVE_DECIMALS);
  if (!cap.ok)
    throw new Error(`maxGasPayerSpend ${config.maxGasPayerSpend} is not an amount of ${NATIVE_DECIMALS} decimals`);
  const review = reviewEvmPlan(plan, root, {
    chainId: config.chainId,
    treasury: config.treasury,
    tokens: config.tokens,
    gasPayerPath: config.gasPayerPath,
    maxGasPayerSpend: cap.value,
  });
  const nativeTicker = NETWORKS.find((n) => n.name === config.network)!.currencies.find((c) => !c.contract)!.ticker;
  if (!(await io.confirm(describeEvmReview(plan, review, nativeTicker)))) throw new SignerRefusal(['not confirmed']);
  return { planId: plan.planId, transactions: await signEvmPlan(plan, root) };
}
