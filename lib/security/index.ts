/** lib/security: response headers (content security policy), request path checks, cross-site requests, client addresses and the rate limiter. */
export { contentSecurityPolicy, newNonce, type CspOptions } from './headers';
export { literalPercentPath } from './request-path';
export { isCrossSite } from './cross-site';
export { clientAddressOf, clientKey } from './client-address';
export { perMinute, rateLimitWait, rateLimitWaitAll, type RateLimit } from './rate-limit';
