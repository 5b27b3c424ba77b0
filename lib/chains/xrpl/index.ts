import 'server-only';
/**
 * The ChainAdapter of the XRP Ledger (ripple) over rippled's JSON-RPC (./rpc). Watch-only: every
 * order's deposit is a receiving account with its own destination tag: the gateway's
 * (`RIPPLE_ADDRESS`, docs/decisions/034-one-xrp-receiving-account-per-gateway.md), or the
 * merchant's own, which the watcher names before each step (`watchAccounts`, docs/decisions/114).
 *
 * Documentation followed (xrpl.org):
 * - ledger method: https://xrpl.org/docs/references/http-websocket-apis/public-api-methods/ledger-methods/ledger
 * - Payment: https://xrpl.org/docs/references/protocol/transactions/types/payment
 * - metadata and delivered_amount: https://xrpl.org/docs/references/protocol/transactions/metadata
 * - partial payments: https://xrpl.org/docs/concepts/payment-types/partial-payments
 * - results: https://xrpl.org/docs/references/protocol/transactions/transaction-results
 * - ledger close times: https://xrpl.org/docs/references/protocol/data-types/basic-data-types#specifying-time
 *
 * - Heights are ledger indexes, and only validated ledgers are read: a validated ledger is final,
 *   so there is no reorganisation to follow and one confirmation is enough.
 * - A Payment credits only with `tesSUCCESS` (a `tec*` result is in the ledger, burnt its fee and
 *   moved nothing) and only its `meta.delivered_amount`, never `Amount`: with the partial-payment
 *   flag `Amount` is a ceiling, not what arrived.
 * - XRP reaches the account by other transactions too (./released), each credited with
 *   `tesSUCCESS` under the tag it was sent with: an AccountDelete by its `delivered_amount` and the
 *   tag on the transaction; an EscrowFinish and a PaymentChannelClaim by the account's balance
 *   change in the metadata (plus the fee when the account sent the transaction itself) and the tag
 *   of the Escrow or PayChannel object, which the transaction does not carry.
 * - A ledger answered without the transactions asked for is an error, never an empty ledger.
 * - XRP amounts are drops in a JSON string (1 XRP = 1,000,000 drops), read straight into a bigint.
 *   An issued-currency amount (an object) credits one of the configured tokens only when both its
 *   currency code and its issuer are that token's (./issued; `RIPPLE_TOKENS`), in the catalog's
 *   decimals, rounded down; any other is no payment of ours and credits nothing.
 * - Calls do not depend on how many tags or accounts are watched: one `ledger` call (transactions
 *   expanded) per ledger, plus the validated head per watcher pass; a merchant's account costs a
 *   set look-up per transaction. Validated headers never change, so the
 *   watcher's cursor check is answered from memory.
 */
import { z } from 'zod';
import type { Network } from '../../catalog';
import type { LiveChainConfig } from '../../config';
import type { BlockRef, ChainTransfer, FoundTransaction } from '../adapter';
import type { LiveAdapter } from '../live-adapter';
import { currencyCode, ISSUED_VALUE, issuedTokens, issuedUnits, tokenKey } from './issued';
import { affectedNode, releasedTo } from './released';
import { RippledClient, XrplRpcError } from './rpc';

export { XrplRpcError } from './rpc';

/** Seconds from the Unix epoch to the "Ripple epoch" (2000-01-01T00:00:00Z) ledger times count from. */
const RIPPLE_EPOCH = 946_684_800;
/** The API version whose expanded transactions carry `metaData` beside the transaction fields. */
const API_VERSION = 1;
const HEADERS_KEPT = 2000;

const hash = z
  .string()
  .regex(/^[0-9A-Fa-f]{64}$/)
  .transform((h) => h.toUpperCase());
const ledgerIndex = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/).transform(Number)]);
const header = z.object({
  ledger_index: ledgerIndex,
  ledger_hash: hash,
  parent_hash: hash,
  close_time: z.number().int().nonnegative(),
});
const ledgerAnswer = z.object({
  validated: z.boolean().optional(),
  ledger: header.extend({ transactions: z.array(z.unknown()).optional() }),
});
type Header = z.output<typeof header>;

/**
 * Drops: a JSON string of digits ("unavailable" predates 2014). A token amount is an object
 * (https://xrpl.org/docs/references/protocol/data-types/currency-formats#token-amounts).
 */
const amount = z.union([
  z.string(),
  z.object({ currency: z.string(), issuer: z.string(), value: z.string().regex(ISSUED_VALUE, 'is not a token value') }),
]);
const meta = z.object({ TransactionResult: z.string(), delivered_amount: amount.optional() });
/** The fields of an expanded transaction this adapter reads (API v1: metadata in `metaData`). */
const payment = z.object({
  TransactionType: z.literal('Payment'),
  hash,
  Account: z.string(),
  Destination: z.string(),
  DestinationTag: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  metaData: meta,
});
/** An AccountDelete: the deleted account's XRP goes to `Destination`, under the tag it names. */
const accountDelete = payment.extend({ TransactionType: z.literal('AccountDelete') });
/** An EscrowFinish or a PaymentChannelClaim: who sent it, its fee, and what it changed (./released). */
const releasing = z.object({
  hash,
  Account: z.string(),
  Fee: z
    .string()
    .regex(/^\d{1,20}$/, 'must be drops')
    .transform(BigInt),
  metaData: z.object({ TransactionResult: z.string(), AffectedNodes: z.array(affectedNode).default([]) }),
});
const typed = z.object({ TransactionType: z.string(), Destination: z.string().optional() });

/**
 * What a successful Payment delivered, as a currency of ours (`xrp`, or one of the configured
 * `tokens`) and base units; null when it is none of ours.
 */
function credit(
  delivered: z.output<typeof amount> | undefined,
  xrp: string,
  tokens: ReturnType<typeof issuedTokens>,
): { currency: string; units: bigint } | null {
  if (typeof delivered === 'string') {
    const drops = /^\d+$/.test(delivered) ? BigInt(delivered) : 0n;
    return drops > 0n ? { currency: xrp, units: drops } : null;
  }
  if (delivered === undefined) return null;
  const code = currencyCode(delivered.currency);
  const token = code === null ? undefined : tokens.get(tokenKey(code, delivered.issuer));
  if (!token) return null;
  const units = issuedUnits(delivered.value, token.decimals);
  return units === null ? null : { currency: token.ticker, units };
}

/** The `tx` method's answer (API v1: the transaction's fields, `meta`, `validated`, `ledger_index`, `date`). */
const txAnswer = z.object({
  TransactionType: z.string(),
  hash,
  Account: z.string(),
  Destination: z.string().optional(),
  DestinationTag: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  Fee: z
    .string()
    .regex(/^\d{1,20}$/, 'must be drops')
    .transform(BigInt),
  ledger_index: ledgerIndex.optional(),
  date: z.number().int().nonnegative().optional(),
  validated: z.boolean().optional(),
  meta: meta.optional(),
});

/**
 * One transaction as the `tx` method answers it, as a found transaction (docs/decisions/092): only
 * in a validated ledger (final: one confirmation, as the network needs); a Payment with
 * `tesSUCCESS` is a transfer of its `delivered_amount` (never `Amount`) to its `Destination`, under
 * its `DestinationTag`. Any other type, or a failed Payment, moved nothing a refund counts.
 */
export function xrplFoundTransaction(network: Network, answer: unknown): FoundTransaction | null {
  const tx = txAnswer.parse(answer);
  if (tx.validated !== true || tx.ledger_index === undefined || !tx.meta) return null;
  const xrp = network.currencies.find((c) => !c.contract)!.ticker;
  const delivered =
    tx.TransactionType === 'Payment' && tx.Destination && tx.meta.TransactionResult === 'tesSUCCESS'
      ? credit(tx.meta.delivered_amount, xrp, issuedTokens(network))
      : null;
  return {
    transfers: delivered
      ? [
          {
            txHash: tx.hash,
            outputIndex: 0,
            from: tx.Account,
            to: tx.Destination!,
            tag: tx.DestinationTag === undefined ? null : String(tx.DestinationTag),
            currency: delivered.currency,
            amount: delivered.units,
            blockHeight: tx.ledger_index,
            seenAt: new Date(((tx.date ?? 0) + RIPPLE_EPOCH) * 1000),
          },
        ]
      : [],
    confirmations: 1,
    blockHash: null,
    fee: tx.Fee,
  };
}

export function xrplAdapter(network: Network, cfg: LiveChainConfig): LiveAdapter {
  const rpc = new RippledClient(cfg.rpc, `${network.name} node at ${cfg.rpc.url}`);
  const gatewayAccount = cfg.account!;
  /** The accounts whose deposits are read: the gateway's and those the watcher named last (watchAccounts). */
  let receiving: ReadonlySet<string> = new Set([gatewayAccount]);
  const xrp = network.currencies.find((c) => !c.contract)!.ticker;
  const tokens = issuedTokens(network);
  const headers = new Map<number, BlockRef>();

  const toRef = (h: Header): BlockRef => ({
    height: h.ledger_index,
    hash: h.ledger_hash,
    parentHash: h.parent_hash,
    time: new Date((h.close_time + RIPPLE_EPOCH) * 1000),
  });

  function remember(ref: BlockRef): BlockRef {
    if (headers.size >= HEADERS_KEPT) headers.clear();
    headers.set(ref.height, ref);
    return ref;
  }

  /** The validated ledger at `index` (or the newest), with its transactions when asked; null when the node has no validated one there. */
  async function ledger(
    index: number | 'validated',
    transactions: boolean,
  ): Promise<z.output<typeof ledgerAnswer>['ledger'] | null> {
    try {
      const answer = await rpc.call(
        'ledger',
        { ledger_index: index, transactions, expand: transactions, api_version: API_VERSION },
        ledgerAnswer,
      );
      return answer.validated === true ? answer.ledger : null;
    } catch (error) {
      if (error instanceof XrplRpcError && error.code === 'lgrNotFound' && index !== 'validated') return null;
      throw error;
    }
  }

  /** `raw` checked against `schema`, or an error naming the ledger and the field. */
  function parsed<S extends z.ZodType>(schema: S, raw: unknown, what: string, ref: BlockRef): z.output<S> {
    const checked = schema.safeParse(raw);
    if (checked.success) return checked.data;
    const issue = checked.error.issues[0]!;
    throw new XrplRpcError(
      `${rpc.label}: unexpected ${what} in ledger ${ref.height} at ${issue.path.join('.')}: ${issue.message}`,
    );
  }

  /**
   * What a transaction delivered to a receiving account, as a transfer: a Payment of XRP or a
   * configured token, an AccountDelete, an EscrowFinish or a PaymentChannelClaim releasing XRP to
   * it; null for anything else.
   */
  function transferOf(raw: unknown, ref: BlockRef): ChainTransfer | null {
    const kind = typed.safeParse(raw);
    if (!kind.success)
      throw new XrplRpcError(`${rpc.label}: a transaction of ledger ${ref.height} has no TransactionType`);
    const transfer = (
      txHash: string,
      from: string,
      to: string,
      tag: number | undefined,
      delivered: { currency: string; units: bigint } | null,
    ): ChainTransfer | null =>
      delivered && {
        txHash,
        outputIndex: 0,
        from,
        to,
        tag: tag === undefined ? null : String(tag),
        currency: delivered.currency,
        amount: delivered.units,
        blockHeight: ref.height,
        seenAt: ref.time,
      };
    switch (kind.data.TransactionType) {
      case 'Payment':
      case 'AccountDelete': {
        const to = kind.data.Destination;
        if (to === undefined || !receiving.has(to)) return null;
        const isPayment = kind.data.TransactionType === 'Payment';
        const tx = parsed(isPayment ? payment : accountDelete, raw, kind.data.TransactionType, ref);
        if (tx.metaData.TransactionResult !== 'tesSUCCESS') return null;
        // An AccountDelete moves XRP only: an issued amount there is none of ours.
        const delivered = tx.metaData.delivered_amount;
        if (!isPayment && typeof delivered !== 'string') return null;
        return transfer(tx.hash, tx.Account, to, tx.DestinationTag, credit(delivered, xrp, tokens));
      }
      case 'EscrowFinish':
      case 'PaymentChannelClaim': {
        const tx = parsed(releasing, raw, kind.data.TransactionType, ref);
        if (tx.metaData.TransactionResult !== 'tesSUCCESS') return null;
        let released;
        try {
          released = releasedTo(tx.metaData.AffectedNodes, receiving, tx.Fee, tx.Account);
        } catch (error) {
          throw new XrplRpcError(
            `${rpc.label}: unexpected ${kind.data.TransactionType} ${tx.hash} in ledger ${ref.height}: ${(error as Error).message}`,
          );
        }
        return (
          released &&
          transfer(tx.hash, released.from, released.to, released.tag, { currency: xrp, units: released.drops })
        );
      }
      default:
        return null;
    }
  }

  return {
    network,
    // The live network carries its configured count (requiredConfirmations('live', network), ../networks).
    requiredConfirmations: network.confirmations,
    stats: rpc.stats,

    async head() {
      const tip = await ledger('validated', false);
      if (!tip) throw new XrplRpcError(`${rpc.label} has no validated ledger (is it synced?)`);
      return remember(toRef(tip));
    },

    async block(height) {
      const known = headers.get(height);
      if (known) return known;
      const found = await ledger(height, false);
      return found ? remember(toRef(found)) : null;
    },

    async scan(from, to) {
      const blocks: BlockRef[] = [];
      const transfers: ChainTransfer[] = [];
      for (let height = from; height <= to; height++) {
        const found = await ledger(height, true);
        if (!found) throw new XrplRpcError(`${rpc.label} has no validated ledger ${height}`);
        const ref = remember(toRef(found));
        const previous = blocks[blocks.length - 1];
        if (previous && ref.parentHash !== previous.hash)
          throw new XrplRpcError(`${rpc.label}: ledger ${height} does not follow ledger ${previous.height}`);
        blocks.push(ref);
        if (!found.transactions)
          throw new XrplRpcError(`${rpc.label} answered ledger ${height} without its transactions`);
        for (const raw of found.transactions) {
          const transfer = transferOf(raw, ref);
          if (transfer) transfers.push(transfer);
        }
      }
      return { blocks, transfers };
    },

    // The merchants' own accounts and those open orders were issued to (lib/addresses
    // receivingAccountsToWatch), read besides the gateway's from the next scan on.
    watchAccounts(accounts) {
      receiving = new Set([gatewayAccount, ...accounts]);
    },

    // Payments are final in their validated ledger; an unvalidated one may still fail.
    mempool: async () => [],

    async transaction(txHash) {
      try {
        const answer = await rpc.call(
          'tx',
          { transaction: txHash, binary: false, api_version: API_VERSION },
          z.unknown(),
        );
        return xrplFoundTransaction(network, answer);
      } catch (error) {
        if (error instanceof XrplRpcError && error.code === 'txnNotFound') return null;
        throw error;
      }
    },
  };
}
