/**
 * A cashier (lib/users: the `pos` permission alone) is refused every dashboard page, route and
 * server action but the point of sale's, on the server, over real HTTP against the production
 * build: the pages and routes are found by walking app/dashboard, the server actions in the
 * build's server-reference manifest, so a page or action added later is walked too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createUser, openSession } from '@/lib/users';
import { countRows } from './support/database';
import { withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';

const ROOT = path.resolve(import.meta.dirname, '..');
const DASHBOARD = path.join(ROOT, 'app', 'dashboard');
/** Pages open to anyone (signing in, setting a password up), the 403 page itself, and the cashier's own. */
const OPEN = [
  /^\/dashboard\/sign-in/,
  /^\/dashboard\/set-up\//,
  /^\/dashboard\/forgot-password$/,
  /^\/dashboard\/forbidden$/,
  /^\/dashboard\/pos(\/|$)/,
];
/** The actions a cashier may call: its sale, signing out; and those of the pages open to anyone. */
const ALLOWED_ACTIONS = [
  'startSaleAction',
  'switchPosMode',
  'signOut',
  'signInAction',
  'secondFactorAction',
  'setUpAction',
  'forgotPasswordAction',
];

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));

/** Every page and route handler under app/dashboard as a URL path, dynamic segments filled with a random id. */
function dashboardPaths(dir = DASHBOARD, prefix = '/dashboard'): { path: string; kind: 'page' | 'route' }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile() && (entry.name === 'page.tsx' || entry.name === 'route.ts'))
      return [{ path: prefix, kind: entry.name === 'page.tsx' ? ('page' as const) : ('route' as const) }];
    if (!entry.isDirectory()) return [];
    const segment = /^\(.*\)$/.test(entry.name)
      ? ''
      : /^\[.*\]$/.test(entry.name)
        ? `/${crypto.randomUUID()}`
        : `/${entry.name}`;
    return dashboardPaths(path.join(dir, entry.name), `${prefix}${segment}`);
  });
}

async function cashierCookie(): Promise<string> {
  const { user } = await createUser(gateway.db, {
    merchant: merchant.merchantId,
    email: `cashier-${crypto.randomUUID()}@shop.example`,
    role: 'cashier',
    password: 'a long and unguessable cashier password',
  });
  const session = await openSession(gateway.db, user.id, 'signed-in', {});
  return `cg_session=${session.token}`;
}

describe('a cashier', () => {
  it('is refused every dashboard page and route but the point of sale', async () => {
    const cookie = await cashierCookie();
    const walked = dashboardPaths().filter(({ path: p }) => !OPEN.some((open) => open.test(p)));
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
    const manifest = JSON.parse(
      fs.readFileSync(path.join(ROOT, '.next', 'server', 'server-reference-manifest.json'), 'utf8'),
    ) as { node: Record<string, { workers: Record<string, unknown>; exportedName?: string; filename?: string }> };
    const actions = Object.entries(manifest.node).filter(
      ([, action]) =>
        Object.keys(action.workers).some((worker) => worker.startsWith('app/dashboard')) &&
        !ALLOWED_ACTIONS.includes(action.exportedName ?? ''),
    );
    expect(actions.length).toBeGreaterThan(10);
    const before = await countRows(gateway.db);
    for (const [id, action] of actions) {
      const page = Object.keys(action.workers)
        .find((worker) => worker.startsWith('app/dashboard'))!
        .replace(/^app/, '')
        .replace(/\/page$/, '')
        .replace(/\/\([^/]+\)/g, '')
        .replace(/\/\[[^/]+\]/g, `/${crypto.randomUUID()}`);
      // A call as React posts one (multipart, the arguments in field 0): a body of another shape is
      // refused 400 before any action runs (lib/security/posted-form.ts).
      const call = new FormData();
      call.set('0', '[]');
      const response = await fetch(`${gateway.baseUrl}${page}`, {
        method: 'POST',
        headers: { cookie, 'next-action': id, origin: gateway.baseUrl },
        body: call,
        redirect: 'manual',
      });
      expect(response.status, `${action.exportedName ?? id} on ${page}`).toBe(403);
    }
    expect(await countRows(gateway.db)).toEqual(before);
  });
});
