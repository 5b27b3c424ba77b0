/**
 * A request another site made the browser send: `Sec-Fetch-Site: cross-site`, or an `Origin` that
 * is not this gateway's (the public URL's host, or the Host the request came to). A request with
 * neither header (curl, an old browser) is not called cross-site: SameSite=Lax keeps the session
 * cookie off other sites' posts anyway. The dashboard refuses cross-site requests (proxy.ts for
 * its posts, app/dashboard/session.ts for its actions and route handlers).
 */
export function isCrossSite(header: (name: string) => string | null, publicBaseUrl: string): boolean {
  if (header('sec-fetch-site') === 'cross-site') return true;
  const origin = header('origin');
  if (origin === null) return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true; // `Origin: null` (a sandboxed frame, a privacy-stripped post) is no origin of ours
  }
  return ![new URL(publicBaseUrl).host, header('x-forwarded-host'), header('host')].includes(host);
}
