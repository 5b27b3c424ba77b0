import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '@/tests/support/database';
import { createTestMerchant, type TestMerchant } from '@/tests/support/merchants';
import type { Database } from '../db';
import { forgetProcessSlot, setProcessSlot } from '../process';
import type { OperationName } from '../protocol';
import {
  apiOperation,
  readNonce,
  signBody,
  signatureMatches,
  type ApiOperation,
  type ApiRequest,
  type RequestContext,
  type RouteOptions,
} from './route';

/**
 * The signature check, the nonce and the validation of the request wrapper, in this process (so
 * that `npm run mutate` sees its mutants): the wrapper around stand-in handlers of real operations
 * (their request schemas from lib/protocol), called with requests signed as a client signs them,
 * on an embedded database in memory.
 */
process.env.APP_SECRET ??= 'test-app-secret-that-is-at-least-32-characters';
process.env.LOG_LEVEL ??= 'silent';

const SECRET = Buffer.from('sk_test_the-private-key', 'utf8');
const BODY = Buffer.from('{"nonce":1,"amount":"5"}', 'utf8');

describe('signatureMatches', () => {
  const good = signBody(SECRET, BODY);

  it('accepts the HMAC-SHA256 of the raw body in hex, in either case', () => {
    expect(good).toMatch(/^[0-9a-f]{64}$/);
    expect(signatureMatches(SECRET, BODY, good)).toBe(true);
    expect(signatureMatches(SECRET, BODY, good.toUpperCase())).toBe(true);
  });

  it('refuses another body, another key, and a signature of the wrong form', () => {
    expect(signatureMatches(SECRET, Buffer.from('{"nonce":1,"amount":"6"}'), good)).toBe(false);
    expect(signatureMatches(Buffer.from('sk_test_another-private-key'), BODY, good)).toBe(false);
    const flipped = `${good.slice(0, 63)}${good[63] === '0' ? '1' : '0'}`;
    expect(signatureMatches(SECRET, BODY, flipped)).toBe(false);
    // Buffer.from(hex) stops at the first non-hex pair: without the format check these would be
    // compared as shorter buffers, or as the prefix of a valid signature.
    expect(signatureMatches(SECRET, BODY, good.slice(0, 62))).toBe(false);
    expect(signatureMatches(SECRET, BODY, `${good}00`)).toBe(false);
    expect(signatureMatches(SECRET, BODY, `${good.slice(0, 62)}zz`)).toBe(false);
    expect(signatureMatches(SECRET, BODY, ` ${good.slice(1)}`)).toBe(false);
    expect(signatureMatches(SECRET, BODY, '')).toBe(false);
  });
});

describe('readNonce', () => {
  it('normalises an integer or a string of digits to digits without leading zeros', () => {
    expect(readNonce({ nonce: 1700000000000 })).toEqual({ nonce: '1700000000000' });
    expect(readNonce({ nonce: '0042' })).toEqual({ nonce: '42' });
    expect(readNonce({ nonce: '0' })).toEqual({ nonce: '0' });
    expect(readNonce({ nonce: '9'.repeat(30) })).toEqual({ nonce: '9'.repeat(30) });
  });

  it('says why a nonce is missing or not acceptable', () => {
    expect(readNonce({})).toEqual({ problem: 'is required' });
    expect(readNonce({ nonce: null })).toEqual({ problem: 'is required' });
    const wrong = { problem: 'must be an integer up to 9007199254740991 or a string of at most 30 digits' };
    for (const nonce of ['', 'abc', '-1', '1.5', '9'.repeat(31), -1, 1.5, Number.MAX_SAFE_INTEGER + 1, true, {}]) {
      expect(readNonce({ nonce }), JSON.stringify(nonce)).toEqual(wrong);
    }
  });
});

describe('the wrapper: signature, nonce and validation', () => {
  /** What the stand-in handler answers: what the wrapper handed it. */
  const echo = async (ctx: RequestContext, input: unknown) =>
    ({ nonce: ctx.nonce, input, signatureValid: ctx.signatureValid }) as never;
  /** The operation `name` with its own request schema, and the stand-in handler instead of its domain call. */
  const operation = (name: OperationName, options?: RouteOptions): ApiOperation => apiOperation(name, echo, options);
  const order = operation('order');
  let db: Database;
  let merchant: TestMerchant;

  beforeAll(async () => {
    db = await openTestDatabase();
    // The wrapper finds the database through the process-wide slot (lib/db/index.ts).
    setProcessSlot('database', Promise.resolve(db));
    merchant = await createTestMerchant(db);
  });
  afterAll(async () => {
    forgetProcessSlot('database');
    await db?.close();
  });

  /**
   * The operation's answer to `body` (an object is sent as JSON) from the merchant's test key,
   * signed with its private key unless `signature` is given.
   */
  async function send(op: ApiOperation, body: unknown, signature?: string) {
    const raw = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
    const headers: Record<string, string> = {
      'x-api-public-key': merchant.test.publicKey,
      'x-api-signature': signature ?? signBody(merchant.test.privateKey, raw),
    };
    const request: ApiRequest = { header: (name) => headers[name], readBody: async () => raw };
    const reply = await op(request);
    return { status: reply.status, body: JSON.parse(reply.body) };
  }

  /** The details of the VALIDATION_ERROR `op` answers to `body`, checked against its message. */
  async function detailsOf(body: unknown, op = order) {
    const answer = await send(op, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.name).toBe('VALIDATION_ERROR');
    expect(answer.body.error.message).toBe(
      answer.body.error.details.map((d: { path: string; message: string }) => `${d.path} ${d.message}`).join('; '),
    );
    return answer.body.error.details;
  }

  it('hands the handler the normalised nonce and the parsed input', async () => {
    const answer = await send(order, { nonce: '007', orderId: 'o-1', unknown: 'dropped' });
    expect(answer).toEqual({
      status: 200,
      body: { success: true, response: { nonce: '7', input: { orderId: 'o-1' }, signatureValid: true } },
    });
  });

  it('refuses a signature by another key, of another body, or of the wrong form', async () => {
    const body = { nonce: 1, orderId: 'o-1' };
    const raw = JSON.stringify(body);
    for (const signature of [
      signBody(merchant.live.privateKey, raw), // the merchant's other key
      signBody(merchant.test.privateKey, JSON.stringify({ ...body, orderId: 'o-2' })),
      signBody(merchant.test.privateKey, raw).slice(0, 63),
      `${signBody(merchant.test.privateKey, raw)}0`,
    ]) {
      const answer = await send(order, body, signature);
      expect(answer.status, signature).toBe(401);
      expect(answer.body.error.name).toBe('INVALID_SIGNATURE');
    }
    expect((await send(order, body, '')).body.error.name).toBe('MISSING_CREDENTIALS');
    // None of them spent the nonce.
    expect((await send(order, body)).status).toBe(200);
  });

  it('names every invalid field once, the nonce first', async () => {
    expect(await detailsOf({ orderId: 'o-1' })).toEqual([{ path: 'nonce', message: 'is required' }]);
    expect(await detailsOf({ nonce: null, orderId: 'o-1' })).toEqual([{ path: 'nonce', message: 'is required' }]);
    const notANonce = 'must be an integer up to 9007199254740991 or a string of at most 30 digits';
    for (const nonce of ['x', -1, 1.5, '']) {
      expect(await detailsOf({ nonce, orderId: 'o-1' })).toEqual([{ path: 'nonce', message: notANonce }]);
    }
    expect(await detailsOf({ nonce: 2 })).toEqual([{ path: 'orderId', message: 'is required' }]);
    expect(await detailsOf({})).toEqual([
      { path: 'nonce', message: 'is required' },
      { path: 'orderId', message: 'is required' },
    ]);
    expect(await detailsOf({ nonce: 'x', orderId: '' })).toEqual([
      { path: 'nonce', message: notANonce },
      { path: 'orderId', message: 'is required' },
    ]);
    const makeOrder = operation('make-order');
    expect(await detailsOf({ nonce: 3, currency: 'BTC', network: 'bitcoin', order: 'A-1' }, makeOrder)).toEqual([
      { path: 'amount', message: 'is required' },
    ]);
    // Two rules broken by one field (not a decimal, and not greater than 0): the first says enough.
    expect(
      await detailsOf({ nonce: 4, currency: 'BTC', network: 'bitcoin', order: 'A-1', amount: 'x' }, makeOrder),
    ).toEqual([
      {
        path: 'amount',
        message: 'must be a decimal string such as "10.5" (digits, optional fraction, no sign or exponent)',
      },
    ]);
  });

  it('says "is required" only for a field that is absent', async () => {
    expect(await detailsOf({ nonce: 5, orderId: 5 })).toEqual([{ path: 'orderId', message: 'must be a string' }]);
    expect(await detailsOf({ nonce: 6, orderId: {} })).toEqual([{ path: 'orderId', message: 'must be a string' }]);
    // A field inside another: the path says where.
    const orders = operation('orders');
    const [status] = await detailsOf({ nonce: 7, status: ['pending', 'lost'] }, orders);
    expect(status).toMatchObject({ path: 'status.1' });
    expect(status.message).toMatch(/^must be one of /);
    expect(await detailsOf({ nonce: 8, status: 'pending' }, orders)).toEqual([
      { path: 'status', message: 'must be an array of statuses' },
    ]);
    // returnURL is read as returnUrl (lib/protocol): absent under its own name, but given, so its rule speaks.
    const makeOrder = operation('make-order');
    const fields = { currency: 'BTC', network: 'bitcoin', order: 'A-1', amount: '1' };
    expect(await detailsOf({ nonce: 9, ...fields, returnURL: 'ftp://example.com/' }, makeOrder)).toEqual([
      { path: 'returnUrl', message: 'must be an absolute http(s) URL' },
    ]);
  });

  it('does not ask for a nonce when the signature is not verified, and says whether it matched', async () => {
    const unchecked = operation('order', { verifySignature: false });
    const unsigned = await send(unchecked, { orderId: 'o-1' }, '0'.repeat(64));
    expect(unsigned).toEqual({
      status: 200,
      body: { success: true, response: { nonce: '', input: { orderId: 'o-1' }, signatureValid: false } },
    });
    const signed = await send(unchecked, { nonce: '010', orderId: 'o-1' });
    expect(signed.body.response).toEqual({ nonce: '10', input: { orderId: 'o-1' }, signatureValid: true });
    // A nonce that is not one is left to the handler too; the fields are still validated.
    expect((await send(unchecked, { nonce: 'x', orderId: 'o-1' })).body.response).toEqual({
      nonce: '',
      input: { orderId: 'o-1' },
      signatureValid: true,
    });
    expect((await send(unchecked, { orderId: 5 })).body.error.details).toEqual([
      { path: 'orderId', message: 'must be a string' },
    ]);
  });

  it('refuses a nonce used before with the same key, and spends none on a refused request', async () => {
    expect((await detailsOf({ nonce: 100 }))[0].path).toBe('orderId');
    expect((await send(order, { nonce: 100, orderId: 'o-1' })).status).toBe(200);
    const again = await send(order, { nonce: '0100', orderId: 'o-2' });
    expect(again.status).toBe(409);
    expect(again.body.error.name).toBe('NONCE_REUSED');
  });
});
