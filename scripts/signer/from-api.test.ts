import { describe, expect, it } from 'vitest';
import { answerRefusals } from './from-api';

const PLAN = '0b5e2a51-8f0c-4d7e-9a41-2f6b8c9d0e11';
const REFUND = '6f1d3c2b-4a5e-4f60-8b7c-9d0e1f2a3b4c';
const refundPlan = { planId: PLAN, kind: 'refund', status: 'prepared', refund: { refundId: REFUND } };

describe('answerRefusals: the plan the gateway answers is the one asked for', () => {
  it('takes the plan asked for, waiting for a signature', () => {
    expect(answerRefusals(refundPlan, { kind: 'refund', refundId: REFUND })).toEqual([]);
    expect(answerRefusals({ ...refundPlan, kind: 'collection' }, { kind: 'collection', planId: PLAN })).toEqual([]);
  });

  it("refuses another refund's plan, another plan, another kind, a plan that takes no signature, and no plan", () => {
    const other = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
    expect(answerRefusals(refundPlan, { kind: 'refund', refundId: other })).toEqual([
      `the gateway answered a plan of refund ${REFUND}; refund ${other} was asked for`,
    ]);
    expect(answerRefusals({ ...refundPlan, kind: 'collection' }, { kind: 'collection', planId: other })).toEqual([
      `the gateway answered plan ${PLAN}; plan ${other} was asked for`,
    ]);
    expect(answerRefusals(refundPlan, { kind: 'collection', planId: PLAN })).toEqual([
      'the gateway answered a refund plan; a collection plan was asked for',
    ]);
    expect(answerRefusals({ ...refundPlan, status: 'stale' }, { kind: 'refund', refundId: REFUND })).toEqual([
      `plan ${PLAN} is stale: it takes no signature`,
    ]);
    expect(answerRefusals({ error: 'x' }, { kind: 'refund', refundId: REFUND })).toEqual([
      'the gateway answered something that is not a plan',
    ]);
  });
});
