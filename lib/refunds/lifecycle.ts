/**
 * A refund's state machine as pure functions (docs/decisions/071). States are documented with the
 * wire contract (lib/protocol/refunds.ts):
 *
 *   awaiting_address --(payer confirms an address)--> ready
 *   ready --(merchant reopens the claim)--> awaiting_address   (a new link; the old one is dead)
 *   awaiting_address --(merchant reopens the claim)--> awaiting_address   (likewise)
 *   ready --(its transfer seen on chain)--> sent --(required confirmations)--> confirmed
 *   ready --(its transfer seen with the required confirmations at once)--> confirmed
 *   awaiting_address | ready --(merchant cancels)--> canceled
 *   sent --(its transfer dropped from the chain)--> failed
 *
 * confirmed, canceled and failed are final. A refund holds its amount against what its payment
 * received in every state but canceled and failed (lib/refunds/store.ts gives it back then).
 */
import type { PlanStatus, RefundState } from '../protocol';

export type RefundAction =
  | { type: 'confirm_address' }
  | { type: 'reopen' }
  | { type: 'cancel' }
  /** Its transfer is on the chain with `confirmations` of the `required`. */
  | { type: 'seen'; confirmations: number; required: number }
  | { type: 'dropped' };

export type RefundTransition = { ok: true; state: RefundState } | { ok: false; reason: string };

const FINAL: ReadonlySet<RefundState> = new Set(['confirmed', 'canceled', 'failed']);

export function isFinalRefundState(state: RefundState): boolean {
  return FINAL.has(state);
}

/** Whether a refund in `state` counts against what its payment received. */
export function holdsAmount(state: RefundState): boolean {
  return state !== 'canceled' && state !== 'failed';
}

const refused = (state: RefundState, action: RefundAction['type']): RefundTransition => ({
  ok: false,
  reason: `a refund that is ${state.replace('_', ' ')} cannot be ${ACTION_WORDS[action]}`,
});

const ACTION_WORDS: Record<RefundAction['type'], string> = {
  confirm_address: 'given an address',
  reopen: 'reopened',
  cancel: 'canceled',
  seen: 'completed',
  dropped: 'failed',
};

/** The state after `action`, or why the refund cannot take it. */
export function nextRefundState(state: RefundState, action: RefundAction): RefundTransition {
  switch (action.type) {
    case 'confirm_address':
      return state === 'awaiting_address' ? { ok: true, state: 'ready' } : refused(state, action.type);
    case 'reopen':
      return state === 'awaiting_address' || state === 'ready'
        ? { ok: true, state: 'awaiting_address' }
        : refused(state, action.type);
    case 'cancel':
      return state === 'awaiting_address' || state === 'ready'
        ? { ok: true, state: 'canceled' }
        : refused(state, action.type);
    case 'seen': {
      if (state !== 'ready' && state !== 'sent') return refused(state, action.type);
      return { ok: true, state: action.confirmations >= action.required ? 'confirmed' : 'sent' };
    }
    case 'dropped':
      return state === 'sent' ? { ok: true, state: 'failed' } : refused(state, action.type);
  }
}

/**
 * What a refund plan's new status means for its refund (docs/decisions/081): its transaction in a
 * block is the refund seen, with its confirmations; a reorganisation that replaced it, the refund
 * dropped. A plan gone stale, or failed before it was seen paying (docs/decisions/112), was never
 * sent: the refund stays ready, for a new plan.
 */
export function refundActionOfPlanChange(change: {
  from: PlanStatus;
  to: PlanStatus;
  confirmations: number;
  required: number;
}): RefundAction | null {
  switch (change.to) {
    case 'broadcast':
    case 'confirmed':
      return { type: 'seen', confirmations: change.confirmations, required: change.required };
    case 'failed':
      // Failed before it was ever seen paying (an EVM transaction that reverted): the refund was never sent.
      return change.from === 'prepared' ? null : { type: 'dropped' };
    default:
      return null;
  }
}
