/**
 * The Subscriptions page's server actions called by a signed-in owner with what is not their
 * form (the arguments `[]`, as React sends a call that reads none): each is answered without a
 * server error and changes nothing (lib/security/posted-form.ts postedForm).
 */
import { describe, expect, it } from 'vitest';
import { createUser, openSession } from '@/lib/users';
import { countRows } from './support/database';
import { dashboardActions } from './support/dashboard-walk';
import { withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));

describe("the Subscriptions page's actions", () => {
  it('answer a call without their form with no server error, changing nothing', async () => {
    const { user } = await createUser(gateway.db, {
      merchant: merchant.merchantId,
      email: `owner-${crypto.randomUUID()}@shop.example`,
      role: 'owner',
      password: 'a long and unguessable owner password',
    });
    const session = await openSession(gateway.db, user.id, 'signed-in', {});
    const actions = dashboardActions().filter(({ page }) => page === '/dashboard/subscriptions');
    expect(actions.map(({ name }) => name).sort()).toEqual([
      'advanceClockAction',
      'cancelSubscriptionAction',
      'createPlanAction',
      'createSubscriptionAction',
      'updatePlanAction',
    ]);
    const before = await countRows(gateway.db);
    for (const { id, name, page } of actions) {
      const response = await fetch(`${gateway.baseUrl}${page}`, {
        method: 'POST',
        headers: {
          cookie: `cg_session=${session.token}`,
          'next-action': id,
          origin: gateway.baseUrl,
          'content-type': 'text/plain;charset=UTF-8',
        },
        body: '[]',
        redirect: 'manual',
      });
      expect(response.status, name).toBeLessThan(500);
    }
    expect(await countRows(gateway.db)).toEqual(before);
  });
});
