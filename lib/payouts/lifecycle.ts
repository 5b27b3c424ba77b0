/**
 * A collection plan's status as a pure function of what the chain did with its inputs (the
 * watcher records which transaction spent each of our outputs, and at what height). One plan is
 * one transaction: every input is spent by it, or the plan cannot happen as prepared.
 *
 *   prepared --(its transaction in a block)--> broadcast --(required confirmations)--> confirmed
 *   prepared --(an input spent by another transaction)--> stale
 *   broadcast --(its block replaced and an input spent by another)--> failed
 *
 * Statuses are documented with the wire contract (lib/protocol/plans.ts).
 */
import type { ChainTransfer } from '../chains';
import type { PlanStatus, SolanaRefundBody } from '../protocol';

export interface PlanInputState {
  /** The transaction that spent the input, as a scanned block holds it; null while unspent. */
  spentByTx: string | null;
  spentAtHeight: number | null;
}

export interface PlanState {
  status: PlanStatus;
  /** The plan's own transaction, when known (segwit inputs: signatures are not part of the id). */
  txid: string | null;
}

export interface PlanDecision {
  status: PlanStatus;
  txid: string | null;
  reason: string | null;
}

const FINAL: ReadonlySet<PlanStatus> = new Set(['confirmed', 'failed', 'stale']);

export function isFinalPlanStatus(status: PlanStatus): boolean {
  return FINAL.has(status);
}

/**
 * The plan's next status, given its inputs, the chain's tip and the confirmations the network
 * requires. A final plan stays as it is.
 */
export function decidePlan(
  plan: PlanState,
  inputs: readonly PlanInputState[],
  tipHeight: number,
  requiredConfirmations: number,
): PlanDecision {
  if (isFinalPlanStatus(plan.status)) return { status: plan.status, txid: plan.txid, reason: null };
  const spenders = new Set(inputs.map((i) => i.spentByTx).filter((t): t is string => t !== null));
  if (spenders.size === 0) {
    // Nothing spent (again, after a reorganisation took its block away): waiting for a signature.
    return { status: 'prepared', txid: plan.txid, reason: null };
  }
  const [spender] = spenders;
  const ours = spenders.size === 1 && (plan.txid === null || plan.txid === spender);
  if (!ours) {
    const other = [...spenders].find((t) => t !== plan.txid) ?? spender!;
    const reason = `an input was spent by transaction ${other}, not by this plan's`;
    return plan.status === 'broadcast'
      ? { status: 'failed', txid: plan.txid, reason }
      : { status: 'stale', txid: plan.txid, reason };
  }
  if (inputs.some((i) => i.spentByTx === null)) {
    // Its transaction spends every input; one unspent means another transaction with this id is impossible: wait.
    return { status: plan.status, txid: spender!, reason: null };
  }
  const height = Math.max(...inputs.map((i) => i.spentAtHeight ?? Number.POSITIVE_INFINITY));
  const confirmations = Number.isFinite(height) ? tipHeight - height + 1 : 0;
  if (confirmations >= requiredConfirmations) return { status: 'confirmed', txid: spender!, reason: null };
  return { status: 'broadcast', txid: spender!, reason: null };
}

/** What the node says of one transaction of a Tron plan: in a block (at `height`, succeeded or not), or not yet. */
export interface TronStepSighting {
  height: number;
  success: boolean;
  reason: string | null;
}

/**
 * One step of a Tron plan (docs/decisions/086): prepared until the node has it in a block, then
 * broadcast until it has the network's confirmations, then confirmed; failed when its contract
 * failed (OUT_OF_ENERGY, REVERT...) or when it expired without being mined. A final step stays.
 */
export function decideTronStep(
  step: { status: PlanStatus; reason: string | null },
  seen: TronStepSighting | null,
  expired: boolean,
  tipHeight: number,
  requiredConfirmations: number,
): { status: PlanStatus; reason: string | null } {
  if (isFinalPlanStatus(step.status)) return step;
  if (!seen) {
    if (expired) return { status: 'failed', reason: 'it expired without being mined' };
    return step;
  }
  if (!seen.success) return { status: 'failed', reason: `it failed on chain: ${seen.reason ?? 'FAILED'}` };
  const confirmations = tipHeight - seen.height + 1;
  return { status: confirmations >= requiredConfirmations ? 'confirmed' : 'broadcast', reason: null };
}

/**
 * A Tron refund plan's next status from its one transaction's result on the node (docs/decisions/115;
 * its id is known when prepared): in a block and successful is `broadcast`, with the network's
 * confirmations `confirmed`; failed on chain is `failed`; not in a block by its expiration is
 * `failed` (java-tron takes it no more). A plan failed from `prepared` never paid: its refund stays
 * ready. A final plan stays as it is.
 */
export function decideTronRefundPlan(
  plan: { status: PlanStatus; txid: string | null },
  seen: TronStepSighting | null,
  expired: boolean,
  tipHeight: number,
  requiredConfirmations: number,
): PlanDecision {
  const next = decideTronStep({ status: plan.status, reason: null }, seen, expired, tipHeight, requiredConfirmations);
  return { status: next.status, txid: plan.txid, reason: next.reason };
}

/** A Tron plan's status from its steps': failed if one failed, confirmed when all are, broadcast once one is in a block. */
export function tronPlanStatus(steps: readonly { status: PlanStatus }[]): PlanStatus {
  if (steps.some((s) => s.status === 'failed' || s.status === 'stale')) return 'failed';
  if (steps.every((s) => s.status === 'confirmed')) return 'confirmed';
  if (steps.some((s) => s.status === 'broadcast' || s.status === 'confirmed')) return 'broadcast';
  return 'prepared';
}

/** A deposit an account-chain plan collects: collected once the watcher saw its transfer out to the treasury. */
export interface AccountPlanInputState {
  /** The transaction that moved it to the plan's treasury, as a scanned block holds it; null until then. */
  spentByTx: string | null;
  spentAtHeight: number | null;
}

/**
 * An account-chain plan's next status (EVM, Tron; docs/decisions/093), from the deposits it collects.
 * Its transactions are many (a sweep and a clear per batch, or a transfer per address and token), so
 * no one id names it: it stands where its deposits do.
 *
 *   prepared --(a deposit's transfer to the treasury in a scanned block)--> broadcast
 *   broadcast --(every deposit's, with the required confirmations)--> confirmed
 *   prepared or broadcast --(its transactions expired before every deposit's was seen)--> failed
 *   prepared or broadcast --(EVM: every nonce of its transactions used before every deposit's was seen)--> stale
 *   broadcast --(a reorganisation took every transfer away)--> prepared
 *
 * A final plan stays as it is. `noncesUsed` (EVM, docs/decisions/099): at the scanned height each
 * sender of the plan's transactions has used every nonce the plan gives it; had all of them been the
 * plan's own, every deposit would be collected in those blocks, so another transaction took one.
 */
export function decideAccountPlan(
  plan: { status: PlanStatus },
  inputs: readonly AccountPlanInputState[],
  tipHeight: number,
  requiredConfirmations: number,
  expired: boolean,
  noncesUsed = false,
): PlanDecision {
  if (isFinalPlanStatus(plan.status)) return { status: plan.status, txid: null, reason: null };
  const collected = inputs.filter((i) => i.spentByTx !== null);
  if (collected.length < inputs.length) {
    if (noncesUsed) {
      const reason = `its nonces were used by other transactions with ${inputs.length - collected.length} of ${inputs.length} deposits not collected: prepare again`;
      return { status: 'stale', txid: null, reason };
    }
    if (expired) {
      const reason =
        collected.length === 0
          ? 'its transactions expired before any was mined'
          : `its transactions expired with ${inputs.length - collected.length} of ${inputs.length} deposits not collected`;
      return { status: 'failed', txid: null, reason };
    }
    return { status: collected.length === 0 ? 'prepared' : 'broadcast', txid: null, reason: null };
  }
  const height = Math.max(...inputs.map((i) => i.spentAtHeight ?? Number.POSITIVE_INFINITY));
  const confirmations = Number.isFinite(height) ? tipHeight - height + 1 : 0;
  return { status: confirmations >= requiredConfirmations ? 'confirmed' : 'broadcast', txid: null, reason: null };
}

/** What the node says of an EVM refund plan's one transaction at the height a watcher step scans to (docs/decisions/112). */
export interface EvmRefundSighting {
  /** Its receipt, when its hash is known and the node has it at or below that height. */
  mined: { height: number; success: boolean } | null;
  /** Whether the treasury had used the plan's nonce by that height. */
  nonceUsed: boolean;
}

/**
 * An EVM refund plan's next status, from its transaction's receipt and the treasury's nonce. One
 * transaction, one sender, one nonce: mined is its receipt; the nonce used without its receipt is
 * another transaction in its place (or its own, broadcast without telling the gateway its hash).
 *
 *   prepared --(its receipt, success)--> broadcast --(required confirmations)--> confirmed
 *   prepared or broadcast --(its receipt, reverted)--> failed
 *   prepared --(the nonce used, no receipt of it)--> stale
 *   broadcast --(a reorganisation took it, the nonce used by another)--> failed
 *   broadcast --(a reorganisation took it, the nonce free again)--> prepared
 *
 * A final plan stays as it is.
 */
export function decideEvmRefundPlan(
  plan: { status: PlanStatus; txid: string | null },
  seen: EvmRefundSighting,
  tipHeight: number,
  requiredConfirmations: number,
): PlanDecision {
  if (isFinalPlanStatus(plan.status)) return { status: plan.status, txid: plan.txid, reason: null };
  if (seen.mined) {
    if (!seen.mined.success)
      return { status: 'failed', txid: plan.txid, reason: 'its transaction reverted on chain: it paid nothing' };
    const confirmations = tipHeight - seen.mined.height + 1;
    return {
      status: confirmations >= requiredConfirmations ? 'confirmed' : 'broadcast',
      txid: plan.txid,
      reason: null,
    };
  }
  if (!seen.nonceUsed) return { status: 'prepared', txid: plan.txid, reason: null };
  if (plan.status === 'broadcast')
    return {
      status: 'failed',
      txid: plan.txid,
      reason: "its block was replaced and another transaction took the treasury's nonce",
    };
  return {
    status: 'stale',
    txid: plan.txid,
    reason:
      plan.txid === null
        ? "the treasury's nonce was used by a transaction the gateway was not given: if it was this plan's, complete the refund by its transaction id; otherwise prepare again"
        : "the treasury's nonce was used by another transaction: prepare again",
  };
}

/**
 * A Solana refund plan's next status (docs/decisions/106, 111): one transfer, found by the plan's
 * own reference, read only once finalized, so final when seen.
 *
 *   prepared --(its transfer seen, paying what it plans)--> confirmed
 *   prepared --(the watcher scanned past its expiresAt without seeing it)--> stale
 *
 * `seen` is the signature of the transaction that paid exactly the plan (./solana-refund-plans.ts
 * `solanaPlanSighting`); a transaction that carried the reference and paid something else is no
 * sighting. Seen wins over expired: a transfer in the blocks scanned past the deadline still
 * counts. A final plan stays as it is.
 */
export function decideSolanaRefundPlan(
  plan: { status: PlanStatus; txid: string | null },
  seen: string | null,
  expired: boolean,
): PlanDecision {
  if (isFinalPlanStatus(plan.status)) return { status: plan.status, txid: plan.txid, reason: null };
  if (seen !== null) return { status: 'confirmed', txid: seen, reason: null };
  if (expired)
    return {
      status: 'stale',
      txid: plan.txid,
      reason: 'its transfer was not seen before it expired: prepare a new plan (it takes a fresh reference)',
    };
  return { status: plan.status, txid: plan.txid, reason: null };
}

/**
 * What the transactions that carried a plan's reference did: the signature of the one that paid
 * exactly the plan (`seen`), and why each other did not. Pure: `outgoing` are the transfers the
 * watcher read of the transactions the plan's wallet sent (ChainAdapter.scan), by the balance rule.
 */
export function solanaPlanSighting(
  plan: { currency: string; body: SolanaRefundBody },
  outgoing: readonly ChainTransfer[],
): { seen: string | null; refused: { txid: string; reason: string }[] } {
  const { body } = plan;
  const byTx = new Map<string, ChainTransfer[]>();
  for (const t of outgoing) if (t.tag === body.reference) byTx.set(t.txHash, [...(byTx.get(t.txHash) ?? []), t]);
  const refused: { txid: string; reason: string }[] = [];
  for (const [txid, transfers] of byTx) {
    const mine = transfers.filter((t) => t.from === body.wallet);
    if (mine.length === 0) {
      refused.push({ txid, reason: `it moves nothing from the plan's wallet ${body.wallet}` });
      continue;
    }
    const toRecipient = mine.filter((t) => t.to === body.recipient && t.currency === plan.currency);
    const paid = toRecipient.reduce((sum, t) => sum + t.amount, 0n);
    if (paid === BigInt(body.amount)) return { seen: txid, refused };
    refused.push({
      txid,
      reason:
        toRecipient.length === 0
          ? `it pays no ${plan.currency} to ${body.recipient}`
          : `it pays ${paid} base units of ${plan.currency} to ${body.recipient}, not the ${body.amount} planned`,
    });
  }
  return { seen: null, refused };
}
