import 'server-only';
/**
 * Refund plans of the EVM networks (docs/decisions/112): one transaction from the merchant's
 * treasury (the account "Send with wallet" asks the merchant to send from, decision 098) paying the
 * refund, whole, to the address its payer confirmed, in the network's coin or a token the gateway
 * accepts, at the treasury's next nonce and the node's fee caps (the fields of an EVM collection
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
import { INSERT_PLAN, type PlanWrite } from './collections';
import { CollectionRefused } from './errors';
import { isSecondOpenPlan } from './collections';
import { DEPOSIT_PAYMENT, ORDER_PAYMENT, type RefundToPay } from './refund-plans';
import { treasuryOf } from './treasury';

/** Most payment transfers a plan names: an order is paid by a few. */
const MAX_PAYMENT_TRANSFERS = 50;

/** Prepares and stores the plan that pays `request`'s refund on the EVM network `network` from its treasury. */
export async function prepareEvmRefundPlan(
  db: Database,
  network: Network,
  request: RefundToPay,
  write: PlanWrite,
): Promise<EvmRefundPlan> {
  if (request.mode === 'test')
    throw new CollectionRefused(
      `test-mode refunds on ${network.name} are not sent by plans: the sandbox ledger takes no EVM transactions; complete it by hand`,
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
  const transaction = evmRefundTransaction(intent, nonce, fees, gas);
  const amount = formatUnits(request.amount, currency.decimals);
  const refund: EvmPlanRefund = {
    refundId: request.refundId,
    orderId: request.orderId,
    invoiceId: request.invoiceId,
    depositId: request.depositId,
    amount,
    // Sent whole: the treasury pays the gas, in the coin (decision 098's rule: the payer gets what is owed, never less).
    pays: amount,
    feeFromRefund: request.feeFromRefund,
    destination: request.destination,
    addressConfirmedAt: request.addressConfirmedAt.toISOString(),
    payment: {
      transfers: [...new Map(proof.map((p) => [`${p.tx_hash}:${p.address}`, p])).values()].map((p) => ({
        txHash: p.tx_hash.toLowerCase(),
        address: p.address,
        path: `${EVM_DEPOSIT_CHAIN_PATH}/${p.derivation_index}`,
      })),
    },
  };
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
  try {
    await db.transaction(async (tx) => {
      await INSERT_PLAN.run(tx, {
        id: plan.planId,
        ...scope,
        network: network.name,
        currency: currency.ticker,
        treasury,
        masterFingerprint: null,
        feeRate: fees.maxFeePerGas.toString(),
        // What the plan pays of its currency; the gas is the treasury's, in the coin, stated in `body`.
        total: request.amount.toString(),
        fee: '0',
        sent: request.amount.toString(),
        psbt: null,
        txid: null,
        kind: 'refund',
        refundId: request.refundId,
        refund: JSON.stringify(refund),
        format: 'evm',
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
