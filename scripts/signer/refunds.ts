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
 *   to the address the plan shows as the payer's, and the merchant confirms what is shown.
 * Pure: the caller reads and writes the ledger and asks the node.
 */
import { HDKey } from '@scure/bip32';
import { RawTx } from '@scure/btc-signer/script.js';
import { Transaction } from '@scure/btc-signer/transaction.js';
import { hex } from '@scure/base';
import { z } from 'zod';
import {
  depositScript,
  fingerprintHex,
  scriptOf,
  SignerRefusal,
  type UtxoChain,
  type UtxoCoin,
} from '../../lib/chains/utxo/transactions';
import { formatUnits, parseUnits } from '../../lib/money';
import type { RefundPlan } from '../../lib/protocol';

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
  plan: RefundPlan,
  root: HDKey,
  policy: { coin: Exclude<UtxoCoin, 'bitcoincash'>; chain: UtxoChain; dailyCap: bigint | null },
  ledger: RefundLedger,
  now: Date,
): CheckedRefund {
  const { refund } = plan;
  const reasons: string[] = [];
  const amount = parseUnits(refund.amount, DECIMALS);
  const pays = parseUnits(refund.pays, DECIMALS);
  if (!amount.ok || !pays.ok || amount.value <= 0n) throw new SignerRefusal([`the refund's amount is not an amount`]);
  if (pays.value > amount.value)
    reasons.push(`the output pays ${refund.pays}, more than the refund's ${refund.amount}`);
  if (!refund.feeFromRefund && pays.value !== amount.value)
    reasons.push(`the output pays ${refund.pays}, not the refund's ${refund.amount}, and the fee is not taken from it`);
  try {
    scriptOf(policy.coin, policy.chain, refund.destination);
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
  const type = policy.coin === 'dogecoin' ? 'pkh' : 'wpkh';
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
    if (hex.encode(paid.script) !== hex.encode(depositScript(type, key.publicKey!, policy.coin, policy.chain))) {
      reasons.push(`${where} did not pay the key at ${output.path} of this seed (${fingerprintHex(root.fingerprint)})`);
      continue;
    }
    const outpoint = `${output.txid}:${output.vout}`;
    if (outpoints.includes(outpoint)) continue;
    outpoints.push(outpoint);
    received += paid.amount;
  }
  const signedBefore = ledger.refunds.find((entry) => entry.refundId === refund.refundId);
  if (signedBefore)
    reasons.push(
      `refund ${refund.refundId} was signed on ${signedBefore.signedAt}: ${formatUnits(BigInt(signedBefore.amount), DECIMALS)} to ${signedBefore.destination} (transaction ${signedBefore.txid}); this plan pays ${refund.pays} to ${refund.destination}`,
    );
  // Any earlier refund of one of these outputs counts: naming a part of a payment does not refund it twice.
  const refunded = ledger.refunds
    .filter((entry) => entry.outpoints.some((o) => outpoints.includes(o)))
    .reduce((sum, entry) => sum + BigInt(entry.amount), 0n);
  const left = received - refunded;
  if (outpoints.length > 0 && amount.value > left)
    reasons.push(
      `the refund (${refund.amount}) is above what is left of its payment: ${formatUnits(left < 0n ? 0n : left, DECIMALS)} of ${formatUnits(received, DECIMALS)} received`,
    );
  if (policy.dailyCap === null)
    reasons.push('this signer has no refundDailyCap in its configuration: it signs no refund');
  else {
    const today = ledger.refunds
      .filter((entry) => now.getTime() - Date.parse(entry.signedAt) < DAY_MS)
      .reduce((sum, entry) => sum + BigInt(entry.amount), 0n);
    if (today + amount.value > policy.dailyCap)
      reasons.push(
        `the refund would take the last 24 hours' refunds to ${formatUnits(today + amount.value, DECIMALS)}, above this signer's refundDailyCap ${formatUnits(policy.dailyCap, DECIMALS)}`,
      );
  }
  if (reasons.length > 0) throw new SignerRefusal(reasons);
  return {
    allowance: { destination: refund.destination, pays: pays.value },
    amount: amount.value,
    received,
    left,
    outpoints,
  };
}

/** The ledger's entry for a refund once signed. */
export function ledgerEntry(plan: RefundPlan, checked: CheckedRefund, txid: string, now: Date): LedgerEntry {
  return {
    refundId: plan.refund.refundId,
    outpoints: checked.outpoints,
    destination: plan.refund.destination,
    amount: checked.amount.toString(),
    txid,
    signedAt: now.toISOString(),
  };
}

/** What the merchant reads before confirming a refund: the claim as the payer made it, and the payment's numbers. */
export function describeRefund(plan: RefundPlan, checked: CheckedRefund): string {
  const coin = (amount: bigint) => `${formatUnits(amount, DECIMALS)} ${plan.currency}`;
  const { refund } = plan;
  const of = refund.invoiceId
    ? `invoice ${refund.invoiceId} (order ${refund.orderId})`
    : refund.orderId
      ? `order ${refund.orderId}`
      : `deposit ${refund.depositId}`;
  return [
    `REFUND ${refund.refundId} of ${of}`,
    `  pays ${refund.pays} ${plan.currency} to ${refund.destination}, the address the payer confirmed at ${refund.addressConfirmedAt}`,
    `  the refund is ${coin(checked.amount)}${refund.feeFromRefund ? ', the network fee taken from it' : ''}`,
    `  its payment paid your seed ${coin(checked.received)} (${checked.outpoints.join(', ')}); ${coin(checked.left)} of it was not refunded yet`,
    `  Check the order in your shop before you confirm: only you can tell that this payer asked for this refund.`,
  ].join('\n');
}
