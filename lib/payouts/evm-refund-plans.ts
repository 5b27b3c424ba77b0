import 'server-only';
/**
 * Refund plans of the EVM networks (docs/decisions/112): one transaction from the merchant's
 * treasury (the account "Send with wallet" asks the merchant to send from, decision 098) paying the
 * refund to the address its payer confirmed, in the network's coin or a token the gateway accepts
 * (whole, or a coin refund less its gas at its cap when the payer bears the fee, decision 120), at
 * the treasury's next nonce and the node's fee caps (the fields of an EVM collection
 * plan's transactions, decision 085). The plan carries the payment as the signer checks it on its
 * own node: the transfers that paid deposit addresses of the merchant's seed, each with its path.
 * Stored beside the other plans (`format` evm, no inputs: the treasury pays, not the deposits) and
 * moved by the watcher as the node's receipt of its transaction says (./collections.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Network } from '../catalog';
import { evmCollectionNode, liveChainConfig } from '../chains';
import { EVM_DEPOSIT_CHAIN_PATH, REFUND_MIN_GAS, evmRefundTransaction } from '../chains/evm/transactions';
import { collectionPlans, param, sql, statement, type Database, type Queryable, type RowOf } from '../db';
import { formatUnits } from '../money';
import type { EvmPlanRefund, EvmRefundPlan, Mode } from '../protocol';
import type { EvmRefundSighting } from './lifecycle';
import type { PlanWrite } from './collections';
import { CollectionRefused } from './errors';
import { feeTakenFromRefund } from './refund-fee';
import type { RefundToPay } from './refund-plans';
import { storeTreasuryRefundPlan, treasuryPlanRefund, treasuryRefundFooting } from './treasury-refund-plans';

/** Prepares and stores the plan that pays `request`'s refund on the EVM network `network` from its treasury. */
export async function prepareEvmRefundPlan(
  db: Database,
  network: Network,
  request: RefundToPay,
  write: PlanWrite,
): Promise<EvmRefundPlan> {
  const { cfg, currency, treasury, proof } = await treasuryRefundFooting(db, network, request, 'EVM');
  const node = evmCollectionNode(network, cfg);
  const intent = {
    chainId: network.chainId!,
    treasury,
    destination: request.destination,
    token: currency.contract ?? null,
    amount: request.amount,
  };
  // The call the refund makes (its recipient, value and calldata), for the node to estimate before nonce and fees are read.
  const probe = evmRefundTransaction(intent, 0, { maxFeePerGas: 0n, maxPriorityFeePerGas: 0n }, REFUND_MIN_GAS);
  let gas: bigint;
  try {
    gas = await node.estimateGas({ from: treasury, to: probe.to, value: BigInt(probe.value), data: probe.data });
  } catch (error) {
    throw new CollectionRefused(
      `the treasury ${treasury} cannot send this refund now (does it hold ${formatUnits(request.amount, currency.decimals)} ${currency.ticker} and gas?): ${(error as Error).message}`,
    );
  }
  // A bare coin transfer costs exactly its 21,000; a call may cost more when mined than estimated now.
  if (gas > REFUND_MIN_GAS) gas = (gas * 6n) / 5n;
  const [nonce, fees] = await Promise.all([node.nonce(treasury), node.fees()]);
  // The fee a payer bears is the gas at its cap, as the signer bounds it: the treasury keeps what is not burned.
  const taken = feeTakenFromRefund(request, currency, gas * fees.maxFeePerGas);
  const transaction = evmRefundTransaction({ ...intent, amount: taken.pays }, nonce, fees, gas);
  const refund: EvmPlanRefund = treasuryPlanRefund(request, currency, taken, proof, EVM_DEPOSIT_CHAIN_PATH);
  const plan: Omit<EvmRefundPlan, 'status' | 'txid' | 'reason' | 'acceptedAt'> = {
    planId: randomUUID(),
    kind: 'refund',
    format: 'evm',
    mode: request.mode,
    network: network.name,
    chainId: network.chainId!,
    currency: currency.ticker,
    token: currency.contract ? { contract: currency.contract, decimals: currency.decimals } : null,
    treasury,
    transaction,
    refund,
    createdAt: new Date().toISOString(),
  };
  // The gas is the treasury's, in the coin; its price cap stands as the plan's fee rate.
  await storeTreasuryRefundPlan(db, write, {
    plan,
    request,
    network,
    currency,
    treasury,
    fee: taken.fee,
    feeRate: fees.maxFeePerGas.toString(),
    txid: null,
    format: 'evm',
  });
  return { ...plan, status: 'prepared', txid: null, reason: null, acceptedAt: null };
}

/** A stored EVM refund plan as `refund-plans/get` answers it: the plan the signer reads, with the watcher's status. */
export function storedEvmRefundPlan(row: RowOf<typeof collectionPlans>): EvmRefundPlan {
  return {
    ...(row.body as Omit<EvmRefundPlan, 'status' | 'txid' | 'reason' | 'acceptedAt'>),
    status: row.status,
    txid: row.txid,
    reason: row.reason,
    acceptedAt: row.accepted_at?.toISOString() ?? null,
  };
}

const OPEN_EVM_REFUND_PLANS = statement<
  { id: string; txid: string | null; body: Pick<EvmRefundPlan, 'transaction'> },
  { network: string; mode: Mode }
>(
  sql`select ${collectionPlans.id} as id, ${collectionPlans.txid} as txid, ${collectionPlans.body} as body from ${collectionPlans}
    where ${collectionPlans.network} = ${param('network')} and ${collectionPlans.mode} = ${param('mode')}
      and ${collectionPlans.format} = 'evm' and ${collectionPlans.kind} = 'refund'
      and ${collectionPlans.status} in ('prepared', 'broadcast')`,
);

/**
 * What the node says of each open EVM refund plan of a live network at block `height` (the height
 * the watcher's step scans to, read before its transaction opens): its transaction's receipt when
 * its hash is known and mined by then, and whether the treasury had used the plan's nonce
 * (./lifecycle.ts `decideEvmRefundPlan`). A node that does not answer leaves every plan out: it
 * moves at a next step.
 */
export async function evmRefundSightings(
  db: Queryable,
  network: Network,
  mode: Mode,
  height: number,
): Promise<ReadonlyMap<string, EvmRefundSighting>> {
  const cfg = mode === 'live' && network.family === 'evm' ? liveChainConfig(network.name) : undefined;
  if (!cfg) return new Map();
  const plans = await OPEN_EVM_REFUND_PLANS.run(db, { network: network.name, mode });
  if (plans.length === 0) return new Map();
  const node = evmCollectionNode(network, cfg);
  const sightings = new Map<string, EvmRefundSighting>();
  try {
    for (const plan of plans) {
      const receipt = plan.txid ? await node.receipt(plan.txid) : null;
      const { from, nonce } = plan.body.transaction;
      sightings.set(plan.id, {
        mined: receipt && receipt.height <= height ? receipt : null,
        nonceUsed: (await node.nonceAt(from, height)) > nonce,
      });
    }
  } catch {
    // The node is away: the next step asks again.
    return new Map();
  }
  return sightings;
}
