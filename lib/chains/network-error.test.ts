import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { describeNetworkError, postRead } from './network-error';

let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A node that resets the connection of its first `resets` requests (as a reused keep-alive socket it had closed fails), then answers. */
async function node(resets: number): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (++requests <= resets) return void req.socket.resetAndDestroy();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":1}');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests: () => requests };
}

const read = { headers: { 'content-type': 'application/json' }, body: '{"method":"ledger"}' };

it('sends a read once more on a new connection when the first one is reset', async () => {
  const n = await node(1);
  const response = await postRead(n.url, read, 5_000);
  expect(await response.json()).toEqual({ result: 1 });
  expect(n.requests()).toBe(2);
});

it('throws the second failure as fetch threw it', async () => {
  const n = await node(2);
  const failure = await postRead(n.url, read, 5_000).catch((error: unknown) => error);
  expect(describeNetworkError(failure)).toBe('ECONNRESET');
  expect(n.requests()).toBe(2);
});

it('throws a refused connection as it is: only a reused connection is sent again', async () => {
  const n = await node(0);
  await new Promise<void>((resolve) => server!.close(() => resolve()));
  server = undefined;
  const failure = await postRead(n.url, read, 5_000).catch((error: unknown) => error);
  expect(describeNetworkError(failure)).toBe('ECONNREFUSED');
});
