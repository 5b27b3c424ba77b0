import 'server-only';
/**
 * A plan's signed transaction coming back (`collections/submit`, docs/decisions/094; the plan
 * page's "Submit the signed transaction", docs/decisions/109): from the signer (`npm run signer --
 * --from-api`) or any wallet that signed the plan's PSBT. The gateway takes it only when it is the
 * plan's own transaction (lib/chains/utxo/transactions `checkSubmission`), hands it to its node,
 * and records it; a refusal writes nothing. The plan's status still moves with the watcher alone
 * (prepared until its transaction is in a block). `broadcastTransaction` hands on a signed
 * transaction of no plan the same way (`npm run sandbox -- broadcast-raw`).
 */
import { base64, hex } from '@scure/base';
import {
  collectionNodeFor,
  evmCollectionNode,
  liveChainConfig,
  networkFor,
  tronCollectionNode,
  xrplRefundNode,
} from '../chains';
import { EvmSubmissionRefusal, checkEvmRefundSubmission } from '../chains/evm/transactions';
import { TronSubmissionRefusal, checkTronRefundSubmission } from '../chains/tron/transactions';
import { XrplSubmissionRefusal, checkXrplRefundSubmission } from '../chains/xrpl/transactions';
import {
  checkSubmission,
  isUtxoCoin,
  signedTransactionId,
  SubmissionRefusal,
  type PlanSubmission,
  type UtxoCoin,
} from '../chains/utxo/transactions';
import { bare, collectionPlans, param, sql, statement, type Database } from '../db';
import { NotFound } from '../errors';
import type {
  EvmRefundPlan,
  Mode,
  MoneyOutPlan,
  PlanSubmitted,
  RawCollectionPlan,
  RawRefundPlan,
  TronRefundPlan,
  XrplRefundPlan,
} from '../protocol';
import { collectionPlan, type PlanWrite, type StoredPlan } from './collections';
import { CollectionRefused } from './errors';

export interface SubmitPlan {
  merchantId: string;
  mode: Mode;
  id: string;
  /** The signed PSBT, base64; or `transaction`, the signed transaction, hex. */
  psbt?: string;
  transaction?: string;
}

const WHY_NOT_PREPARED: Record<string, string> = {
  broadcast: 'its transaction is already in a block',
  confirmed: 'its transaction is already confirmed',
  stale: 'it is stale: an input was spent by another transaction; prepare a new plan',
  failed: 'it failed; prepare a new plan',
};

// The id is the plan's (the unsigned transaction is the plan's byte for byte); a plan of inputs
// whose id was not known when prepared learns it here.
const RECORD_TXID = statement<unknown, { id: string; txid: string }>(
  sql`update ${collectionPlans} set ${bare(collectionPlans.txid)} = ${param('txid')}, ${bare(collectionPlans.updatedAt)} = now(),
    ${bare(collectionPlans.acceptedAt)} = coalesce(${collectionPlans.acceptedAt}, now())
  where ${collectionPlans.id} = ${param('id')}`,
);

/**
 * The plans whose signed transaction the gateway checks and hands to its chain this way: Bitcoin and
 * litecoin PSBT plans, dogecoin and bitcoincash raw ones, collections and refunds (an EVM refund plan's goes through
 * `submitEvmRefund`; EVM collection and Tron plans are the signer's to broadcast).
 */
export function takesSubmission(
  plan: StoredPlan,
): plan is (MoneyOutPlan | RawCollectionPlan | RawRefundPlan) & { network: UtxoCoin } {
  return ('psbt' in plan || 'unsignedTx' in plan) && isUtxoCoin(plan.network);
}

/**
 * Checks the signed transaction against the plan, broadcasts it through the network's node, then
 * records its id with the caller's writes (the request's nonce, the audit entry) in one
 * transaction. Broadcast first: a transaction the node refused leaves nothing behind; a replay of
 * one it took is taken again by the node (it knows it) and refused by the nonce.
 */
export async function submitPlan(db: Database, request: SubmitPlan, write: PlanWrite = {}): Promise<PlanSubmitted> {
  const plan = await collectionPlan(db, request.merchantId, request.mode, request.id);
  if (!plan) throw new NotFound('Plan', request.id);
  if (plan.status !== 'prepared')
    throw new CollectionRefused(`plan ${plan.planId} takes no transaction: ${WHY_NOT_PREPARED[plan.status]}`);
  if (plan.kind === 'refund' && plan.format === 'tron') return submitTronRefund(db, request, plan, write);
  if (plan.kind === 'refund' && 'format' in plan && plan.format === 'xrpl')
    return submitXrplRefund(db, request, plan, write);
  if ('transaction' in plan) return submitEvmRefund(db, request, plan, write);
  // EVM collection and Tron plans are signed transactions the merchant's signer broadcasts itself.
  if (!takesSubmission(plan))
    throw new CollectionRefused(`${plan.network} plans are not submitted through the gateway`);
  const submission: PlanSubmission =
    request.psbt !== undefined ? { psbt: base64.decode(request.psbt) } : { rawTx: hex.decode(request.transaction!) };
  let checked;
  try {
    const planned = 'psbt' in plan ? { psbt: base64.decode(plan.psbt) } : { unsignedTx: hex.decode(plan.unsignedTx) };
    checked = checkSubmission(planned, submission, { coin: plan.network, chain: plan.chain });
  } catch (error) {
    if (error instanceof SubmissionRefusal) throw new CollectionRefused(error.message);
    throw error;
  }
  await handToChain(db, request.mode, plan.network, checked.rawTx);
  await db.transaction(async (tx) => {
    await RECORD_TXID.run(tx, { id: plan.planId, txid: checked.txid });
    await write.within?.(tx, plan.planId);
  });
  return { planId: plan.planId, kind: plan.kind, status: plan.status, txid: checked.txid };
}

/** A signed transaction handed on without a plan (`npm run sandbox -- broadcast-raw`). */
export interface BroadcastTransaction {
  mode: Mode;
  network: string;
  /** The signed transaction, hex. */
  transaction: string;
}

/**
 * Hands a signed Bitcoin-family transaction of no plan to `mode`'s chain, as `submitPlan` hands a
 * plan's (docs/decisions/109): in test mode the sandbox takes it only after its checks (every
 * input an unspent output it holds, no more paid than held, every signature verified), so a
 * forged or double-spending transaction is refused with its reason and nothing is written.
 * Answers its id. Whatever plan it is the transaction of moves as the watcher sees it.
 */
export async function broadcastTransaction(
  db: Database,
  request: BroadcastTransaction,
): Promise<{ network: string; txid: string }> {
  const network = networkFor(request.mode, request.network);
  if (!network || !isUtxoCoin(network.name))
    throw new CollectionRefused(`${request.network} is not a Bitcoin-family network of ${request.mode} mode`);
  let txid: string;
  try {
    txid = signedTransactionId(hex.decode(request.transaction.toLowerCase()));
  } catch (error) {
    if (error instanceof SubmissionRefusal) throw new CollectionRefused(error.reasons.join('; '));
    throw new CollectionRefused('the transaction is not hex');
  }
  await handToChain(db, request.mode, network.name, request.transaction.toLowerCase());
  return { network: network.name, txid };
}

/**
 * The one way a signed transaction leaves the gateway: to the network's node live, to the sandbox
 * in test mode (which checks its spends and signatures, docs/decisions/097). Throws
 * CollectionRefused with the chain's own reason when it was not taken.
 */
async function handToChain(db: Database, mode: Mode, networkName: string, rawTx: string): Promise<void> {
  const network = networkFor(mode, networkName);
  const node = network ? collectionNodeFor(db, mode, network) : undefined;
  if (!node) throw new CollectionRefused(`${networkName} has no node configured to broadcast to`);
  const answer = await node.broadcast(rawTx);
  const chain = mode === 'test' ? `the sandbox's ${networkName}` : `the ${networkName} node`;
  if (answer.outcome === 'unanswered')
    throw new CollectionRefused(
      `${chain} did not answer: nothing was recorded; submit again (a transaction it took already is taken again)`,
    );
  if (answer.outcome === 'refused') throw new CollectionRefused(`${chain} refused the transaction: ${answer.reason}`);
}

/**
 * An EVM refund plan's signed transaction (docs/decisions/112): taken only when it is the plan's
 * own, field for field and signed by the treasury, then handed to the network's node; its hash is
 * recorded with the caller's writes, and the watcher follows it by its receipt.
 */
async function submitEvmRefund(
  db: Database,
  request: SubmitPlan,
  plan: EvmRefundPlan,
  write: PlanWrite,
): Promise<PlanSubmitted> {
  if (request.transaction === undefined)
    throw new CollectionRefused('an EVM refund plan takes its signed transaction (hex), not a PSBT');
  let checked;
  try {
    checked = await checkEvmRefundSubmission(plan.transaction, request.transaction);
  } catch (error) {
    if (error instanceof EvmSubmissionRefusal) throw new CollectionRefused(error.message);
    throw error;
  }
  const network = networkFor(request.mode, plan.network);
  const cfg = network && liveChainConfig(network.name);
  if (!network || !cfg) throw new CollectionRefused(`${plan.network} has no node configured to broadcast to`);
  try {
    await evmCollectionNode(network, cfg).sendRaw(checked.raw);
  } catch (error) {
    // Taken before (a replay of a transaction the node knows) is not a refusal: the nonce check of the request is.
    if (!/already known/i.test((error as Error).message ?? ''))
      throw new CollectionRefused(
        `the ${plan.network} node refused the transaction: ${(error as Error).message.split('\n')[0]}`,
      );
  }
  await db.transaction(async (tx) => {
    await RECORD_TXID.run(tx, { id: plan.planId, txid: checked.txid });
    await write.within?.(tx, plan.planId);
  });
  return { planId: plan.planId, kind: plan.kind, status: plan.status, txid: checked.txid };
}

/**
 * A Tron refund plan's signed transaction (docs/decisions/115): taken only when its raw_data is the
 * plan's byte for byte and its signature recovers the treasury, then handed to the tron node; its
 * acceptance is recorded with the caller's writes, and the watcher follows it by its id.
 */
async function submitTronRefund(
  db: Database,
  request: SubmitPlan,
  plan: TronRefundPlan,
  write: PlanWrite,
): Promise<PlanSubmitted> {
  if (request.transaction === undefined)
    throw new CollectionRefused('a Tron refund plan takes its signed transaction (hex), not a PSBT');
  let checked;
  try {
    checked = checkTronRefundSubmission(plan.transaction, plan.treasury, request.transaction);
  } catch (error) {
    if (error instanceof TronSubmissionRefusal) throw new CollectionRefused(error.message);
    throw error;
  }
  const cfg = liveChainConfig(plan.network);
  if (request.mode !== 'live' || !cfg)
    throw new CollectionRefused(`${plan.network} has no node configured to broadcast to`);
  try {
    await tronCollectionNode(cfg).broadcast(checked.hex);
  } catch (error) {
    // Taken before (a replay of a transaction the node knows) is not a refusal: the nonce check of the request is.
    if (!/DUP_TRANSACTION_ERROR/.test((error as Error).message ?? ''))
      throw new CollectionRefused((error as Error).message.split('\n')[0]!);
  }
  await db.transaction(async (tx) => {
    await RECORD_TXID.run(tx, { id: plan.planId, txid: checked.txid });
    await write.within?.(tx, plan.planId);
  });
  return { planId: plan.planId, kind: plan.kind, status: plan.status, txid: checked.txid };
}

/**
 * An XRP Ledger refund plan's signed transaction (docs/decisions/119): taken only when its fields
 * are the plan's binary's and it is signed by the plan's account (its public key that account's,
 * the signature verified over its signing data), then handed to the node (`submit`, the
 * configured nodes in order); its hash, which commits to the signature, is recorded with the
 * caller's writes, and the watcher follows it by that hash.
 */
async function submitXrplRefund(
  db: Database,
  request: SubmitPlan,
  plan: XrplRefundPlan,
  write: PlanWrite,
): Promise<PlanSubmitted> {
  if (request.transaction === undefined)
    throw new CollectionRefused('an XRP Ledger refund plan takes its signed transaction (hex), not a PSBT');
  let checked;
  try {
    checked = checkXrplRefundSubmission(plan.transaction.blob, plan.account, request.transaction);
  } catch (error) {
    if (error instanceof XrplSubmissionRefusal) throw new CollectionRefused(error.message);
    throw error;
  }
  // Its Sequence is spent once: another signature of it is another hash, and the watcher follows one.
  if (plan.txid !== null && plan.txid !== checked.hash)
    throw new CollectionRefused(`a signed transaction of this plan was taken already: ${plan.txid}`);
  const cfg = liveChainConfig(plan.network);
  if (request.mode !== 'live' || !cfg)
    throw new CollectionRefused(`${plan.network} has no node configured to submit to`);
  try {
    await xrplRefundNode(cfg).submit(checked.blob);
  } catch (error) {
    throw new CollectionRefused((error as Error).message.split('\n')[0]!);
  }
  await db.transaction(async (tx) => {
    await RECORD_TXID.run(tx, { id: plan.planId, txid: checked.hash });
    await write.within?.(tx, plan.planId);
  });
  return { planId: plan.planId, kind: plan.kind, status: plan.status, txid: checked.hash };
}
