/**
 * Property-based: whatever a caller sends, the gateway answers its documented envelope, never a
 * 500, and a rejected request writes nothing.
 *
 * - Every merchant API operation (the keys of lib/api/operations.ts's table, so a new operation is
 *   covered without touching this file) gets correctly signed bodies (a test key of every scope, so
 *   that the money-out operations read them too), each with a fresh nonce,
 *   built from the protocol's real field names (read from lib/protocol/requests.ts's schemas) mixed
 *   with junk names, holding arbitrary JSON: strings with control characters, NUL and unpaired
 *   surrogates, long strings, huge and tiny numbers written out (1e400, 80 digits), 80-digit
 *   decimal strings, plausible values (so that some requests get past validation), nested arrays
 *   and objects, null; signed transactions that are not hex, hold NUL or reach a megabyte; and raw
 *   bodies that are not JSON at all.
 * - GET /pay/<segment> and GET /api/pay/<segment>/status with arbitrary segments, broken
 *   percent-encodings among them: the page answers 404 (200 for a real order) with its security
 *   headers, the status route its JSON.
 *
 * fast-check prints the seed and path of a failing run; `FUZZ_SEED=<seed>` replays it.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import fc from 'fast-check';
import { encode } from 'ripple-binary-codec';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_ERRORS, KEY_SCOPE_VALUES, ORDER_STATUS_VALUES, type ApiErrorName } from '@/lib/protocol';
import { API_OPERATIONS } from '@/lib/api/operations';
import * as protocol from '@/lib/protocol/requests';
import { currencyPairs } from '@/lib/catalog';
import { createKey } from '@/lib/merchants';
import { call, freshNonce, withTestGateway, type Keys, type TestGateway } from './support/gateway';
import type { TestMerchant } from './support/merchants';

/** Runs per property; about 1,100 requests in all, well under a minute per database on a busy 2-core machine. */
const RUNS = { operation: 60, raw: 120, path: 120 };
const seed = process.env.FUZZ_SEED === undefined ? {} : { seed: Number(process.env.FUZZ_SEED) };

let gateway: TestGateway;
let merchant: TestMerchant;
/**
 * The merchant's test key with every scope: the money-out operations (refunds, plans, fee payers)
 * read their bodies only for a key whose scopes allow them, and a key without would stop every
 * body at INSUFFICIENT_SCOPE.
 */
let everyScope: Keys;
let realOrderId: string;
let snapshotSql: string;

withTestGateway((started) => ({ gateway, merchant } = started), { merchantName: 'Fuzz shop' });
beforeAll(async () => {
  const made = await call(
    gateway,
    'make-order',
    { currency: 'LTC', network: 'litecoin', amount: '0.25', order: 'fuzz-real' },
    merchant.test,
  );
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  realOrderId = made.body.response.orderId;
  everyScope = await createKey(gateway.db, merchant.merchantId, 'test', {
    name: 'Fuzz, every scope',
    scopes: [...KEY_SCOPE_VALUES],
  });
  snapshotSql = await buildSnapshotSql();
});

// ---------------------------------------------------------------------------------------------
// What a request could write: every table, by content.

/**
 * One query answering a digest of every table's rows: a rejected request must leave every digest
 * as it was (an update shows, not only an insert). The unassigned addresses of the pool are left
 * out: the server refills the pool in the background after an order, and handing one out shows in
 * the order that references it or in its assignment to a user. So are the keys' last-use columns.
 */
async function buildSnapshotSql(): Promise<string> {
  const tables = await gateway.db.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  expect(tables.map((t) => t.name)).toEqual(
    expect.arrayContaining(['orders', 'api_nonces', 'payments', 'deposits', 'webhook_events', 'external_users']),
  );
  const digest = (name: string) => {
    const where = name === 'addresses' ? ' where t.assigned_at is not null or t.merchant_id is not null' : '';
    // A key's last use is flushed in the background once a minute (lib/merchants/usage.ts), whichever
    // request used it: a flush landing between two snapshots is not the rejected request's write.
    const row = name === 'api_keys' ? `(to_jsonb(t) - 'last_used_at' - 'last_used_ip')::text` : 't::text';
    return `'${name}', (select count(*)::text || ':' || md5(coalesce(string_agg(${row}, '|' order by ${row}), '')) from ${name} t${where})`;
  };
  return `select json_build_object(${tables.map((t) => digest(t.name)).join(', ')}) as digest`;
}

async function snapshot(): Promise<Record<string, string>> {
  const [row] = await gateway.db.query<{ digest: Record<string, string> }>(snapshotSql);
  return row!.digest;
}

// ---------------------------------------------------------------------------------------------
// Requests.

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function post(operation: string, body: Buffer, keys: Keys): Promise<Answer> {
  const response = await fetch(`${gateway.baseUrl}/api-gateway/${operation}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-public-key': keys.publicKey,
      'x-api-signature': createHmac('sha256', keys.privateKey).update(body).digest('hex'),
    },
    body: new Uint8Array(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** GET with the path's bytes exactly as given (fetch would normalise some of them). */
function get(path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const { hostname, port } = new URL(gateway.baseUrl);
  return new Promise((resolve, reject) => {
    http
      .get({ hostname, port, path }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res
          .on('data', (d: string) => (text += d))
          .on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      })
      .on('error', reject);
  });
}

// ---------------------------------------------------------------------------------------------
// The envelope.

const detail = z.object({ path: z.string(), message: z.string().min(1) }).strict();
const envelope = z.union([
  z
    .object({ success: z.literal(true), response: z.unknown().refine((v) => v !== undefined, 'response is missing') })
    .strict(),
  z
    .object({
      success: z.literal(false),
      error: z
        .object({ code: z.number(), name: z.string(), message: z.string().min(1), details: z.array(detail) })
        .strict(),
      requestId: z.uuid(),
    })
    .strict(),
]);

/** What the database is doing, for a request that takes too long. */
async function activity(): Promise<string> {
  const rows = await gateway.db.query<Record<string, unknown>>(
    `select pid, state, wait_event_type, wait_event, pg_blocking_pids(pid) as blockers, left(query, 200) as query
       from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
  );
  return JSON.stringify(rows, null, 1);
}

/**
 * The digest after the last rejected request: the next request's "before" unless something may
 * have written since (a success), which saves half the digests of a run of rejections.
 */
let unchangedSince: Record<string, string> | undefined;

async function expectEnvelope(operation: string, body: Buffer) {
  const before = unchangedSince ?? (await snapshot());
  unchangedSince = undefined;
  const slow = setTimeout(() => {
    void activity().then((a) =>
      console.error(`SLOW ${operation} ${JSON.stringify(body.toString('utf8').slice(0, 300))}\n${a}`),
    );
  }, 20_000);
  const answer = await post(operation, body, everyScope).finally(() => clearTimeout(slow));
  const context = `${operation} ${JSON.stringify(body.toString('utf8').slice(0, 300))} -> ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, context).not.toBe(500);
  expect(answer.headers.get('content-type'), context).toMatch(/^application\/json/);
  const parsed = envelope.safeParse(JSON.parse(answer.text));
  expect(parsed.success, `${context}\n${parsed.error?.message}`).toBe(true);
  const reply = parsed.data!;
  if (reply.success) {
    expect(answer.status, context).toBe(200);
    return; // a success may write (an order, its nonce)
  }
  const documented = API_ERRORS[reply.error.name as ApiErrorName];
  expect(documented, context).toBeDefined();
  expect({ status: answer.status, code: reply.error.code }, context).toEqual({
    status: documented.status,
    code: documented.code,
  });
  expect(answer.headers.get('x-request-id'), context).toBe(reply.requestId);
  const after = await snapshot();
  expect(after, context).toEqual(before);
  unchangedSince = after;
}

// ---------------------------------------------------------------------------------------------
// Arbitrary bodies, as JSON text (so that numbers JavaScript cannot hold, such as 1e400, are sent as written).

/** Every field name of the protocol's request schemas. */
function fieldNames(schema: unknown): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodPipe) return [...fieldNames(schema.in), ...fieldNames(schema.out)];
  return [];
}
const FIELDS = [...new Set([...Object.values(protocol).flatMap(fieldNames), 'returnURL'])].filter(
  (name) => name !== 'nonce',
);

/** Any UTF-16 code unit (unpaired surrogates included), any code point, and the usual suspects. */
const nastyChar = fc.oneof(
  fc.constantFrom(
    '\u0000',
    '\ud800',
    '\udfff',
    '\u0001',
    '\u001f',
    '\u007f',
    '\u0085',
    '\u2028',
    '\ufeff',
    '%',
    '\\',
    '"',
    '@',
    ':',
    '/',
    ' ',
    '\t',
    '\n',
  ),
  fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
);
const nastyString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: nastyChar, maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('x', '\u0000', 'é', '9', '\ud800'), fc.integer({ min: 200, max: 3000 }))
      .map(([c, n]) => c.repeat(n)),
  },
);
/** A valid value most of the time (so that requests get past validation), a tricky one otherwise. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, tricky: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 9, arbitrary: valid }, { weight: 1, arbitrary: tricky });

const decimal = fc.oneof(
  fc.stringMatching(/^(0|[1-9][0-9]{0,85})(\.[0-9]{1,25})?$/),
  fc.constantFrom(
    '0.5',
    '1',
    '25.5',
    '1'.repeat(80),
    `1${'0'.repeat(70)}`,
    `${'9'.repeat(69)}.99999999`,
    `1${'0'.repeat(69)}`,
    `1${'0'.repeat(59)}`,
    '1e70',
    '-1',
    '0.0',
  ),
);
const url = mostly(
  fc.webUrl(),
  fc.oneof(
    fc.webUrl().map((u) => u.replace('://', '://user:pass@')),
    fc.webUrl().map((u) => u.replace('://', '://user@')),
    fc.webUrl().map((u) => `${u}\u0000`),
    fc.constantFrom(
      'http://127.0.0.1/',
      'ftp://x.example/',
      'javascript:alert(1)',
      'http://a b.example/',
      'https://shop.example/\t',
    ),
  ),
);
const shortText = fc.string({ minLength: 1, maxLength: 20 });

/**
 * A signed XRP Ledger Payment as the signer hands it to collections/submit (lower-case hex of its
 * canonical binary; docs/decisions/119), of no plan.
 */
const SIGNED_XRPL_PAYMENT = encode({
  TransactionType: 'Payment',
  Account: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
  Destination: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe',
  DestinationTag: 77,
  Amount: '2000000',
  Fee: '12',
  Sequence: 7,
  LastLedgerSequence: 90_001_000,
  Flags: 0x8000_0000,
  SigningPubKey: '03AB40A0490F9B7ED8DF29D246BF2D6269820A0EE7742ACDD457BEA7C7D0931EDB',
  TxnSignature: `3045022100${'11'.repeat(32)}0220${'22'.repeat(32)}`,
}).toLowerCase();
/** Not a signed transaction: not hex, upper-case, an odd digit, NUL inside or after, a space. */
const NOT_SIGNED_HEX = [
  SIGNED_XRPL_PAYMENT.toUpperCase(),
  `0x${SIGNED_XRPL_PAYMENT}`,
  `${SIGNED_XRPL_PAYMENT}0`,
  `${SIGNED_XRPL_PAYMENT.slice(0, 40)}\u0000${SIGNED_XRPL_PAYMENT.slice(40)}`,
  `${SIGNED_XRPL_PAYMENT}\u0000`,
  `${SIGNED_XRPL_PAYMENT} `,
  'zz'.repeat(100),
  '',
];
/** collections/submit's `transaction`: signed hex (an XRP Ledger Payment, or any bytes), or what is none. */
const signedTransaction = mostly(
  fc.oneof(fc.constant(SIGNED_XRPL_PAYMENT), fc.stringMatching(/^(?:[0-9a-f]{2}){1,300}$/)),
  fc.oneof(nastyString, fc.constantFrom(...NOT_SIGNED_HEX)),
);

/** Values a field of that name could plausibly hold. */
const plausible: Record<string, fc.Arbitrary<unknown>> = {
  currency: fc.constantFrom('BTC', 'LTC', 'USDT', 'ETH', 'XRP', 'btc', 'DOGE', 'TRX', 'USDC'),
  network: fc.constantFrom('bitcoin', 'litecoin', 'tron', 'ethereum', 'ripple', 'dogecoin', 'bsc', 'solana'),
  amount: mostly(fc.stringMatching(/^[1-9][0-9]{0,3}(\.[0-9]{1,6})?$/), decimal),
  paymentTolerancePercent: mostly(fc.stringMatching(/^(0|[1-9][0-9]?)(\.[0-9]{1,6})?$/), decimal),
  order: mostly(shortText, nastyString),
  externalUserId: mostly(shortText, nastyString),
  description: mostly(fc.string({ maxLength: 100 }), nastyString),
  payerEmail: mostly(
    fc.stringMatching(/^[a-z0-9]{1,10}@[a-z]{1,10}\.(com|example)$/),
    fc.oneof(fc.emailAddress(), nastyString),
  ),
  successWebhook: url,
  errorWebhook: url,
  returnUrl: url,
  returnURL: url,
  lifetime: mostly(fc.integer({ min: 1800, max: 43200 }), fc.integer()),
  checkRisks: fc.boolean(),
  status: fc.array(mostly(fc.constantFrom(...ORDER_STATUS_VALUES), nastyString), { maxLength: 8 }),
  limit: mostly(fc.integer({ min: 1, max: 100 }), fc.integer()),
  offset: mostly(fc.integer({ min: 0, max: 100 }), fc.integer()),
  tx: mostly(fc.stringMatching(/^[0-9a-f]{64}$/), nastyString),
  id: mostly(fc.uuid(), nastyString),
  orderId: mostly(fc.oneof(fc.uuid(), fc.constant('REAL')), nastyString),
  // refunds/make's destination (docs/decisions/125), price-rate's currency, and the refund plans'
  // fields (docs/decisions/119).
  to: mostly(
    fc.constantFrom('claim', 'sender', 'USD', 'EUR'),
    fc.oneof(nastyString, fc.constantFrom('SENDER', 'sender\u0000', 'claim ')),
  ),
  refundId: mostly(fc.uuid(), nastyString),
  feeFromRefund: mostly(fc.boolean(), fc.constantFrom('true', 1, 0, null)),
  feeRate: mostly(fc.stringMatching(/^[1-9][0-9]{0,3}$/), decimal),
  transaction: signedTransaction,
};

/** The fields a schema cannot do without (read from the schemas, as the names are). */
function requiredNames(schema: unknown): string[] {
  if (schema instanceof z.ZodObject)
    return Object.entries(schema.shape as Record<string, z.ZodType>)
      .filter(([, field]) => !field.safeParse(undefined).success)
      .map(([name]) => name);
  if (schema instanceof z.ZodPipe) return [...requiredNames(schema.in), ...requiredNames(schema.out)];
  return [];
}
const REQUIRED = [...new Set(Object.values(protocol).flatMap(requiredNames))].filter((name) => name !== 'nonce');

/** The currency and network pairs of the catalog, so that make-order gets past them. */
const PAIRS = currencyPairs().map((p) => ({ currency: p.currency.ticker, network: p.network.name }));

/** A JSON value as text: anything JSON.stringify writes, plus numbers it cannot (1e400, 80 digits). */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(
      'null',
      'true',
      'false',
      '0',
      '-0',
      '1e400',
      '-1e400',
      '1e-400',
      '5e-324',
      '1.7976931348623157e308',
      '9007199254740993',
      '1'.repeat(80),
      `-${'9'.repeat(80)}`,
      '0.1e1',
      '[]',
      '{}',
    ),
    fc.double().map((d) => JSON.stringify(d)),
    fc.bigInt().map(String),
    nastyString.map((s) => JSON.stringify(s)),
    decimal.map((s) => JSON.stringify(s)),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(fc.oneof(fc.constantFrom(...FIELDS), nastyString), tie('value')), { maxLength: 4 })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  ),
})).value;

/** One of the protocol's fields as JSON text: plausible for its name, or anything. */
const fieldValue = (name: string) =>
  fc.oneof(
    (plausible[name] ?? fc.jsonValue()).map((v) => JSON.stringify(v)),
    jsonText,
  );

/**
 * Two kinds of bodies, with junk fields and now and then a nonce that is not one: nearly valid
 * ones (every required field and some others with plausible values, a catalog pair, up to two
 * fields made arbitrary), which reach the operations' own rules; and anything (some fields,
 * plausible or arbitrary).
 */
const nearlyValid = fc
  .record({
    values: fc.record(Object.fromEntries(FIELDS.map((name) => [name, plausible[name] ?? fc.jsonValue()])), {
      requiredKeys: REQUIRED,
    }),
    pair: fc.constantFrom(...PAIRS),
    broken: fc.oneof(
      fc.constant([]),
      fc
        .subarray(FIELDS, { maxLength: 2 })
        .chain((names) => fc.tuple(...names.map((name) => fc.tuple(fc.constant(name), jsonText)))),
    ),
  })
  .map(({ values, pair, broken }) => {
    const fields = new Map(
      Object.entries({ ...values, ...pair }).map(([name, value]) => [name, JSON.stringify(value)]),
    );
    for (const [name, value] of broken) fields.set(name, value);
    return [...fields];
  });
const anyFields = fc
  .subarray(FIELDS)
  .chain((names) => fc.tuple(...names.map((name) => fc.tuple(fc.constant(name), fieldValue(name)))));
const requestFields = fc.record({
  fields: fc.oneof(nearlyValid, anyFields),
  junk: fc.array(fc.tuple(nastyString, jsonText), { maxLength: 3 }),
  badNonce: fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: jsonText }),
});

interface RequestFields {
  fields: [string, string][];
  junk: [string, string][];
  badNonce: string | undefined;
}
/** A request of these fields, each given as JSON text. */
const request = (...fields: [string, string][]): RequestFields => ({ fields, junk: [], badNonce: undefined });
const text = (value: string) => JSON.stringify(value);
/** Values of another type than a string field's, as JSON text: an 80-digit number, 1e400, an array, an object, null, true. */
const WRONG_TYPES = ['9'.repeat(80), '1e400', '[]', '{"a":1}', 'null', 'true'];
const NO_PLAN = text('9f7c2a4e-1b3d-4c5e-8f6a-7b8c9d0e1f2a');

/**
 * Hostile values of the fields added lately, sent first to the operations that read them (fast-check
 * `examples`, within the operation's runs, not beside them): refunds/make's `to` (docs/decisions/125)
 * and the XRP Ledger plans' `refund-plans/prepare` and `collections/submit` (docs/decisions/119),
 * among them a megabyte of hex at the field's bound and one just past it.
 */
const HOSTILE: Record<string, RequestFields[]> = {
  'refunds/make': [
    ...['SENDER', 'sender\u0000', 'claim ', '', 'x'.repeat(3000)].map((to) => text(to)),
    ...WRONG_TYPES,
  ].map((to) => request(['orderId', text('REAL')], ['amount', text('0.1')], ['to', to])),
  'refund-plans/prepare': [
    request(['refundId', text('REAL')], ['feeFromRefund', text('true')]),
    request(['refundId', text('00000000-0000-0000-0000-000000000000\u0000')]),
    ...WRONG_TYPES.map((value) => request(['refundId', value])),
    ...WRONG_TYPES.map((value) => request(['refundId', NO_PLAN], ['feeRate', value])),
  ],
  'collections/submit': [
    ...[SIGNED_XRPL_PAYMENT, ...NOT_SIGNED_HEX, 'ab'.repeat(500_000), 'ab'.repeat(500_001)].map((transaction) =>
      request(['id', NO_PLAN], ['transaction', text(transaction)]),
    ),
    request(['id', text('REAL')], ['transaction', text(SIGNED_XRPL_PAYMENT)]),
    request(['id', NO_PLAN], ['transaction', text(SIGNED_XRPL_PAYMENT)], ['psbt', text('cHNidP8=')]),
    ...WRONG_TYPES.map((value) => request(['id', NO_PLAN], ['transaction', value])),
  ],
};

/** The body as JSON text, with a fresh nonce unless a bad one was drawn (made here, so that a replayed run gets a fresh one too). */
function bodyOf({ fields, junk, badNonce }: RequestFields): Buffer {
  const entries = [...fields, ...junk, ['nonce', badNonce ?? String(freshNonce())]].map(
    ([k, v]) => `${JSON.stringify(k)}:${v === '"REAL"' ? JSON.stringify(realOrderId) : v}`,
  );
  return Buffer.from(`{${entries.join(',')}}`, 'utf8');
}

describe('every merchant API operation', () => {
  for (const operation of Object.keys(API_OPERATIONS)) {
    it(
      `${operation}: any signed body gets the documented envelope, never a 500, and a rejection writes nothing`,
      { timeout: 120_000 },
      async () => {
        await fc.assert(
          fc.asyncProperty(requestFields, (request) => expectEnvelope(operation, bodyOf(request))),
          { numRuns: RUNS.operation, examples: (HOSTILE[operation] ?? []).map((hostile) => [hostile]), ...seed },
        );
      },
    );
  }

  it(
    'bodies that are not JSON objects, or not JSON at all, signed: the envelope, nothing written',
    { timeout: 120_000 },
    async () => {
      const operations = Object.keys(API_OPERATIONS);
      const raw = fc.oneof(
        fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
        fc.string({ unit: nastyChar, maxLength: 100 }).map((s) => Buffer.from(s, 'utf8')),
        jsonText.map((s) => Buffer.from(s, 'utf8')),
        fc
          .constantFrom('', '{', '{"nonce":1', '{"nonce": 1}}', '\ufeff{}', '{"a":1,"a":2}')
          .map((s) => Buffer.from(s, 'utf8')),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...operations), raw, (operation, body) => expectEnvelope(operation, body)),
        { numRuns: RUNS.raw, ...seed },
      );
    },
  );
});

// ---------------------------------------------------------------------------------------------
// The payment page and its status route.

/** Each UTF-8 byte of `text` percent-encoded (an unpaired surrogate becomes U+FFFD, as a browser sends it). */
const percentEncoded = (text: string) =>
  [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** The order id the route sees: the segment decoded, or as sent when it does not decode. */
function resolveSegment(s: string): { path: string; id: string } {
  if (s === 'REAL') return { path: realOrderId, id: realOrderId };
  if (s === 'REAL-ENCODED') return { path: percentEncoded(realOrderId), id: realOrderId };
  try {
    return { path: s, id: decodeURIComponent(s) };
  } catch {
    return { path: s, id: s };
  }
}

const pathPiece = fc.oneof(
  fc.constantFrom(
    '%',
    '%Z',
    '%ZZ',
    '%E0%A4%A',
    '%E0%A4',
    '%C0%80',
    '%ED%A0%80',
    '%FF',
    '%00',
    '%2F',
    '%25',
    '%u0041',
    '%%',
    '%0',
    '%2e%2e',
    '%5C',
    '%3F',
    '%23',
  ),
  fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, '0')}`),
  fc.string({ unit: nastyChar, maxLength: 8 }).map(percentEncoded),
  fc.stringMatching(/^[A-Za-z0-9\-._~!$&'()*+,;=:@]{1,12}$/),
  fc.uuid(),
);
/** A path segment; empty, `.` and `..` (also written `%2e`) are left out: they name another path, not an order. */
const segment = fc
  .oneof(
    { weight: 9, arbitrary: fc.array(pathPiece, { minLength: 1, maxLength: 6 }).map((pieces) => pieces.join('')) },
    { weight: 1, arbitrary: fc.constantFrom('REAL', 'REAL-ENCODED') },
  )
  .filter((s) => !['', '.', '..'].includes(resolveSegment(s).id));

describe('GET /pay/{orderId} and /api/pay/{orderId}/status with any path segment', () => {
  it('the status route answers its JSON: the order, or 404 NOT_FOUND', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(segment, async (s) => {
        const { path, id } = resolveSegment(s);
        const answer = await get(`/api/pay/${path}/status`);
        const context = `GET /api/pay/${path}/status -> ${answer.status} ${answer.text.slice(0, 200)}`;
        expect(answer.status, context).toBe(id === realOrderId ? 200 : 404);
        expect(answer.headers['content-type'], context).toMatch(/^application\/json/);
        expect(answer.headers['cache-control'], context).toContain('no-store');
        const body = JSON.parse(answer.text);
        if (answer.status === 404) expect(body, context).toEqual({ error: 'NOT_FOUND', message: 'Order not found.' });
        else expect(body.orderId, context).toBe(realOrderId);
      }),
      { numRuns: RUNS.path, ...seed },
    );
  });

  it('the page answers the order or its 404 page, with the security headers', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(segment, async (s) => {
        const { path, id } = resolveSegment(s);
        const answer = await get(`/pay/${path}`);
        const context = `GET /pay/${path} -> ${answer.status} ${answer.text.slice(0, 200)}`;
        expect(answer.status, context).toBe(id === realOrderId ? 200 : 404);
        expect(answer.headers['content-type'], context).toMatch(/^text\/html/);
        expect(answer.headers['content-security-policy'], context).toMatch(/script-src 'self' 'nonce-/);
        expect(answer.headers['x-content-type-options'], context).toBe('nosniff');
        // Same-origin on payer pages: their forms post back to the gateway (docs/decisions/069).
        expect(answer.headers['referrer-policy'], context).toBe('same-origin');
        if (answer.status === 404) expect(answer.text, context).toContain('Order not found');
      }),
      { numRuns: RUNS.path, ...seed },
    );
  });
});
