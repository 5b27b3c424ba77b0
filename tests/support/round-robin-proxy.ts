import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The reverse proxy of the production layout (docs/production.md), reduced to what a scale-out test needs,
 * on 127.0.0.1: requests go to the web servers in turn, with the request body buffered first (as
 * nginx does by default) and the caller's address appended to `X-Forwarded-For`. A server that
 * refuses the connection is skipped for the next one (nothing reached it, so nothing can have
 * been done twice); a server that fails after the request was sent (killed mid-request) gets the
 * caller a 502, as nginx answers a POST it will not repeat (`proxy_next_upstream` leaves
 * non-idempotent requests alone). The caller's client retries what a 502 leaves open.
 */
export interface RoundRobinProxy {
  url: string;
  /** Answers relayed per upstream port. */
  served: Map<number, number>;
  /** Requests moved to the next server because their turn's server refused the connection. */
  rerouted: number;
  /** 502s answered: a server failed after the request was sent, or every server refused it. */
  badGateway: number;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(upstreams: readonly number[]): Promise<RoundRobinProxy> {
  let turn = 0;
  const state = { served: new Map(upstreams.map((port) => [port, 0])), rerouted: 0, badGateway: 0 };
  const sockets = new Set<import('node:net').Socket>();

  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, port: number, left: number) => {
    const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path: req.url,
        headers: {
          ...withoutFraming(req.headers),
          'x-forwarded-for': forwardedFor,
          'x-forwarded-proto': 'http',
          'content-length': String(body.length),
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => state.served.set(port, state.served.get(port)! + 1));
        // The server died while answering: the caller sees a cut answer, as behind nginx.
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (res.headersSent) return res.destroy();
      if (error.code === 'ECONNREFUSED' && left > 1) {
        state.rerouted++;
        return forward(req, res, body, upstreams[(upstreams.indexOf(port) + 1) % upstreams.length]!, left - 1);
      }
      state.badGateway++;
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway</body></html>');
    });
    upstream.end(body);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () =>
      forward(req, res, Buffer.concat(chunks), upstreams[turn++ % upstreams.length]!, upstreams.length),
    );
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served: state.served,
    get rerouted() {
      return state.rerouted;
    },
    get badGateway() {
      return state.badGateway;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The body is sent whole, with its length: the caller's framing does not apply. */
function withoutFraming(headers: http.IncomingHttpHeaders): http.IncomingHttpHeaders {
  const { 'transfer-encoding': _chunked, 'content-length': _length, ...rest } = headers;
  return rest;
}
