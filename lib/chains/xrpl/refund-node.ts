import 'server-only';
/**
 * What the gateway asks rippled for an XRP Ledger refund plan (docs/decisions/119): the numbers it
 * is built on, the signed transaction handed on, and its result. Each call goes to the configured
 * nodes in order, the next taking over when one is unreachable (a node's answer, an error
 * included, is final).
 *
 * Documentation followed (xrpl.org, public API methods):
 * - `account_info` (`Sequence`, `Balance` and `OwnerCount` of the account, `ledger_index: "current"`;
 *   `actNotFound`): https://xrpl.org/docs/references/http-websocket-apis/public-api-methods/account-methods/account_info
 * - `server_state` (`validated_ledger.reserve_base` and `reserve_inc`, in drops; docs/decisions/127):
 *   https://xrpl.org/docs/references/http-websocket-apis/public-api-methods/server-info-methods/server_state
 * - `fee` (`drops.open_ledger_fee`, `ledger_current_index`):
 *   https://xrpl.org/docs/references/http-websocket-apis/public-api-methods/server-info-methods/fee
 * - `submit` with `tx_blob` (`engine_result`, `engine_result_message`):
 *   https://xrpl.org/docs/references/http-websocket-apis/public-api-methods/transaction-methods/submit
 * - `tx` (`validated`, `ledger_index`, `meta.TransactionResult`, `meta.delivered_amount`):
 *   https://xrpl.org/docs/references/http-websocket-apis/public-api-methods/transaction-methods/tx
 */
import { z } from 'zod';
import type { LiveChainConfig } from '../../config';
import { formatUnits } from '../../money';
import { RippledClient, XrplRpcError } from './rpc';
import { encodeXrplRefund, TF_FULLY_CANONICAL_SIG, xrplReserveShortfall, type XrplRefundFields } from './transactions';

/** The most a refund's fee may be, in drops (0.01 XRP): above it the network is too busy to plan one now. */
export const XRPL_REFUND_MAX_FEE_DROPS = 10_000n;
/** Ledgers after the current one an unsigned plan stays valid (LastLedgerSequence): about an hour at 3-4 seconds a ledger. */
export const XRPL_REFUND_LEDGER_WINDOW = 1000;
/**
 * What `submit` answers of a transaction the network takes or already has: applied to the open
 * ledger, queued, or already applied (a replay). Anything else is refused, nothing recorded.
 */
const TAKEN = new Set(['tesSUCCESS', 'terQUEUED', 'tefALREADY']);
const XRP_DECIMALS = 6;

const drops = z.string().regex(/^\d{1,20}$/, 'must be drops');
/** Drops as `server_state` writes them: a JSON number (integer drops), or a string of digits. */
const dropsNumber = z.union([
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).transform(BigInt),
  drops.transform(BigInt),
]);
const ledgerIndex = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/).transform(Number)]);
const accountInfo = z.object({
  account_data: z.object({
    Account: z.string(),
    Balance: drops.transform(BigInt),
    Sequence: z.number().int(),
    OwnerCount: z.number().int().nonnegative(),
  }),
});
const serverState = z.object({
  state: z.object({
    validated_ledger: z.object(
      { reserve_base: dropsNumber, reserve_inc: dropsNumber },
      {
        error: 'is missing: the node has no validated ledger (is it synced?)',
      },
    ),
  }),
});
const feeAnswer = z.object({ ledger_current_index: ledgerIndex, drops: z.object({ open_ledger_fee: drops }) });
const submitAnswer = z.object({ engine_result: z.string(), engine_result_message: z.string().optional() });
const txAnswer = z.object({
  Destination: z.string().optional(),
  DestinationTag: z.number().int().optional(),
  validated: z.boolean().optional(),
  ledger_index: ledgerIndex.optional(),
  meta: z.object({ TransactionResult: z.string(), delivered_amount: z.unknown().optional() }).optional(),
});

/** What a validated refund transaction did: its ledger, result, and where and what it delivered. */
export interface XrplRefundResult {
  height: number;
  result: string;
  destination: string | null;
  tag: number | null;
  /** Drops delivered; null for an issued amount or none. */
  delivered: bigint | null;
}

export interface XrplRefundNode {
  /**
   * The unsigned refund: Sequence of `account`, Fee the open ledger's (refused above
   * `XRPL_REFUND_MAX_FEE_DROPS`), LastLedgerSequence the window's; refused when its amount and fee
   * would take the account below its reserve (docs/decisions/127).
   */
  build(refund: {
    account: string;
    destination: string;
    tag: number | null;
    drops: bigint;
    feeFromRefund: boolean;
  }): Promise<{ fields: XrplRefundFields; blob: string; fee: bigint }>;
  /** Hands a signed transaction on; throws XrplRpcError with the node's result when it is not taken. */
  submit(blob: string): Promise<void>;
  /** The transaction `hash` in a validated ledger, or null (unknown, or not validated yet). */
  result(hash: string): Promise<XrplRefundResult | null>;
}

export function xrplRefundNode(cfg: LiveChainConfig): XrplRefundNode {
  const clients = (cfg.nodes.length > 0 ? cfg.nodes : [cfg.rpc]).map(
    (endpoint) => new RippledClient(endpoint, `${cfg.network} node at ${endpoint.url}`),
  );
  async function call<S extends z.ZodType>(method: string, params: Record<string, unknown>, schema: S) {
    let unreachable: unknown;
    for (const client of clients) {
      try {
        return await client.call(method, params, schema);
      } catch (error) {
        // An answer (an error code) is the network's word; an unreachable node gives way to the next.
        if (!(error instanceof XrplRpcError) || error.code !== undefined) throw error;
        unreachable = error;
      }
    }
    throw unreachable;
  }

  return {
    async build(refund) {
      let account: z.output<typeof accountInfo>['account_data'];
      try {
        account = (await call('account_info', { account: refund.account, ledger_index: 'current' }, accountInfo))
          .account_data;
      } catch (error) {
        if (error instanceof XrplRpcError && error.code === 'actNotFound')
          throw new XrplRpcError(`the account ${refund.account} does not exist on the ledger`, error.code);
        throw error;
      }
      const fees = await call('fee', {}, feeAnswer);
      const fee = BigInt(fees.drops.open_ledger_fee);
      if (fee > XRPL_REFUND_MAX_FEE_DROPS)
        throw new XrplRpcError(
          `the open ledger's fee is ${fee} drops, above the ${XRPL_REFUND_MAX_FEE_DROPS} a refund pays: try again later`,
        );
      const amount = refund.feeFromRefund ? refund.drops - fee : refund.drops;
      if (amount <= 0n) throw new XrplRpcError(`the refund of ${refund.drops} drops does not cover its fee of ${fee}`);
      const { validated_ledger: settings } = (await call('server_state', {}, serverState)).state;
      const funds = { balance: account.Balance, ownerCount: account.OwnerCount };
      const short = xrplReserveShortfall(
        funds,
        { base: settings.reserve_base, increment: settings.reserve_inc },
        { drops: amount, fee },
      );
      if (short) {
        const xrp = (value: bigint) => `${formatUnits(value, XRP_DECIMALS)} XRP`;
        throw new XrplRpcError(
          `its balance of ${xrp(funds.balance)} less its reserve of ${xrp(short.reserve)} (${xrp(settings.reserve_base)} and ${xrp(settings.reserve_inc)} for each of its ${funds.ownerCount} ledger objects) leaves ${xrp(short.spendable)}; this plan needs ${xrp(short.needs)} (${xrp(amount)} and a fee of ${xrp(fee)}): the ledger would refuse it (tecUNFUNDED_PAYMENT)`,
        );
      }
      const fields: XrplRefundFields = {
        TransactionType: 'Payment',
        Account: refund.account,
        Destination: refund.destination,
        ...(refund.tag === null ? {} : { DestinationTag: refund.tag }),
        Amount: amount.toString(),
        Fee: fee.toString(),
        Sequence: account.Sequence,
        LastLedgerSequence: fees.ledger_current_index + XRPL_REFUND_LEDGER_WINDOW,
        Flags: TF_FULLY_CANONICAL_SIG,
      };
      return { fields, blob: encodeXrplRefund(fields), fee };
    },

    async submit(blob) {
      const answer = await call('submit', { tx_blob: blob }, submitAnswer);
      if (!TAKEN.has(answer.engine_result))
        throw new XrplRpcError(
          `the node did not take the transaction: ${answer.engine_result}${answer.engine_result_message ? ` (${answer.engine_result_message})` : ''}`,
          answer.engine_result,
        );
    },

    async result(hash) {
      let tx;
      try {
        tx = await call('tx', { transaction: hash, binary: false, api_version: 1 }, txAnswer);
      } catch (error) {
        if (error instanceof XrplRpcError && error.code === 'txnNotFound') return null;
        throw error;
      }
      if (tx.validated !== true || tx.ledger_index === undefined || !tx.meta) return null;
      const delivered = tx.meta.delivered_amount;
      return {
        height: tx.ledger_index,
        result: tx.meta.TransactionResult,
        destination: tx.Destination ?? null,
        tag: tx.DestinationTag ?? null,
        delivered: typeof delivered === 'string' && /^\d+$/.test(delivered) ? BigInt(delivered) : null,
      };
    },
  };
}
