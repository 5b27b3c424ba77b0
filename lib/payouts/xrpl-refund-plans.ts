import 'server-only';
/**
 * Refund plans of the XRP Ledger (docs/decisions/119): one Payment of XRP from the merchant's own
 * account (its deposit key on ripple, decision 114) to the account and destination tag its payer
 * confirmed, built on the node's numbers (lib/chains xrplRefundNode: Sequence, the open ledger's
 * fee, LastLedgerSequence). The plan carries the payment as the signer checks it on its own node:
 * the transactions that paid that account under the order's tag. Stored beside the other plans
 * (`format` xrpl, kind refund, no inputs); its hash commits to the signature, so it is learned when
 * the signed transaction comes back through `collections/submit`, and the watcher moves the plan
 * by that transaction's result (./collections.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Network } from '../catalog';
import { liveChainConfig, xrplRefundNode, type XrplRefundNode } from '../chains';
import { collectionPlans, param, sql, statement, type Database, type Queryable, type RowOf } from '../db';
import { formatUnits } from '../money';
import type { Mode, XrplPlanRefund, XrplRefundPlan } from '../protocol';
import { INSERT_PLAN, isSecondOpenPlan, type PlanWrite } from './collections';
import { depositKeyOf } from './deposit-keys';
import { CollectionRefused } from './errors';
import type { TronStepSighting } from './lifecycle';
import { DEPOSIT_PAYMENT, ORDER_PAYMENT, type RefundToPay } from './refund-plans';

/** Most payment transactions a plan names: an order is paid by a few. */
const MAX_PAYMENT_TRANSACTIONS = 50;

type StoredBody = Omit<XrplRefundPlan, 'status' | 'txid' | 'reason' | 'acceptedAt'>;

/**
 * Prepares and stores the plan that pays `request`'s refund on ripple from the merchant's own
 * account. Refused (CollectionRefused) in test mode, without a node, for an issued currency,
 * without an own account, for a payment not made to it, and when the node's numbers do not allow it.
 */
export async function prepareXrplRefundPlan(
  db: Database,
  network: Network,
  request: RefundToPay,
  write: PlanWrite,
  node?: XrplRefundNode,
): Promise<XrplRefundPlan> {
  if (request.mode === 'test')
    throw new CollectionRefused(
      `test-mode refunds on ${network.name} are not sent by plans: the sandbox ledger takes no XRP Ledger transactions; complete it by hand`,
    );
  const cfg = liveChainConfig(network.name);
  if (!cfg) throw new CollectionRefused(`${network.name} is not live: it has no node configured`);
  const currency = network.currencies.find((c) => c.ticker === request.currency);
  if (!currency || currency.contract)
    throw new CollectionRefused(
      `${request.currency} refunds on ${network.name} are not sent by plans (XRP only): send it from your wallet and complete it by its transaction id`,
    );
  const account = await depositKeyOf(db, request.merchantId, network.name, request.mode);
  if (!account)
    throw new CollectionRefused(
      `no own XRP account is set for ${network.name}: a refund plan is paid from your account; set it as your deposit key (Funds, Deposit keys) first, or send the refund by hand`,
    );
  const scope = { merchantId: request.merchantId, mode: request.mode };
  const payment =
    'orderId' in request.payment
      ? await ORDER_PAYMENT.run(db, { orderId: request.payment.orderId, ...scope })
      : await DEPOSIT_PAYMENT.run(db, { network: network.name, ...scope, ...request.payment });
  // The signer reads each on its own node: only a payment to the account it signs for proves anything.
  const proof = payment.filter((p) => p.address === account).slice(0, MAX_PAYMENT_TRANSACTIONS);
  if (proof.length === 0)
    throw new CollectionRefused(
      `the payment was not made to your account ${account} (the gateway's, before you set yours): send the refund by hand`,
    );
  const tag = request.tag ?? null;
  let built;
  try {
    built = await (node ?? xrplRefundNode(cfg)).build({
      account,
      destination: request.destination,
      tag: tag === null ? null : Number(tag),
      drops: request.amount,
      feeFromRefund: request.feeFromRefund,
    });
  } catch (error) {
    throw new CollectionRefused(`your account ${account} cannot send this refund now: ${(error as Error).message}`);
  }
  const pays = BigInt(built.fields.Amount);
  const refund: XrplPlanRefund = {
    refundId: request.refundId,
    orderId: request.orderId,
    invoiceId: request.invoiceId,
    depositId: request.depositId,
    amount: formatUnits(request.amount, currency.decimals),
    pays: formatUnits(pays, currency.decimals),
    feeFromRefund: request.feeFromRefund,
    destination: request.destination,
    tag,
    addressConfirmedAt: request.addressConfirmedAt.toISOString(),
    payment: {
      account,
      tag: proof[0]!.tag,
      transactions: [...new Set(proof.map((p) => p.tx_hash.toUpperCase()))],
    },
  };
  const plan: StoredBody = {
    planId: randomUUID(),
    kind: 'refund',
    format: 'xrpl',
    mode: request.mode,
    network: 'ripple',
    chain: cfg.chain === 'testnet' || cfg.chain === 'regtest' ? cfg.chain : 'mainnet',
    currency: currency.ticker,
    account,
    transaction: {
      blob: built.blob,
      fields: built.fields,
      lastLedgerSequence: built.fields.LastLedgerSequence,
    },
    refund,
    createdAt: new Date().toISOString(),
  };
  try {
    await db.transaction(async (tx) => {
      await INSERT_PLAN.run(tx, {
        id: plan.planId,
        ...scope,
        network: network.name,
        currency: currency.ticker,
        treasury: account,
        masterFingerprint: null,
        feeRate: built.fee.toString(),
        // What leaves the account: the payment and its fee (the fee within the refund with feeFromRefund).
        total: (pays + built.fee).toString(),
        fee: built.fee.toString(),
        sent: pays.toString(),
        psbt: null,
        txid: null,
        kind: 'refund',
        refundId: request.refundId,
        refund: JSON.stringify(refund),
        format: 'xrpl',
        body: JSON.stringify(plan),
      });
      await write.within?.(tx, plan.planId);
    });
  } catch (error) {
    if (isSecondOpenPlan(error)) throw new CollectionRefused('an open plan pays this refund already');
    throw error;
  }
  return { ...plan, status: 'prepared', txid: null, reason: null, acceptedAt: null };
}

/** A stored XRP Ledger refund plan as `refund-plans/get` answers it: the plan the signer reads, with the watcher's status. */
export function storedXrplRefundPlan(row: RowOf<typeof collectionPlans>): XrplRefundPlan {
  return {
    ...(row.body as StoredBody),
    status: row.status,
    txid: row.txid,
    reason: row.reason,
    acceptedAt: row.accepted_at?.toISOString() ?? null,
  };
}

const OPEN_XRPL_REFUND_PLANS = statement<{ id: string; txid: string | null; body: StoredBody }, { mode: Mode }>(
  sql`select ${collectionPlans.id} as id, ${collectionPlans.txid} as txid, ${collectionPlans.body} as body
    from ${collectionPlans}
    where ${collectionPlans.network} = 'ripple' and ${collectionPlans.mode} = ${param('mode')}
      and ${collectionPlans.format} = 'xrpl' and ${collectionPlans.kind} = 'refund'
      and ${collectionPlans.status} in ('prepared', 'broadcast')`,
);

/** What the watcher knows of an open XRP Ledger refund plan at a step: its transaction validated, or not, and whether it can be no more. */
export interface XrplRefundSighting {
  seen: TronStepSighting | null;
  /** The ledger the step scanned to passed its LastLedgerSequence: a transaction not validated by then never will be. */
  expired: boolean;
}

/**
 * What the node says of each open XRP Ledger refund plan's transaction at validated ledger
 * `height` (the ledger the watcher's step scans to, read before its transaction opens): validated
 * by then, delivering exactly the plan's amount to its destination and tag with tesSUCCESS, or
 * failed (another result, or another delivery); or not validated, and expired once `height` is
 * past its LastLedgerSequence. A node that does not answer leaves every plan out: it moves at a
 * next step.
 */
export async function xrplRefundSightings(
  db: Queryable,
  network: Network,
  mode: Mode,
  height: number,
  node?: XrplRefundNode,
): Promise<ReadonlyMap<string, XrplRefundSighting>> {
  const cfg = mode === 'live' && network.family === 'xrpl' ? liveChainConfig(network.name) : undefined;
  if (!cfg) return new Map();
  const plans = await OPEN_XRPL_REFUND_PLANS.run(db, { mode });
  if (plans.length === 0) return new Map();
  const reader = node ?? xrplRefundNode(cfg);
  const sightings = new Map<string, XrplRefundSighting>();
  try {
    for (const plan of plans) {
      const fields = plan.body.transaction.fields;
      const expired = height > fields.LastLedgerSequence;
      const found = plan.txid === null ? null : await reader.result(plan.txid);
      if (!found || found.height > height) {
        sightings.set(plan.id, { seen: null, expired });
        continue;
      }
      const delivered =
        found.destination === fields.Destination &&
        found.tag === (fields.DestinationTag ?? null) &&
        found.delivered === BigInt(fields.Amount);
      const success = found.result === 'tesSUCCESS' && delivered;
      sightings.set(plan.id, {
        seen: {
          height: found.height,
          success,
          reason: success ? null : found.result === 'tesSUCCESS' ? 'it delivered other than planned' : found.result,
        },
        expired,
      });
    }
  } catch {
    // The node is away: the next step asks again.
    return new Map();
  }
  return sightings;
}
