/**
 * The merchant API's node:http front (lib/api/http-front.ts), on its own: the servers' request
 * listener (scripts/lib/http-server.mjs) with a stand-in for Next.js that answers 599 answers
 * every operation through the front that start-up installed, leaves anything else to Next.js,
 * refuses a body over 64 KiB, and a client that hangs up mid-body does not stay counted in
 * flight. The Next.js route adapter gives the same answers.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_OPERATIONS } from '@/lib/api/operations';
import { nextMethodNotAllowed, nextRoute } from '@/lib/api/route';
import { slowBodies } from '@/lib/api/slow-bodies';
import { peekProcessSlot } from '@/lib/process';
import { gatewayRequestListener } from '../scripts/lib/http-server.mjs';
import { freshNonce, postRaw, sign, withTestGateway, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';

const NOT_THE_FRONT = 599;

let gateway: TestGateway;
let merchant: TestMerchant;
let frontOnly: http.Server;
let front: { baseUrl: string; port: number };

withTestGateway((started) => ({ gateway, merchant } = started));
beforeAll(async () => {
  // Start-up runs in the background of the Next.js app: one request through it waits for it.
  await postRaw(gateway, 'available-currencies', '{}', undefined);
  frontOnly = http.createServer(gatewayRequestListener(async (_req, res) => void res.writeHead(NOT_THE_FRONT).end()));
  await new Promise<void>((resolve) => frontOnly.listen(0, '127.0.0.1', resolve));
  const { port } = frontOnly.address() as AddressInfo;
  front = { baseUrl: `http://127.0.0.1:${port}`, port };
});
afterAll(async () => {
  await new Promise((resolve) => frontOnly?.close(resolve));
});

const body = () => JSON.stringify({ nonce: freshNonce() });

describe('the node:http front', () => {
  it.each(Object.keys(API_OPERATIONS))('answers %s itself, with the API headers', async (operation) => {
    const answer = await postRaw(front, operation, body(), merchant.test);
    expect(answer.status).not.toBe(NOT_THE_FRONT);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('x-request-id')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    expect(typeof answer.body.success).toBe('boolean');
  });

  it('takes a trailing slash and a query string, and answers like the Next.js route', async () => {
    const slash = await postRaw(front, 'available-currencies/?x=1', body(), merchant.test);
    expect(slash.status).toBe(200);
    const raw = body();
    const viaNext = await nextRoute(API_OPERATIONS['available-currencies'])(
      new Request('http://gateway/api-gateway/available-currencies', {
        method: 'POST',
        headers: {
          'x-api-public-key': merchant.test.publicKey,
          'x-api-signature': sign(merchant.test.privateKey, raw),
        },
        body: raw,
      }),
    );
    expect(viaNext.status).toBe(200);
    expect(((await viaNext.json()) as { response: unknown }).response).toEqual(slash.body.response);
  });

  it('leaves unknown operations and the pages to the server behind it', async () => {
    expect((await postRaw(front, 'no-such-operation', body(), merchant.test)).status).toBe(NOT_THE_FRONT);
    expect((await fetch(`${front.baseUrl}/api-gateway/no-such-operation`)).status).toBe(NOT_THE_FRONT);
    expect((await fetch(`${front.baseUrl}/pay/x`)).status).toBe(NOT_THE_FRONT);
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'])(
    'answers %s on an operation with 405, Allow: POST and the error envelope, as the Next.js route does',
    async (method) => {
      for (const server of [front, gateway]) {
        const answer = await fetch(`${server.baseUrl}/api-gateway/make-order/`, { method });
        expect(answer.status).toBe(405);
        expect(answer.headers.get('allow')).toBe('POST');
        expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
        const envelope = (await answer.json()) as { requestId: string };
        expect(envelope).toEqual({
          success: false,
          error: {
            code: 1005,
            name: 'METHOD_NOT_ALLOWED',
            message: `Operations are called with POST, not ${method}.`,
            details: [],
          },
          requestId: answer.headers.get('x-request-id'),
        });
      }
      const viaNext = nextMethodNotAllowed(new Request('http://gateway/api-gateway/make-order', { method }));
      expect(viaNext.status).toBe(405);
      expect(viaNext.headers.get('allow')).toBe('POST');
      expect(((await viaNext.json()) as { error: { name: string } }).error.name).toBe('METHOD_NOT_ALLOWED');
    },
  );

  // The chunked body's end is never sent: the front answers at 64 KiB and closes the connection
  // rather than read the rest for as long as the sender goes on. (A body already whole when the
  // answer goes out leaves nothing to read, and its connection may be kept: Node.js 24 parses
  // ahead of a paused request, Node.js 20 did not.)
  it('refuses a body over 64 KiB, declared or sent in chunks, and closes the connection', async () => {
    const big = JSON.stringify({ nonce: freshNonce(), pad: 'x'.repeat(70 * 1024) });
    const declared = await postRaw(front, 'make-order', big, merchant.test);
    expect(declared.status).toBe(413);
    expect(declared.body.error.name).toBe('BODY_TOO_LARGE');
    const chunked = await new Promise<{ status: number; connection: string | undefined; body: string }>(
      (resolve, reject) => {
        const req = http.request(
          {
            port: front.port,
            host: '127.0.0.1',
            method: 'POST',
            path: '/api-gateway/make-order',
            headers: { 'x-api-public-key': merchant.test.publicKey, 'x-api-signature': 'a'.repeat(64) },
          },
          (res) => {
            let text = '';
            res
              .on('data', (d) => (text += d))
              .on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
          },
        );
        req.on('error', reject);
        for (let i = 0; i < 70; i++) req.write('x'.repeat(1024)); // no content-length: chunked, and no end
      },
    );
    expect(chunked.status).toBe(413);
    expect(chunked.connection).toBe('close');
    expect(JSON.parse(chunked.body).error.name).toBe('BODY_TOO_LARGE');
  });

  it('does not count a request in flight while its body arrives, and forgets it when its client hangs up', async () => {
    const inFlight = peekProcessSlot<{ count: number }>('api.inFlight')!;
    const before = inFlight.count;
    const socket = net.connect(front.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api-gateway/make-order HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nx-api-public-key: ${merchant.test.publicKey}\r\nx-api-signature: ${'a'.repeat(64)}\r\ncontent-length: 1000\r\n\r\n{"nonce":`,
    );
    // Waiting for its body, the request becomes a slow body of its address, and holds no slot.
    for (let i = 0; i < 200 && slowBodies('127.0.0.1') === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(slowBodies('127.0.0.1')).toBe(1);
    expect(inFlight.count).toBe(before);
    socket.destroy();
    for (let i = 0; i < 100 && slowBodies('127.0.0.1') !== 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(slowBodies('127.0.0.1')).toBe(0);
    expect(inFlight.count).toBe(before);
  });
});
