/**
 * Requests signed and sent the way each public client library of the API we follow does
 * (../shared/CLIENTS.md, read from their source) call every operation issue 20 added, and each
 * answer is checked against the wire contract and the OpenAPI document (./support/contract.ts).
 *
 * - Node (onchainpay/nodejs-sdk): `JSON.stringify`, nonce `Date.now()` at construction then +1 per
 *   request, `advancedBalanceId` (fetched at start) on every body.
 * - Python (onchainpay/python_sdk): `json.dumps` (", " and ": " separators, non-ASCII escaped),
 *   a random nonce 0..1e9, `operation-by-tx-hash`, `advancedBalanceId` on some bodies.
 * - PHP (onchainpay/php-api): keys sorted (`ksort`), `/` escaped as `\/`, paths with a trailing
 *   slash, millisecond nonces, and every parameter of earlier calls kept in later bodies.
 * - Go (onchainpay/go-sdk): map marshalling (keys sorted at every level, `<`, `>`, `&` escaped),
 *   millisecond nonce at start then +1, `advancedBalanceId` (possibly "") on every body, its own
 *   paths (`personal_addresses/...`, `addresses/address-transactions`).
 */
import { createHmac, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import { network, sandboxChain, watchOnce } from './support/chain';
import { expectDocumented } from './support/contract';
import { call, startTestGateway, type ApiAnswer, type Keys, type TestGateway } from './support/gateway';
import { createTestMerchant } from './support/merchants';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway?.close());

type Body = Record<string, unknown>;

/** One client library's way of writing, signing and sending a request. */
interface ClientStyle {
  name: string;
  /** The path it posts `operation` to. */
  path(operation: string): string;
  /** The exact body bytes it sends for `fields` (its nonce and extra fields added). */
  body(operation: string, fields: Body): string;
}

/** JSON with every object's keys sorted, as Go marshals maps. */
function sortedDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortedDeep((value as Body)[k])]),
    );
  }
  return value;
}

/** Python's json.dumps: ", " and ": " separators, non-ASCII as \uXXXX (ensure_ascii). */
function pythonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(', ')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pythonDumps(k)}: ${pythonDumps(v)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A millisecond timestamp later than `last` (PHP's floor(microtime(true) * 1000) on a request that starts after the last). */
function nextMillisecond(last: number): number {
  let now = Date.now();
  while (now <= last) now = Date.now();
  return now;
}

function nodeClient(advancedBalanceId: string): ClientStyle {
  let nonce = Date.now();
  return {
    name: 'node',
    path: (operation) => operation,
    body: (_operation, fields) => JSON.stringify({ ...fields, advancedBalanceId, nonce: nonce++ }),
  };
}

function pythonClient(advancedBalanceId: string): ClientStyle {
  const withBalance = new Set(['advanced-balance', 'personal-addresses/create-user', 'orphan-deposits/get-deposits']);
  return {
    name: 'python',
    path: (operation) => (operation === 'find-tx' ? 'operation-by-tx-hash' : operation),
    body: (operation, fields) =>
      pythonDumps({
        ...fields,
        ...(withBalance.has(operation) ? { advancedBalanceId } : {}),
        nonce: randomInt(0, 1_000_000_000),
      }),
  };
}

function phpClient(): ClientStyle {
  let merged: Body = {};
  let last = 0;
  return {
    name: 'php',
    path: (operation) => `${operation}/`,
    body: (_operation, fields) => {
      last = nextMillisecond(last);
      merged = { ...merged, ...fields, nonce: last };
      const sorted = Object.fromEntries(
        Object.keys(merged)
          .sort()
          .map((k) => [k, merged[k]]),
      );
      return JSON.stringify(sorted).replaceAll('/', '\\/');
    },
  };
}

function goClient(): ClientStyle {
  let nonce = Date.now();
  const paths: Record<string, string> = {
    'personal-addresses/create-user': 'personal_addresses/create-user',
    'personal-addresses/get-user-address': 'personal_addresses/get-user-address',
    'personal-addresses/get-user-addresses': 'personal_addresses/get-user-addresses',
    'addresses/transactions': 'addresses/address-transactions',
  };
  return {
    name: 'go',
    path: (operation) => paths[operation] ?? operation,
    body: (_operation, fields) =>
      JSON.stringify(sortedDeep({ ...fields, advancedBalanceId: '', nonce: nonce++ }))
        .replaceAll('<', '\\u003c')
        .replaceAll('>', '\\u003e')
        .replaceAll('&', '\\u0026'),
  };
}

async function send(client: ClientStyle, keys: Keys, operation: string, fields: Body): Promise<ApiAnswer> {
  const path = client.path(operation);
  const raw = client.body(operation, fields);
  const response = await fetch(`${gateway.baseUrl}/api-gateway/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-public-key': keys.publicKey,
      'x-api-signature': createHmac('sha256', keys.privateKey).update(raw).digest('hex'),
    },
    body: raw,
  });
  const answer: ApiAnswer = {
    status: response.status,
    headers: response.headers,
    body: JSON.parse(await response.text()),
  };
  expectDocumented(path, answer);
  return answer;
}

const CLIENTS: [string, (advancedBalanceId: string) => ClientStyle][] = [
  ['node', nodeClient],
  ['python', pythonClient],
  ['php', phpClient],
  ['go', goClient],
];

describe.each(CLIENTS)('requests as the %s client sends them', (_name, makeClient) => {
  it('call every operation issue 20 added', { timeout: 180_000 }, async () => {
    const shop = await createTestMerchant(gateway.db);
    const keys = shop.test;
    const [balance] = (await call(gateway, 'advanced-balances', {}, keys)).body.response;
    const client = makeClient(balance.advancedBalanceId);
    // An order paid on the sandbox chain: a payment, an address, a webhook event (in the outbox).
    const made = await call(
      gateway,
      'make-order',
      {
        currency: 'LTC',
        network: 'litecoin',
        amount: '0.1',
        order: `clients-${client.name}`,
        successWebhook: 'https://shop.example/hooks?a=1&b=<2>',
      },
      keys,
    );
    const order = made.body.response;
    const tx = await broadcast(gateway.db, {
      network: network('litecoin'),
      to: order.address,
      tag: null,
      currency: 'LTC',
      amount: 10_000_000n,
    });
    await mine(gateway.db, network('litecoin'), 2);
    await watchOnce(gateway.db, sandboxChain(gateway.db, 'litecoin'));
    const [event] = (await call(gateway, 'webhooks/list', { orderId: order.orderId }, keys)).body.response;
    expect(event?.id).toBeDefined();

    const ok = async (operation: string, fields: Body) => {
      const answer = await send(client, keys, operation, fields);
      expect(answer.status, `${client.name} ${operation}: ${JSON.stringify(answer.body)}`).toBe(200);
      return answer.body.response;
    };
    // In an order where the PHP client's merged bodies stay meaningful (an array field before a
    // string one of the same name), as a merchant's code would call them.
    const user = await ok('personal-addresses/create-user', {
      clientId: `client-${client.name}`,
      clientEmail: 'buyer@example.com',
      createAddresses: false,
      groupByBlockchain: false,
      checkRisks: false,
    });
    expect(await ok('personal-addresses/get-user', { clientId: `client-${client.name}` })).toMatchObject({
      id: user.id,
    });
    expect(
      await ok('personal-addresses/get-user-addresses', {
        id: user.id,
        isActive: false,
        currency: ['BTC'],
        network: ['bitcoin'],
        limit: 100,
        offset: 0,
      }),
    ).toEqual([]);
    const personal = await ok('personal-addresses/get-user-address', {
      id: user.id,
      currency: 'BTC',
      network: 'bitcoin',
      renewAddress: false,
    });
    expect(personal).toMatchObject({ userId: user.id, currency: 'BTC', network: 'bitcoin' });
    expect(await ok('utils/validate-address', { address: personal.address, network: 'bitcoin' })).toMatchObject({
      isValid: true,
    });
    const operations = await ok('find-tx', { tx: tx.txHash });
    expect(operations).toHaveLength(1);
    expect(await ok('advanced-balance', { advancedBalanceId: balance.advancedBalanceId })).toEqual(balance);
    expect(await ok('orphan-deposits/get-deposits', { limit: 10, offset: 0 })).toEqual([]);
    expect(await ok('webhooks/get', { webhookId: event.id })).toMatchObject({
      event: 'ORDER',
      id: event.id,
      successWebhook: 'https://shop.example/hooks?a=1&b=<2>',
    });
    expect(await ok('webhooks/get-verbose', { webhookId: event.id, fields: ['id', 'requestUrl'] })).toEqual({
      id: event.id,
      requestUrl: 'https://shop.example/hooks?a=1&b=<2>',
    });
    expect(await ok('addresses/find-by-id', { id: order.addressId })).toMatchObject({
      address: order.address,
      balance: '0.1',
    });
    expect(await ok('addresses/find-by-address', { address: order.address })).toMatchObject({ id: order.addressId });
    expect(await ok('addresses/transactions', { id: order.addressId, limit: 100, offset: 0 })).toHaveLength(1);

    const refused = await send(client, keys, 'make-withdrawal', {
      addressId: order.addressId,
      amount: '0.1',
      address: 'ltc1qdestination',
    });
    expect(refused.status).toBe(501);
    expect(refused.body.error.name).toBe('NOT_SUPPORTED');
  });
});
