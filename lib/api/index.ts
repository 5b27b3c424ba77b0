import 'server-only';
/**
 * lib/api as the rest of the gateway sees it: the operation table and the wrapper's adapters for
 * Next.js routes, the node:http front the server installs, and the nonce pruning it schedules.
 */
export { API_OPERATIONS, API_PATHS } from './operations';
export { errorReply, nextMethodNotAllowed, nextRoute, webResponse } from './route';
export { installApiFront, type GatewayStarted } from './http-front';
export { pruneNonces } from './nonces';
