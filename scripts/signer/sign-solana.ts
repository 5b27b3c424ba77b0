/**
 * The signer's Solana refunds (docs/decisions/106): a plan names one transfer from the merchant's
 * receiving wallet to the wallet the payer confirmed; the signer builds that transaction itself
 * from the plan's body (lib/chains/solana/transfer-request, the builder of the payment page's
 * wallet button), with a blockhash its own node gives when it signs, and signs it with the
 * wallet's key (m/44'/501'/0'/0' of the seed, or a keypair file). A compromised gateway could
 * rewrite a plan to pay anyone, so, as for Bitcoin-family refunds (./refunds.ts), the signer
 * believes only what it checks here:
 * - the body pays exactly what the refund shows (`pays`), in the catalog's mint with its decimals,
 *   to the address the payer confirmed, from this signer's own wallet; a refund to the address the
 *   payment came from is to the sender of each of its transactions (./sender-refund.ts, decision 126);
 * - the refunded payment's transactions paid this wallet at least the refund, less the refunds of
 *   them it signed before (the caller reads what they paid, and who sent them, from its node: `payment`);
 * - its ledger: a refund signed once, the last 24 hours' refunds of the currency under its cap.
 * Pure: the caller reads the node, the key and the ledger, and writes the ledger.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import {
  address,
  getBase64EncodedWireTransaction,
  isAddress,
  type SignatureBytes,
  type Transaction,
} from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { findCurrency, findNetwork } from '../../lib/catalog';
import {
  compiledTransfer,
  SIGNATURE_FEE_LAMPORTS,
  solanaWalletOfPrivateKey,
  TOKEN_2022_PROGRAM_ADDRESS,
} from '../../lib/chains/solana/transactions';
import { SignerRefusal } from '../../lib/chains/utxo/transactions';
import { formatUnits, parseUnits } from '../../lib/money';
import type { SolanaRefundPlan } from '../../lib/protocol';
import { feeFromRefundRefusals } from './refund-fee';
import { ledgerRefusals, type LedgerEntry, type RefundLedger } from './refunds';
import { destinationSource, senderRefundRefusals, type PaymentSender } from './sender-refund';

const TOKEN_PROGRAMS = new Set<string>([TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS]);

export interface SolanaRefundPolicy {
  /** This signer's wallet: the only source it signs for. */
  wallet: string;
  /** The most it signs in refunds of the plan's currency within 24 hours, in base units; null: none. */
  dailyCap: bigint | null;
}

/** What the signer's node showed of the refunded payment (./solana.ts `paidToWallet`): what it paid this wallet, who sent each transaction that paid. */
export interface SolanaPaymentRead {
  received: bigint;
  senders: PaymentSender[];
}

export interface CheckedSolanaRefund {
  amount: bigint;
  /** What the payment paid this wallet, and what was left of it before this refund. */
  received: bigint;
  left: bigint;
  decimals: number;
}

/**
 * Checks a Solana refund plan against this signer's wallet, the payment (a refund to the address it
 * came from must be to its every sender), its ledger and its cap; throws SignerRefusal with every
 * reason.
 */
export function checkSolanaRefund(
  plan: SolanaRefundPlan,
  policy: SolanaRefundPolicy,
  payment: SolanaPaymentRead,
  ledger: RefundLedger,
  now: Date,
): CheckedSolanaRefund {
  const { body, refund } = plan;
  const network = findNetwork(plan.network);
  const currency = network && findCurrency(network, plan.currency);
  if (!network || network.family !== 'solana' || !currency)
    throw new SignerRefusal([`${plan.currency} on ${plan.network} is no Solana currency of the catalog`]);
  const reasons: string[] = [];
  const mint = currency.contract ?? null;
  if (body.mint !== mint)
    reasons.push(`the plan pays mint ${body.mint ?? 'none (SOL)'}, not ${plan.currency}'s ${mint ?? 'none (SOL)'}`);
  if (body.decimals !== currency.decimals)
    reasons.push(`the plan writes ${plan.currency} in ${body.decimals} decimals, not its ${currency.decimals}`);
  if (
    (body.tokenProgram === null) !== (mint === null) ||
    (body.tokenProgram !== null && !TOKEN_PROGRAMS.has(body.tokenProgram))
  )
    reasons.push(`${body.tokenProgram ?? 'no program'} is not a token program for ${plan.currency}`);
  if (body.wallet !== policy.wallet)
    reasons.push(`the plan pays from ${body.wallet}, not from this signer's wallet ${policy.wallet}`);
  if (body.recipient !== refund.destination || !isAddress(body.recipient))
    reasons.push(`the plan pays ${body.recipient}, not ${refund.destination}, ${destinationSource(refund)}`);
  reasons.push(...senderRefundRefusals(refund, payment.senders));
  if ([body.wallet, body.recipient, body.mint].includes(body.reference))
    reasons.push(
      `the plan's reference ${body.reference} is an account of the transfer: the watcher could not find it by it`,
    );
  const amount = parseUnits(refund.amount, currency.decimals);
  const pays = parseUnits(refund.pays, currency.decimals);
  if (!amount.ok || !pays.ok || amount.value <= 0n)
    throw new SignerRefusal([...reasons, `the refund's amount is not an amount`]);
  if (BigInt(body.amount) !== pays.value)
    reasons.push(
      `the plan transfers ${formatUnits(BigInt(body.amount), currency.decimals)}, not the ${refund.pays} it shows`,
    );
  // A SOL refund bearing its fee leaves out exactly its one signature's fee: a gateway cannot shrink it by more.
  reasons.push(
    ...feeFromRefundRefusals(
      refund,
      { amount: amount.value, pays: pays.value },
      { coin: mint === null, planned: SIGNATURE_FEE_LAMPORTS, decimals: currency.decimals, ticker: plan.currency },
    ),
  );
  const { reasons: ledgerReasons, left } = ledgerRefusals(ledger, {
    refundId: refund.refundId,
    destination: refund.destination,
    pays: refund.pays,
    amount: amount.value,
    payment: refund.payment.signatures,
    received: payment.received,
    dailyCap: policy.dailyCap,
    decimals: currency.decimals,
    currency: plan.currency,
    now,
  });
  reasons.push(...ledgerReasons);
  if (reasons.length > 0) throw new SignerRefusal(reasons);
  return { amount: amount.value, received: payment.received, left, decimals: currency.decimals };
}

/** A recent blockhash, as the signer's node gives it (`getLatestBlockhash`) when it signs. */
export interface Lifetime {
  blockhash: string;
  lastValidBlockHeight: number;
}

/**
 * The refund's transaction, built from the checked plan's body and signed by `privateKey` (the
 * wallet's 32-byte ed25519 key): its signature (the transaction's id) and its wire form, base64,
 * for `sendTransaction`.
 */
export async function signSolanaRefund(
  plan: SolanaRefundPlan,
  privateKey: Uint8Array,
  lifetime: Lifetime,
): Promise<{ signature: string; transaction: string }> {
  const { body } = plan;
  if (solanaWalletOfPrivateKey(privateKey) !== body.wallet)
    throw new SignerRefusal([`the key given is not the key of ${body.wallet}`]);
  const compiled = await compiledTransfer(
    {
      recipient: address(body.recipient),
      amount: BigInt(body.amount),
      ...(body.mint !== null && { splToken: address(body.mint) }),
      reference: address(body.reference),
    },
    address(body.wallet),
    {
      ...lifetime,
      ...(body.tokenProgram !== null && { token: { program: address(body.tokenProgram), decimals: body.decimals } }),
      createRecipientAccount: true,
    },
  );
  const signature = ed25519.sign(new Uint8Array(compiled.messageBytes), privateKey) as SignatureBytes;
  const signed: Transaction = { ...compiled, signatures: { ...compiled.signatures, [body.wallet]: signature } };
  return { signature: base58.encode(signature), transaction: getBase64EncodedWireTransaction(signed) };
}

/** The ledger's entry for a Solana refund once signed: its payment named by its transactions' signatures. */
export function solanaLedgerEntry(
  plan: SolanaRefundPlan,
  checked: CheckedSolanaRefund,
  signature: string,
  now: Date,
): LedgerEntry {
  return {
    refundId: plan.refund.refundId,
    outpoints: plan.refund.payment.signatures,
    destination: plan.refund.destination,
    amount: checked.amount.toString(),
    txid: signature,
    signedAt: now.toISOString(),
    currency: plan.currency,
  };
}
