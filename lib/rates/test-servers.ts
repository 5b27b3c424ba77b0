/**
 * Stand-ins for the market-data providers in tests: a node:http server on 127.0.0.1 (port 0)
 * answering in a provider's documented format, and recording what it was asked. There is no
 * internet in tests, and a real provider's prices move.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Asked {
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** What the server answers: a JSON value (200), or status/body/headers, or 'hang' (never answers). */
export type Answer = unknown | { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface TestServer {
  url: string;
  asked: Asked[];
  /** Sets the answer to every following request. */
  answer(next: Answer | ((asked: Asked) => Answer)): void;
  close(): Promise<void>;
}

/** `{ raw: ... }` marks an answer given as status, body and headers rather than JSON. */
export const raw = (status: number, body = '', headers: Record<string, string> = {}) => ({
  raw: { status, body, headers },
});

export async function testServer(initial: Answer = {}): Promise<TestServer> {
  let current: Answer | ((asked: Asked) => Answer) = initial;
  const asked: Asked[] = [];
  const server = http.createServer((request, response) => {
    const entry = { url: request.url ?? '', headers: request.headers };
    asked.push(entry);
    const answer = typeof current === 'function' ? (current as (a: Asked) => Answer)(entry) : current;
    if (answer === 'hang') return; // never answers; the client's signal ends it
    if (answer && typeof answer === 'object' && 'raw' in answer) {
      const { status, body, headers } = (
        answer as { raw: { status: number; body: string; headers: Record<string, string> } }
      ).raw;
      response.writeHead(status, headers);
      response.end(body);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    answer(next) {
      current = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
