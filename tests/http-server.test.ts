/**
 * The gateway's HTTP server (scripts/lib/http-server.mjs) keeps accepting new connections while
 * it is busy. Node.js 20 accepts one connection per turn of its event loop, and a turn used to
 * serve every request waiting on the open keep-alive connections: under a burst, new
 * connections waited in the accept queue while the same keep-alive clients were served again and
 * again (5-28 s measured). Counted here in requests, not seconds: while a few new connections
 * wait for their first answer, the busy clients get only a few answers each.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayServer } from '../scripts/lib/http-server.mjs';

// No database here: run in one Vitest project only.
describe('the HTTP server under a burst', () => {
  const BUSY_CLIENTS = 20;
  const NEW_CLIENTS = 20;
  const WORK_MS = 10;

  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    // Stands in for a request's synchronous work (an embedded-database statement runs in this thread).
    server = createGatewayServer(async (_req, res) => {
      const until = performance.now() + WORK_MS;
      while (performance.now() < until);
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  function get(agent: http.Agent): Promise<void> {
    return new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/', agent }, (res) => res.resume().on('end', resolve))
        .on('error', reject);
    });
  }

  it('accepts new connections while keep-alive clients keep it busy, and serves them in turn', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: BUSY_CLIENTS });
    // The busy clients open their connections first and keep them busy, each sending its next
    // request as soon as the last is answered.
    await Promise.all(Array.from({ length: BUSY_CLIENTS }, () => get(agent)));
    const answersWhileWaiting = Array<number>(BUSY_CLIENTS).fill(0);
    let waitingForNew = true;
    const busy = Array.from({ length: BUSY_CLIENTS }, async (_, i) => {
      while (waitingForNew) {
        await get(agent);
        if (waitingForNew) answersWhileWaiting[i]!++;
      }
    });
    // New clients, one connection each.
    await Promise.all(Array.from({ length: NEW_CLIENTS }, () => get(new http.Agent({ keepAlive: false }))));
    waitingForNew = false;
    await Promise.all(busy);
    agent.destroy();
    // In turn: each new request waits for about one round of the busy clients (plus the turns it
    // takes to accept the new connections), never for one round per connection accepted before it.
    expect(Math.max(...answersWhileWaiting)).toBeLessThanOrEqual(4);
  });
});
