/**
 * Browsers ask for /favicon.ico by themselves where a document names no icon (a JSON answer, a
 * redirect's target before it loads): the site's one icon is app/icon.svg, which every page names.
 * A permanent redirect there instead of a 404 that each such request logs in the console. The
 * location is a path: the request's own URL may name another host than the page (localhost for
 * 127.0.0.1), which the page's CSP would refuse.
 */
export function GET(): Response {
  return new Response(null, { status: 308, headers: { location: '/icon.svg' } });
}
