import 'server-only';
/**
 * `/healthz`, `/readyz`, `/metrics` and `/ops/chains` on node:http, answered by the merchant API's front
 * (lib/api/http-front.ts) before Next.js, where the caller's socket address is known; before
 * start-up has finished, scripts/lib/http-server.mjs answers the first two itself.
 *
 * - `/healthz`: the process answers; nothing else is checked (a liveness probe must not restart a
 *   server because its database is slow).
 * - `/readyz`: 200 or 503 for anyone; the details (what is wrong) only for a caller allowed to
 *   read metrics, since they name nodes and errors.
 * - `/metrics` and `/ops/chains` (each watched network's head, cursor, lag and nodes: ./chains):
 *   only from loopback, or with `Authorization: Bearer METRICS_TOKEN`. A request
 *   forwarded by a reverse proxy (it carries `x-forwarded-for` or `forwarded`) never counts as
 *   loopback, even though the proxy itself connects from there.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { config } from '../config';
import { findNetwork } from '../catalog';
import { log } from '../log';
import { wakeWatcher } from '../watcher';
import { chainStatus } from './chains';
import { readiness } from './readiness';
import { METRICS_CONTENT_TYPE, metricsText } from './scrape';

const PATHS = new Set(['/healthz', '/readyz', '/metrics', '/ops/chains']);
const NEW_BLOCK = '/ops/new-block/';

/** Answers `req` and returns true when it names one of the operations endpoints. */
export function serveOps(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '';
  const end = url.indexOf('?');
  const pathname = end < 0 ? url : url.slice(0, end);
  if (pathname.startsWith(NEW_BLOCK)) {
    announceNewBlock(pathname.slice(NEW_BLOCK.length), req, res);
    return true;
  }
  if (!PATHS.has(pathname)) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'application/json', JSON.stringify({ error: 'use GET' }), { allow: 'GET, HEAD' });
    return true;
  }
  answer(pathname, req).then(
    ({ status, type, body }) => send(res, status, type, req.method === 'HEAD' ? '' : body),
    (error: unknown) => {
      log.error('operations endpoint failed', { path: pathname, error: (error as Error)?.message });
      send(res, 500, 'application/json', JSON.stringify({ error: 'internal error' }));
    },
  );
  return true;
}

async function answer(pathname: string, req: IncomingMessage): Promise<{ status: number; type: string; body: string }> {
  if (pathname === '/healthz') return { status: 200, type: 'application/json', body: JSON.stringify({ status: 'ok' }) };
  const trusted = mayReadDetails(req);
  if (pathname === '/readyz') {
    const ready = await readiness();
    const body = trusted ? ready : { ready: ready.ready };
    return { status: ready.ready ? 200 : 503, type: 'application/json', body: JSON.stringify(body) };
  }
  if (!trusted)
    return {
      status: 403,
      type: 'application/json',
      body: JSON.stringify({ error: `${pathname} is served to loopback, or with Authorization: Bearer METRICS_TOKEN` }),
    };
  if (pathname === '/ops/chains') return { status: 200, type: 'application/json', body: JSON.stringify(chainStatus()) };
  return { status: 200, type: METRICS_CONTENT_TYPE, body: await metricsText() };
}

/**
 * `POST /ops/new-block/<network>`: a live node's operator hook announcing a block (bitcoind's
 * `-blocknotify=curl -fsS -m 5 -X POST http://127.0.0.1:3000/ops/new-block/litecoin`), which starts
 * the network's watcher pass at once (lib/watcher/wake.ts). 202 `{"watching":true}` when this
 * process watches it; `false` when it does not (the worker that does is another process). Same
 * access as the metrics: anyone could otherwise make the watcher poll its node without pause.
 */
function announceNewBlock(network: string, req: IncomingMessage, res: ServerResponse): void {
  req.resume(); // the body, if any, says nothing we need
  const json = (status: number, body: unknown, extra: Record<string, string> = {}) =>
    send(res, status, 'application/json', JSON.stringify(body), extra);
  if (req.method !== 'POST') return json(405, { error: 'use POST' }, { allow: 'POST' });
  if (!mayReadDetails(req))
    return json(403, {
      error: `${NEW_BLOCK}<network> is served to loopback, or with Authorization: Bearer METRICS_TOKEN`,
    });
  if (!findNetwork(network)) return json(404, { error: `unknown network "${network.slice(0, 40)}"` });
  json(202, { watching: wakeWatcher(network, 'live') });
}

/** Loopback without a proxy in between, or the metrics token. */
export function mayReadDetails(req: Pick<IncomingMessage, 'headers' | 'socket'>): boolean {
  const token = config().metricsToken;
  const authorization = req.headers.authorization;
  if (token && authorization?.startsWith('Bearer ')) {
    const given = Buffer.from(authorization.slice('Bearer '.length));
    const expected = Buffer.from(token);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  if (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined) return false;
  return isLoopback(req.socket.remoteAddress);
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4.startsWith('127.') || address === '::1';
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Record<string, string> = {},
): void {
  res
    .writeHead(status, {
      'content-type': type,
      'cache-control': 'no-store',
      'content-length': String(Buffer.byteLength(body)),
      ...extra,
    })
    .end(body);
}
