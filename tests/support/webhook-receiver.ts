import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A merchant's webhook endpoint for tests: a real HTTP server on 127.0.0.1 that records every
 * request (headers, raw body, time of receipt) and answers as the test tells it to.
 */
export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
  path: string;
  /** Date.now() when the body had arrived. */
  at: number;
}

export type Answer = { status: number; body?: string; delayMs?: number } | 'hang';

export interface Receiver {
  port: number;
  url(path?: string): string;
  received: Received[];
  /** Distinct x-webhook-id values received. */
  ids(): Set<string>;
  /** Stops listening (connections are then refused); `listen()` starts again on the same port. */
  close(): Promise<void>;
  listen(): Promise<void>;
}

export async function startReceiver(
  answer: (request: Received, index: number) => Answer = () => ({ status: 200, body: 'ok' }),
  port = 0,
): Promise<Receiver> {
  const received: Received[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const entry: Received = { headers: req.headers, raw, body, path: req.url ?? '/', at: Date.now() };
      received.push(entry);
      const reply = answer(entry, received.length - 1);
      if (reply === 'hang') return; // never answers; the socket is destroyed on close()
      const send = () => res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.body ?? '');
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  let listening = false;
  const listen = async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
    listening = true;
  };
  await listen();
  return {
    get port() {
      return port;
    },
    url: (path = '/webhook') => `http://127.0.0.1:${port}${path}`,
    received,
    ids: () => new Set(received.map((r) => String(r.headers['x-webhook-id']))),
    async close() {
      if (!listening) return;
      listening = false;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    listen,
  };
}

/** A free TCP port on 127.0.0.1 with nothing listening on it (connections are refused). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * What docs/webhooks.md tells merchants to do: verify `x-api-signature` (HMAC-SHA256 of the raw body
 * with the private key) and `x-webhook-signature` (`t=..,v1=..` over "<t>.<raw body>"), in
 * constant time. Answers which checks passed.
 */
export function verifyWebhook(
  request: Received,
  privateKey: string,
): { apiSignature: boolean; timestamped: boolean; timestamp: number } {
  const equal = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  const hmac = (data: string) => createHmac('sha256', privateKey).update(data, 'utf8').digest('hex');
  const apiSignature = equal(hmac(request.raw), String(request.headers['x-api-signature'] ?? ''));
  const header = String(request.headers['x-webhook-signature'] ?? '');
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  const timestamped =
    String(timestamp) === String(request.headers['x-webhook-timestamp']) &&
    equal(hmac(`${parts.t}.${request.raw}`), String(parts.v1 ?? ''));
  return { apiSignature, timestamped, timestamp };
}
