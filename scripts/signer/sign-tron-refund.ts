/**
 * The signer's Tron refunds (docs/decisions/115): a plan names one transaction from the merchant's
 * treasury paying a refund to the address its payer confirmed. A compromised gateway could rewrite
 * a plan to pay anyone, so, as for EVM refunds (./sign-evm-refund.ts, decision 112), the signer
 * believes only what it checks here:
 * - the transaction is exactly the refund's transfer (lib/chains/tron/transactions
 *   `tronRefundRefusals`, the rules the gateway builds by): decoded from its raw_data, its id that
 *   data's hash, from its own treasury (the key at `treasuryPath` of its seed must be that
 *   address), TRX or the token's contract (the catalog's on mainnet, and one of its configuration) to the address
 *   the plan shows as the payer's, the amount the refund pays, its fee limit within `maxBurn`, not
 *   expired; the refund whole, or a TRX refund less exactly the TRX its transaction burns, within
 *   `maxBurn`, when its payer bears the fee (./refund-fee.ts, decision 120);
 * - the refunded payment: each transaction it names is read from the signer's own Tron node
 *   (`node`), in a block and successful, and paid deposit addresses this seed derives at the paths
 *   given (TRX: its TransferContract to the address; a token: the contract's Transfer logs to it);
 *   that sum is what the payment paid, for the signer; a refund to the address the payment came
 *   from is to the sender of each of them (./sender-refund.ts, decision 126);
 * - its ledger (./refunds.ts `ledgerRefusals`): a refund id signed once, the refunds of those
 *   transactions never above what they paid, the last 24 hours' refunds of the currency under its
 *   cap in `refundDailyCaps`.
 * Pure but for `nodeTronPaymentReader`: the caller reads the ledger, asks the node and writes the ledger.
 */
import type { HDKey } from '@scure/bip32';
import { z } from 'zod';
import { findCurrency, findNetwork } from '../../lib/catalog';
import {
  encodeSignedTransaction,
  signTransactionId,
  tronAccountBytes,
  tronAddressBytes,
  tronAddressOfBytes,
  tronRefundRefusals,
} from '../../lib/chains/tron/transactions';
import { PUBLIC_TEST_SEED_FINGERPRINT, SignerRefusal } from '../../lib/chains/utxo/transactions';
import { formatUnits, parseUnits } from '../../lib/money';
import { tronRefundPlanSchema, type TronRefundPlan } from '../../lib/protocol';
import { feeFromRefundRefusals, feeNote } from './refund-fee';
import { ledgerRefusals, refundPlanOf, refundSubject, type LedgerEntry, type RefundLedger } from './refunds';
import { refundDestinationLine, senderRefundRefusals, type PaymentSender } from './sender-refund';
import type { SignOutcome } from './sign-plan';
import type { TronSignerConfig } from './tron';

const TRX_DECIMALS = 6;
/** The deposit addresses' chain (lib/chains/derivation.ts: BIP 44, coin type 195). */
const DEPOSIT_PATH = /^m\/44'\/195'\/0'\/0\/\d{1,10}$/;
/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** What the signer's node says of one transaction of the refunded payment; null when it is in no block. */
export interface TronPaymentAnswer {
  success: boolean;
  /** A TRX TransferContract's sender (its owner, null when not told) and recipient (T...) and sun; null for another contract. */
  trx: { from: string | null; to: string; amount: bigint } | null;
  /** The transaction's event logs as java-tron writes them: the contract's 20 bytes hex (no 41), topics and data hex. */
  logs: readonly { address: string; topics: readonly string[]; data: string }[];
}
export type TronPaymentReader = (txHash: string) => Promise<TronPaymentAnswer | null>;

const sun = z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,30}$/)]).transform((v) => BigInt(v));
const transactionInfo = z.object({
  id: z.string().optional(),
  blockNumber: z.number().int().nonnegative().optional(),
  result: z.string().optional(),
  receipt: z.object({ result: z.string().optional() }).default({}),
  log: z
    .array(z.object({ address: z.string(), topics: z.array(z.string()).default([]), data: z.string().default('') }))
    .default([]),
});
const transaction = z.object({
  raw_data: z
    .object({
      contract: z
        .array(
          z.object({
            type: z.string(),
            parameter: z.object({
              value: z.object({
                owner_address: z.string().optional(),
                to_address: z.string().optional(),
                amount: sun.optional(),
              }),
            }),
          }),
        )
        .default([]),
    })
    .optional(),
});

/** Reads the payment's transactions from the signer's own Tron node (its HTTP API, java-tron's or a provider's). */
export function nodeTronPaymentReader(node: NonNullable<TronSignerConfig['node']>): TronPaymentReader {
  const post = async <T extends z.ZodType>(method: string, body: unknown, schema: T): Promise<z.output<T>> => {
    const response = await fetch(new URL(`wallet/${method}`, node.url.endsWith('/') ? node.url : `${node.url}/`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(node.apiKey && { 'TRON-PRO-API-KEY': node.apiKey }) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`your Tron node answered ${response.status} to wallet/${method}`);
    const parsed = schema.safeParse(await response.json());
    if (!parsed.success) throw new Error(`your Tron node's wallet/${method} answer is not one this signer reads`);
    return parsed.data;
  };
  return async (txHash) => {
    const info = await post('gettransactioninfobyid', { value: txHash }, transactionInfo);
    if (info.id === undefined || info.blockNumber === undefined) return null;
    const tx = await post('gettransactionbyid', { value: txHash }, transaction);
    const contract = tx.raw_data?.contract[0];
    const value = contract?.parameter.value;
    const trx =
      contract?.type === 'TransferContract' && value?.to_address && value.amount !== undefined
        ? {
            from: value.owner_address ? tronAddressOfBytes(Buffer.from(value.owner_address, 'hex')) : null,
            to: tronAddressOfBytes(Buffer.from(value.to_address, 'hex')),
            amount: value.amount,
          }
        : null;
    const receipt = info.receipt.result;
    return {
      success: info.result !== 'FAILED' && (receipt === undefined || receipt === 'SUCCESS'),
      trx,
      logs: info.log,
    };
  };
}

/** An address's 20-byte hash, hex, as a log's address and topics carry it. */
const hash20 = (address: string) => Buffer.from(tronAddressBytes(address).subarray(1)).toString('hex');

/** A log topic's address (its last 20 bytes) as a Tron address. */
const topicAddress = (topic: string) => tronAddressOfBytes(Buffer.from(`41${topic.slice(-40)}`, 'hex'));

/** What the signer's node showed of the refunded payment: what it paid this seed, who sent it, every reason it cannot be counted. */
export interface TronPaymentRead {
  received: bigint;
  /** The sender of each transfer counted: the TransferContract's owner for TRX, a Transfer log's from for a token. */
  senders: PaymentSender[];
  reasons: string[];
}

/**
 * What the payment's transactions paid the deposit addresses the plan names, in the refund's
 * currency (TRX: a transaction's TransferContract to the address; a token: the catalog contract's
 * Transfer logs to it), each address derived by this seed at its path, and who sent each. Answers
 * every reason one cannot be counted.
 */
export function tronPaymentReceived(
  plan: TronRefundPlan,
  root: HDKey,
  answers: ReadonlyMap<string, TronPaymentAnswer | null>,
  contract: string | null,
): TronPaymentRead {
  const reasons: string[] = [];
  const senders: PaymentSender[] = [];
  let received = 0n;
  const counted = new Set<string>();
  for (const transfer of plan.refund.payment.transfers) {
    const where = `the payment's transaction ${transfer.txHash}`;
    if (!DEPOSIT_PATH.test(transfer.path)) {
      reasons.push(`${where}: ${transfer.path} is not a deposit address's path (m/44'/195'/0'/0/i)`);
      continue;
    }
    const key = root.derive(transfer.path);
    const own = key.publicKey ? tronAddressOfBytes(tronAccountBytes(key.publicKey)) : '';
    if (own !== transfer.address) {
      reasons.push(`${where}: ${transfer.address} is not the address of this seed at ${transfer.path} (${own})`);
      continue;
    }
    const id = `${transfer.txHash}:${own}`;
    if (counted.has(id)) continue;
    counted.add(id);
    const answer = answers.get(transfer.txHash);
    if (!answer) {
      reasons.push(`${where} is in no block on your node`);
      continue;
    }
    if (!answer.success) {
      reasons.push(`${where} failed on your node: it paid nothing`);
      continue;
    }
    let paid = 0n;
    if (contract === null) {
      if (answer.trx?.to === own && answer.trx.amount > 0n) {
        paid = answer.trx.amount;
        senders.push({ transaction: transfer.txHash, sender: answer.trx.from });
      }
    } else {
      const token = hash20(contract);
      const to = hash20(own);
      for (const log of answer.logs) {
        const [topic, sender, recipient] = log.topics;
        if (log.address.toLowerCase().slice(-40) !== token || topic?.toLowerCase() !== TRANSFER_TOPIC) continue;
        if (recipient?.toLowerCase().slice(-40) !== to || !/^[0-9a-fA-F]{1,64}$/.test(log.data)) continue;
        const value = BigInt(`0x${log.data}`);
        if (value === 0n) continue;
        paid += value;
        senders.push({ transaction: transfer.txHash, sender: sender ? topicAddress(sender) : null });
      }
    }
    if (paid === 0n) reasons.push(`${where} paid no ${plan.currency} to ${own} on your node`);
    received += paid;
  }
  return { received, senders, reasons };
}

export interface CheckedTronRefund {
  amount: bigint;
  pays: bigint;
  decimals: number;
  /** What the payment paid this seed, and what was left of it before this refund. */
  received: bigint;
  left: bigint;
  /** The payment's transactions: what the ledger counts this refund against. */
  payment: string[];
  feeLimit: bigint;
  /** The key that signs: the treasury's. */
  treasuryKey: Uint8Array;
}

/**
 * The catalog's currency of a Tron refund plan and the contract its refund must call: null for TRX;
 * on mainnet the catalog's, on a test chain (whose tokens the operator configures) the plan's, which
 * must then be one of this signer's `tokens`. SignerRefusal when it is no currency this signer signs.
 */
function currencyOf(plan: TronRefundPlan, config: TronSignerConfig) {
  const network = findNetwork(plan.network);
  const currency = network && findCurrency(network, plan.currency);
  if (!network || network.family !== 'tron' || !currency || plan.network !== config.network)
    throw new SignerRefusal([`${plan.currency} on ${plan.network} is not a currency this signer signs (tron)`]);
  const contract =
    currency.contract === undefined
      ? null
      : plan.chain === 'mainnet'
        ? currency.contract
        : (plan.token?.contract ?? currency.contract);
  return { currency, contract };
}

/**
 * Checks a Tron refund plan against this signer's configuration and seed, what its node said of
 * the payment (`payment`, from `tronPaymentReceived`: a refund to the address the payment came from
 * must be to its every sender) and its ledger; throws SignerRefusal with every reason.
 */
export function checkTronRefund(
  plan: TronRefundPlan,
  config: TronSignerConfig,
  root: HDKey,
  payment: TronPaymentRead,
  ledger: RefundLedger,
  now: Date,
): CheckedTronRefund {
  const reasons: string[] = [];
  const { currency, contract } = currencyOf(plan, config);
  const { decimals } = currency;
  if (plan.chain !== config.chain)
    reasons.push(`the plan is for tron ${plan.chain}; this signer signs ${config.chain}`);
  if (plan.treasury !== config.treasury)
    reasons.push(`the plan pays from ${plan.treasury}; this signer's treasury is ${config.treasury}`);
  if (root.fingerprint >>> 0 === PUBLIC_TEST_SEED_FINGERPRINT && plan.mode === 'live' && plan.chain === 'mainnet')
    reasons.push('this signer holds the public test seed, which anyone can spend from: it signs no live refund');
  if (!config.treasuryPath)
    throw new SignerRefusal([...reasons, 'this signer has no treasuryPath: it signs no refund']);
  const treasuryKey = root.derive(config.treasuryPath);
  const treasuryOfSeed = treasuryKey.publicKey ? tronAddressOfBytes(tronAccountBytes(treasuryKey.publicKey)) : '';
  if (treasuryOfSeed !== config.treasury)
    reasons.push(
      `the key at treasuryPath ${config.treasuryPath} is ${treasuryOfSeed}, not the treasury ${config.treasury}`,
    );
  if (contract === null) {
    if (plan.token) reasons.push(`the plan names a token contract for ${plan.currency}, which is TRX itself`);
  } else {
    if (!config.tokens.includes(contract))
      reasons.push(`${plan.currency} (${contract}) is not a token of this signer's configuration`);
    if (plan.token?.contract !== contract)
      reasons.push(
        `the plan pays ${plan.currency} by ${plan.token?.contract ?? 'no contract'}, not its contract ${contract}`,
      );
    if (plan.token && plan.token.decimals !== decimals)
      reasons.push(`the plan writes ${plan.currency} in ${plan.token.decimals} decimals, not its ${decimals}`);
  }
  const { refund } = plan;
  const amount = parseUnits(refund.amount, decimals);
  const pays = parseUnits(refund.pays, decimals);
  if (!amount.ok || !pays.ok || amount.value <= 0n)
    throw new SignerRefusal([...reasons, "the refund's amount is not an amount"]);
  const maxBurn = parseUnits(config.maxBurn, TRX_DECIMALS);
  if (!maxBurn.ok) throw new SignerRefusal([...reasons, `maxBurn ${config.maxBurn} is not an amount of TRX`]);
  // A payer who bears the fee bears what the transaction burns, as the plan states it, within maxBurn.
  const burn = BigInt(plan.transaction.burn);
  reasons.push(
    ...feeFromRefundRefusals(
      refund,
      { amount: amount.value, pays: pays.value },
      { coin: contract === null, planned: burn, decimals: TRX_DECIMALS, ticker: 'TRX' },
    ),
  );
  if (refund.feeFromRefund && burn > maxBurn.value)
    reasons.push(
      `the refund would bear a fee of ${formatUnits(burn, TRX_DECIMALS)} TRX burned; this signer's maxBurn is ${config.maxBurn}`,
    );
  // What the transaction is checked against is the signer's own: its treasury, the catalog's contract.
  const checked = tronRefundRefusals(
    plan.transaction,
    { treasury: config.treasury, destination: refund.destination, token: contract, amount: pays.value },
    maxBurn.value,
  );
  reasons.push(...checked.refusals);
  if (checked.raw && Number(checked.raw.expiration) <= now.getTime())
    reasons.push(`the transaction expired at ${new Date(Number(checked.raw.expiration)).toISOString()}: prepare again`);
  reasons.push(...payment.reasons);
  reasons.push(...senderRefundRefusals(refund, payment.senders));
  const dailyCapText = config.refundDailyCaps[plan.currency];
  const dailyCap = dailyCapText === undefined ? null : parseUnits(dailyCapText, decimals);
  if (dailyCap && !dailyCap.ok)
    reasons.push(`refundDailyCaps.${plan.currency} is not an amount of ${decimals} decimals`);
  const paymentIds = [...new Set(refund.payment.transfers.map((t) => t.txHash))];
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
  if (reasons.length > 0 || !treasuryKey.privateKey) throw new SignerRefusal(reasons);
  return {
    amount: amount.value,
    pays: pays.value,
    decimals,
    received: payment.received,
    left,
    payment: paymentIds,
    feeLimit: checked.raw?.feeLimit ?? 0n,
    treasuryKey: treasuryKey.privateKey,
  };
}

/** What the merchant reads before confirming: where the refund goes and who chose it, the payment's numbers, the transaction. */
export function describeTronRefund(plan: TronRefundPlan, checked: CheckedTronRefund): string {
  const units = (value: bigint) => `${formatUnits(value, checked.decimals)} ${plan.currency}`;
  const { refund, transaction } = plan;
  return [
    `REFUND ${refund.refundId} of ${refundSubject(refund)} on tron ${plan.chain}, ${plan.mode} mode`,
    refundDestinationLine(refund, units(checked.pays), { note: feeNote(checked, units) }),
    `  from your treasury ${plan.treasury}, burning about ${formatUnits(BigInt(transaction.burn), TRX_DECIMALS)} TRX for its fee${checked.feeLimit > 0n ? ` (its energy at most ${formatUnits(checked.feeLimit, TRX_DECIMALS)} TRX)` : ''}; sign before ${transaction.expiresAt}`,
    `  its payment paid your seed ${units(checked.received)} (${checked.payment.join(', ')}); ${units(checked.left)} of it was not refunded yet`,
    `  Check the order in your shop before you confirm: only you can tell that this payer asked for this refund.`,
  ].join('\n');
}

/** The plan text as a Tron refund plan, or null when it is not one (another plan the signer reads otherwise). */
export function tronRefundPlanOf(json: unknown): TronRefundPlan | null {
  return refundPlanOf(json, 'tron', tronRefundPlanSchema, 'a Tron refund plan');
}

/**
 * Signs a Tron refund plan, or throws SignerRefusal: the payment read from the signer's node first
 * (`readPayment`; without a node, no refund is signed), then every check, then the merchant's
 * confirmation. Answers the signed transaction (hex, as /wallet/broadcasthex takes it) and the
 * ledger entry the caller keeps before it leaves.
 */
export async function signTronRefundPlan(
  plan: TronRefundPlan,
  config: TronSignerConfig,
  root: HDKey,
  io: {
    readPayment?: TronPaymentReader;
    ledger: RefundLedger;
    confirm(summary: string): Promise<boolean>;
    now?: Date;
  },
): Promise<SignOutcome> {
  if (!io.readPayment)
    throw new SignerRefusal([
      'this signer has no node to find the refunded payment on: add node {"url"} (your own Tron node) to its configuration',
    ]);
  const { contract } = currencyOf(plan, config);
  const answers = new Map<string, TronPaymentAnswer | null>();
  for (const hash of new Set(plan.refund.payment.transfers.map((t) => t.txHash)))
    answers.set(hash, await io.readPayment(hash));
  const now = io.now ?? new Date();
  const received = tronPaymentReceived(plan, root, answers, contract);
  const checked = checkTronRefund(plan, config, root, received, io.ledger, now);
  if (!(await io.confirm(describeTronRefund(plan, checked)))) throw new SignerRefusal(['not confirmed']);
  const txid = plan.transaction.txID.toLowerCase();
  const signature = signTransactionId(txid, checked.treasuryKey);
  const raw = Buffer.from(
    encodeSignedTransaction(Uint8Array.from(Buffer.from(plan.transaction.rawDataHex, 'hex')), [signature]),
  ).toString('hex');
  const ledgerEntry: LedgerEntry = {
    refundId: plan.refund.refundId,
    outpoints: checked.payment,
    destination: plan.refund.destination,
    amount: checked.amount.toString(),
    txid,
    signedAt: now.toISOString(),
    currency: plan.currency,
  };
  return { signed: { planId: plan.planId, txid, rawTx: raw }, ledgerEntry };
}
