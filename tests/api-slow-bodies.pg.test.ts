/**
 * Slow bodies cannot lock merchants out. 260 connections that declared a body and sent one byte
 * used to fill API_MAX_IN_FLIGHT (every signed request then got 503 for the five minutes of
 * Node's request timeout). Now the headers are checked before a body is read, waiting for a body
 * holds no in-flight slot, a body has API_BODY_TIMEOUT_SECONDS to arrive, and one address may
 * have only API_SLOW_BODIES_PER_CLIENT slow bodies at once.
 */
import net from 'node:net';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodiesInProgress, slowBodies } from '@/lib/api/slow-bodies';
import { SERVER_TIMEOUTS } from '../scripts/lib/http-server.mjs';
import { call, freshNonce, sign, startTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';

// The HTTP edge is the same whatever the database: run once, on the embedded one.
describe('slow request bodies', () => {
  const SLOW = 300;
  const BODY_TIMEOUT_SECONDS = 3;
  const PER_CLIENT = 16;

  let gateway: TestGateway;
  let merchant: TestMerchant;
  let port: number;
  beforeAll(async () => {
    Object.assign(process.env, {
      API_BODY_TIMEOUT_SECONDS: String(BODY_TIMEOUT_SECONDS),
      API_SLOW_BODIES_PER_CLIENT: String(PER_CLIENT),
      API_MAX_IN_FLIGHT: '256',
    });
    gateway = await startTestGateway();
    merchant = await createTestMerchant(gateway.db);
    port = Number(new URL(gateway.baseUrl).port);
  });
  afterAll(() => gateway?.close());

  interface SlowRequest {
    socket: net.Socket;
    /** The raw answer once the server has closed the connection. */
    answer: Promise<string>;
  }

  /** A request that declares a 100-byte body and sends one byte of it, from `localAddress`. */
  async function slowRequest(headers: Record<string, string>, localAddress = '127.0.0.1'): Promise<SlowRequest> {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress });
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    let text = '';
    socket.on('data', (d) => (text += d));
    const answer = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
    const head = Object.entries({
      host: '127.0.0.1',
      'content-type': 'application/json',
      'content-length': '100',
      ...headers,
    }).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.write(`POST /api-gateway/make-order HTTP/1.1\r\n${head.join('')}\r\n{`);
    return { socket, answer };
  }

  /**
   * A signed order's status: 200 while slow bodies hold no in-flight slot; a full set of slots
   * answers 503 at once (API_MAX_IN_FLIGHT is below SLOW), so no timing is needed to tell.
   */
  async function orderStatus(order: string): Promise<number> {
    const answer = await call(
      gateway,
      'make-order',
      { currency: 'USDT', network: 'tron', amount: '1', order },
      merchant.test,
    );
    return answer.status;
  }

  it('leaves nothing behind for clients that hang up before their request is read', async () => {
    // A load generator that stops (or a client that times out) closes connections whose requests
    // still wait for their turn: their reads must end at once, not wait out the body timeout as
    // slow bodies of the address, which then refused every request from it (seen in bench:api).
    const result = await autocannon({
      url: `${gateway.baseUrl}/api-gateway/make-order`,
      connections: 50,
      duration: 1,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => {
            const body = JSON.stringify({
              currency: 'USDT',
              network: 'tron',
              amount: '1',
              order: `hang-up-${freshNonce()}`,
              nonce: freshNonce(),
            });
            return {
              ...request,
              body,
              headers: {
                ...request.headers,
                'x-api-public-key': merchant.test.publicKey,
                'x-api-signature': sign(merchant.test.privateKey, body),
              },
            };
          },
        },
      ],
    });
    expect(result.statusCodeStats['200']?.count).toBeGreaterThan(0);
    // Requests start in order of arrival: once a later one is answered, every earlier one has started.
    expect(await orderStatus(`after-hang-ups-${Date.now()}`)).toBe(200);
    let mostSlow = 0;
    while (bodiesInProgress() > 0) {
      mostSlow = Math.max(mostSlow, slowBodies('127.0.0.1'));
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(mostSlow).toBe(0);
  });

  it('sets deliberate server timeouts instead of Node.js defaults of minutes', () => {
    expect(SERVER_TIMEOUTS).toMatchObject({ headersTimeout: 10_000, requestTimeout: 60_000, keepAliveTimeout: 5_000 });
    expect(SERVER_TIMEOUTS.requestTimeout).toBeGreaterThan(30_000); // the longest API_BODY_TIMEOUT_SECONDS answers first
  });

  it(`answers ${SLOW} slow requests without a key from their headers, and a signed order still goes through meanwhile`, async () => {
    const slow = await Promise.all(Array.from({ length: SLOW }, () => slowRequest({})));
    expect(await orderStatus(`slow-anonymous-${Date.now()}`)).toBe(200);
    // Each was answered 401 without its body being read, and its connection closed.
    for (const { answer } of slow) {
      const text = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 401 /);
      expect(text).toMatch(/\r\nconnection: close\r\n/i);
      expect(text).toContain('"name":"MISSING_CREDENTIALS"');
    }
  });

  it(`holds no slot for ${SLOW} slow bodies under a known public key, bounds them per address and in time`, async () => {
    // A public key is not a secret: these pass the header checks and wait for their bodies.
    const headers = { 'x-api-public-key': merchant.test.publicKey, 'x-api-signature': 'ab'.repeat(32) };
    const slow = await Promise.all(Array.from({ length: SLOW }, () => slowRequest(headers, '127.0.0.2')));
    expect(await orderStatus(`slow-known-key-${Date.now()}`)).toBe(200);

    // Once they have been slow for a second, that address gets no more body reads; others do.
    while (slowBodies('127.0.0.2') < PER_CLIENT) await new Promise((r) => setTimeout(r, 50));
    const refused = await slowRequest(headers, '127.0.0.2');
    const text = await refused.answer;
    expect(text).toMatch(/^HTTP\/1\.1 429 /);
    expect(text).toContain('"name":"TOO_MANY_SLOW_BODIES"');
    expect(await orderStatus(`slow-other-address-${Date.now()}`)).toBe(200);

    // Each slow body is given up after API_BODY_TIMEOUT_SECONDS with the JSON 408, connection closed.
    for (const { answer } of slow) {
      const text = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(text).toMatch(/\r\nconnection: close\r\n/i);
      expect(text).toContain(`"message":"The request body did not arrive within ${BODY_TIMEOUT_SECONDS} s."`);
    }
    expect(slowBodies('127.0.0.2')).toBe(0);
  });
});
