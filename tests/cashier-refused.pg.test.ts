/**
 * A cashier (lib/users: the `pos` permission alone) is refused every dashboard page, route and
 * server action but the point of sale's, on the server, over real HTTP against the production
 * build: the pages and routes are found by walking app/dashboard, the server actions in the
 * build's server-reference manifest (tests/support/dashboard-walk.ts), so a page or action added
 * later is walked too. e2e/pos.spec.ts walks the same in the browser. The same walk, as an admin
 * who may call them, checks that no action answers a 500 to a call without its form.
 */
import { describe, expect, it } from 'vitest';
import { createUser, openSession } from '@/lib/users';
import { countRows } from './support/database';
import { actionsRefusedToCashiers, dashboardActions, pathsRefusedToCashiers } from './support/dashboard-walk';
import { withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));

async function sessionCookie(role: 'cashier' | 'admin'): Promise<string> {
  const { user } = await createUser(gateway.db, {
    merchant: merchant.merchantId,
    email: `${role}-${crypto.randomUUID()}@shop.example`,
    role,
    password: `a long and unguessable ${role} password`,
  });
  const session = await openSession(gateway.db, user.id, 'signed-in', {});
  return `cg_session=${session.token}`;
}
const cashierCookie = () => sessionCookie('cashier');

/** A server action called as React posts one (multipart, the arguments in field 0). */
function callAction(id: string, page: string, cookie: string, args = '[]'): Promise<Response> {
  const call = new FormData();
  call.set('0', args);
  return fetch(`${gateway.baseUrl}${page}`, {
    method: 'POST',
    headers: { cookie, 'next-action': id, origin: gateway.baseUrl },
    body: call,
    redirect: 'manual',
  });
}

describe('a cashier', () => {
  it('is refused every dashboard page and route but the point of sale', async () => {
    const cookie = await cashierCookie();
    const walked = pathsRefusedToCashiers();
    expect(walked.length).toBeGreaterThan(10);
    for (const { path: p, kind } of walked) {
      const response = await fetch(`${gateway.baseUrl}${p}`, { headers: { cookie }, redirect: 'manual' });
      const where = `${kind} ${p}: ${response.status} ${response.headers.get('location') ?? ''}`;
      if (kind === 'page' && response.status === 307)
        expect(response.headers.get('location'), where).toMatch(/\/dashboard\/forbidden$/);
      else expect(response.status, where).toBe(403);
    }
    const pos = await fetch(`${gateway.baseUrl}/dashboard/pos`, { headers: { cookie }, redirect: 'manual' });
    expect(pos.status).toBe(200);
  });

  it('is refused every server action of the dashboard but its sale and signing out, changing nothing', async () => {
    const cookie = await cashierCookie();
    const actions = actionsRefusedToCashiers();
    expect(actions.length).toBeGreaterThan(10);
    const before = await countRows(gateway.db);
    for (const { id, name, page } of actions) {
      // A body of another shape than React's is refused 400 before any action runs (lib/security/posted-form.ts).
      const response = await callAction(id, page, cookie);
      expect(response.status, `${name} on ${page}`).toBe(403);
    }
    expect(await countRows(gateway.db)).toEqual(before);
  });
});

describe('an admin', () => {
  it('gets no 500 from any dashboard action called without its form, or with a string in its place', async () => {
    const cookie = await sessionCookie('admin');
    // Signing out would end the walk's session; the rest read their form through postedForm.
    const actions = dashboardActions().filter(({ name }) => !/^signOut/.test(name));
    expect(actions.length).toBeGreaterThan(20);
    for (const { id, name, page } of actions)
      for (const args of ['[]', '["$undefined","x"]', '["x"]']) {
        const response = await callAction(id, page, cookie, args);
        expect(response.status, `${name} on ${page} with ${args}`).toBeLessThan(500);
      }
  });
});
