import 'server-only';
/**
 * The merchant API served on node:http, in front of Next.js (scripts/server.mjs asks it first
 * for every request). The same operations and wrapper as the catch-all route in app/api-gateway;
 * what it leaves out is Next.js's per-request machinery (router, web Request/Response objects,
 * streams, abort signals), which cost ~2.5 ms of CPU per request on the benchmark machine, ten
 * times the gateway's own work. That cost is also what made overload hurt: a request had to go
 * through it before the in-flight limit could refuse it, so under a flood the 503s themselves
 * queued for seconds. Here a refused request costs the HTTP parse and a short write.
 *
 * Every request to a known operation is answered here (another method than POST with 405), and so
 * are the operations endpoints (/healthz, /readyz, /metrics: lib/ops); anything else (an unknown
 * operation, the pages) goes on to Next.js.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { config } from '../config';
import { log } from '../log';
import { serveOps } from '../ops';
import { processSlot } from '../process';
import { clientAddressOf } from '../security';
import { readBody } from './body';
import { API_PATHS } from './operations';
import { errorReply, methodNotAllowed, type ApiOperation, type ApiReply, type ApiRequest } from './route';

const PREFIX = '/api-gateway/';

/** The operation `url` names (query string and trailing slash ignored), if it names one. */
function operationAt(url: string): ApiOperation | undefined {
  if (!url.startsWith(PREFIX)) return undefined;
  let end = url.indexOf('?');
  if (end < 0) end = url.length;
  if (url.charCodeAt(end - 1) === 0x2f /* / */) end--;
  return API_PATHS.get(url.slice(PREFIX.length, end));
}

/** Answers `req` itself and returns true when it is a merchant API call; false leaves it to Next.js. */
export function serveApi(req: IncomingMessage, res: ServerResponse): boolean {
  const operation = operationAt(req.url ?? '');
  if (!operation) return serveOps(req, res);
  if (req.method !== 'POST') {
    send(req, res, methodNotAllowed(req.method));
    return true;
  }
  // Node.js joins repeated X-Forwarded-For headers into one; its type still allows a list.
  const forwardedFor = req.headers['x-forwarded-for'];
  const request: ApiRequest = {
    header: (name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    // The peer, or behind a trusted proxy the client it forwarded for (TRUSTED_PROXIES).
    clientAddress: clientAddressOf(
      req.socket.remoteAddress,
      Array.isArray(forwardedFor) ? forwardedFor.join(', ') : forwardedFor,
      config().trustedProxies,
    ),
    readBody: (limit) => readBody(req, limit),
  };
  operation(request).then(
    (reply) => send(req, res, reply),
    (error: unknown) => {
      // The wrapper answers every error itself; reaching this is a bug, still answered.
      log.error('api front failed', { url: req.url, error, stack: (error as Error)?.stack });
      send(req, res, errorReply('INTERNAL_ERROR', randomUUID()));
    },
  );
  return true;
}

function send(req: IncomingMessage, res: ServerResponse, reply: ApiReply): void {
  // A body not read to its end (refused from the headers, too large, too slow) is not drained:
  // Node.js would keep reading it to reuse the connection, for as long as the sender likes.
  if (!req.complete) res.setHeader('connection', 'close');
  res
    .writeHead(reply.status, { ...reply.headers, 'content-length': String(Buffer.byteLength(reply.body)) })
    .end(reply.body);
}

/** What start-up tells the HTTP server (scripts/lib/http-server.mjs reads the same slot). */
export interface GatewayStarted {
  publicBaseUrl: string;
}

interface FrontSlot {
  serve?: typeof serveApi;
  started?: GatewayStarted;
  waiting: ((started: GatewayStarted) => void)[];
}

/**
 * Publishes `serveApi` to the HTTP server in this process (scripts/server.mjs, the tests' gateway)
 * and tells it start-up has finished. Through a process-wide slot because that server is plain
 * Node.js outside the bundle, which is where this module and the database it uses live.
 */
export function installApiFront(started: GatewayStarted): void {
  const front = processSlot<FrontSlot>('api.front', () => ({ waiting: [] }));
  front.serve = serveApi;
  front.started = started;
  for (const resolve of front.waiting.splice(0)) resolve(started);
}
