/** lib/security: response headers (content security policy) and request path checks, for proxy.ts. */
export { contentSecurityPolicy, newNonce, type CspOptions } from './headers';
export { literalPercentPath } from './request-path';
export { isCrossSite } from './cross-site';
