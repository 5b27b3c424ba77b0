import 'server-only';
/**
 * Refund plans of Tron (docs/decisions/115): one transaction from the merchant's treasury for tron
 * paying the refund to the address its payer confirmed, in TRX or a TRC-20 token the catalog
 * lists, built on the node's head block as a collection's steps are (lib/chains tronCollectionNode
 * `refund`); the treasury pays its fee, which a TRX refund whose payer bears it sends less (what the
 * transaction burns, decision 120). The plan carries the payment as the
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
import type { PlanWrite } from './collections';
import { CollectionRefused } from './errors';
import type { TronStepSighting } from './lifecycle';
import { feeTakenFromRefund } from './refund-fee';
import type { RefundToPay } from './refund-plans';
import { storeTreasuryRefundPlan, treasuryPlanRefund, treasuryRefundFooting } from './treasury-refund-plans';

/** The deposit chain of Tron (lib/chains/derivation.ts: BIP 44, coin type 195). */
const DEPOSIT_CHAIN = "m/44'/195'/0'/0";

/** Prepares and stores the plan that pays `request`'s refund on tron from its treasury. */
export async function prepareTronRefundPlan(
  db: Database,
  network: Network,
  request: RefundToPay,
  write: PlanWrite,
  node?: TronCollectionNode,
): Promise<TronRefundPlan> {
  const { cfg, currency, treasury, proof } = await treasuryRefundFooting(db, network, request, 'Tron');
  const token = currency.contract ?? null;
  const reader = node ?? tronCollectionNode(cfg);
  const build = async (amount: bigint) => {
    try {
      return await reader.refund({ treasury, destination: request.destination, token, amount });
    } catch (error) {
      throw new CollectionRefused(
        `the treasury ${treasury} cannot send this refund now (does it hold ${formatUnits(amount, currency.decimals)} ${currency.ticker} and the TRX its fee burns?): ${(error as Error).message}`,
      );
    }
  };
  let sends = request.amount;
  let built = await build(sends);
  let taken = feeTakenFromRefund(request, currency, built.burn);
  // What a transaction burns follows its bytes, which follow its amount: built again for the refund
  // less its burn until the transaction sends what the refund less its own burn leaves.
  for (let round = 0; taken.pays !== sends; round++) {
    if (round === 3) throw new CollectionRefused('the fee to take from the refund did not settle: prepare again');
    sends = taken.pays;
    built = await build(sends);
    taken = feeTakenFromRefund(request, currency, built.burn);
  }
  const refund: TronPlanRefund = treasuryPlanRefund(request, currency, taken, proof, DEPOSIT_CHAIN);
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
  // Its id is its raw_data's hash: known now, and what the watcher asks the node about.
  await storeTreasuryRefundPlan(db, write, {
    plan,
    request,
    network,
    currency,
    treasury,
    fee: taken.fee,
    feeRate: '0',
    txid: built.txID,
    format: 'tron',
  });
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
