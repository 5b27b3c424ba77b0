/**
 * Request paths whose percent-encoding does not decode (`/pay/%ZZ`: a `%` without two hex digits;
 * `/pay/%E0%A4%A`: bytes that are not UTF-8). Next.js's router decodes a route's dynamic segments
 * and, when one does not decode, answers a bare 500 (text/plain, without the security headers,
 * nothing logged). proxy.ts rewrites such a path to `literalPercentPath`'s, which the route then
 * answers like any other unknown id. Pure, unit-tested.
 */

/**
 * The path with the `%` of every segment that does not decode taken literally (`%ZZ` -> `%25ZZ`,
 * which decodes to the text `%ZZ`); undefined when every segment decodes.
 */
export function literalPercentPath(pathname: string): string | undefined {
  if (!pathname.includes('%')) return undefined;
  let changed = false;
  const segments = pathname.split('/').map((segment) => {
    try {
      decodeURIComponent(segment);
      return segment;
    } catch {
      changed = true;
      return segment.replaceAll('%', '%25');
    }
  });
  return changed ? segments.join('/') : undefined;
}
