/** lib/security: response headers (content security policy), request path checks (proxy.ts), and the rate limiter. */
export { contentSecurityPolicy, newNonce, type CspOptions } from './headers';
export { literalPercentPath } from './request-path';
export { isCrossSite } from './cross-site';
export { perMinute, rateLimitWait, rateLimitWaitAll, type RateLimit } from './rate-limit';
export { clientKey } from './client-key';
