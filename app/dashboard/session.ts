import 'server-only';
import { cookies, headers } from 'next/headers';
import { forbidden, redirect, RedirectType, unauthorized } from 'next/navigation';
import { config } from '@/lib/config';
import { getDatabase } from '@/lib/db';
import { clientOfRequest, isCrossSite } from '@/lib/security';
import {
  can,
  DEVICE_COOKIE,
  deviceCookie,
  readSession,
  SESSION_COOKIE,
  sessionCookie,
  type Client,
  type DashboardSession,
  type NewSession,
  type Permission,
  type RememberedDevice,
} from '@/lib/users';

/**
 * The one gate of the dashboard: every page, server action and route handler asks it first,
 * every time (a role changed or a session revoked takes effect on the next request).
 */

/** Set by proxy.ts on dashboard pages: the path and query to come back to after signing in. */
const DASHBOARD_PATH_HEADER = 'x-dashboard-path';

export interface GateOptions {
  /**
   * Open to an owner who must enrol in two-factor first (the merchant requires it): only the
   * account page and its actions (enrolment, sign-out) say so.
   */
  enrolment?: boolean;
}

/** The signed-in session of this request's cookie, if any. */
export async function currentSession(): Promise<DashboardSession | undefined> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!token) return undefined;
  return readSession(await getDatabase(), token);
}

/** A path of the dashboard to come back to, or undefined for anything else (another site, `//host`, `/\\host`). */
export function safeNext(value: unknown): string | undefined {
  return typeof value === 'string' && /^\/dashboard(?:[/?#]|$)/.test(value) && !/[\\\s]|\/\//.test(value)
    ? value
    : undefined;
}

/** For pages (server components): signed out -> redirect('/dashboard/sign-in?next=...'); lacking the permission -> forbidden() (403 page). */
export async function requirePage(
  permission: Permission = 'view',
  options: GateOptions = {},
): Promise<DashboardSession> {
  const session = await currentSession();
  if (!session) {
    const next = safeNext((await headers()).get(DASHBOARD_PATH_HEADER));
    redirect(
      next && next !== '/dashboard' ? `/dashboard/sign-in?next=${encodeURIComponent(next)}` : '/dashboard/sign-in',
    );
  }
  if (session.mustEnrolTwoFactor && !options.enrolment) redirect('/dashboard/account?enrol=required');
  if (!can(session.role, permission)) forbidden();
  return session;
}

/** The cross-site rule of lib/security, on this gateway's public URL. */
function crossSite(header: (name: string) => string | null): boolean {
  return isCrossSite(header, config().publicBaseUrl);
}

/**
 * Refuses a server action: forbidden() (403) or unauthorized() (401). Next.js answers those with
 * their status only for an action called by the page's JavaScript (it sends `Next-Action`); for a
 * form posted without JavaScript it renders the not-found page with a 404 instead (Next.js 16
 * action-handler). Such a post is sent on with a 303 to a page that answers the 403 (or to sign-in).
 */
async function refuse(kind: 'forbidden' | 'unauthorized'): Promise<never> {
  const fromScript = (await headers()).has('next-action');
  if (kind === 'forbidden') return fromScript ? forbidden() : redirect('/dashboard/forbidden', RedirectType.push);
  return fromScript ? unauthorized() : redirect('/dashboard/sign-in', RedirectType.push);
}

/** For server actions: same checks every call, plus the cross-site check; refuses with forbidden() / unauthorized(). */
export async function requireAction(permission: Permission, options: GateOptions = {}): Promise<DashboardSession> {
  const list = await headers();
  // proxy.ts refuses cross-site posts already; checked again here so the rule holds for every
  // action whatever the proxy's matcher says.
  if (crossSite((name) => list.get(name))) return refuse('forbidden');
  const session = await currentSession();
  if (!session) return refuse('unauthorized');
  if ((session.mustEnrolTwoFactor && !options.enrolment) || !can(session.role, permission)) return refuse('forbidden');
  return session;
}

/** For route handlers (e.g. CSV export): the session or a Response (401 JSON, 403 JSON, cross-site 403). */
export async function requireRoute(request: Request, permission: Permission): Promise<DashboardSession | Response> {
  const noStore = { 'cache-control': 'no-store' };
  if (crossSite((name) => request.headers.get(name)))
    return Response.json({ error: 'Cross-site requests are refused.' }, { status: 403, headers: noStore });
  const session = await currentSession();
  if (!session) return Response.json({ error: 'Sign in first.' }, { status: 401, headers: noStore });
  if (session.mustEnrolTwoFactor || !can(session.role, permission))
    return Response.json({ error: 'Your role does not allow this.' }, { status: 403, headers: noStore });
  return session;
}

/**
 * The caller's address for audit and throttling: the connection's peer, or behind a trusted proxy
 * (TRUSTED_PROXIES) the client it forwarded for; never what a client wrote itself.
 */
export async function clientAddress(): Promise<string | null> {
  const list = await headers();
  return clientOfRequest(list, config().trustedProxies) ?? null;
}

/** The caller's browser, for the session list; never trusted for anything. */
export async function clientAgent(): Promise<string | null> {
  return (await headers()).get('user-agent');
}

/** Who is signing in: the address, the browser, and the device cookie of an earlier sign-in (lib/users). */
export async function signingInClient(): Promise<Client> {
  return {
    ip: await clientAddress(),
    userAgent: await clientAgent(),
    device: (await cookies()).get(DEVICE_COOKIE)?.value ?? null,
  };
}

/** Signed in: the session's cookie, and the device's (this browser is known to the user from now on). */
export async function keepSignIn(result: { session: NewSession; device: RememberedDevice }): Promise<void> {
  const jar = await cookies();
  jar.set(sessionCookie(result.session));
  jar.set(deviceCookie(result.device));
}
