import { randomUUID } from 'node:crypto';
import { API_PATHS, errorReply, nextMethodNotAllowed, nextRoute, webResponse } from '@/lib/api';

const PREFIX = '/api-gateway/';

/**
 * Every merchant API path, for servers that reach Next.js with it (`next dev`, or a server started
 * without the node:http front of lib/api/http-front.ts): the operations, the clients' other
 * spellings of them and the operations refused with NOT_SUPPORTED, all in lib/api's API_PATHS,
 * with or without a trailing slash. Anything else answers the JSON error envelope rather than an
 * HTML page. One route for all of them: the operations table already knows every path.
 */
function operationAt(request: Request) {
  const { pathname } = new URL(request.url);
  return API_PATHS.get(pathname.slice(PREFIX.length).replace(/\/$/, ''));
}

function notFound(request: Request): Response {
  return webResponse(errorReply('NOT_FOUND', randomUUID(), `No operation at ${new URL(request.url).pathname}.`));
}

export function POST(request: Request): Promise<Response> | Response {
  const operation = operationAt(request);
  return operation ? nextRoute(operation)(request) : notFound(request);
}

export function GET(request: Request): Response {
  return operationAt(request) ? nextMethodNotAllowed(request) : notFound(request);
}
