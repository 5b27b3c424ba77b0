/**
 * A refund is paid once (docs/decisions/116): the one rule of how a ready refund may be paid, a
 * plan or by hand, refusing the other way while an open plan pays it, and the plan's fee rate
 * offered only where it means something.
 */
import { describe, expect, it } from 'vitest';
import { refundPayRefusal, refundPayWays, type RefundPayFacts } from './pay-ways';

const PLAN = '0b7f3c9e-3c1d-4a52-9a3e-6f1f4bb0d6f1';
const ready: RefundPayFacts = { state: 'ready', approval: 'none', address: 'ltc1qpayer', openPlanId: null };

describe('refundPayWays', () => {
  it('offers a ready refund a plan and "Sent by hand"; a fee rate on the Bitcoin family only', () => {
    expect(refundPayWays(ready, 'utxo')).toEqual({ plan: true, feeRate: true, byHand: true });
    for (const family of ['evm', 'solana', 'tron', 'xrpl', undefined] as const)
      expect(refundPayWays(ready, family), String(family)).toEqual({ plan: true, feeRate: false, byHand: true });
  });

  it('offers neither way while an open plan pays the refund, and says which plan', () => {
    const planned = { ...ready, openPlanId: PLAN };
    expect(refundPayWays(planned, 'evm')).toEqual({ plan: false, feeRate: false, byHand: false });
    expect(refundPayRefusal(planned, 'by_hand')).toBe(
      `plan ${PLAN} pays this refund: it is paid by that plan only; cancel the refund (its plan is discarded) before paying it another way`,
    );
    expect(refundPayRefusal(planned, 'plan')).toBe(`an open plan pays this refund already: ${PLAN}`);
  });

  it('offers nothing before an address, while approval is missing, or once sent (by hand too)', () => {
    const cases: [Partial<RefundPayFacts>, string][] = [
      [{ state: 'awaiting_address', address: null }, 'a refund that is awaiting address cannot be sent'],
      [{ address: null }, 'a refund that is ready cannot be sent'],
      [{ approval: 'required' }, "this refund is above the owner's threshold"],
      [{ state: 'sent' }, 'a refund that is sent cannot be sent'],
      [{ state: 'confirmed' }, 'a refund that is confirmed cannot be sent'],
      [{ state: 'canceled' }, 'a refund that is canceled cannot be sent'],
    ];
    for (const [facts, reason] of cases) {
      const refund = { ...ready, ...facts };
      expect(refundPayWays(refund, 'utxo'), reason).toEqual({ plan: false, feeRate: false, byHand: false });
      expect(refundPayRefusal(refund, 'plan')).toMatch(new RegExp(`^${reason}`));
    }
    expect(refundPayRefusal({ ...ready, state: 'sent' }, 'by_hand')).toBe(
      'a refund that is sent cannot be completed: it is completed once the payer confirmed an address',
    );
  });
});
