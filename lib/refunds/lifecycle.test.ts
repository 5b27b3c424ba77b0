import { describe, expect, it } from 'vitest';
import { REFUND_STATE_VALUES, type PlanStatus, type RefundState } from '../protocol';
import {
  holdsAmount,
  isFinalRefundState,
  nextRefundState,
  refundActionOfPlanChange,
  type RefundAction,
} from './lifecycle';

const to = (state: RefundState, action: RefundAction) => nextRefundState(state, action);

describe('awaiting_address', () => {
  it('becomes ready when the payer confirms an address', () => {
    expect(to('awaiting_address', { type: 'confirm_address' })).toEqual({ ok: true, state: 'ready' });
  });
  it('stays awaiting a new address when the merchant reopens the claim', () => {
    expect(to('awaiting_address', { type: 'reopen' })).toEqual({ ok: true, state: 'awaiting_address' });
  });
  it('is canceled by the merchant', () => {
    expect(to('awaiting_address', { type: 'cancel' })).toEqual({ ok: true, state: 'canceled' });
  });
  it('cannot be sent without an address, nor fail', () => {
    expect(to('awaiting_address', { type: 'seen', confirmations: 6, required: 6 })).toMatchObject({ ok: false });
    expect(to('awaiting_address', { type: 'dropped' })).toMatchObject({ ok: false });
  });
});

describe('ready', () => {
  it('refuses a second address: only a reopening lets the payer give another', () => {
    expect(to('ready', { type: 'confirm_address' })).toEqual({
      ok: false,
      reason: 'a refund that is ready cannot be given an address',
    });
    expect(to('ready', { type: 'reopen' })).toEqual({ ok: true, state: 'awaiting_address' });
  });
  it('is sent when its transfer is seen, confirmed when it has the confirmations at once', () => {
    expect(to('ready', { type: 'seen', confirmations: 0, required: 6 })).toEqual({ ok: true, state: 'sent' });
    expect(to('ready', { type: 'seen', confirmations: 6, required: 6 })).toEqual({ ok: true, state: 'confirmed' });
  });
  it('is canceled by the merchant', () => {
    expect(to('ready', { type: 'cancel' })).toEqual({ ok: true, state: 'canceled' });
  });
});

describe('sent', () => {
  it('is confirmed at the required confirmations, not one before', () => {
    expect(to('sent', { type: 'seen', confirmations: 5, required: 6 })).toEqual({ ok: true, state: 'sent' });
    expect(to('sent', { type: 'seen', confirmations: 6, required: 6 })).toEqual({ ok: true, state: 'confirmed' });
  });
  it('fails when its transfer is dropped', () => {
    expect(to('sent', { type: 'dropped' })).toEqual({ ok: true, state: 'failed' });
  });
  it('can no longer be canceled, reopened or given an address: the money left', () => {
    for (const type of ['cancel', 'reopen', 'confirm_address'] as const) {
      expect(to('sent', { type })).toMatchObject({ ok: false });
    }
  });
});

describe('final states', () => {
  const actions: RefundAction[] = [
    { type: 'confirm_address' },
    { type: 'reopen' },
    { type: 'cancel' },
    { type: 'seen', confirmations: 9, required: 1 },
    { type: 'dropped' },
  ];
  it.each(['confirmed', 'canceled', 'failed'] as const)('%s takes no action', (state) => {
    expect(isFinalRefundState(state)).toBe(true);
    for (const action of actions) expect(to(state, action)).toMatchObject({ ok: false });
  });
  it('are exactly confirmed, canceled and failed', () => {
    expect(REFUND_STATE_VALUES.filter(isFinalRefundState)).toEqual(['confirmed', 'canceled', 'failed']);
  });
});

it('holds the amount against the payment in every state but canceled and failed', () => {
  expect(REFUND_STATE_VALUES.filter((state) => !holdsAmount(state))).toEqual(['canceled', 'failed']);
});

describe('a refund plan moves its refund', () => {
  const plan = (to: PlanStatus, confirmations = 0, from: PlanStatus = 'broadcast') =>
    refundActionOfPlanChange({ from, to, confirmations, required: 2 });
  it('sent when its transaction is in a block, confirmed with the confirmations', () => {
    expect(to('ready', plan('broadcast', 1)!)).toEqual({ ok: true, state: 'sent' });
    expect(to('sent', plan('confirmed', 2)!)).toEqual({ ok: true, state: 'confirmed' });
    expect(to('ready', plan('confirmed', 2)!)).toEqual({ ok: true, state: 'confirmed' });
  });
  it('failed when a reorganisation replaced its transaction; a stale plan leaves it ready for another', () => {
    expect(to('sent', plan('failed')!)).toEqual({ ok: true, state: 'failed' });
    expect(plan('stale')).toBeNull();
    expect(plan('prepared')).toBeNull();
  });
  it('left ready by a plan that failed before it was seen paying (an EVM transaction that reverted)', () => {
    expect(plan('failed', 0, 'prepared')).toBeNull();
  });
});
