/**
 * Every bad input gets its documented error (name, code, HTTP status, the field in details)
 * and writes nothing: the row counts of every table are the same before and after.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { API_ERRORS, UNSTORABLE_TEXT_MESSAGE } from '@/lib/protocol';
import { countRows } from './support/database';
import { call, freshNonce, postRaw, sign, withTestGateway, type ApiAnswer, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));
beforeAll(async () => {
  // Warm up: the server's start-up fills address pools, which must not count as a write below.
  await call(
    gateway,
    'make-order',
    { currency: 'BTC', network: 'bitcoin', amount: '1', order: 'warm-up' },
    merchant.test,
  );
  await waitForQuietPools();
});

/** Background pool refills write rows; wait until they stop so that counts are stable. */
async function waitForQuietPools() {
  let previous = '';
  for (let i = 0; i < 100; i++) {
    const now = JSON.stringify(await countRows(gateway.db));
    if (now === previous) return;
    previous = now;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const valid = { currency: 'BTC', network: 'bitcoin', amount: '0.5', order: 'valid-order' };

async function expectRejected(send: () => Promise<ApiAnswer>, name: keyof typeof API_ERRORS, path?: string) {
  const before = await countRows(gateway.db);
  const { status, body } = await send();
  expect(status).toBe(API_ERRORS[name].status);
  expect(body.success).toBe(false);
  expect(body.error.name).toBe(name);
  expect(body.error.code).toBe(API_ERRORS[name].code);
  expect(typeof body.error.message).toBe('string');
  expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
  if (path) expect(body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  expect(await countRows(gateway.db)).toEqual(before);
  return body;
}

const makeOrder = (body: Record<string, unknown>) => () => call(gateway, 'make-order', body, merchant.test);

/** Sends `bytes` as they are and answers the status line. */
function rawStatusLine(bytes: string): Promise<string> {
  const url = new URL(gateway.baseUrl);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.connect(Number(url.port), url.hostname, () => socket.end(bytes));
    socket
      .setEncoding('utf8')
      .on('data', (d: string) => (answer += d))
      .on('error', reject)
      .on('close', () => resolve(answer.split('\r\n')[0]!));
  });
}

/** The message of the detail at `path` of an error answer. */
const detail = (body: { error: { details: { path: string; message: string }[] } }, path: string) =>
  body.error.details.find((d) => d.path === path)?.message;

describe('credentials and signature', () => {
  it('refuses a missing public key or signature', async () => {
    const raw = JSON.stringify({ ...valid, nonce: freshNonce() });
    await expectRejected(
      () => postRaw(gateway, 'make-order', raw, undefined, { 'x-api-signature': sign(merchant.test.privateKey, raw) }),
      'MISSING_CREDENTIALS',
    );
    await expectRejected(
      () => postRaw(gateway, 'make-order', raw, undefined, { 'x-api-public-key': merchant.test.publicKey }),
      'MISSING_CREDENTIALS',
    );
  });

  it('refuses an unknown public key', async () => {
    await expectRejected(
      () => call(gateway, 'make-order', valid, { publicKey: 'pk_test_unknown', privateKey: 'whatever' }),
      'UNKNOWN_PUBLIC_KEY',
    );
  });

  it("refuses a wrong signature, and a signature made with another merchant's key", async () => {
    await expectRejected(
      () => call(gateway, 'make-order', valid, { publicKey: merchant.test.publicKey, privateKey: 'sk_test_wrong' }),
      'INVALID_SIGNATURE',
    );
    await expectRejected(
      () =>
        call(gateway, 'make-order', valid, {
          publicKey: merchant.test.publicKey,
          privateKey: merchant.live.privateKey,
        }),
      'INVALID_SIGNATURE',
    );
    const raw = JSON.stringify({ ...valid, nonce: freshNonce() });
    await expectRejected(
      () =>
        postRaw(gateway, 'make-order', raw, undefined, {
          'x-api-public-key': merchant.test.publicKey,
          'x-api-signature': 'not-hex',
        }),
      'INVALID_SIGNATURE',
    );
  });

  it('verifies the raw bytes: a signature over re-serialised JSON counts only when it matches them', async () => {
    const raw = `{ "currency": "BTC",  "network": "bitcoin", "amount": "0.5", "order": "spaced-order", "nonce": ${freshNonce()} }`;
    const reserialised = JSON.stringify(JSON.parse(raw));
    await expectRejected(
      () =>
        postRaw(gateway, 'make-order', raw, undefined, {
          'x-api-public-key': merchant.test.publicKey,
          'x-api-signature': sign(merchant.test.privateKey, reserialised),
        }),
      'INVALID_SIGNATURE',
    );
    const accepted = await postRaw(gateway, 'make-order', raw, merchant.test);
    expect(accepted.status).toBe(200);
  });
});

describe('body', () => {
  it('refuses malformed JSON and a body that is not an object', async () => {
    await expectRejected(() => postRaw(gateway, 'make-order', '{"currency": "BTC",', merchant.test), 'INVALID_JSON');
    await expectRejected(() => postRaw(gateway, 'make-order', '[1,2]', merchant.test), 'INVALID_JSON');
  });

  it('refuses a body over 64 KiB', async () => {
    const raw = JSON.stringify({ ...valid, nonce: freshNonce(), description: 'x'.repeat(65 * 1024) });
    await expectRejected(() => postRaw(gateway, 'make-order', raw, merchant.test), 'BODY_TOO_LARGE');
  });
});

describe('nonce', () => {
  it('refuses a missing or malformed nonce', async () => {
    await expectRejected(
      () => postRaw(gateway, 'make-order', JSON.stringify(valid), merchant.test),
      'VALIDATION_ERROR',
      'nonce',
    );
    await expectRejected(
      () => postRaw(gateway, 'make-order', JSON.stringify({ ...valid, nonce: 'abc' }), merchant.test),
      'VALIDATION_ERROR',
      'nonce',
    );
    await expectRejected(
      () => postRaw(gateway, 'make-order', JSON.stringify({ ...valid, nonce: -5 }), merchant.test),
      'VALIDATION_ERROR',
      'nonce',
    );
  });

  it('accepts a nonce once, whatever the operation', async () => {
    const nonce = freshNonce();
    const first = await call(gateway, 'make-order', { ...valid, order: 'nonce-once', nonce }, merchant.test);
    expect(first.status).toBe(200);
    await expectRejected(
      () => call(gateway, 'make-order', { ...valid, order: 'nonce-once', nonce }, merchant.test),
      'NONCE_REUSED',
    );
    await expectRejected(
      () => call(gateway, 'make-order', { ...valid, order: 'nonce-other', nonce }, merchant.test),
      'NONCE_REUSED',
    );
    await expectRejected(() => call(gateway, 'find-tx', { tx: 'ab', nonce }, merchant.test), 'NONCE_REUSED');
    // "0042" and 42 are the same nonce.
    const digits = freshNonce();
    expect((await call(gateway, 'find-tx', { nonce: String(digits) }, merchant.test)).status).toBe(200);
    await expectRejected(() => call(gateway, 'find-tx', { nonce: `00${digits}` }, merchant.test), 'NONCE_REUSED');
  });

  it('does not spend the nonce of a rejected order', async () => {
    const nonce = freshNonce();
    await expectRejected(makeOrder({ ...valid, amount: '0', nonce }), 'VALIDATION_ERROR', 'amount');
    expect(
      (await call(gateway, 'make-order', { ...valid, order: 'nonce-after-reject', nonce }, merchant.test)).status,
    ).toBe(200);
  });

  it.each([
    ['order', { orderId: crypto.randomUUID() }],
    ['orphan-deposits/get-deposit', { id: crypto.randomUUID() }],
    ['webhooks/list', { orderId: crypto.randomUUID() }],
    ['webhooks/resend', { id: crypto.randomUUID() }],
  ])('does not spend the nonce of %s answered NOT_FOUND', async (operation, body) => {
    const nonce = freshNonce();
    await expectRejected(() => call(gateway, operation, { ...body, nonce }, merchant.test), 'NOT_FOUND');
    expect((await call(gateway, 'find-tx', { nonce }, merchant.test)).status).toBe(200);
    // Spent now, by the read that was answered.
    await expectRejected(() => call(gateway, 'find-tx', { nonce }, merchant.test), 'NONCE_REUSED');
  });
});

describe('make-order fields', () => {
  for (const field of ['currency', 'network', 'amount', 'order']) {
    it(`refuses a missing ${field}`, async () => {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      const answer = await expectRejected(makeOrder(body), 'VALIDATION_ERROR', field);
      expect(answer.error.details.find((d: { path: string }) => d.path === field).message).toBe('is required');
    });
  }

  it.each([[1799], [43201], ['1800'], [1800.5]])('refuses lifetime %j', async (lifetime) => {
    await expectRejected(makeOrder({ ...valid, lifetime }), 'VALIDATION_ERROR', 'lifetime');
  });

  it.each(['0', '-1', '1e3', 'abc', '01.5', '0.000', '', ' 1', '1.'])('refuses amount %j', async (amount) => {
    await expectRejected(makeOrder({ ...valid, amount }), 'VALIDATION_ERROR', 'amount');
  });

  it('refuses an amount given as a JSON number', async () => {
    await expectRejected(makeOrder({ ...valid, amount: 0.5 }), 'VALIDATION_ERROR', 'amount');
  });

  it('refuses more decimals than the currency has', async () => {
    await expectRejected(makeOrder({ ...valid, amount: '0.000000001' }), 'VALIDATION_ERROR', 'amount');
    await expectRejected(
      makeOrder({ currency: 'USDT', network: 'tron', amount: '1.0000001', order: 'x' }),
      'VALIDATION_ERROR',
      'amount',
    );
  });

  it.each(['-1', '100', '100.5', 'abc', '1e1'])('refuses tolerance %j', async (paymentTolerancePercent) => {
    await expectRejected(
      makeOrder({ ...valid, paymentTolerancePercent }),
      'VALIDATION_ERROR',
      'paymentTolerancePercent',
    );
  });

  it.each(['successWebhook', 'errorWebhook', 'returnUrl'])('refuses a bad %s', async (field) => {
    for (const url of [
      'not a url',
      'ftp://shop.example/x',
      '/relative/path',
      `https://shop.example/${'x'.repeat(2048)}`,
    ]) {
      await expectRejected(makeOrder({ ...valid, [field]: url }), 'VALIDATION_ERROR', field);
    }
  });

  it('refuses a bad e-mail, a long description or order, a non-boolean checkRisks', async () => {
    await expectRejected(makeOrder({ ...valid, payerEmail: 'not-an-email' }), 'VALIDATION_ERROR', 'payerEmail');
    await expectRejected(makeOrder({ ...valid, description: 'd'.repeat(1025) }), 'VALIDATION_ERROR', 'description');
    await expectRejected(makeOrder({ ...valid, order: 'o'.repeat(256) }), 'VALIDATION_ERROR', 'order');
    await expectRejected(makeOrder({ ...valid, checkRisks: 'yes' }), 'VALIDATION_ERROR', 'checkRisks');
  });

  it('lists every bad field at once', async () => {
    const answer = await expectRejected(makeOrder({ currency: 'BTC', amount: 'abc', lifetime: 5 }), 'VALIDATION_ERROR');
    expect(answer.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'amount',
      'lifetime',
      'network',
      'order',
    ]);
  });

  it('refuses an unsupported currency or network with the supported ones', async () => {
    const bad = await expectRejected(makeOrder({ ...valid, currency: 'DOGE' }), 'UNSUPPORTED_CURRENCY');
    expect(bad.error.message).toContain('BTC/bitcoin');
    await expectRejected(makeOrder({ ...valid, network: 'solana' }), 'UNSUPPORTED_CURRENCY', 'network');
  });

  it('refuses every network for live keys while no live chain is configured', async () => {
    await expectRejected(() => call(gateway, 'make-order', valid, merchant.live), 'UNSUPPORTED_CURRENCY');
  });

  it('refuses the same order with another amount, currency or network (409) and keeps the first', async () => {
    const first = await call(gateway, 'make-order', { ...valid, order: 'conflict-1' }, merchant.test);
    expect(first.status).toBe(200);
    await expectRejected(makeOrder({ ...valid, order: 'conflict-1', amount: '0.6' }), 'ORDER_CONFLICT', 'order');
    await expectRejected(
      makeOrder({ ...valid, order: 'conflict-1', currency: 'LTC', network: 'litecoin' }),
      'ORDER_CONFLICT',
      'order',
    );
    const again = await call(gateway, 'make-order', { ...valid, order: 'conflict-1' }, merchant.test);
    expect(again.body.response.orderId).toBe(first.body.response.orderId);
  });
});

describe('amounts the database cannot hold', () => {
  it('refuses an amount of 80 digits, and the nonce stays unspent', async () => {
    const nonce = freshNonce();
    const answer = await expectRejected(
      makeOrder({ ...valid, amount: '1'.repeat(80), nonce }),
      'VALIDATION_ERROR',
      'amount',
    );
    expect(detail(answer, 'amount')).toBe('is too large: at most 77 digits before the decimal point');
    expect(
      (await call(gateway, 'make-order', { ...valid, order: 'after-80-digits', nonce }, merchant.test)).status,
    ).toBe(200);
  });

  it("refuses 1e70 written out with the currency's own bound (NUMERIC(78,0) base units, one digit kept for sums)", async () => {
    const answer = await expectRejected(
      makeOrder({ ...valid, amount: `1${'0'.repeat(70)}` }),
      'VALIDATION_ERROR',
      'amount',
    );
    expect(detail(answer, 'amount')).toBe('is too large for BTC: at most 69 digits before the decimal point');
    expect(answer.error.message).toBe('amount is too large for BTC: at most 69 digits before the decimal point');
    const ether = await expectRejected(
      makeOrder({ ...valid, currency: 'ETH', network: 'ethereum', amount: '1'.repeat(60) }),
      'VALIDATION_ERROR',
      'amount',
    );
    expect(detail(ether, 'amount')).toBe('is too large for ETH: at most 59 digits before the decimal point');
  });

  it('accepts the largest amount, which the columns hold exactly', async () => {
    const largest = `${'9'.repeat(69)}.99999999`;
    const made = await call(
      gateway,
      'make-order',
      { ...valid, order: 'largest-amount', amount: largest },
      merchant.test,
    );
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.response.amount).toBe(largest);
    const [row] = await gateway.db.query<{ amount: string }>(
      'select amount::text as amount from orders where id = $1',
      [made.body.response.orderId],
    );
    expect(row!.amount).toBe('9'.repeat(77));
  });
});

describe('text PostgreSQL cannot store', () => {
  it.each(['order', 'description', 'externalUserId'])('refuses a NUL character in %s', async (field) => {
    const answer = await expectRejected(
      makeOrder({ ...valid, order: 'nul-text', [field]: 'a\u0000b' }),
      'VALIDATION_ERROR',
      field,
    );
    expect(detail(answer, field)).toBe(UNSTORABLE_TEXT_MESSAGE);
  });

  it.each(['successWebhook', 'errorWebhook', 'returnUrl'])('refuses a NUL character in %s', async (field) => {
    const answer = await expectRejected(
      makeOrder({ ...valid, order: 'nul-url', [field]: 'https://shop.example/a\u0000b' }),
      'VALIDATION_ERROR',
      field,
    );
    expect(detail(answer, field)).toBe(UNSTORABLE_TEXT_MESSAGE);
  });

  it('refuses an unpaired surrogate ("\\ud800" in JSON), which the driver would store as U+FFFD', async () => {
    for (const field of ['order', 'description']) {
      const answer = await expectRejected(
        makeOrder({ ...valid, order: 'surrogate', [field]: 'a\ud800' }),
        'VALIDATION_ERROR',
        field,
      );
      expect(detail(answer, field)).toBe(UNSTORABLE_TEXT_MESSAGE);
    }
    // A pair is one character, and fine.
    expect((await call(gateway, 'make-order', { ...valid, order: 'pair-\ud83d\ude00' }, merchant.test)).status).toBe(
      200,
    );
  });

  it("refuses a NUL character in find-tx's tx", async () => {
    const answer = await expectRejected(
      () => call(gateway, 'find-tx', { tx: 'ab\u0000' }, merchant.test),
      'VALIDATION_ERROR',
      'tx',
    );
    expect(detail(answer, 'tx')).toBe(UNSTORABLE_TEXT_MESSAGE);
  });

  it('refuses a NUL character in the ids of the other operations', async () => {
    for (const [operation, field] of [
      ['order', 'orderId'],
      ['orphan-deposits/get-deposit', 'id'],
      ['webhooks/list', 'orderId'],
      ['webhooks/resend', 'id'],
    ] as const) {
      await expectRejected(
        () => call(gateway, operation, { [field]: 'x\u0000' }, merchant.test),
        'VALIDATION_ERROR',
        field,
      );
    }
  });

  it('refuses a huge or odd x-api-public-key as unknown, and a NUL in a header never reaches the gateway', async () => {
    const raw = JSON.stringify({ ...valid, nonce: freshNonce() });
    for (const publicKey of [`pk_test_${'x'.repeat(8000)}`, 'pk_test_\u00ff\u0080']) {
      await expectRejected(
        () =>
          postRaw(gateway, 'make-order', raw, undefined, {
            'x-api-public-key': publicKey,
            'x-api-signature': 'a'.repeat(64),
          }),
        'UNKNOWN_PUBLIC_KEY',
      );
    }
    // A NUL in a header: Node.js's HTTP parser refuses the request itself, before any code of ours
    // (the client refuses to send one, so it goes on a socket by hand).
    const head = `POST /api-gateway/make-order HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-public-key: pk_test_\u0000x\r\nx-api-signature: ${'a'.repeat(64)}\r\ncontent-length: ${Buffer.byteLength(raw)}\r\nconnection: close\r\n\r\n`;
    expect(await rawStatusLine(head + raw)).toBe('HTTP/1.1 400 Bad Request');
  });
});

describe('URLs with credentials', () => {
  it.each(['successWebhook', 'errorWebhook', 'returnUrl', 'returnURL'])(
    'refuses a user name or password in %s',
    async (field) => {
      const path = field === 'returnURL' ? 'returnUrl' : field;
      for (const url of [
        'http://user:pass@shop.example/hook',
        'https://user@shop.example/hook',
        'https://:secret@shop.example/hook',
      ]) {
        const answer = await expectRejected(
          makeOrder({ ...valid, order: 'credentials', [field]: url }),
          'VALIDATION_ERROR',
          path,
        );
        expect(detail(answer, path), url).toBe('must not contain a user name or password');
      }
    },
  );

  it('refuses spaces and control characters in a URL, which parsers would drop or encode silently', async () => {
    for (const url of [
      'https://shop.example/a b',
      'https://shop.example/\t',
      ' https://shop.example/',
      'https://shop.example/\u0085',
    ]) {
      const answer = await expectRejected(
        makeOrder({ ...valid, order: 'spaces', returnUrl: url }),
        'VALIDATION_ERROR',
        'returnUrl',
      );
      expect(detail(answer, 'returnUrl'), url).toBe('must not contain spaces or control characters');
    }
  });
});

describe('other operations', () => {
  it('refuses a missing id, orderId, and bad list filters', async () => {
    await expectRejected(
      () => call(gateway, 'orphan-deposits/get-deposit', {}, merchant.test),
      'VALIDATION_ERROR',
      'id',
    );
    await expectRejected(() => call(gateway, 'order', {}, merchant.test), 'VALIDATION_ERROR', 'orderId');
    await expectRejected(
      () => call(gateway, 'orders', { status: ['paid'] }, merchant.test),
      'VALIDATION_ERROR',
      'status.0',
    );
    await expectRejected(() => call(gateway, 'orders', { limit: 1000 }, merchant.test), 'VALIDATION_ERROR', 'limit');
  });

  it('answers an operation path that is not valid percent-encoding with the JSON 404 envelope', async () => {
    for (const operation of ['%ZZ', '%E0%A4%A', 'webhooks/%ZZ']) {
      const { status, body } = await call(gateway, operation, {}, merchant.test);
      expect(status, operation).toBe(404);
      expect(body, operation).toMatchObject({
        success: false,
        error: { name: 'NOT_FOUND', code: API_ERRORS.NOT_FOUND.code },
      });
    }
  });

  it('answers unknown operations with the JSON 404 envelope', async () => {
    const { status, body } = await call(gateway, 'no-such-operation', {}, merchant.test);
    expect(status).toBe(404);
    expect(body).toMatchObject({ success: false, error: { name: 'NOT_FOUND', code: API_ERRORS.NOT_FOUND.code } });
  });
});
