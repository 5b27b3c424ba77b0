/**
 * The money-out plan operations (collections/*, refund-plans/*, docs/collections.md) through the
 * API's own wrapper in this process: only a key with the signing-plans scope calls them; a body
 * holding a private key or a recovery phrase is refused naming the field, never echoing it; each
 * refusal answers its documented error and writes nothing; every answer is checked against the
 * operation's schema and the OpenAPI document. Plans themselves, prepared and moved on a real
 * chain, are tests/collections-litecoind.pg.test.ts's.
 */
import { HDKey } from '@scure/bip32';
import { WIF } from '@scure/btc-signer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/lib/db/client';
import { createKey } from '@/lib/merchants';
import type { OperationName } from '@/lib/protocol';
import { callInProcess, useDatabaseForApi } from './support/api-in-process';
import { createOrder } from './support/chain';
import { checkedCallInProcess } from './support/contract';
import { openTestDatabase } from './support/database';
import type { Keys } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';

process.env.APP_SECRET ??= 'test-app-secret-that-is-at-least-32-characters';

const WORDS = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const master = HDKey.fromMasterSeed(new Uint8Array(32).fill(7));

let db: Database;
let merchant: TestMerchant & { moneyOut: Keys };
let planner: Keys;

const call = (path: OperationName, body: Record<string, unknown>, keys: Keys = planner) =>
  checkedCallInProcess(path, body, keys);

/** Rows a refused request must not have written. */
async function written(): Promise<number[]> {
  const counts = [];
  for (const table of ['collection_plans', 'api_nonces', 'audit_log'])
    counts.push((await db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n);
  return counts;
}

beforeAll(async () => {
  db = await openTestDatabase();
  useDatabaseForApi(db);
  merchant = await createTestMerchant(db, undefined, { scopes: ['read-only', 'signing-plans'] });
  planner = merchant.moneyOut;
});
afterAll(async () => {
  await db?.close();
});

describe('the plan operations', () => {
  it('are refused to a key without the signing-plans scope, a full key included', async () => {
    const before = await written();
    for (const [path, body] of [
      ['collections/prepare', { network: 'litecoin' }],
      ['collections/list', {}],
      ['refund-plans/get', { refundId: crypto.randomUUID() }],
      ['collections/submit', { id: crypto.randomUUID(), transaction: '00' }],
    ] as const) {
      const answer = await call(path, body, merchant.test);
      expect(answer.status, path).toBe(403);
      expect(answer.body.error, path).toMatchObject({
        name: 'INSUFFICIENT_SCOPE',
        details: [{ path: 'x-api-public-key', message: 'has scopes full; this operation needs signing-plans' }],
      });
    }
    expect(await written()).toEqual(before);
  });

  it('refuse a body holding an extended private key, a WIF key or a recovery phrase, naming the field only', async () => {
    const before = await written();
    const cases: [OperationName, Record<string, unknown>, string, string][] = [
      ['collections/prepare', { network: 'litecoin', seed: WORDS }, 'seed', 'a BIP 39 recovery phrase'],
      ['collections/prepare', { network: master.privateExtendedKey }, 'network', 'an extended private key'],
      [
        'refund-plans/prepare',
        { refundId: crypto.randomUUID(), signer: { keys: ['x', WIF().encode(master.derive('m/0/1').privateKey!)] } },
        'signer.keys.1',
        'a WIF private key',
      ],
      [
        'collections/submit',
        { id: crypto.randomUUID(), transaction: WIF().encode(master.derive('m/0/2').privateKey!) },
        'transaction',
        'a WIF private key',
      ],
      // Reads of plans are money out too: a phrase is refused wherever it is sent.
      ['collections/list', { note: `  ${WORDS.toUpperCase()}  ` }, 'note', 'a BIP 39 recovery phrase'],
    ];
    for (const [path, body, field, what] of cases) {
      const answer = await call(path, body);
      expect(answer.status, field).toBe(400);
      expect(answer.body.error, field).toMatchObject({
        code: 1007,
        name: 'KEY_MATERIAL_REFUSED',
        details: [{ path: field, message: `holds ${what}` }],
      });
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain('legal');
      expect(text).not.toContain(master.privateExtendedKey.slice(4, 30));
    }
    // Twelve words of the list whose checksum does not hold are words, not a phrase: the next check answers.
    const words = await call('collections/list', { note: WORDS.replace(/yellow$/, 'year') });
    expect(words.status).toBe(200);
    expect((await written()).slice(0, 1)).toEqual(before.slice(0, 1));
  });

  it('answer a bad field with VALIDATION_ERROR, and never a 500', async () => {
    const before = await written();
    const cases: [OperationName, Record<string, unknown>, string][] = [
      ['collections/prepare', { network: 'litecoin', minimum: '9'.repeat(80) }, 'minimum'],
      ['collections/prepare', { network: 'litecoin', minimum: '0.000000001' }, 'minimum'],
      ['collections/prepare', { network: 'litecoin', minimum: '-1' }, 'minimum'],
      ['collections/prepare', { network: 'litecoin', feeRate: '0' }, 'feeRate'],
      ['collections/prepare', { network: 'litecoin', feeRate: 2.5 }, 'feeRate'],
      ['collections/prepare', { network: 'lite\u0000coin' }, 'network'],
      ['collections/list', { status: 'sent' }, 'status'],
      ['refund-plans/prepare', { refundId: crypto.randomUUID(), feeFromRefund: 'yes' }, 'feeFromRefund'],
      ['refund-plans/get', { id: crypto.randomUUID(), refundId: crypto.randomUUID() }, 'id'],
      ['refund-plans/get', {}, 'id'],
      ['collections/submit', { id: crypto.randomUUID() }, 'psbt'],
      ['collections/submit', { id: crypto.randomUUID(), psbt: 'cHNidP8=', transaction: '00' }, 'psbt'],
      ['collections/submit', { id: crypto.randomUUID(), psbt: 'not base64!' }, 'psbt'],
      ['collections/submit', { id: crypto.randomUUID(), transaction: 'ABC' }, 'transaction'],
      ['collections/submit', { id: crypto.randomUUID(), transaction: '0'.repeat(1_000_002) }, 'transaction'],
    ];
    for (const [path, body, field] of cases) {
      const answer = await call(path, body);
      expect(answer.status, `${path} ${field}`).toBe(400);
      expect(answer.body.error.name).toBe('VALIDATION_ERROR');
      expect(answer.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    }
    expect(await written()).toEqual(before);
  });

  it('refuse a plan that cannot be prepared with PLAN_REFUSED, saying why, and write nothing', async () => {
    const before = await written();
    const noTreasury = await call('collections/prepare', { network: 'litecoin', feeRate: '2' });
    expect(noTreasury.status).toBe(409);
    expect(noTreasury.body.error).toMatchObject({ code: 3201, name: 'PLAN_REFUSED' });
    expect(noTreasury.body.error.message).toMatch(/no treasury is set for litecoin/);
    const unknown = await call('collections/prepare', { network: 'dogecoin-classic' });
    expect(unknown.body.error.name).toBe('PLAN_REFUSED');
    expect(unknown.body.error.message).toMatch(/dogecoin-classic is not a Bitcoin-family network of test mode/);
    expect(await written()).toEqual(before);
  });

  it("answer another merchant's, an unknown or a malformed plan or refund with NOT_FOUND", async () => {
    for (const id of [crypto.randomUUID(), 'not-a-uuid', "1' or '1'='1"]) {
      expect((await call('collections/get', { id })).body.error.name).toBe('NOT_FOUND');
      expect((await call('refund-plans/get', { id })).body.error.name).toBe('NOT_FOUND');
      expect((await call('refund-plans/get', { refundId: id })).body.error.name).toBe('NOT_FOUND');
      expect((await call('refund-plans/prepare', { refundId: id })).body.error.name).toBe('NOT_FOUND');
      expect((await call('collections/submit', { id, transaction: '00' })).body.error.name).toBe('NOT_FOUND');
    }
    const listed = await call('collections/list', { status: 'prepared' });
    expect(listed.body.response).toEqual({ plans: [] });
    // A refund of another merchant is not found: its id reveals nothing.
    const other = await createTestMerchant(db, undefined, { scopes: ['full', 'refunds'] });
    const otherRefunder = other.moneyOut;
    const order = await createOrder(db, other.test, { currency: 'LTC', network: 'litecoin', amount: '1' });
    await db.query(`update orders set status = 'processed', received = amount where id = $1`, [order.id]);
    const refund = await callInProcess('refunds/make', { orderId: order.id, amount: '0.5' }, otherRefunder);
    expect(refund.status).toBe(200);
    const refundId = refund.body.response.id as string;
    expect((await call('refund-plans/prepare', { refundId })).body.error.name).toBe('NOT_FOUND');
    expect((await call('refund-plans/get', { refundId })).body.error.name).toBe('NOT_FOUND');
    // Its own merchant's signing key is told why it cannot be sent yet: no address from the payer.
    const otherPlanner = await createKey(db, other.merchantId, 'test', {
      name: 'S',
      scopes: ['read-only', 'signing-plans'],
    });
    const waiting = await call('refund-plans/prepare', { refundId }, otherPlanner);
    expect(waiting.status).toBe(409);
    expect(waiting.body.error).toMatchObject({ name: 'REFUND_STATE_CONFLICT' });
  });
});

describe('the fee payer through the API (docs/decisions/107)', () => {
  const TRON = { network: 'tron', address: 'TLrpNTBuCpGMrB9TyVwgEhNVRhtWEQPHh4', path: "m/44'/195'/1'/0/0" };
  const kept = async () =>
    db.query<{ address: string; path: string }>(
      'select address, path from fee_payers where merchant_id = $1 order by network',
      [merchant.merchantId],
    );

  it('is kept by a signing-plans key by the Funds form’s rules, audited, and read back', async () => {
    const before = await written();
    expect((await call('fee-payers/set', TRON, merchant.test)).status).toBe(403);
    // A changed character breaks the Base58Check checksum; an EVM network takes no Tron address.
    for (const [body, path] of [
      [{ ...TRON, address: `${TRON.address.slice(0, -1)}5` }, 'address'],
      [{ ...TRON, network: 'litecoin' }, 'network'],
      [{ ...TRON, path: 'm/44x' }, 'path'],
    ] as const) {
      const refused = await call('fee-payers/set', body);
      expect([refused.status, refused.body.error.name, refused.body.error.details[0].path], path).toEqual([
        400,
        'VALIDATION_ERROR',
        path,
      ]);
    }
    const phrase = await call('fee-payers/set', { ...TRON, path: WORDS });
    expect(phrase.body.error.name).toBe('KEY_MATERIAL_REFUSED');
    expect(JSON.stringify(phrase.body)).not.toContain('legal winner');
    expect(await written()).toEqual(before);
    expect(await kept()).toEqual([]);

    const set = await call('fee-payers/set', { ...TRON, address: ` ${TRON.address} ` });
    expect([set.status, set.body.response]).toEqual([200, TRON]);
    expect((await call('fee-payers/list', {})).body.response).toEqual({ feePayers: [TRON] });
    expect(await kept()).toEqual([{ address: TRON.address, path: TRON.path }]);
    const [audit] = await db.query<{ actor: string; detail: unknown }>(
      "select actor, detail from audit_log where action = 'fee-payer.set' and merchant_id = $1",
      [merchant.merchantId],
    );
    expect(audit).toEqual({ actor: `API key ${planner.publicKey}`, detail: { ...TRON, mode: 'test' } });
  });
});
