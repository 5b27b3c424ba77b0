/**
 * What the signer checks of a refund plan before it lets one output pay someone outside the
 * merchant's wallet (docs/decisions/081). A compromised gateway could name any address and call it
 * a refund, so the signer believes only what it can verify on the merchant's machine:
 * - the refunded payment: its transactions hash to their ids, and the outputs named paid keys of
 *   this seed; their sum is what the payment received, as far as the signer is concerned;
 * - that payment is on the chain: the signer's node says so, or the plan spends one of its
 *   outputs (a transaction spending an output that does not exist is invalid);
 * - its own ledger (a file beside its configuration) of every refund it signed: a refund id is
 *   signed once; the refunds of outputs of this payment together never exceed what it received;
 *   the last 24 hours' refunds stay under the daily cap of its configuration;
 * - the output pays exactly the refund (less the fee when the plan says the fee is taken from it)
 *   to the address the plan shows as the payer's, and the merchant confirms what is shown; a plan
 *   that calls it the address the payment came from is refused (./sender-refund.ts, decision 126).
 * Pure: the caller reads and writes the ledger and asks the node.
 */
import { HDKey } from '@scure/bip32';
import { p2pkh, p2wpkh } from '@scure/btc-signer/payment.js';
import { RawTx } from '@scure/btc-signer/script.js';
import { Transaction } from '@scure/btc-signer/transaction.js';
import { hex } from '@scure/base';
import { z } from 'zod';
import {
  DEPOSIT_SCRIPT,
  fingerprintHex,
  outputScriptOf,
  SignerRefusal,
  type UtxoChain,
  type UtxoCoin,
} from '../../lib/chains/utxo/transactions';
import { formatUnits, parseUnits } from '../../lib/money';
import type { PlanRefund } from '../../lib/protocol';
import { claimOnlyRefusals, refundDestinationLine } from './sender-refund';

/** What the refund checks read of a plan, PSBT or raw (docs/decisions/121): its refund and currency. */
export type PlanOfRefund = { refund: PlanRefund; currency: string };

/** Every Bitcoin-family coin of the catalog has 8 decimals. */
const DECIMALS = 8;
const DAY_MS = 24 * 60 * 60 * 1000;

/** One refund the signer signed, as its ledger keeps it. Amounts in base units. */
export const ledgerEntrySchema = z.object({
  refundId: z.string(),
  /** The refunded payment's outputs, `txid:vout`. */
  outpoints: z.array(z.string()),
  destination: z.string(),
  amount: z.string().regex(/^\d+$/),
  txid: z.string(),
  signedAt: z.string(),
  /** Solana's: the currency the amount is in, as one ledger holds SOL and token refunds (absent: the coin). */
  currency: z.string().optional(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
export const ledgerSchema = z.object({ refunds: z.array(ledgerEntrySchema) });
export type RefundLedger = z.infer<typeof ledgerSchema>;

export interface CheckedRefund {
  /** The one output the signer may let pay outside the wallet. */
  allowance: { destination: string; pays: bigint };
  amount: bigint;
  /** What the payment paid this seed, and what is left to refund of it before this refund. */
  received: bigint;
  left: bigint;
  outpoints: string[];
}

/** Checks a refund plan's refund against this seed, the ledger and the daily cap; throws SignerRefusal with every reason. */
export function checkRefund(
  plan: PlanOfRefund,
  root: HDKey,
  policy: { coin: UtxoCoin; chain: UtxoChain; dailyCap: bigint | null },
  ledger: RefundLedger,
  now: Date,
): CheckedRefund {
  const { refund } = plan;
  // Its inputs are of many addresses and change: a Bitcoin-family payment has no one sender.
  const reasons: string[] = claimOnlyRefusals(refund, policy.coin);
  const amount = parseUnits(refund.amount, DECIMALS);
  const pays = parseUnits(refund.pays, DECIMALS);
  if (!amount.ok || !pays.ok || amount.value <= 0n) throw new SignerRefusal([`the refund's amount is not an amount`]);
  if (pays.value > amount.value)
    reasons.push(`the output pays ${refund.pays}, more than the refund's ${refund.amount}`);
  if (!refund.feeFromRefund && pays.value !== amount.value)
    reasons.push(`the output pays ${refund.pays}, not the refund's ${refund.amount}, and the fee is not taken from it`);
  try {
    outputScriptOf(policy.coin, policy.chain, refund.destination);
  } catch {
    reasons.push(`${refund.destination} is not a ${policy.coin} ${policy.chain} address`);
  }
  const transactions = new Map<string, ReturnType<typeof RawTx.decode>>();
  for (const t of refund.payment.transactions) {
    const decoded = RawTx.decode(hex.decode(t.hex));
    const id = Transaction.fromRaw(RawTx.encode(decoded), {
      allowUnknownOutputs: true,
      allowUnknownInputs: true,
      disableScriptCheck: true,
    }).id;
    if (id !== t.txid) reasons.push(`the payment's transaction ${t.txid} is not the one given (it hashes to ${id})`);
    else transactions.set(t.txid, decoded);
  }
  // The script of the coin's deposit addresses, whatever the chain writes it as (CashAddr is only text).
  const depositScript = (publicKey: Uint8Array) =>
    (DEPOSIT_SCRIPT[policy.coin] === 'pkh' ? p2pkh(publicKey) : p2wpkh(publicKey)).script;
  let received = 0n;
  const outpoints: string[] = [];
  for (const output of refund.payment.outputs) {
    const where = `the payment's output ${output.txid}:${output.vout}`;
    const transaction = transactions.get(output.txid);
    const paid = transaction?.outputs[output.vout];
    if (!paid) {
      reasons.push(`${where} is not in a transaction of the plan`);
      continue;
    }
    const key = root.derive(output.path);
    if (hex.encode(paid.script) !== hex.encode(depositScript(key.publicKey!))) {
      reasons.push(`${where} did not pay the key at ${output.path} of this seed (${fingerprintHex(root.fingerprint)})`);
      continue;
    }
    const outpoint = `${output.txid}:${output.vout}`;
    if (outpoints.includes(outpoint)) continue;
    outpoints.push(outpoint);
    received += paid.amount;
  }
  const { reasons: ledgerReasons, left } = ledgerRefusals(ledger, {
    refundId: refund.refundId,
    destination: refund.destination,
    pays: refund.pays,
    amount: amount.value,
    payment: outpoints,
    received,
    dailyCap: policy.dailyCap,
    decimals: DECIMALS,
    now,
  });
  reasons.push(...ledgerReasons);
  if (reasons.length > 0) throw new SignerRefusal(reasons);
  return {
    allowance: { destination: refund.destination, pays: pays.value },
    amount: amount.value,
    received,
    left,
    outpoints,
  };
}

/** A refund as the ledger rules see it: amounts in base units of one currency. */
export interface LedgerClaim {
  refundId: string;
  destination: string;
  /** What the plan pays, as it shows it. */
  pays: string;
  amount: bigint;
  /** What identifies the refunded payment: its outputs (`txid:vout`), or its transactions' signatures. */
  payment: string[];
  /** What the payment paid the merchant's key, as the signer verified it. */
  received: bigint;
  /** The most refunds of the last 24 hours may add up to; null signs none. */
  dailyCap: bigint | null;
  decimals: number;
  /** The currency of a network of several (Solana); absent on a coin's own network. */
  currency?: string;
  now: Date;
}

/**
 * The ledger's rules, the same for every network: a refund id is signed once; the refunds of a
 * payment never add up to more than it paid; the last 24 hours' stay under the daily cap. Answers
 * every reason to refuse, and what is left of the payment before this refund.
 */
export function ledgerRefusals(ledger: RefundLedger, claim: LedgerClaim): { reasons: string[]; left: bigint } {
  const reasons: string[] = [];
  const units = (value: bigint) => formatUnits(value, claim.decimals);
  // Amounts add up within one currency only.
  const sameCurrency = ledger.refunds.filter((entry) => entry.currency === claim.currency);
  const signedBefore = ledger.refunds.find((entry) => entry.refundId === claim.refundId);
  if (signedBefore)
    reasons.push(
      `refund ${claim.refundId} was signed on ${signedBefore.signedAt}: ${units(BigInt(signedBefore.amount))} to ${signedBefore.destination} (transaction ${signedBefore.txid}); this plan pays ${claim.pays} to ${claim.destination}`,
    );
  // Any earlier refund of one part of this payment counts: naming a part of a payment does not refund it twice.
  const refunded = sameCurrency
    .filter((entry) => entry.outpoints.some((o) => claim.payment.includes(o)))
    .reduce((sum, entry) => sum + BigInt(entry.amount), 0n);
  const left = claim.received - refunded;
  if (claim.payment.length > 0 && claim.amount > left)
    reasons.push(
      `the refund (${units(claim.amount)}) is above what is left of its payment: ${units(left < 0n ? 0n : left)} of ${units(claim.received)} received`,
    );
  if (claim.dailyCap === null)
    reasons.push('this signer has no refundDailyCap in its configuration: it signs no refund');
  else {
    const today = sameCurrency
      .filter((entry) => claim.now.getTime() - Date.parse(entry.signedAt) < DAY_MS)
      .reduce((sum, entry) => sum + BigInt(entry.amount), 0n);
    if (today + claim.amount > claim.dailyCap)
      reasons.push(
        `the refund would take the last 24 hours' refunds to ${units(today + claim.amount)}, above this signer's refundDailyCap ${units(claim.dailyCap)}`,
      );
  }
  return { reasons, left };
}

/** The ledger's entry for a refund once signed. */
export function ledgerEntry(plan: PlanOfRefund, checked: CheckedRefund, txid: string, now: Date): LedgerEntry {
  return {
    refundId: plan.refund.refundId,
    outpoints: checked.outpoints,
    destination: plan.refund.destination,
    amount: checked.amount.toString(),
    txid,
    signedAt: now.toISOString(),
  };
}

/** What a refund pays back, as the merchant reads it before confirming: an invoice's order, an order, or a deposit. */
export function refundSubject(refund: {
  invoiceId: string | null;
  orderId: string | null;
  depositId: string | null;
}): string {
  if (refund.invoiceId) return `invoice ${refund.invoiceId} (order ${refund.orderId})`;
  return refund.orderId ? `order ${refund.orderId}` : `deposit ${refund.depositId}`;
}

/** What the merchant reads before confirming a refund: the claim as the payer made it, and the payment's numbers. */
export function describeRefund(plan: PlanOfRefund, checked: CheckedRefund): string {
  const coin = (amount: bigint) => `${formatUnits(amount, DECIMALS)} ${plan.currency}`;
  const { refund } = plan;
  const of = refundSubject(refund);
  return [
    `REFUND ${refund.refundId} of ${of}`,
    refundDestinationLine(refund, `${refund.pays} ${plan.currency}`),
    `  the refund is ${coin(checked.amount)}${refund.feeFromRefund ? ', the network fee taken from it' : ''}`,
    `  its payment paid your seed ${coin(checked.received)} (${checked.outpoints.join(', ')}); ${coin(checked.left)} of it was not refunded yet`,
    `  Check the order in your shop before you confirm: only you can tell that this payer asked for this refund.`,
  ].join('\n');
}

/**
 * `json` as a refund plan of `format` (`schema`), or null when it is another plan the signer reads
 * otherwise; a plan that says it is one and does not parse as one throws, naming each field.
 */
export function refundPlanOf<Plan>(json: unknown, format: string, schema: z.ZodType<Plan>, what: string): Plan | null {
  const looks = z.object({ kind: z.literal('refund'), format: z.literal(format) }).safeParse(json);
  if (!looks.success) return null;
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `the plan is not ${what}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}
