/**
 * The signer's XRP Ledger refunds (docs/decisions/119): a plan names one Payment from the
 * merchant's own account to the account and destination tag its payer confirmed. A compromised
 * gateway could rewrite a plan to pay anyone, so, as for Tron and EVM refunds (./sign-tron-refund.ts,
 * decisions 112 and 115), the signer believes only what it checks here:
 * - the transaction is exactly the refund's Payment (lib/chains/xrpl/transactions
 *   `xrplRefundRefusals`, the rules the gateway builds by): decoded from its binary, the fields the
 *   plan states beside it the same, from its own account (the family seed it holds derives it), to
 *   the account and tag the plan shows as the payer's, the drops the refund pays, no Paths, SendMax
 *   or other field, no flag but tfFullyCanonicalSig, its fee within `maxFee`;
 * - the refunded payment: each transaction it names is read from the signer's own rippled (`node`,
 *   the `tx` method), validated, tesSUCCESS, delivering XRP to its account under the order's tag;
 *   that sum is what the payment paid, for the signer;
 * - its ledger (./refunds.ts `ledgerRefusals`): a refund id signed once, the refunds of those
 *   transactions never above what they paid, the last 24 hours' under its cap in `refundDailyCaps`;
 * - the destination is the payer's claim: a plan that calls it the address the payment came from
 *   is refused (./sender-refund.ts, decision 126).
 * Pure but for `nodeXrplPaymentReader`: the caller reads the ledger, asks the node and writes the ledger.
 */
import { z } from 'zod';
import { findNetwork } from '../../lib/catalog';
import { SignerRefusal } from '../../lib/chains/utxo/transactions';
import { signXrplRefund, xrplAccountOfSeed, xrplRefundRefusals } from '../../lib/chains/xrpl/transactions';
import { formatUnits, parseUnits } from '../../lib/money';
import { decimalString, xrplRefundPlanSchema, type XrplRefundPlan } from '../../lib/protocol';
import { ledgerRefusals, refundPlanOf, refundSubject, type LedgerEntry, type RefundLedger } from './refunds';
import { claimOnlyRefusals, refundDestinationLine } from './sender-refund';
import type { SignOutcome } from './sign-plan';

const XRP_DECIMALS = 6;
const classicAddress = z.string().regex(/^r[1-9A-HJ-NP-Za-km-z]{24,34}$/, 'must be a classic address (r...)');

/**
 * `{"network": "ripple", "chain", "account", "maxFee", "node": {"url"}, "refundDailyCaps": {"XRP": "500"}, "ledger"?}`:
 * the merchant's own account (its family seed is typed at the prompt or read from --seed-file),
 * the most XRP one refund's fee may be, its own rippled's JSON-RPC URL, the most XRP refunded in 24
 * hours, and the ledger file (`signer-ledger.json` beside the configuration when absent).
 */
export const xrplSignerConfigSchema = z.object({
  network: z.literal('ripple'),
  chain: z.enum(['mainnet', 'testnet', 'regtest']).default('mainnet'),
  account: classicAddress,
  maxFee: z.string().regex(/^\d+(\.\d{1,6})?$/, 'must be XRP, at most 6 decimals'),
  node: z.object({ url: z.url() }).optional(),
  refundDailyCaps: z.record(z.string(), decimalString).default({}),
  ledger: z.string().optional(),
});
export type XrplSignerConfig = z.infer<typeof xrplSignerConfigSchema>;

/** What the signer's rippled says of one transaction of the refunded payment; null when it knows none. */
export interface XrplPaymentAnswer {
  validated: boolean;
  result: string;
  destination: string | null;
  tag: number | null;
  /** Drops delivered (`meta.delivered_amount`); null for an issued currency or none. */
  delivered: bigint | null;
}
export type XrplPaymentReader = (hash: string) => Promise<XrplPaymentAnswer | null>;

const txAnswer = z.object({
  result: z.object({
    status: z.string().optional(),
    error: z.string().optional(),
    Destination: z.string().optional(),
    DestinationTag: z.number().int().optional(),
    validated: z.boolean().optional(),
    meta: z.object({ TransactionResult: z.string(), delivered_amount: z.unknown().optional() }).optional(),
  }),
});

/** Reads the payment's transactions from the signer's own rippled (JSON-RPC `tx`). */
export function nodeXrplPaymentReader(url: string): XrplPaymentReader {
  return async (hash) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'tx', params: [{ transaction: hash, binary: false, api_version: 1 }] }),
    });
    if (!response.ok) throw new Error(`your rippled answered ${response.status} to tx`);
    const parsed = txAnswer.safeParse(await response.json());
    if (!parsed.success) throw new Error("your rippled's tx answer is not one this signer reads");
    const tx = parsed.data.result;
    if (tx.error === 'txnNotFound') return null;
    if (tx.error) throw new Error(`your rippled answered ${tx.error} to tx`);
    const delivered = tx.meta?.delivered_amount;
    return {
      validated: tx.validated === true,
      result: tx.meta?.TransactionResult ?? 'unknown',
      destination: tx.Destination ?? null,
      tag: tx.DestinationTag ?? null,
      delivered: typeof delivered === 'string' && /^\d+$/.test(delivered) ? BigInt(delivered) : null,
    };
  };
}

/**
 * What the payment's transactions delivered to this signer's account under the payment's tag, in
 * drops, as its node answered; every reason one cannot be counted.
 */
export function xrplPaymentReceived(
  plan: XrplRefundPlan,
  config: XrplSignerConfig,
  answers: ReadonlyMap<string, XrplPaymentAnswer | null>,
): { received: bigint; reasons: string[] } {
  const reasons: string[] = [];
  const { payment } = plan.refund;
  if (payment.account !== config.account)
    return {
      received: 0n,
      reasons: [`the payment was made to ${payment.account}, not this signer's account ${config.account}`],
    };
  const tag = payment.tag === null ? null : Number(payment.tag);
  let received = 0n;
  for (const hash of new Set(payment.transactions)) {
    const where = `the payment's transaction ${hash}`;
    const answer = answers.get(hash);
    if (!answer) reasons.push(`${where} is unknown to your node`);
    else if (!answer.validated) reasons.push(`${where} is in no validated ledger on your node`);
    else if (answer.result !== 'tesSUCCESS')
      reasons.push(`${where} failed on your node (${answer.result}): it paid nothing`);
    else if (answer.destination !== config.account)
      reasons.push(`${where} paid ${answer.destination}, not your account`);
    else if (answer.tag !== tag)
      reasons.push(`${where} was sent under tag ${answer.tag ?? 'none'}, not the order's ${tag ?? 'none'}`);
    else if (answer.delivered === null || answer.delivered === 0n) reasons.push(`${where} delivered no XRP`);
    else received += answer.delivered;
  }
  return { received, reasons };
}

export interface CheckedXrplRefund {
  amount: bigint;
  pays: bigint;
  fee: bigint;
  /** What the payment paid this account, and what was left of it before this refund. */
  received: bigint;
  left: bigint;
}

/**
 * Checks an XRP Ledger refund plan against this signer's configuration, the account its secret
 * derives (`seedAccount`), what its node said of the payment and its ledger; throws SignerRefusal
 * with every reason.
 */
export function checkXrplRefund(
  plan: XrplRefundPlan,
  config: XrplSignerConfig,
  seedAccount: string,
  payment: { received: bigint; reasons: string[] },
  ledger: RefundLedger,
  now: Date,
): CheckedXrplRefund {
  const reasons: string[] = [];
  const network = findNetwork(plan.network);
  const currency = network?.currencies.find((c) => c.ticker === plan.currency);
  if (network?.family !== 'xrpl' || plan.network !== config.network || !currency || currency.contract)
    throw new SignerRefusal([
      `${plan.currency} on ${plan.network} is not a currency this signer signs (XRP on ripple)`,
    ]);
  if (plan.chain !== config.chain)
    reasons.push(`the plan is for ripple ${plan.chain}; this signer signs ${config.chain}`);
  if (plan.account !== config.account)
    reasons.push(`the plan pays from ${plan.account}; this signer's account is ${config.account}`);
  if (seedAccount !== config.account)
    reasons.push(`the secret given is the key of ${seedAccount}, not of the account ${config.account}`);
  const { refund } = plan;
  // An account's refund needs its destination tag, which only the payer can give (decision 125).
  reasons.push(...claimOnlyRefusals(refund, 'the XRP Ledger'));
  const amount = parseUnits(refund.amount, XRP_DECIMALS);
  const pays = parseUnits(refund.pays, XRP_DECIMALS);
  const maxFee = parseUnits(config.maxFee, XRP_DECIMALS);
  if (!amount.ok || !pays.ok || amount.value <= 0n)
    throw new SignerRefusal([...reasons, "the refund's amount is not an amount"]);
  if (!maxFee.ok) throw new SignerRefusal([...reasons, `maxFee ${config.maxFee} is not an amount of XRP`]);
  const fee = /^\d{1,20}$/.test(plan.transaction.fields.Fee) ? BigInt(plan.transaction.fields.Fee) : -1n;
  if (pays.value > amount.value) reasons.push(`the plan pays ${refund.pays}, more than the refund's ${refund.amount}`);
  if (!refund.feeFromRefund && pays.value !== amount.value)
    reasons.push(`the plan pays ${refund.pays}, not the refund's ${refund.amount}, and the fee is not taken from it`);
  if (refund.feeFromRefund && pays.value !== amount.value - fee)
    reasons.push(
      `the plan pays ${refund.pays}: the refund's ${refund.amount} less its fee is ${formatUnits(amount.value - fee, XRP_DECIMALS)}`,
    );
  reasons.push(
    ...xrplRefundRefusals(plan.transaction.blob, plan.transaction.fields, {
      account: config.account,
      destination: refund.destination,
      tag: refund.tag === null ? null : Number(refund.tag),
      drops: pays.value,
      maxFee: maxFee.value,
    }),
  );
  if (plan.transaction.lastLedgerSequence !== plan.transaction.fields.LastLedgerSequence)
    reasons.push("the plan's last ledger is not its transaction's");
  reasons.push(...payment.reasons);
  const capText = config.refundDailyCaps[plan.currency];
  const dailyCap = capText === undefined ? null : parseUnits(capText, XRP_DECIMALS);
  if (dailyCap && !dailyCap.ok) reasons.push(`refundDailyCaps.${plan.currency} is not an amount of XRP`);
  const { reasons: ledgerReasons, left } = ledgerRefusals(ledger, {
    refundId: refund.refundId,
    destination: refund.destination,
    pays: refund.pays,
    amount: amount.value,
    payment: refund.payment.transactions,
    received: payment.received,
    dailyCap: dailyCap?.ok ? dailyCap.value : null,
    decimals: XRP_DECIMALS,
    currency: plan.currency,
    now,
  });
  reasons.push(...ledgerReasons);
  if (reasons.length > 0) throw new SignerRefusal(reasons);
  return { amount: amount.value, pays: pays.value, fee, received: payment.received, left };
}

/** What the merchant reads before confirming: the claim as the payer made it, with its tag, the payment's numbers, the fee. */
export function describeXrplRefund(plan: XrplRefundPlan, checked: CheckedXrplRefund): string {
  const xrp = (drops: bigint) => `${formatUnits(drops, XRP_DECIMALS)} XRP`;
  const { refund } = plan;
  return [
    `REFUND ${refund.refundId} of ${refundSubject(refund)} on ripple ${plan.chain}, ${plan.mode} mode`,
    refundDestinationLine(refund, xrp(checked.pays), { tag: refund.tag }),
    `  from your account ${plan.account}, fee ${xrp(checked.fee)}${refund.feeFromRefund ? ' (taken from the refund)' : ''}; valid until ledger ${plan.transaction.lastLedgerSequence}`,
    `  its payment paid your account ${xrp(checked.received)} (${refund.payment.transactions.join(', ')}); ${xrp(checked.left)} of it was not refunded yet`,
    `  Check the order in your shop before you confirm: only you can tell that this payer asked for this refund.`,
  ].join('\n');
}

/** The plan text as an XRP Ledger refund plan, or null when it is not one (another plan the signer reads otherwise). */
export function xrplRefundPlanOf(json: unknown): XrplRefundPlan | null {
  return refundPlanOf(json, 'xrpl', xrplRefundPlanSchema, 'an XRP Ledger refund plan');
}

/**
 * Signs an XRP Ledger refund plan with the family seed `seed`, or throws SignerRefusal: the payment
 * read from the signer's node first (`readPayment`; without a node, no refund is signed), then
 * every check, then the merchant's confirmation. Answers the signed transaction (its binary, as
 * `submit` takes it) and the ledger entry the caller keeps before it leaves.
 */
export async function signXrplRefundPlan(
  plan: XrplRefundPlan,
  config: XrplSignerConfig,
  seed: string,
  io: {
    readPayment?: XrplPaymentReader;
    ledger: RefundLedger;
    confirm(summary: string): Promise<boolean>;
    now?: Date;
  },
): Promise<SignOutcome> {
  if (!io.readPayment)
    throw new SignerRefusal([
      'this signer has no node to find the refunded payment on: add node {"url"} (your own rippled) to its configuration',
    ]);
  let seedAccount: string;
  try {
    seedAccount = xrplAccountOfSeed(seed);
  } catch {
    // Nothing of what was given is repeated.
    throw new SignerRefusal(['the secret given is not an XRP Ledger family seed (s...)']);
  }
  const answers = new Map<string, XrplPaymentAnswer | null>();
  if (plan.refund.payment.account === config.account)
    for (const hash of new Set(plan.refund.payment.transactions)) answers.set(hash, await io.readPayment(hash));
  const now = io.now ?? new Date();
  const received = xrplPaymentReceived(plan, config, answers);
  const checked = checkXrplRefund(plan, config, seedAccount, received, io.ledger, now);
  if (!(await io.confirm(describeXrplRefund(plan, checked)))) throw new SignerRefusal(['not confirmed']);
  const signed = signXrplRefund(plan.transaction.blob, seed);
  const ledgerEntry: LedgerEntry = {
    refundId: plan.refund.refundId,
    outpoints: plan.refund.payment.transactions,
    destination:
      plan.refund.tag === null ? plan.refund.destination : `${plan.refund.destination}?dt=${plan.refund.tag}`,
    amount: checked.amount.toString(),
    txid: signed.hash,
    signedAt: now.toISOString(),
    currency: plan.currency,
  };
  // Lower-case hex, as `collections/submit` takes every signed transaction.
  return { signed: { planId: plan.planId, txid: signed.hash, rawTx: signed.blob.toLowerCase() }, ledgerEntry };
}
