/**
 * Security headers of the gateway's pages (set per request by proxy.ts; the static ones for
 * every response, API included, come from next.config.mjs). Pure, unit-tested.
 *
 * The CSP uses a fresh nonce per request for scripts (see docs/decisions/008-payment-page.md):
 * Next.js puts the nonce on its own inline and chunk scripts when it finds it in the request's
 * CSP header, and 'strict-dynamic' lets those load the chunks they import. No 'unsafe-inline'
 * and no 'unsafe-eval' for scripts in production.
 */

export interface CspOptions {
  nonce: string;
  /** `frame-ancestors` sources besides 'self'; null means no framing at all ('none'). */
  frameAncestors: readonly string[] | null;
  /** What the page may show in an iframe (`frame-src`); unset means default-src, 'self' only. */
  frameSrc?: readonly string[];
  /** next dev needs eval for its error overlay; never in production. */
  dev?: boolean;
}

export function contentSecurityPolicy({ nonce, frameAncestors, frameSrc, dev = false }: CspOptions): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // React and Next set a few style attributes (e.g. the route announcer); styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    ...(frameSrc ? [`frame-src ${frameSrc.join(' ')}`] : []),
    `frame-ancestors ${frameAncestors === null ? "'none'" : ["'self'", ...frameAncestors].join(' ')}`,
  ].join('; ');
}

/**
 * The script nonce of a policy written by contentSecurityPolicy (proxy.ts hands it to the page in
 * the request's `content-security-policy` header), for a page drawn outside React that must put
 * it on its own script tags; null when the policy has none (a request the proxy did not see).
 */
export function nonceOf(policy: string | null): string | null {
  return /'nonce-([A-Za-z0-9+/]+={0,2})'/.exec(policy ?? '')?.[1] ?? null;
}

/** A nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
