/**
 * The deposit state machine (SPEC "Order lifecycle", decision 019) as pure functions, beside the
 * order's (lib/orders/lifecycle): the watcher observes the chain, these functions decide, and the
 * watcher's SQL (lib/watcher) writes what they decided.
 *
 * A deposit is a transfer to one of our addresses that is no order's payment. Its two columns
 * move on different events:
 * - `status` follows the incoming transfer: PENDING until it has the network's confirmations,
 *   PROCESSED with them, ERROR once the chain dropped it. A reorganisation can move it back
 *   (PROCESSED to PENDING when its block is replaced, ERROR to PENDING or PROCESSED when the
 *   transfer comes back).
 * - `stage` follows the address: DEPOSIT until an outgoing transfer takes a PROCESSED deposit on,
 *   then WITHDRAWAL for good (the first outgoing transfer is the withdrawal).
 *
 * Each event writes one of the two only, so the watcher applies an event without reading the
 * deposit first, and a withdrawal recorded by one transaction is never undone by another one that
 * re-projects the incoming transfer (the expiry sweeper settles orders in transactions of its own).
 */
import type { addresses, deposits, RowOf } from '../db';

type DepositColumns = RowOf<typeof deposits>;
export type DepositKind = DepositColumns['kind'];
export type DepositStage = DepositColumns['stage'];
export type DepositStatus = DepositColumns['status'];
type AddressKind = RowOf<typeof addresses>['kind'];

export interface DepositState {
  stage: DepositStage;
  status: DepositStatus;
}

/** The deposit's incoming transfer as the watcher last observed it. */
export interface IncomingTransfer {
  confirmations: number;
  /** The network's required confirmations. */
  requiredConfirmations: number;
  /** Removed by a reorganisation or dropped from the mempool. */
  dropped: boolean;
}

/** The state an event leads to, or why the event does not apply to the deposit. */
export type Transition = { to: DepositState } | { refused: string };

/** `inTransaction.status`: the incoming transfer as the chain has it, one per deposit status. */
const IN_STATUS = { PENDING: 'pending', PROCESSED: 'processed', ERROR: 'dropped' } as const satisfies Record<
  DepositStatus,
  string
>;
export type InStatus = (typeof IN_STATUS)[DepositStatus];

const STAGES = ['DEPOSIT', 'WITHDRAWAL'] as const satisfies readonly DepositStage[];
const STATUSES = Object.keys(IN_STATUS) as DepositStatus[];

/** Every state a deposit can be in. */
export const DEPOSIT_STATES: readonly DepositState[] = STAGES.flatMap((stage) =>
  STATUSES.map((status) => ({ stage, status })),
);

const DROPPED_MESSAGE = 'The transfer was dropped by the chain (reorganisation).';

/**
 * An outgoing transfer is matched in the scanned blocks only (never in the mempool), so it is
 * recorded as `outTransactions.status` processed.
 */
export const OUT_STATUS = 'processed';

/**
 * ORPHAN: the transfer went to an order's address and does not count for it (late, after the
 * order was final, another currency), or to a tag network's receiving account without a tag of
 * any order (a PAY_IN destination no order holds: docs/decisions/034). PERSONAL: it reached a
 * personal address without a pending order.
 */
export function kindOf(orderId: string | null, addressKind: AddressKind): DepositKind {
  return orderId === null && addressKind === 'PERSONAL' ? 'PERSONAL' : 'ORPHAN';
}

function incomingStatus(transfer: IncomingTransfer): DepositStatus {
  if (transfer.dropped) return 'ERROR';
  return transfer.confirmations >= transfer.requiredConfirmations ? 'PROCESSED' : 'PENDING';
}

/**
 * The watcher observed the incoming transfer (again): the observation decides the status,
 * whatever it was; the stage stays. A transfer that dropped before it had a deposit gets none:
 * nobody was ever shown it.
 */
export function onIncoming(from: DepositState | null, transfer: IncomingTransfer): Transition {
  const status = incomingStatus(transfer);
  if (from) return { to: { stage: from.stage, status } };
  if (status === 'ERROR') return { refused: 'A transfer dropped before it was a deposit opens none.' };
  return { to: { stage: 'DEPOSIT', status } };
}

/** A transfer left the deposit's address (or spent its output): the withdrawal of a PROCESSED deposit. */
export function onOutgoing(from: DepositState): Transition {
  if (from.stage === 'WITHDRAWAL')
    return { refused: 'The deposit was withdrawn already: its first outgoing transfer is its withdrawal.' };
  if (from.status === 'PENDING') return { refused: 'A deposit still short of its confirmations is not withdrawn.' };
  if (from.status === 'ERROR') return { refused: 'A deposit the chain dropped is not withdrawn.' };
  return { to: { stage: 'WITHDRAWAL', status: from.status } };
}

/** `canWithdrawal`: whether an outgoing transfer would be this deposit's withdrawal. */
export function canWithdraw(deposit: DepositState): boolean {
  return 'to' in onOutgoing(deposit);
}

/** The withdrawals `onOutgoing` allows, from each state: the watcher's SQL updates the deposits in a `from` state to its `to`. */
export const WITHDRAWALS: readonly { from: DepositState; to: DepositState }[] = DEPOSIT_STATES.flatMap((from) => {
  const transition = onOutgoing(from);
  return 'to' in transition ? [{ from, to: transition.to }] : [];
});

/** What the watcher writes for an observation of the incoming transfer (`onIncoming`, in columns). */
export interface IncomingWrite {
  /** The status of the deposit there is, whatever its state: `onIncoming` decides it from the observation alone. */
  status: DepositStatus;
  inStatus: InStatus;
  message: string | null;
  confirmations: number;
  /** The deposit the observation opens where there is none yet; null when it opens none. */
  opens: DepositState | null;
}

export function incomingWrite(transfer: IncomingTransfer): IncomingWrite {
  const status = incomingStatus(transfer);
  const opened = onIncoming(null, transfer);
  return {
    status,
    inStatus: IN_STATUS[status],
    message: status === 'ERROR' ? DROPPED_MESSAGE : null,
    confirmations: transfer.dropped ? 0 : transfer.confirmations,
    opens: 'to' in opened ? opened.to : null,
  };
}
