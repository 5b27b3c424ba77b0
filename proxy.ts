/**
 * Runs before every page (Next.js 16 "proxy", formerly middleware; Node.js runtime): a
 * Content-Security-Policy with a fresh script nonce, and the payment page's language.
 *
 * - CSP: see lib/security/headers.ts and docs/decisions/008-payment-page.md. The payer's pages
 *   (the payment page, and the invoice page that leads to it) may be framed by the gateway itself
 *   and the FRAME_ANCESTORS sites; every other page by none.
 *   The demo store's pages may frame the gateway the store links to (its embedded checkout),
 *   which is another origin whenever the store is opened at another address than that gateway's.
 * - Language of the payer's pages, /pay/*, /invoice/*, /link/*, /subscription/* and /refund/* (and English or Arabic for the point of sale): `?lang=` or Accept-Language (lib/pay/i18n), handed to the
 *   root layout (`<html lang dir>`) and the page in a request header that this proxy always
 *   overwrites.
 *
 * - A path whose percent-encoding does not decode (`/pay/%ZZ`) is rewritten with its `%` taken
 *   literally (lib/security/request-path.ts): Next.js's router would answer it a bare 500; the
 *   route now answers it as the unknown id it is (the payment page's 404, the status route's JSON 404).
 *
 * - A page's POST that cannot be a form of this app (not multipart for a server action's call, a
 *   broken multipart body, a call without arguments) is answered 400 here: Next.js would answer it 500.
 *
 * API routes (/api, /api-gateway, /internal) skip the proxy unless their path holds a `%` (a
 * status poll never does): they answer JSON, and the merchant API's latency is not spent here.
 * Their static headers come from next.config.mjs.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { config as gatewayConfig, storeGatewayUrl } from './lib/config';
import { LANGUAGE_HEADER, negotiateLanguage } from './lib/pay/i18n';
import { contentSecurityPolicy, isCrossSite, literalPercentPath, malformedPost, newNonce } from './lib/security';

/** The dashboard page's path and query, set here only (any value the client sent is overwritten or removed). */
const DASHBOARD_PATH_HEADER = 'x-dashboard-path';
const API_PATH = /^\/(api|api-gateway|internal)\//;
/** The payer's pages: the payment page, the invoice page (its coin choice), a payment link's page, a subscriber's page. */
const PAYER_PAGE = /^\/(pay|invoice|link|subscription)\//;
/** A refund's claim page: the payer's too, in their language, but framed by no site (its link is a bearer secret). */
const CLAIM_PAGE = /^\/refund\//;
const POS_PAGE = '/dashboard/pos';

/** The request's URL with its undecodable path taken literally, if its path does not decode. */
function literalUrl(request: NextRequest): URL | undefined {
  const pathname = literalPercentPath(request.nextUrl.pathname);
  if (pathname === undefined) return undefined;
  const url = request.nextUrl.clone();
  url.pathname = pathname;
  return url;
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const rewritten = literalUrl(request);
  const { pathname } = request.nextUrl;
  if (API_PATH.test(pathname)) return rewritten ? NextResponse.rewrite(rewritten) : NextResponse.next();
  const payerPage = PAYER_PAGE.test(pathname);
  const claimPage = CLAIM_PAGE.test(pathname);
  const storePage = pathname === '/store' || pathname.startsWith('/store/');
  const dashboardPage = pathname === '/dashboard' || pathname.startsWith('/dashboard/');
  // Another site's post to a page (a server action: the dashboard's, the invoice page's coin
  // choice, the demo store's) is refused here with a 403: Next.js's own Origin check would answer
  // it a 500 and log an error.
  if (
    request.method !== 'GET' &&
    request.method !== 'HEAD' &&
    isCrossSite((name) => request.headers.get(name), gatewayConfig().publicBaseUrl)
  ) {
    return new NextResponse('Cross-site requests are refused.', {
      status: 403,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
    });
  }
  // A post that cannot be a form of this app (not multipart, a broken body, a server action's call
  // without arguments): Next.js would answer it 500 (lib/security/posted-form.ts).
  if (request.method === 'POST') {
    const malformed = await malformedPost(request);
    if (malformed)
      return new NextResponse('This form post could not be read: reload the page and send the form again.', {
        status: 400,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
      });
  }
  const csp = contentSecurityPolicy({
    nonce: newNonce(),
    frameAncestors: payerPage ? gatewayConfig().frameAncestors : null,
    // Only the store's gateway, by origin: not 'self', nor anything a request could name.
    frameSrc: storePage ? [new URL(storeGatewayUrl()).origin] : undefined,
    dev: process.env.NODE_ENV === 'development',
  });
  const headers = new Headers(request.headers);
  headers.set('content-security-policy', csp);
  const language = negotiateLanguage(request.nextUrl.searchParams.get('lang'), request.headers.get('accept-language'));
  // The point of sale speaks English and Arabic (lib/links/pos-texts.ts); the rest of the dashboard English.
  headers.set(
    LANGUAGE_HEADER,
    payerPage || claimPage ? language : pathname === POS_PAGE && language === 'ar' ? 'ar' : 'en',
  );
  // Where a signed-out visitor of a dashboard page comes back to after signing in (app/dashboard/session.ts).
  if (dashboardPage) headers.set(DASHBOARD_PATH_HEADER, `${pathname}${request.nextUrl.search}`);
  else headers.delete(DASHBOARD_PATH_HEADER);
  const response = rewritten
    ? NextResponse.rewrite(rewritten, { request: { headers } })
    : NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', csp);
  // Legacy twin of frame-ancestors for old browsers, where it can say the same thing.
  if (!payerPage) response.headers.set('x-frame-options', 'DENY');
  else if (gatewayConfig().frameAncestors.length === 0) response.headers.set('x-frame-options', 'SAMEORIGIN');
  // The invoice page's coin choice is a form post, which works without JavaScript. Under
  // next.config's `no-referrer` the browser sends such a post with `Origin: null`, which Next.js's
  // server-action check refuses; `same-origin` sends the real origin to the gateway itself and
  // still nothing to any other site (the link stays a capability).
  // The dashboard's and the demo store's forms and server actions, a payment link's "continue"
  // (its route handler), the payment page's "pay the rest" (docs/decisions/069) and the
  // subscriber page's and the refund claim page's forms are refused the same way without it: above, as cross-site.
  if (payerPage || claimPage || dashboardPage || storePage) response.headers.set('referrer-policy', 'same-origin');
  return response;
}

export const config = {
  matcher: [
    { source: '/((?!api/|api-gateway/|internal/|_next/static|_next/image|favicon.ico).*)' },
    { source: '/((?:api|api-gateway|internal)/.*%.*)' },
  ],
};
