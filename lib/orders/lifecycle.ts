/**
 * The order state machine (SPEC "Order lifecycle") as pure functions: everything it depends on,
 * the clock and the watcher's progress included, comes in as arguments, so the same inputs always
 * give the same evaluation and the caller owns persistence, webhooks and locking.
 *
 * Risk screening happens before evaluation: providers may be asynchronous, so the caller screens
 * each payment (see ../risk) and passes the verdict in as `ObservedTransfer.risk`.
 */
import type { RiskVerdict } from '../risk';
import { FINAL_STATUSES, type OrderStatus } from '../protocol';

/** An incoming transfer to the order's address (and tag), as the watcher observed it. */
export interface ObservedTransfer {
  /** Unique per chain transfer: `${network}:${txHash}:${outputIndex}`. */
  id: string;
  currency: string;
  /** Base units. */
  amount: bigint;
  /** Null when the chain did not name it (then risk screening cannot clear the payment). */
  sender: string | null;
  /** Block time or mempool sighting, whichever the watcher saw first. */
  firstSeenAt: Date;
  confirmations: number;
  /** Removed by a reorg or dropped from the mempool. */
  dropped: boolean;
  /** The screening verdict, once the caller has screened the transfer. */
  risk?: RiskVerdict;
}

/** The roles that outlive finality: what the evaluation that made the order final decided. */
export type SettledRole = 'counted' | 'rejected';

export interface OrderFacts {
  status: OrderStatus;
  currency: string;
  amount: bigint;
  /** The least that completes the order (tolerance applied). */
  threshold: bigint;
  expiresAt: Date;
  checkRisks: boolean;
  /** Of a final order: its transfers that settled as counted or rejected. Unused while pending. */
  settled?: ReadonlyMap<string, SettledRole>;
}

export interface LifecycleContext {
  now: Date;
  requiredConfirmations: number;
  /** True once the network's watcher has scanned blocks past `expiresAt`. */
  scannedPastExpiry: boolean;
}

export type TransferRole =
  | 'counted' // a confirmed payment, part of `received`
  | 'detected' // a payment waiting for confirmations (or, with `checkRisks`, for its verdict)
  | 'orphan' // does not count: another currency, first seen after expiry, or not settled with a final order
  | 'rejected' // a confirmed payment flagged by risk screening; it moved the order to `error`
  | 'reversed' // a dropped payment: un-counted while pending; on a final order, a settled one (with an alert)
  | 'ignored'; // a dropped transfer that would have been an orphan

export interface Evaluation {
  /** The new status; equal to the old one when nothing moved the order. */
  status: OrderStatus;
  /** Sum of the counted payments; a final order keeps the sum it settled with, reversals included. */
  received: bigint;
  /** Set by the evaluation that moves the order to `error`; a final order keeps its stored message. */
  message: string | null;
  /** Per transfer id, in chronological order. */
  roles: ReadonlyMap<string, TransferRole>;
  /** Derived anew on every evaluation: raise them when the transfer's role changes. */
  alerts: readonly string[];
}

const FLAGGED_WITHOUT_REASON = 'Payment flagged by risk screening.';
const SENDER_UNKNOWN = "The chain did not name this payment's sender, so risk screening could not check it.";

/**
 * Walks the transfers in the order they were first seen, as live evaluation would have met them:
 * the first payment that completes (or is flagged on) a pending order makes it final, and from
 * then on only the transfers settled with it are its payments.
 */
export function evaluateOrder(
  order: OrderFacts,
  transfers: readonly ObservedTransfer[],
  ctx: LifecycleContext,
): Evaluation {
  const ordered = chronological(transfers);
  return FINAL_STATUSES.has(order.status) ? evaluateFinal(order, ordered) : evaluatePending(order, ordered, ctx);
}

/** Sorted by first sighting, then id, so the caller's array order never matters. */
function chronological(transfers: readonly ObservedTransfer[]): ObservedTransfer[] {
  const ids = new Set<string>();
  for (const transfer of transfers) {
    // Counting one chain transfer twice would credit money that was paid once.
    if (ids.has(transfer.id)) throw new Error(`Transfer ${transfer.id} was observed twice.`);
    ids.add(transfer.id);
  }
  // The ids are unique (above): two transfers never compare equal.
  return [...transfers].sort((a, b) => a.firstSeenAt.getTime() - b.firstSeenAt.getTime() || (a.id < b.id ? -1 : 1));
}

function evaluatePending(order: OrderFacts, transfers: readonly ObservedTransfer[], ctx: LifecycleContext): Evaluation {
  const roles = new Map<string, TransferRole>();
  let received = 0n;
  for (const transfer of transfers) {
    const role = pendingRole(order, transfer, ctx);
    roles.set(transfer.id, role);
    // pendingRole rejects only a transfer with a verdict: `verdictOf` answers one.
    if (role === 'rejected')
      return settle(order, transfers, roles, 'error', verdictOf(transfer)!.reason ?? FLAGGED_WITHOUT_REASON);
    if (role === 'counted') {
      received += transfer.amount;
      if (received >= order.threshold)
        return settle(order, transfers, roles, received <= order.amount ? 'processed' : 'overpaid');
    }
  }
  // A watcher that is down or behind may not have seen an in-time payment yet, and a seen one may
  // still confirm: either way the order is not decided.
  const waiting = [...roles.values()].includes('detected');
  if (!waiting && ctx.scannedPastExpiry && ctx.now.getTime() > order.expiresAt.getTime()) {
    return settle(order, transfers, roles, received === 0n ? 'expired' : 'partial');
  }
  return { status: 'pending', received, message: null, roles, alerts: [] };
}

/** First seen by the order's deadline: only such a transfer can be a payment of the order. */
function seenInTime(order: Pick<OrderFacts, 'expiresAt'>, transfer: Pick<ObservedTransfer, 'firstSeenAt'>): boolean {
  return transfer.firstSeenAt.getTime() <= order.expiresAt.getTime();
}

/**
 * Whether a transfer that is not a payment of the order (an orphan) came too late for it: one of
 * the order's currency first seen after the deadline, or any of its currency once the order ended
 * unpaid or underpaid (`expired`, `partial`), which it did at its deadline on chain time (a
 * mempool sighting before the deadline may have been mined after it). Another currency is never late.
 */
export function isLateTransfer(
  order: Pick<OrderFacts, 'status' | 'currency' | 'expiresAt'>,
  transfer: Pick<ObservedTransfer, 'currency' | 'firstSeenAt'>,
): boolean {
  if (transfer.currency !== order.currency) return false;
  return order.status === 'expired' || order.status === 'partial' || !seenInTime(order, transfer);
}

function pendingRole(order: OrderFacts, transfer: ObservedTransfer, ctx: LifecycleContext): TransferRole {
  const payment = transfer.currency === order.currency && seenInTime(order, transfer);
  if (!payment) return transfer.dropped ? 'ignored' : 'orphan';
  if (transfer.dropped) return 'reversed';
  // Screening acts on confirmed payments only: a flagged sighting that drops never happened.
  if (transfer.confirmations < ctx.requiredConfirmations) return 'detected';
  if (!order.checkRisks) return 'counted';
  const verdict = verdictOf(transfer);
  // Unscreened is not clean: it waits for its verdict rather than counting.
  if (!verdict) return 'detected';
  return verdict.flagged ? 'rejected' : 'counted';
}

/**
 * The verdict screening gives a confirmed payment. A sender the chain did not name cannot have
 * been screened, whatever a screen answered (a deny list finds nothing against nobody): by the
 * time the payment is confirmed its block has been read, and a block that names no sender (a
 * node without prevouts) will not name one later, so waiting would hold the order for ever. It
 * is refused like a flagged payment, saying why, and the merchant decides.
 */
function verdictOf(transfer: ObservedTransfer): RiskVerdict | undefined {
  if (transfer.sender === null) return { flagged: true, reason: SENDER_UNKNOWN };
  return transfer.risk;
}

/** Makes the order final with what the walk counted or rejected so far, then classifies as final. */
function settle(
  order: OrderFacts,
  transfers: readonly ObservedTransfer[],
  roles: ReadonlyMap<string, TransferRole>,
  status: OrderStatus,
  message: string | null = null,
): Evaluation {
  const settled = new Map<string, SettledRole>();
  for (const [id, role] of roles) if (role === 'counted' || role === 'rejected') settled.set(id, role);
  return { ...evaluateFinal({ ...order, status, settled }, transfers), message };
}

function evaluateFinal(order: OrderFacts, transfers: readonly ObservedTransfer[]): Evaluation {
  const roles = new Map<string, TransferRole>();
  const alerts: string[] = [];
  let received = 0n;
  for (const transfer of transfers) {
    const settled = order.settled?.get(transfer.id);
    if (settled === 'counted') received += transfer.amount;
    if (settled && transfer.dropped) {
      roles.set(transfer.id, 'reversed');
      alerts.push(
        `Payment ${transfer.id} (${settled}) was dropped after the order became final; the order stays ${order.status}.`,
      );
    } else {
      roles.set(transfer.id, settled ?? (transfer.dropped ? 'ignored' : 'orphan'));
    }
  }
  return { status: order.status, received, message: null, roles, alerts };
}
