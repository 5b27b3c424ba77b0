/**
 * Browsers ask for /favicon.ico by themselves where a document names no icon (a JSON answer, a
 * redirect's target before it loads): the site's one icon is app/icon.svg, which every page names.
 * A permanent redirect there instead of a 404 that each such request logs in the console.
 */
export function GET(request: Request): Response {
  return Response.redirect(new URL('/icon.svg', request.url), 308);
}
