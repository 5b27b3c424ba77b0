import 'server-only';
/**
 * Refund plans of Tron (docs/decisions/115): one transaction from the merchant's treasury for tron
 * paying the refund, whole, to the address its payer confirmed, in TRX or a TRC-20 token the
 * catalog lists, built on the node's head block as a collection's steps are (lib/chains
 * tronCollectionNode `refund`); the treasury pays its fee. The plan carries the payment as the
 * signer checks it on its own node: the transactions that paid deposit addresses of the merchant's
 * seed, each with its path. Stored beside the other plans (`format` tron, kind refund, no inputs)
 * with its transaction's id, which is sha256 of its raw_data and so known before it is signed; the
 * watcher moves it by that transaction's result on the node (./collections.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Network } from '../catalog';
import { liveChainConfig, tronCollectionNode, type TronCollectionNode } from '../chains';
import { collectionPlans, param, sql, statement, type Database, type Queryable, type RowOf } from '../db';
import { formatUnits } from '../money';
import type { Mode, TronPlanRefund, TronRefundPlan } from '../protocol';
import { INSERT_PLAN, isSecondOpenPlan, type PlanWrite } from './collections';
import { CollectionRefused } from './errors';
import type { TronStepSighting } from './lifecycle';
import { DEPOSIT_PAYMENT, ORDER_PAYMENT, type RefundToPay } from './refund-plans';
import { treasuryOf } from './treasury';

/** The deposit chain of Tron (lib/chains/derivation.ts: BIP 44, coin type 195). */
const DEPOSIT_CHAIN = "m/44'/195'/0'/0";
/** Most payment transfers a plan names: an order is paid by a few. */
const MAX_PAYMENT_TRANSFERS = 50;

/** Prepares and stores the plan that pays `request`'s refund on tron from its treasury. */
export async function prepareTronRefundPlan(
  db: Database,
  network: Network,
  request: RefundToPay,
  write: PlanWrite,
  node?: TronCollectionNode,
): Promise<TronRefundPlan> {
  if (request.mode === 'test')
    throw new CollectionRefused(
      'test-mode refunds on tron are not sent by plans: the sandbox ledger takes no Tron transactions; complete it by hand',
    );
  const cfg = liveChainConfig(network.name);
  if (!cfg) throw new CollectionRefused(`${network.name} is not live: it has no node configured`);
  const currency = network.currencies.find((c) => c.ticker === request.currency);
  if (!currency) throw new CollectionRefused(`${request.currency} is not a currency of ${network.name}`);
  const treasury = await treasuryOf(db, request.merchantId, network.name, request.mode);
  if (!treasury)
    throw new CollectionRefused(`no treasury is set for ${network.name}: the refund is paid from it; set one first`);
  const scope = { merchantId: request.merchantId, mode: request.mode };
  const payment =
    'orderId' in request.payment
      ? await ORDER_PAYMENT.run(db, { orderId: request.payment.orderId, ...scope })
      : await DEPOSIT_PAYMENT.run(db, { network: network.name, ...scope, ...request.payment });
  // The signer checks each against its seed by the path: only deposit addresses of a key can prove it.
  const proof = payment.filter((p) => Number(p.derivation_index) >= 0).slice(0, MAX_PAYMENT_TRANSFERS);
  if (proof.length === 0)
    throw new CollectionRefused('the payment was not made to an address of the key: send the refund by hand');

  const token = currency.contract ?? null;
  let built;
  try {
    built = await (node ?? tronCollectionNode(cfg)).refund({
      treasury,
      destination: request.destination,
      token,
      amount: request.amount,
    });
  } catch (error) {
    throw new CollectionRefused(
      `the treasury ${treasury} cannot send this refund now (does it hold ${formatUnits(request.amount, currency.decimals)} ${currency.ticker} and the TRX its fee burns?): ${(error as Error).message}`,
    );
  }
  const amount = formatUnits(request.amount, currency.decimals);
  const refund: TronPlanRefund = {
    refundId: request.refundId,
    orderId: request.orderId,
    invoiceId: request.invoiceId,
    depositId: request.depositId,
    amount,
    // Sent whole: the treasury pays the fee in TRX (decision 098's rule: the payer gets what is owed, never less).
    pays: amount,
    feeFromRefund: request.feeFromRefund,
    destination: request.destination,
    addressConfirmedAt: request.addressConfirmedAt.toISOString(),
    payment: {
      transfers: [...new Map(proof.map((p) => [`${p.tx_hash}:${p.address}`, p])).values()].map((p) => ({
        txHash: p.tx_hash.toLowerCase(),
        address: p.address,
        path: `${DEPOSIT_CHAIN}/${p.derivation_index}`,
      })),
    },
  };
  const plan: Omit<TronRefundPlan, 'status' | 'txid' | 'reason' | 'acceptedAt'> = {
    planId: randomUUID(),
    kind: 'refund',
    format: 'tron',
    mode: request.mode,
    network: 'tron',
    chain: cfg.chain ?? 'mainnet',
    currency: currency.ticker,
    token: token ? { contract: token, decimals: currency.decimals } : null,
    treasury,
    transaction: {
      txID: built.txID,
      rawDataHex: built.rawDataHex,
      feeLimit: built.feeLimit.toString(),
      burn: built.burn.toString(),
      expiresAt: built.expiresAt.toISOString(),
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
        treasury,
        masterFingerprint: null,
        feeRate: '0',
        // What the plan pays of its currency; the TRX it burns is the treasury's, stated in `body`.
        total: request.amount.toString(),
        fee: '0',
        sent: request.amount.toString(),
        psbt: null,
        // Its id is its raw_data's hash: known now, and what the watcher asks the node about.
        txid: built.txID,
        kind: 'refund',
        refundId: request.refundId,
        refund: JSON.stringify(refund),
        format: 'tron',
        body: JSON.stringify(plan),
      });
      await write.within?.(tx, plan.planId);
    });
  } catch (error) {
    if (isSecondOpenPlan(error)) throw new CollectionRefused('an open plan pays this refund already');
    throw error;
  }
  return { ...plan, status: 'prepared', txid: built.txID, reason: null, acceptedAt: null };
}

/** A stored Tron refund plan as `refund-plans/get` answers it: the plan the signer reads, with the watcher's status. */
export function storedTronRefundPlan(row: RowOf<typeof collectionPlans>): TronRefundPlan {
  return {
    ...(row.body as Omit<TronRefundPlan, 'status' | 'txid' | 'reason' | 'acceptedAt'>),
    status: row.status,
    txid: row.txid,
    reason: row.reason,
    acceptedAt: row.accepted_at?.toISOString() ?? null,
  };
}

const OPEN_TRON_REFUND_PLANS = statement<{ id: string; txid: string }, { mode: Mode }>(
  sql`select ${collectionPlans.id} as id, ${collectionPlans.txid} as txid from ${collectionPlans}
    where ${collectionPlans.network} = 'tron' and ${collectionPlans.mode} = ${param('mode')}
      and ${collectionPlans.format} = 'tron' and ${collectionPlans.kind} = 'refund'
      and ${collectionPlans.status} in ('prepared', 'broadcast') and ${collectionPlans.txid} is not null`,
);

/**
 * What the node says of each open Tron refund plan's transaction at block `height` (the height the
 * watcher's step scans to, read before its transaction opens): in a block by then, succeeded or
 * not, or not (null). A node that does not answer leaves every plan out: it moves at a next step.
 */
export async function tronRefundSightings(
  db: Queryable,
  network: Network,
  mode: Mode,
  height: number,
  node?: TronCollectionNode,
): Promise<ReadonlyMap<string, TronStepSighting | null>> {
  const cfg = mode === 'live' && network.family === 'tron' ? liveChainConfig(network.name) : undefined;
  if (!cfg) return new Map();
  const plans = await OPEN_TRON_REFUND_PLANS.run(db, { mode });
  if (plans.length === 0) return new Map();
  const reader = node ?? tronCollectionNode(cfg);
  const sightings = new Map<string, TronStepSighting | null>();
  try {
    for (const plan of plans) {
      const seen = await reader.result(plan.txid);
      sightings.set(plan.id, seen && seen.height <= height ? seen : null);
    }
  } catch {
    // The node is away: the next step asks again.
    return new Map();
  }
  return sightings;
}
