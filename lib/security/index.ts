/** lib/security: response headers (content security policy), request path checks, cross-site requests, malformed form posts, client addresses, the rate limiter and bearer tokens (sessions, one-time links). */
export { contentSecurityPolicy, newNonce, nonceOf, type CspOptions } from './headers';
export { literalPercentPath } from './request-path';
export { isCrossSite } from './cross-site';
export { clientAddressOf, clientKey, clientOfRequest } from './client-address';
export { perMinute, rateLimitWait, rateLimitWaitAll, type RateLimit } from './rate-limit';
export { malformedPost, postedForm } from './posted-form';
export { derivedToken, isTokenShaped, newToken, tokenHash } from './tokens';
