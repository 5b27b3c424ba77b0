/**
 * Requests signed the way common client libraries sign them are accepted: keys sorted, slashes
 * escaped (PHP's json_encode), spaces after separators (Python's json.dumps), nonces as
 * millisecond timestamps, random numbers or digit strings, any content type, trailing slashes.
 */
import { expect, it } from 'vitest';
import { freshNonce, postRaw, sign, withTestGateway, type TestGateway } from './support/gateway';
import { countRows } from './support/database';
import type { TestMerchant } from './support/merchants';

let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started));

const base = (order: string) => ({
  currency: 'USDT',
  network: 'tron',
  amount: '12.5',
  order,
  returnUrl: 'https://shop.example/orders/7?x=1',
});

function sortedJson(value: Record<string, unknown>, separators: [string, string] = [',', ':']): string {
  const entries = Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}${separators[1]}${JSON.stringify(value[k])}`);
  return `{${entries.join(separators[0])}}`;
}

it('accepts sorted keys', async () => {
  const raw = sortedJson({ ...base('sig-sorted'), nonce: freshNonce() });
  expect((await postRaw(gateway, 'make-order', raw, merchant.test)).status).toBe(200);
});

it('accepts escaped slashes (PHP json_encode)', async () => {
  const raw = JSON.stringify({ ...base('sig-php'), nonce: freshNonce() }).replaceAll('/', '\\/');
  expect(raw).toContain('https:\\/\\/shop.example');
  const answer = await postRaw(gateway, 'make-order', raw, merchant.test);
  expect(answer.status).toBe(200);
  expect(answer.body.response.returnUrl).toBe('https://shop.example/orders/7?x=1');
});

it('accepts spaces after separators (Python json.dumps)', async () => {
  const raw = sortedJson({ ...base('sig-python'), nonce: freshNonce() }, [', ', ': ']);
  expect((await postRaw(gateway, 'make-order', raw, merchant.test)).status).toBe(200);
});

it('accepts nonces as millisecond timestamps, random numbers and digit strings', async () => {
  const nonces = [Date.now(), Math.floor(Math.random() * 2 ** 52), `${Date.now()}${Math.floor(Math.random() * 1e6)}`];
  for (const [i, nonce] of nonces.entries()) {
    const raw = JSON.stringify({ ...base(`sig-nonce-${i}`), nonce });
    const answer = await postRaw(gateway, 'make-order', raw, merchant.test);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }
});

it('reads any content type as JSON, and answers trailing-slash paths', async () => {
  const raw = JSON.stringify({ ...base('sig-ctype'), nonce: freshNonce() });
  const answer = await postRaw(gateway, 'make-order/', raw, merchant.test, {
    'content-type': 'application/x-www-form-urlencoded',
  });
  expect(answer.status).toBe(200);
});

it('accepts an upper-case hex signature', async () => {
  const raw = JSON.stringify({ ...base('sig-upper'), nonce: freshNonce() });
  const answer = await postRaw(gateway, 'make-order', raw, undefined, {
    'x-api-public-key': merchant.test.publicKey,
    'x-api-signature': sign(merchant.test.privateKey, raw).toUpperCase(),
  });
  expect(answer.status).toBe(200);
});

it('test-signature explains a mismatch and never signs a body its caller could not sign', async () => {
  // A webhook-shaped body: its HMAC is exactly what a webhook carries in x-api-signature.
  const raw = JSON.stringify({
    status: 'processed',
    orderId: crypto.randomUUID(),
    event: 'ORDER',
    nonce: freshNonce(),
  });
  const before = await countRows(gateway.db);
  const wrong = await postRaw(gateway, 'test-signature', raw, undefined, {
    'x-api-public-key': merchant.test.publicKey,
    'x-api-signature': 'ab'.repeat(32),
  });
  expect(wrong.status).toBe(200);
  expect(wrong.body.response).toEqual({
    checkSignatureResult: false,
    errors: [expect.stringMatching(/does not match/)],
  });
  expect(wrong.body.response).not.toHaveProperty('signature');
  expect(wrong.body.response).not.toHaveProperty('receivedBody');
  expect(JSON.stringify(wrong.body)).not.toContain(sign(merchant.test.privateKey, raw));
  // No signature at all, or one that is not hex: the same answer, and nothing written.
  const missing = await postRaw(gateway, 'test-signature', raw, undefined, {
    'x-api-public-key': merchant.test.publicKey,
  });
  expect(missing.body.response).toEqual(wrong.body.response);
  const junk = await postRaw(gateway, 'test-signature', raw, undefined, {
    'x-api-public-key': merchant.test.publicKey,
    'x-api-signature': 'zz',
  });
  expect(junk.body.response).toEqual(wrong.body.response);
  expect(await countRows(gateway.db)).toEqual(before);

  // Signed correctly: the caller computed the signature itself, so it may see it and the body.
  const right = JSON.stringify({ nonce: freshNonce() });
  const ok = await postRaw(gateway, 'test-signature', right, merchant.test);
  expect(ok.body.response).toEqual({
    checkSignatureResult: true,
    errors: [],
    signature: sign(merchant.test.privateKey, right),
    receivedBody: right,
  });
  const reused = await postRaw(gateway, 'test-signature', right, merchant.test);
  expect(reused.body.response).toMatchObject({
    checkSignatureResult: true,
    errors: ['nonce was already used with this key'],
  });
});
