/**
 * `npm run signer -- sign` for a Solana refund plan (docs/decisions/106, 111), from a file or
 * `--from-api`: the signer's own Solana node (its configuration's `rpc`) tells what the refunded
 * payment's transactions paid this wallet (finalized, by the balance rule of decision 057) and who
 * sent them (the watcher's rule, for a refund to the address the payment came from), gives
 * the blockhash the transaction is signed with, and is sent the signed transaction. The plan is
 * checked first (./sign-solana.ts `checkSolanaRefund`), the merchant confirms what is shown, the
 * refund is kept in the ledger, and only then does the signed transaction leave this machine.
 * The plan is refused once its signing time is over (`expiresAt` less the signing margin): the
 * watcher must have seen or given up on a transaction before a new plan may take its place.
 */
import { z } from 'zod';
import { findCurrency, findNetwork } from '../../lib/catalog';
import { solanaPaymentSender } from '../../lib/chains/solana/transactions';
import { SignerRefusal } from '../../lib/chains/utxo/transactions';
import { formatUnits, parseUnits } from '../../lib/money';
import { SOLANA_PLAN_SIGNING_MARGIN_MS, decimalString, type SolanaRefundPlan } from '../../lib/protocol';
import { refundSubject, type RefundLedger } from './refunds';
import { refundDestinationLine, type PaymentSender } from './sender-refund';
import {
  checkSolanaRefund,
  signSolanaRefund,
  solanaLedgerEntry,
  type CheckedSolanaRefund,
  type Lifetime,
  type SolanaPaymentRead,
} from './sign-solana';

/** The signer's configuration for Solana refunds: its own node, where the key comes from, its caps. */
export const solanaSignerConfigSchema = z.object({
  network: z.literal('solana'),
  /** The merchant's own Solana JSON-RPC node: the payment is read there, the blockhash taken and the transaction sent. */
  rpc: z.url(),
  /** The wallet's account in the seed, m/44'/501'/account'/0' (0 for the first, as Phantom and Solflare derive it). */
  account: z.number().int().min(0).max(1000).default(0),
  /** Instead of the seed: a keypair file as `solana-keygen` writes it (a JSON array of 64 bytes). */
  keypairFile: z.string().min(1).optional(),
  /** The most each currency's refunds add up to within 24 hours, in the currency; a currency without one is never refunded. */
  refundDailyCaps: z.record(z.string(), decimalString).default({}),
  /** Its ledger of the refunds it signed; `signer-ledger.json` beside the configuration when absent. */
  ledger: z.string().min(1).optional(),
});
export type SolanaSignerConfig = z.output<typeof solanaSignerConfigSchema>;

const tokenBalance = z.object({
  accountIndex: z.number().int().nonnegative(),
  mint: z.string(),
  owner: z.string().optional(),
  uiTokenAmount: z.object({ amount: z.string().regex(/^\d{1,30}$/) }),
});
/** What the signer reads of a getTransaction answer (encoding json): the keys and the balances before and after. */
const transactionAnswer = z
  .object({
    meta: z.object({
      err: z.unknown().optional(),
      preBalances: z.array(z.number().int().nonnegative()),
      postBalances: z.array(z.number().int().nonnegative()),
      preTokenBalances: z.array(tokenBalance).default([]),
      postTokenBalances: z.array(tokenBalance).default([]),
      loadedAddresses: z.object({ writable: z.array(z.string()), readonly: z.array(z.string()) }).optional(),
    }),
    transaction: z.object({ message: z.object({ accountKeys: z.array(z.string()) }) }),
  })
  .nullable();
const blockhashAnswer = z.object({
  value: z.object({ blockhash: z.string().min(32), lastValidBlockHeight: z.number().int().nonnegative() }),
});

/** A JSON-RPC client of the signer's own node. */
export interface SolanaNode {
  call(method: string, params: unknown[]): Promise<unknown>;
}

export function solanaNode(url: string, send: typeof fetch = fetch): SolanaNode {
  let id = 0;
  return {
    async call(method, params) {
      const response = await send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
        redirect: 'error',
        signal: AbortSignal.timeout(30_000),
      });
      const reply = (await response.json().catch(() => null)) as {
        result?: unknown;
        error?: { message?: string };
      } | null;
      if (!reply || reply.error || !('result' in reply))
        throw new Error(
          `your Solana node answered ${method} with ${reply?.error?.message ?? `HTTP ${response.status}`}`,
        );
      return reply.result;
    },
  };
}

/**
 * What the payment's transactions paid `wallet` in the plan's currency, as the node has them
 * finalized: SOL, the wallet's lamports after less before; a token, every account of the mint the
 * wallet owns, after less before; and the sender of each that paid it, by the watcher's rule
 * (`solanaPaymentSender`). A failed transaction paid nothing; one the node does not know is a
 * refusal.
 */
export async function paidToWallet(
  node: SolanaNode,
  signatures: readonly string[],
  wallet: string,
  mint: string | null,
): Promise<SolanaPaymentRead> {
  let paid = 0n;
  const senders: PaymentSender[] = [];
  const unknown: string[] = [];
  for (const signature of signatures) {
    const answer = transactionAnswer.safeParse(
      await node.call('getTransaction', [
        signature,
        { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 },
      ]),
    );
    if (!answer.success) throw new Error(`your Solana node answered getTransaction ${signature} in an unknown shape`);
    const tx = answer.data;
    if (!tx) {
      unknown.push(signature);
      continue;
    }
    const { meta } = tx;
    if (meta.err !== null && meta.err !== undefined) continue;
    const keys = [
      ...tx.transaction.message.accountKeys,
      ...(meta.loadedAddresses?.writable ?? []),
      ...(meta.loadedAddresses?.readonly ?? []),
    ];
    let grew = 0n;
    if (mint === null) {
      const at = keys.indexOf(wallet);
      if (at >= 0) grew = BigInt(meta.postBalances[at] ?? 0) - BigInt(meta.preBalances[at] ?? 0);
    } else
      for (const after of meta.postTokenBalances) {
        if (after.mint !== mint || after.owner !== wallet) continue;
        const before = meta.preTokenBalances.find((b) => b.accountIndex === after.accountIndex && b.mint === mint);
        const more = BigInt(after.uiTokenAmount.amount) - BigInt(before?.uiTokenAmount.amount ?? '0');
        if (more > 0n) grew += more;
      }
    if (grew <= 0n) continue;
    paid += grew;
    senders.push({ transaction: signature, sender: solanaPaymentSender({ keys, ...meta }, wallet, mint) });
  }
  if (unknown.length > 0)
    throw new SignerRefusal(
      unknown.map((s) => `your Solana node has no finalized transaction ${s}: the refunded payment is not found`),
    );
  return { received: paid, senders };
}

/** What the merchant reads before confirming: where the refund goes and who chose it, the transfer, the payment's numbers. */
export function describeSolanaRefund(plan: SolanaRefundPlan, checked: CheckedSolanaRefund): string {
  const units = (amount: bigint) => `${formatUnits(amount, checked.decimals)} ${plan.currency}`;
  const { refund, body } = plan;
  const of = refundSubject(refund);
  return [
    `REFUND ${refund.refundId} of ${of}, Solana, ${plan.mode} mode`,
    refundDestinationLine(refund, `${refund.pays} ${plan.currency}`),
    `  from your wallet ${body.wallet}, which pays the network fee${body.mint ? " (and the payer's token account if it has none)" : ''}`,
    `  the refund is ${units(checked.amount)}${refund.feeFromRefund ? ', the network fee taken from it' : ''}`,
    `  its payment paid your wallet ${units(checked.received)} (${refund.payment.signatures.join(', ')}); ${units(checked.left)} of it was not refunded yet`,
    `  Check the order in your shop before you confirm: only you can tell that this payer asked for this refund.`,
  ].join('\n');
}

export interface SolanaSignIo {
  node: SolanaNode;
  ledger: RefundLedger;
  /** Writes the ledger with the refund: called before the transaction is sent. */
  keepLedger(next: RefundLedger): void;
  confirm(summary: string): Promise<boolean>;
  now?: Date;
}

/**
 * Checks, signs and sends a Solana refund plan with the wallet's key `privateKey` (32 bytes), or
 * throws SignerRefusal with every reason (nothing kept, nothing sent). Answers the transaction's
 * signature, which the node took.
 */
export async function signAndSendSolanaRefund(
  plan: SolanaRefundPlan,
  config: SolanaSignerConfig,
  wallet: string,
  privateKey: Uint8Array,
  io: SolanaSignIo,
): Promise<{ signature: string }> {
  const now = io.now ?? new Date();
  const signUntil = Date.parse(plan.body.expiresAt) - SOLANA_PLAN_SIGNING_MARGIN_MS;
  if (!(now.getTime() < signUntil))
    throw new SignerRefusal([
      `the plan could be signed until ${new Date(signUntil).toISOString()}: prepare a new one once the gateway marks it stale`,
    ]);
  const currency = findCurrency(findNetwork('solana')!, plan.currency);
  let dailyCap: bigint | null = null;
  const cap = config.refundDailyCaps[plan.currency];
  if (cap !== undefined && currency) {
    const parsed = parseUnits(cap, currency.decimals);
    if (!parsed.ok)
      throw new Error(`refundDailyCaps.${plan.currency} ${cap} is not an amount of ${currency.decimals} decimals`);
    dailyCap = parsed.value;
  }
  // The catalog's mint, never the plan's: a look-alike mint's payment is not this currency's.
  const payment = currency
    ? await paidToWallet(io.node, plan.refund.payment.signatures, wallet, currency.contract ?? null)
    : { received: 0n, senders: [] };
  const checked = checkSolanaRefund(plan, { wallet, dailyCap }, payment, io.ledger, now);
  if (!(await io.confirm(describeSolanaRefund(plan, checked)))) throw new SignerRefusal(['not confirmed']);
  const lifetime = blockhashAnswer.safeParse(await io.node.call('getLatestBlockhash', [{ commitment: 'finalized' }]));
  if (!lifetime.success) throw new Error('your Solana node answered getLatestBlockhash in an unknown shape');
  const signed = await signSolanaRefund(plan, privateKey, lifetime.data.value satisfies Lifetime);
  // The ledger holds the refund before the transaction leaves this program: a refund signed is counted, sent or not.
  io.keepLedger({ refunds: [...io.ledger.refunds, solanaLedgerEntry(plan, checked, signed.signature, now)] });
  const sent = await io.node.call('sendTransaction', [signed.transaction, { encoding: 'base64' }]);
  if (sent !== signed.signature)
    throw new Error(`your Solana node answered ${String(sent)} for transaction ${signed.signature}`);
  return { signature: signed.signature };
}
