import 'server-only';
/**
 * Solana refund plans (docs/decisions/106, 111): one transfer from the wallet the refunded payment
 * paid (the order's destination, the merchant's own receiving wallet or the gateway's) to the
 * wallet the payer confirmed, of SOL or of a configured token, carrying a fresh reference by which
 * the watcher finds it. The signer builds and signs the transaction with a blockhash of its own
 * node and sends it there; the plan holds no transaction. The watcher completes the plan (and so
 * its refund, lib/refunds `settleRefundPlans`) when a finalized transaction that wallet paid for
 * carries the reference and pays exactly the planned amount of the planned currency to the
 * planned recipient; one that carries it and pays anything else completes nothing and is logged.
 */
import { randomUUID } from 'node:crypto';
import type { Network } from '../catalog';
import {
  SIGNATURE_FEE_LAMPORTS,
  freshTag,
  liveChainConfig,
  requiredConfirmations,
  solanaTokenProgram,
} from '../chains';
import {
  addresses,
  chainTransfers,
  collectionPlans,
  deposits,
  orders,
  param,
  sql,
  statement,
  type Database,
  type Queryable,
  type RowOf,
} from '../db';
import { log } from '../log';
import { formatUnits } from '../money';
import {
  SOLANA_PLAN_SIGNING_MARGIN_MS,
  type Mode,
  type SolanaPlanRefund,
  type SolanaRefundBody,
  type SolanaRefundPlan,
} from '../protocol';
import {
  INSERT_PLAN,
  OPEN_REFUND_PLAN,
  collectionPlan,
  isSecondOpenPlan,
  movePlan,
  type CollectionStep,
  type PlanChange,
  type PlanWrite,
} from './collections';
import { CollectionRefused } from './errors';
import { decideSolanaRefundPlan, solanaPlanSighting } from './lifecycle';
import { feeTakenFromRefund } from './refund-fee';
import type { RefundToPay } from './refund-plans';

/** How long the signer may sign a plan after it is prepared; `expiresAt` adds the signing margin to it. */
export const SOLANA_PLAN_SIGNING_WINDOW_MS = 60 * 60_000;
/** The most payment transactions a plan names (the signer reads each from its node). */
const MAX_SIGNATURES = 20;

/** The wallet an order was paid at (its destination) and its counted transfers of `currency` there. */
const ORDER_PAYMENT = statement<
  { wallet: string; tx_hash: string },
  { orderId: string; merchantId: string; mode: Mode; currency: string }
>(
  sql`select ${orders.address} as wallet, ${chainTransfers.txHash} as tx_hash
  from ${orders} join ${chainTransfers} on ${chainTransfers.orderId} = ${orders.id}
    join ${addresses} on ${addresses.id} = ${chainTransfers.addressId} and ${addresses.address} = ${orders.address}
  where ${orders.id} = ${param('orderId')} and ${chainTransfers.merchantId} = ${param('merchantId')}
    and ${chainTransfers.mode} = ${param('mode')} and ${chainTransfers.currency} = ${param('currency')}
    and ${chainTransfers.dropped} = false and ${chainTransfers.blockHeight} is not null
    and ${chainTransfers.settledRole} is distinct from 'rejected'
  order by ${chainTransfers.blockHeight}, ${chainTransfers.txHash}`,
);
/** An orphan deposit's wallet and transaction. */
const DEPOSIT_PAYMENT = statement<
  { wallet: string; tx_hash: string },
  { network: string; mode: Mode; merchantId: string; txHash: string; outputIndex: number }
>(
  sql`select ${deposits.address} as wallet, ${deposits.inTxHash} as tx_hash from ${deposits}
  where ${deposits.network} = ${param('network')} and ${deposits.mode} = ${param('mode')}
    and ${deposits.merchantId} = ${param('merchantId')} and ${deposits.inTxHash} = ${param('txHash')}
    and ${deposits.inOutputIndex} = ${param('outputIndex')}`,
);

/**
 * Prepares the plan that pays `request`'s Solana refund. Refused (CollectionRefused) in test mode
 * (the sandbox ledger runs no Solana transaction), without a live node, for a currency the network
 * does not take, when the payment was not made to its order's wallet, when the mint's program is
 * not known, or when an open plan pays the refund already.
 */
export async function prepareSolanaRefundPlan(
  db: Database,
  network: Network,
  request: RefundToPay,
  write: PlanWrite = {},
): Promise<SolanaRefundPlan> {
  if (request.mode === 'test')
    throw new CollectionRefused(
      'test-mode Solana refunds are not sent by plans: the sandbox ledger runs no Solana transaction; complete it by a signature',
    );
  if (!liveChainConfig(network.name)) throw new CollectionRefused(`${network.name} has no node configured`);
  const currency = network.currencies.find((c) => c.ticker === request.currency);
  if (!currency) throw new CollectionRefused(`${request.currency} is not a currency of ${network.name}`);
  const [open] = await OPEN_REFUND_PLAN.run(db, { refundId: request.refundId });
  if (open) throw new CollectionRefused(`an open plan pays this refund already: ${open.id}`);
  const scope = { merchantId: request.merchantId, mode: request.mode };
  const payment =
    'orderId' in request.payment
      ? await ORDER_PAYMENT.run(db, { orderId: request.payment.orderId, ...scope, currency: currency.ticker })
      : await DEPOSIT_PAYMENT.run(db, { network: network.name, ...scope, ...request.payment });
  const wallet = payment[0]?.wallet;
  if (!wallet)
    throw new CollectionRefused(
      `the payment has no ${currency.ticker} transfer to its wallet: send the refund by hand`,
    );
  const signatures = [...new Set(payment.map((p) => p.tx_hash))].slice(0, MAX_SIGNATURES);
  let tokenProgram: string | null = null;
  if (currency.contract) {
    try {
      tokenProgram = (await solanaTokenProgram(currency.contract)) ?? null;
    } catch (error) {
      throw new CollectionRefused(`the mint's program is not known: ${(error as Error).message}`);
    }
    if (!tokenProgram) throw new CollectionRefused(`${network.name} has no node configured`);
  }
  // A SOL refund bearing its fee pays the signature fee less; a token's fee is in SOL, the wallet's.
  const { fee, pays } = feeTakenFromRefund(request, currency, SIGNATURE_FEE_LAMPORTS);
  const createdAt = new Date();
  const body: SolanaRefundBody = {
    wallet,
    recipient: request.destination,
    mint: currency.contract ?? null,
    tokenProgram,
    decimals: currency.decimals,
    amount: pays.toString(),
    reference: freshTag(network),
    expiresAt: new Date(
      createdAt.getTime() + SOLANA_PLAN_SIGNING_WINDOW_MS + SOLANA_PLAN_SIGNING_MARGIN_MS,
    ).toISOString(),
  };
  const refund: SolanaPlanRefund = {
    refundId: request.refundId,
    orderId: request.orderId,
    invoiceId: request.invoiceId,
    depositId: request.depositId,
    amount: formatUnits(request.amount, currency.decimals),
    pays: formatUnits(pays, currency.decimals),
    feeFromRefund: fee > 0n,
    destination: request.destination,
    addressConfirmedAt: request.addressConfirmedAt.toISOString(),
    delivery: request.delivery,
    payment: { signatures },
  };
  const id = randomUUID();
  try {
    await db.transaction(async (tx) => {
      await INSERT_PLAN.run(tx, {
        id,
        ...scope,
        network: network.name,
        currency: currency.ticker,
        // The plan's source: no change goes anywhere, the wallet pays and keeps the rest.
        treasury: wallet,
        masterFingerprint: null,
        feeRate: '0',
        total: request.amount.toString(),
        fee: fee.toString(),
        sent: pays.toString(),
        psbt: null,
        txid: null,
        kind: 'refund',
        refundId: request.refundId,
        refund: JSON.stringify(refund),
        format: 'solana',
        body: JSON.stringify(body),
      });
      await write.within?.(tx, id);
    });
  } catch (error) {
    if (isSecondOpenPlan(error)) throw new CollectionRefused('an open plan pays this refund already');
    throw error;
  }
  return (await collectionPlan(db, request.merchantId, request.mode, id)) as SolanaRefundPlan;
}

/** A stored Solana refund plan as `refund-plans/get` answers it: the body the signer reads, with the watcher's status. */
export function storedSolanaRefundPlan(row: RowOf<typeof collectionPlans>): SolanaRefundPlan {
  return {
    planId: row.id,
    mode: row.mode,
    network: 'solana',
    currency: row.currency,
    kind: 'refund',
    format: 'solana',
    status: row.status,
    body: row.body as SolanaRefundBody,
    refund: row.refund as SolanaPlanRefund,
    txid: row.txid,
    reason: row.reason,
    createdAt: row.created_at.toISOString(),
  };
}

const OPEN_SOLANA_PLANS = statement<
  Pick<RowOf<typeof collectionPlans>, 'id' | 'status' | 'txid' | 'refund_id' | 'currency' | 'body'>,
  { network: string; mode: Mode }
>(
  sql`select ${collectionPlans.id} as id, ${collectionPlans.status} as status, ${collectionPlans.txid} as txid,
    ${collectionPlans.refundId} as refund_id, ${collectionPlans.currency} as currency, ${collectionPlans.body} as body
  from ${collectionPlans}
  where ${collectionPlans.network} = ${param('network')} and ${collectionPlans.mode} = ${param('mode')}
    and ${collectionPlans.format} = 'solana' and ${collectionPlans.status} in ('prepared', 'broadcast')`,
);

/**
 * In a watcher step of Solana: each open refund plan moves as the step's outgoing transfers and
 * the chain time it scanned to say (./lifecycle.ts `decideSolanaRefundPlan`). A transaction that
 * carries a plan's reference but pays something else is logged and leaves the plan as it was.
 */
export async function settleSolanaRefundPlans(
  tx: Queryable,
  network: Network,
  mode: Mode,
  step: CollectionStep,
): Promise<PlanChange[]> {
  const plans = await OPEN_SOLANA_PLANS.run(tx, { network: network.name, mode });
  const changes: PlanChange[] = [];
  const required = requiredConfirmations(mode, network);
  for (const plan of plans) {
    const body = plan.body as SolanaRefundBody;
    const { seen, refused } = solanaPlanSighting({ currency: plan.currency, body }, step.outgoing ?? []);
    for (const r of refused)
      log.warn('a transaction carries a Solana refund plan reference but does not pay the plan', {
        plan: plan.id,
        txid: r.txid,
        reason: r.reason,
      });
    const expired = step.chainTime !== undefined && step.chainTime.getTime() > Date.parse(body.expiresAt);
    const decision = decideSolanaRefundPlan(plan, seen, expired);
    if (decision.status === plan.status && decision.txid === plan.txid) continue;
    await movePlan(tx, plan.id, decision);
    changes.push({
      planId: plan.id,
      from: plan.status,
      to: decision.status,
      txid: decision.txid,
      refundId: plan.refund_id,
      // Finalized is final: a transfer seen has every confirmation it needs.
      confirmations: seen ? required : 0,
      required,
    });
  }
  return changes;
}
