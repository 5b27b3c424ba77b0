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
import { log } from '../log';
import { chainStatus } from './chains';
import { readiness } from './readiness';
import { METRICS_CONTENT_TYPE, metricsText } from './scrape';

const PATHS = new Set(['/healthz', '/readyz', '/metrics', '/ops/chains']);

/** Answers `req` and returns true when it names one of the operations endpoints. */
export function serveOps(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '';
  const end = url.indexOf('?');
  const pathname = end < 0 ? url : url.slice(0, end);
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
  if (!trusted) return { status: 403, type: 'application/json', body: JSON.stringify({ error: `${pathname} is served to loopback, or with Authorization: Bearer METRICS_TOKEN` }) };
  if (pathname === '/ops/chains') return { status: 200, type: 'application/json', body: JSON.stringify(chainStatus()) };
  return { status: 200, type: METRICS_CONTENT_TYPE, body: await metricsText() };
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

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-length': String(Buffer.byteLength(body)), ...extra }).end(body);
}
