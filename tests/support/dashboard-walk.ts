/**
 * Every dashboard page, route handler and server action, found in the sources and the production
 * build rather than listed by hand, so that one added later is walked too: the cashier's refusals
 * over HTTP (tests/cashier-refused.pg.test.ts) and in the browser (e2e/pos.spec.ts).
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const DASHBOARD = path.join(ROOT, 'app', 'dashboard');

/** Pages open to anyone (signing in, setting a password up), the 403 page itself, and the cashier's own. */
export const CASHIER_OPEN_PAGES = [
  /^\/dashboard\/sign-in/,
  /^\/dashboard\/set-up\//,
  /^\/dashboard\/forgot-password$/,
  /^\/dashboard\/forbidden$/,
  /^\/dashboard\/pos(\/|$)/,
];
/** The actions a cashier may call: its sale, signing out; and those of the pages open to anyone. */
export const CASHIER_ACTIONS = [
  'startSaleAction',
  'switchPosMode',
  'signOut',
  'signInAction',
  'secondFactorAction',
  'setUpAction',
  'forgotPasswordAction',
];

/** Every page and route handler under app/dashboard as a URL path, dynamic segments filled with a random id. */
export function dashboardPaths(dir = DASHBOARD, prefix = '/dashboard'): { path: string; kind: 'page' | 'route' }[] {
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

/** The dashboard pages and routes a cashier must be refused: all but the open ones. */
export function pathsRefusedToCashiers(): { path: string; kind: 'page' | 'route' }[] {
  return dashboardPaths().filter(({ path: p }) => !CASHIER_OPEN_PAGES.some((open) => open.test(p)));
}

/** The dashboard's server actions a cashier must be refused (all but CASHIER_ACTIONS). */
export function actionsRefusedToCashiers(): { id: string; name: string; page: string }[] {
  return dashboardActions().filter(({ name }) => !CASHIER_ACTIONS.includes(name));
}

/**
 * The dashboard's server actions, from the build's server-reference manifest: each with its id,
 * its name and the page that posts it (dynamic segments filled).
 */
export function dashboardActions(): { id: string; name: string; page: string }[] {
  const manifest = JSON.parse(
    fs.readFileSync(path.join(ROOT, '.next', 'server', 'server-reference-manifest.json'), 'utf8'),
  ) as { node: Record<string, { workers: Record<string, unknown>; exportedName?: string }> };
  return Object.entries(manifest.node).flatMap(([id, action]) => {
    const worker = Object.keys(action.workers).find((name) => name.startsWith('app/dashboard'));
    if (!worker) return [];
    const page = worker
      .replace(/^app/, '')
      .replace(/\/page$/, '')
      .replace(/\/\([^/]+\)/g, '')
      .replace(/\/\[[^/]+\]/g, `/${crypto.randomUUID()}`);
    return [{ id, name: action.exportedName ?? id, page }];
  });
}
