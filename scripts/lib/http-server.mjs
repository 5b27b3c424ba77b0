// The HTTP server of every gateway process that serves requests (scripts/server.mjs, the tests'
// gateway): the merchant API's node:http front first (lib/api/http-front.ts), Next.js for
// everything else. Start-up (instrumentation.ts, run by Next.js in the background once the app is
// prepared) publishes the front through a process-wide slot, since this file is plain Node.js
// outside the bundle where the front, the database and the caches live.
import http from 'node:http';

// The 'api.front' slot of lib/process (its processSlotKey), spelled out: this file cannot import
// TypeScript. lib/process/process.test.ts checks that the two meet.
const FRONT = Symbol.for('gateway.api.front');

/** @returns {{ serve?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean, started?: { publicBaseUrl: string }, waiting: ((started: { publicBaseUrl: string }) => void)[] }} */
function frontSlot() {
  return (globalThis[FRONT] ??= { waiting: [] });
}

// Deliberate timeouts, tighter than Node's defaults (60 s for headers, 300 s for a request, and
// both checked only every 30 s), which let a client that sends a byte at a time hold a connection
// for five minutes. Merchant-API bodies have their own, shorter limit (API_BODY_TIMEOUT_SECONDS,
// at most 30 s, answered with a JSON 408 before this one cuts the connection).
export const SERVER_TIMEOUTS = {
  /** From connection (or the end of the previous request) to the end of the headers. */
  headersTimeout: 10_000,
  /** From connection to the end of the request body. */
  requestTimeout: 60_000,
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeout: 5_000,
  /** How often the two first are checked. */
  connectionsCheckingInterval: 1_000,
};

/**
 * @param {(req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>} nextHandler
 * @returns {(req: http.IncomingMessage, res: http.ServerResponse) => void}
 */
export function gatewayRequestListener(nextHandler) {
  const front = frontSlot();
  return (req, res) =>
    startSoon(() => {
      if (front.serve) {
        if (front.serve(req, res)) return;
      } else if (answerWhileStarting(req, res)) return;
      // The connection's address, for the dashboard's sign-in throttle and audit log
      // (app/dashboard/session.ts clientAddress): set here, over anything the client sent, because
      // Next.js keeps a client's own x-forwarded-for (read only through TRUSTED_PROXIES' hops).
      req.headers['x-gateway-peer'] = req.socket.remoteAddress ?? '';
      void nextHandler(req, res);
    });
}

/**
 * Until start-up has finished (migrations, address pools), the front that answers the operations
 * endpoints (lib/ops/http.ts) is not there yet: the process is alive, and not ready.
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
function answerWhileStarting(req, res) {
  const pathname = (req.url ?? '').split('?')[0];
  if (pathname !== '/healthz' && pathname !== '/readyz') return false;
  const [status, body] =
    pathname === '/healthz'
      ? [200, { status: 'ok' }]
      : [503, { ready: false, problems: ['starting: start-up has not finished'] }];
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  return true;
}

// Node.js 20 (libuv >= 1.45) accepts one new connection per turn of the event loop, and a turn
// serves every request that arrived on the open connections: under a burst on keep-alive
// connections a turn took 100-250 ms, and new connections waited in the accept queue for 5-28 s
// (`ss -lnt` showed 95 waiting, draining at ~10/s). So requests are started from the loop's check
// phase with a time budget per turn: those left over start in the next turn, after that turn's
// poll phase has accepted its connection. The same work gets done; turns stay short.
const TURN_BUDGET_MS = 5;
/** @type {(() => void)[]} */
const waiting = [];
/** @type {{ started: number, remaining: number } | undefined} */
let turn;

/** @param {() => void} start */
function startSoon(start) {
  waiting.push(start);
  if (!turn) scheduleTurn();
}

function scheduleTurn() {
  const current = { started: 0, remaining: waiting.length };
  turn = current;
  // One immediate per waiting request, so that each one's synchronous work (and its microtasks)
  // has run when the next looks at the clock. Scheduled from the check phase, they run next turn.
  setImmediate(() => (current.started = performance.now()));
  for (let i = 0; i < current.remaining; i++) setImmediate(startOne, current);
}

/** @param {{ started: number, remaining: number }} current */
function startOne(current) {
  if (current !== turn) return;
  current.remaining--;
  if (performance.now() - current.started > TURN_BUDGET_MS) return scheduleTurn();
  waiting.shift()?.();
  if (current.remaining === 0) {
    if (waiting.length > 0) scheduleTurn();
    else turn = undefined;
  }
}

/** @param {(req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>} nextHandler */
export function createGatewayServer(nextHandler) {
  const { keepAliveTimeout, ...options } = SERVER_TIMEOUTS;
  const server = http.createServer(options, gatewayRequestListener(nextHandler));
  server.keepAliveTimeout = keepAliveTimeout;
  return server;
}

/**
 * Resolves once start-up has finished (database open and migrated, demo merchant, workers, the
 * front installed), with what it publishes; never, when start-up fails (it exits the process).
 * @returns {Promise<{ publicBaseUrl: string }>}
 */
export function gatewayStarted() {
  const front = frontSlot();
  return front.started ? Promise.resolve(front.started) : new Promise((resolve) => front.waiting.push(resolve));
}
