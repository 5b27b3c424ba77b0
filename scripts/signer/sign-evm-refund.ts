/**
 * The signer's EVM refunds (docs/decisions/112): a plan names one transaction from the merchant's
 * treasury paying a refund to the address its payer confirmed. A compromised gateway could rewrite
 * a plan to pay anyone, so, as for Bitcoin-family refunds (./refunds.ts, decision 081), the signer
 * believes only what it checks here:
 * - the transaction is exactly the refund's transfer: from its own treasury (the key at
 *   `treasuryPath` of its seed must be that address), on its chain id, the coin or a token of its
 *   configuration (in the catalog's decimals) to the address the plan shows as the payer's, the
 *   amount the refund pays, nothing else in its calldata, its gas within `maxGasPayerSpend`; the
 *   refund whole, or a coin refund less exactly that gas at its cap when its payer bears the fee
 *   (./refund-fee.ts, decision 120);
 * - the refunded payment: each transaction it names is read from the signer's own node (`node`),
 *   mined and successful, and paid deposit addresses this seed derives at the paths given; what
 *   they received of the refund's currency is what the payment paid, for the signer; a refund to
 *   the address the payment came from is to the sender of each of them (./sender-refund.ts,
 *   decision 126);
 * - its ledger (./refunds.ts `ledgerRefusals`): a refund id signed once, the refunds of those
 *   transactions never above what they paid, the last 24 hours' refunds of the currency under its
 *   cap in `refundDailyCaps`.
 * Pure but for `nodePaymentReader`: the caller reads the ledger, asks the node and writes the ledger.
 */
import type { HDKey } from '@scure/bip32';
import { createPublicClient, decodeEventLog, getAddress, http, parseAbiItem, type Hash } from 'viem';
import { findCurrency, findNetwork } from '../../lib/catalog';
import {
  EVM_DEPOSIT_CHAIN_PATH,
  addressOfKey,
  evmRefundTransactionRefusals,
  signEvmRefundTransaction,
} from '../../lib/chains/evm/transactions';
import { PUBLIC_TEST_SEED_FINGERPRINT, SignerRefusal } from '../../lib/chains/utxo/transactions';
import { formatUnits, parseUnits } from '../../lib/money';
import { evmRefundPlanSchema, type EvmRefundPlan } from '../../lib/protocol';
import { feeFromRefundRefusals, feeNote } from './refund-fee';
import { ledgerRefusals, refundPlanOf, refundSubject, type LedgerEntry, type RefundLedger } from './refunds';
import { refundDestinationLine, senderRefundRefusals, type PaymentSender } from './sender-refund';
import type { SignOutcome } from './sign-plan';
import type { EvmSignerConfig } from './sign-evm';

const NATIVE_DECIMALS = 18;
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** What the signer's node says of one transaction of the refunded payment; null when it has no receipt. */
export interface EvmPaymentAnswer {
  success: boolean;
  /** The transaction's sender: who paid a coin payment. */
  from: string;
  to: string | null;
  value: bigint;
  logs: readonly { address: string; topics: readonly string[]; data: string }[];
}
export type EvmPaymentReader = (txHash: string) => Promise<EvmPaymentAnswer | null>;

/** Reads the payment's transactions from the signer's own node, after checking it serves `chainId`. */
export function nodePaymentReader(url: string, chainId: number): EvmPaymentReader {
  const client = createPublicClient({ transport: http(url, { retryCount: 0 }) });
  let checked = false;
  return async (txHash) => {
    if (!checked) {
      const id = await client.getChainId();
      if (id !== chainId) throw new SignerRefusal([`your node at ${url} serves chain id ${id}, not ${chainId}`]);
      checked = true;
    }
    let receipt;
    try {
      receipt = await client.getTransactionReceipt({ hash: txHash as Hash });
    } catch (error) {
      if ((error as Error)?.name === 'TransactionReceiptNotFoundError') return null;
      throw error;
    }
    const tx = await client.getTransaction({ hash: txHash as Hash });
    return {
      success: receipt.status === 'success',
      from: tx.from,
      to: tx.to ?? null,
      value: tx.value,
      logs: receipt.logs,
    };
  };
}

/** What the signer's node showed of the refunded payment: what it paid this seed, who sent it, every reason it cannot be counted. */
export interface EvmPaymentRead {
  received: bigint;
  /** The sender of each transfer counted: the transaction's `from` for the coin, a Transfer log's `from` for a token. */
  senders: PaymentSender[];
  reasons: string[];
}

/**
 * What the payment's transactions paid the deposit addresses the plan names, in the refund's
 * currency (the coin: a transaction's own value to the address; a token: its Transfer logs to it),
 * each address derived by this seed at its path, and who sent each. Answers every reason it cannot
 * be counted.
 */
export function paymentReceived(
  plan: EvmRefundPlan,
  root: HDKey,
  answers: ReadonlyMap<string, EvmPaymentAnswer | null>,
): EvmPaymentRead {
  const reasons: string[] = [];
  const senders: PaymentSender[] = [];
  let received = 0n;
  const counted = new Set<string>();
  for (const transfer of plan.refund.payment.transfers) {
    const where = `the payment's transaction ${transfer.txHash}`;
    if (!new RegExp(`^${EVM_DEPOSIT_CHAIN_PATH}/\\d{1,10}$`).test(transfer.path)) {
      reasons.push(`${where}: ${transfer.path} is not a deposit address's path`);
      continue;
    }
    const own = addressOfKey(root.derive(transfer.path));
    if (!same(own, transfer.address)) {
      reasons.push(`${where}: ${transfer.address} is not the address of this seed at ${transfer.path} (${own})`);
      continue;
    }
    const key = `${transfer.txHash.toLowerCase()}:${own.toLowerCase()}`;
    if (counted.has(key)) continue;
    counted.add(key);
    const answer = answers.get(transfer.txHash);
    if (!answer) {
      reasons.push(`${where} is not mined on your node`);
      continue;
    }
    if (!answer.success) {
      reasons.push(`${where} reverted on your node: it paid nothing`);
      continue;
    }
    let paid = 0n;
    if (!plan.token) {
      if (answer.to && same(answer.to, own) && answer.value > 0n) {
        paid = answer.value;
        senders.push({ transaction: transfer.txHash, sender: answer.from });
      }
    } else {
      for (const log of answer.logs) {
        if (!same(log.address, plan.token.contract)) continue;
        try {
          const { args } = decodeEventLog({
            abi: [TRANSFER],
            data: log.data as `0x${string}`,
            topics: log.topics as [`0x${string}`, ...`0x${string}`[]],
          });
          if (same(args.to, own) && args.value > 0n) {
            paid += args.value;
            senders.push({ transaction: transfer.txHash, sender: args.from });
          }
        } catch {
          // Another event of the token: not a transfer.
        }
      }
    }
    if (paid === 0n) reasons.push(`${where} paid no ${plan.currency} to ${own} on your node`);
    received += paid;
  }
  return { received, senders, reasons };
}

export interface CheckedEvmRefund {
  amount: bigint;
  pays: bigint;
  decimals: number;
  /** What the payment paid this seed, and what was left of it before this refund. */
  received: bigint;
  left: bigint;
  /** The payment's transactions: what the ledger counts this refund against. */
  payment: string[];
  /** The key that signs: the treasury's. */
  treasuryKey: HDKey;
}

/**
 * Checks an EVM refund plan against this signer's configuration and seed, what its node said of
 * the payment (from `paymentReceived`: a refund to the address the payment came from must be to its
 * every sender) and its ledger; throws SignerRefusal with every reason.
 */
export function checkEvmRefund(
  plan: EvmRefundPlan,
  config: EvmSignerConfig,
  root: HDKey,
  payment: EvmPaymentRead,
  ledger: RefundLedger,
  now: Date,
): CheckedEvmRefund {
  const reasons: string[] = [];
  const network = findNetwork(plan.network);
  const currency = network && findCurrency(network, plan.currency);
  if (!network || network.family !== 'evm' || !currency || plan.network !== config.network)
    throw new SignerRefusal([
      `${plan.currency} on ${plan.network} is not a currency this signer signs (${config.network})`,
    ]);
  const { decimals } = currency;
  if (plan.chainId !== config.chainId)
    reasons.push(`the plan is for chain id ${plan.chainId}; this signer signs chain id ${config.chainId}`);
  if (!same(plan.treasury, config.treasury))
    reasons.push(`the plan pays from ${plan.treasury}; this signer's treasury is ${config.treasury}`);
  if (root.fingerprint >>> 0 === PUBLIC_TEST_SEED_FINGERPRINT && plan.mode === 'live')
    reasons.push('this signer holds the public test seed, which anyone can spend from: it signs no live refund');
  if (!config.treasuryPath)
    throw new SignerRefusal([...reasons, 'this signer has no treasuryPath: it signs no refund']);
  const treasuryKey = root.derive(config.treasuryPath);
  const treasuryOfSeed = addressOfKey(treasuryKey);
  if (!same(treasuryOfSeed, config.treasury))
    reasons.push(
      `the key at treasuryPath ${config.treasuryPath} is ${treasuryOfSeed}, not the treasury ${config.treasury}`,
    );
  if (currency.contract === undefined) {
    if (plan.token) reasons.push(`the plan names a token contract for ${plan.currency}, the network's coin`);
  } else if (!plan.token) reasons.push(`the plan pays ${plan.currency} as the network's coin`);
  else {
    if (!config.tokens.some((t) => same(t, plan.token!.contract)))
      reasons.push(`the plan pays the token ${plan.token.contract}, not a token of this signer's configuration`);
    if (plan.token.decimals !== currency.decimals)
      reasons.push(`the plan writes ${plan.currency} in ${plan.token.decimals} decimals, not its ${currency.decimals}`);
  }
  const { refund } = plan;
  const amount = parseUnits(refund.amount, decimals);
  const pays = parseUnits(refund.pays, decimals);
  if (!amount.ok || !pays.ok || amount.value <= 0n)
    throw new SignerRefusal([...reasons, "the refund's amount is not an amount"]);
  const gasCost = BigInt(plan.transaction.gas) * BigInt(plan.transaction.maxFeePerGas);
  // A payer who bears the fee bears the gas at its cap, which maxGasPayerSpend bounds below.
  reasons.push(
    ...feeFromRefundRefusals(
      refund,
      { amount: amount.value, pays: pays.value },
      { coin: !plan.token, planned: gasCost, decimals: NATIVE_DECIMALS, ticker: plan.currency },
    ),
  );
  reasons.push(
    ...evmRefundTransactionRefusals(plan.transaction, {
      chainId: config.chainId,
      treasury: config.treasury,
      destination: refund.destination,
      token: plan.token?.contract ?? null,
      amount: pays.value,
    }),
  );
  const cap = parseUnits(config.maxGasPayerSpend, NATIVE_DECIMALS);
  if (!cap.ok || gasCost > cap.value)
    reasons.push(
      `the treasury would spend up to ${formatUnits(gasCost, NATIVE_DECIMALS)} in gas; this signer's maxGasPayerSpend is ${config.maxGasPayerSpend}`,
    );
  reasons.push(...payment.reasons);
  reasons.push(...senderRefundRefusals(refund, payment.senders, same));
  const dailyCapText = config.refundDailyCaps[plan.currency];
  const dailyCap = dailyCapText === undefined ? null : parseUnits(dailyCapText, decimals);
  if (dailyCap && !dailyCap.ok)
    reasons.push(`refundDailyCaps.${plan.currency} is not an amount of ${decimals} decimals`);
  const paymentIds = [...new Set(refund.payment.transfers.map((t) => t.txHash.toLowerCase()))];
  const { reasons: ledgerReasons, left } = ledgerRefusals(ledger, {
    refundId: refund.refundId,
    destination: refund.destination,
    pays: refund.pays,
    amount: amount.value,
    payment: paymentIds,
    received: payment.received,
    dailyCap: dailyCap?.ok ? dailyCap.value : null,
    decimals,
    currency: plan.currency,
    now,
  });
  reasons.push(...ledgerReasons);
  if (reasons.length > 0) throw new SignerRefusal(reasons);
  return {
    amount: amount.value,
    pays: pays.value,
    decimals,
    received: payment.received,
    left,
    payment: paymentIds,
    treasuryKey,
  };
}

/** What the merchant reads before confirming: where the refund goes and who chose it, the payment's numbers, the transaction. */
export function describeEvmRefund(plan: EvmRefundPlan, checked: CheckedEvmRefund): string {
  const units = (value: bigint) => `${formatUnits(value, checked.decimals)} ${plan.currency}`;
  const { refund, transaction } = plan;
  const of = refundSubject(refund);
  return [
    `REFUND ${refund.refundId} of ${of} on ${plan.network} (chain id ${plan.chainId}), ${plan.mode} mode`,
    refundDestinationLine(refund, units(checked.pays), {
      address: getAddress(refund.destination),
      note: feeNote(checked, units),
    }),
    `  from your treasury ${plan.treasury} (nonce ${transaction.nonce}), gas at most ${formatUnits(BigInt(transaction.gas) * BigInt(transaction.maxFeePerGas), NATIVE_DECIMALS)} in the coin`,
    `  its payment paid your seed ${units(checked.received)} (${checked.payment.join(', ')}); ${units(checked.left)} of it was not refunded yet`,
    `  Check the order in your shop before you confirm: only you can tell that this payer asked for this refund.`,
  ].join('\n');
}

/** The plan text as an EVM refund plan, or null when it is not one (another plan the signer reads otherwise). */
export function evmRefundPlanOf(json: unknown): EvmRefundPlan | null {
  return refundPlanOf(json, 'evm', evmRefundPlanSchema, 'an EVM refund plan');
}

/**
 * Signs an EVM refund plan, or throws SignerRefusal: the payment read from the signer's node first
 * (`readPayment`; without a node, no refund is signed), then every check, then the merchant's
 * confirmation. Answers the signed transaction and the ledger entry the caller keeps before it leaves.
 */
export async function signEvmRefundPlan(
  plan: EvmRefundPlan,
  config: EvmSignerConfig,
  root: HDKey,
  io: {
    readPayment?: EvmPaymentReader;
    ledger: RefundLedger;
    confirm(summary: string): Promise<boolean>;
    now?: Date;
  },
): Promise<SignOutcome> {
  if (!io.readPayment)
    throw new SignerRefusal([
      'this signer has no node to find the refunded payment on: add node {"url"} (your own RPC) to its configuration',
    ]);
  const answers = new Map<string, EvmPaymentAnswer | null>();
  for (const hash of new Set(plan.refund.payment.transfers.map((t) => t.txHash)))
    answers.set(hash, await io.readPayment(hash));
  const now = io.now ?? new Date();
  const checked = checkEvmRefund(plan, config, root, paymentReceived(plan, root, answers), io.ledger, now);
  if (!(await io.confirm(describeEvmRefund(plan, checked)))) throw new SignerRefusal(['not confirmed']);
  const signed = await signEvmRefundTransaction(plan.transaction, checked.treasuryKey);
  const ledgerEntry: LedgerEntry = {
    refundId: plan.refund.refundId,
    outpoints: checked.payment,
    destination: plan.refund.destination,
    amount: checked.amount.toString(),
    txid: signed.hash,
    signedAt: now.toISOString(),
    currency: plan.currency,
  };
  return { signed: { planId: plan.planId, txid: signed.hash, rawTx: signed.raw }, ledgerEntry };
}
