/**
 * Off the embedded database: an embedded database with orders in every state (pending, paid
 * and confirming, processed with its webhook in the outbox, partial, expired, overpaid), an
 * orphan deposit, nonces and a derived address pool is exported and imported into a new
 * PostgreSQL database, every table verified by count and checksum; then payments go on there:
 * the confirming order gets its confirmations and the unpaid one is paid, both settled on
 * PostgreSQL with their webhooks in the outbox, new orders take the next pool addresses
 * (sequences carried), and a nonce already used stays used. A non-empty target, a cut file and
 * an export of another version are refused, changing nothing. Runs in the PGlite project (the
 * source is embedded) against the run's PostgreSQL server (TEST_PG_URL).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcast, mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import { exportDatabase, importDatabase, TransferError } from '@/lib/db/transfer';
import { consumeNonce } from '@/lib/api/nonces';
import { findApiKey } from '@/lib/merchants';
import { after, createOrder, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { openPostgresTestDatabase, openTestDatabase } from './support/database';
import { createTestMerchant, type TestMerchant } from './support/merchants';

process.env.ADDRESS_POOL_SIZE ??= '16';

const HOOK = 'https://merchant.example/hooks/gateway';
let embedded: Database;
let target: Database;
let merchant: TestMerchant;
let lines: string[];
const orders: Record<string, string> = {};

async function pay(
  db: Database,
  to: { address: string; tag: string | null },
  amount: bigint,
  at?: Date,
  coin: 'litecoin' | 'dogecoin' = 'litecoin',
) {
  return broadcast(db, {
    network: network(coin),
    to: to.address,
    tag: to.tag,
    currency: coin === 'litecoin' ? 'LTC' : 'DOGE',
    amount,
    at,
  });
}

async function* each(items: string[]): AsyncGenerator<string> {
  yield* items;
}

beforeAll(async () => {
  embedded = await openTestDatabase();
  target = (await openPostgresTestDatabase()).db;
  merchant = await createTestMerchant(embedded);
  const chain = sandboxChain(embedded, 'litecoin');
  const make = async (name: string, amount: string) =>
    (orders[name] = (
      await createOrder(embedded, merchant.test, {
        currency: 'LTC',
        network: 'litecoin',
        amount,
        successWebhook: HOOK,
        errorWebhook: HOOK,
      })
    ).id);
  await make('processed', '0.5');
  await make('overpaid', '0.1');
  await make('partial', '0.3');
  await make('expired', '0.2');
  const row = (name: string) => orderRow(embedded, orders[name]!);
  await pay(embedded, await row('processed'), 50_000_000n);
  await pay(embedded, await row('overpaid'), 20_000_000n);
  await pay(embedded, await row('partial'), 10_000_000n);
  await mine(embedded, network('litecoin'), 3);
  await watchOnce(embedded, chain);
  // Past every order's lifetime: the unpaid and the partly paid ones end, the paid ones stay final.
  const expiresAt = (await row('expired')).expires_at;
  await mine(embedded, network('litecoin'), 1, after(expiresAt, 1));
  await watchOnce(embedded, chain, { chainClock: true });
  // An orphan deposit: a transfer to an address no open order waits on.
  await pay(embedded, await row('expired'), 7_000_000n, after(expiresAt, 2));
  await mine(embedded, network('litecoin'), 2, after(expiresAt, 3));
  await watchOnce(embedded, chain, { chainClock: true });
  // Open orders on a network whose clock was left alone: one unpaid, one paid and short of its confirmations.
  const doge = (amount: string) =>
    createOrder(embedded, merchant.test, { currency: 'DOGE', network: 'dogecoin', amount, successWebhook: HOOK });
  const pending = await doge('25');
  const confirming = await doge('40');
  Object.assign(orders, { pending: pending.id, confirming: confirming.id });
  await pay(embedded, confirming, 4_000_000_000n, undefined, 'dogecoin');
  await mine(embedded, network('dogecoin'), 1);
  await watchOnce(embedded, sandboxChain(embedded, 'dogecoin'));
  const key = await findApiKey(embedded, merchant.test.publicKey);
  await consumeNonce(embedded, key!.keyId, '424242');

  lines = [];
  await exportDatabase(embedded, async (text) => void lines.push(...text.split('\n').filter(Boolean)));
}, 300_000);

afterAll(async () => {
  await embedded?.close();
  await target?.close();
});

async function statuses(db: Database): Promise<Record<string, string>> {
  const rows = await db.query<{ id: string; status: string }>('select id, status from orders');
  const byId = Object.fromEntries(rows.map((r) => [r.id, r.status]));
  return Object.fromEntries(Object.entries(orders).map(([name, id]) => [name, byId[id]!]));
}

describe('moving the embedded database to PostgreSQL', () => {
  it('the source has orders in every state, an orphan deposit and a webhook in the outbox', async () => {
    expect(await statuses(embedded)).toEqual({
      processed: 'processed',
      overpaid: 'overpaid',
      partial: 'partial',
      expired: 'expired',
      confirming: 'pending',
      pending: 'pending',
    });
    const [seen] = await embedded.query<{ n: number }>(
      "select count(*)::int as n from payments where order_id = $1 and status = 'pending'",
      [orders.confirming],
    );
    expect(seen!.n).toBe(1);
    const [deposits] = await embedded.query<{ n: number }>(
      "select count(*)::int as n from deposits where kind = 'ORPHAN'",
    );
    expect(deposits!.n).toBeGreaterThan(0);
    const [outbox] = await embedded.query<{ n: number }>('select count(*)::int as n from webhook_events');
    expect(outbox!.n).toBeGreaterThanOrEqual(4);
  });

  it('a cut file and an export of another version are refused, writing nothing', async () => {
    await expect(importDatabase(target, each(lines.slice(0, -1)))).rejects.toThrow(/incomplete/);
    const other = lines.map((line, i) => (i === 0 ? line.replace(/"migrations":\d+/, '"migrations":1') : line));
    await expect(importDatabase(target, each(other))).rejects.toThrow(/export was made at migration 1/);
    const tampered = lines.map((line) =>
      line.startsWith('R\t') && line.includes('"client_order_id":"order-')
        ? line.replace('"amount":', '"amount":1')
        : line,
    );
    await expect(importDatabase(target, each(tampered))).rejects.toBeInstanceOf(TransferError);
    const [count] = await target.query<{ n: number }>('select count(*)::int as n from merchants');
    expect(count!.n).toBe(0);
  });

  it('imports every row, verified by count and checksum, with the sequences where they were', async () => {
    const summary = await importDatabase(target, each(lines));
    expect(summary.tables.find((t) => t.table === 'orders')!.rows).toBe(6);
    expect(summary.sequences).toBeGreaterThan(0);
    for (const table of [
      'merchants',
      'api_keys',
      'orders',
      'payments',
      'deposits',
      'chain_cursors',
      'webhook_events',
      'api_nonces',
      'addresses',
      'sandbox_blocks',
    ]) {
      const [a] = await embedded.query<{ n: number }>(`select count(*)::int as n from ${table}`);
      const [b] = await target.query<{ n: number }>(`select count(*)::int as n from ${table}`);
      expect(b!.n, table).toBe(a!.n);
      expect(a!.n, table).toBeGreaterThan(0);
    }
    expect(await statuses(target)).toEqual(await statuses(embedded));
    // A second import into the now full database is refused.
    await expect(importDatabase(target, each(lines))).rejects.toThrow(/not empty/);
  });

  it('payments go on on PostgreSQL: the open orders settle, keys decrypt, nonces stay used, pools continue', async () => {
    const dogecoin = sandboxChain(target, 'dogecoin');
    await pay(target, await orderRow(target, orders.pending!), 2_500_000_000n, undefined, 'dogecoin');
    await mine(target, network('dogecoin'), 3);
    await watchOnce(target, dogecoin);
    expect((await orderRow(target, orders.confirming!)).status).toBe('processed');
    expect((await orderRow(target, orders.pending!)).status).toBe('processed');
    const [hooks] = await target.query<{ n: number }>(
      "select count(*)::int as n from webhook_events where order_id = any($1::uuid[]) and kind = 'success'",
      [[orders.pending, orders.confirming]],
    );
    expect(hooks!.n).toBe(2);

    const key = await findApiKey(target, merchant.test.publicKey);
    expect(key?.secret.toString('utf8')).toBe(merchant.test.privateKey);
    expect(await consumeNonce(target, key!.keyId, '424242')).toBe(false);

    const used = new Set((await target.query<{ address: string }>('select address from orders')).map((r) => r.address));
    const order = await createOrder(target, merchant.test, {
      currency: 'LTC',
      network: 'litecoin',
      amount: '0.15',
      order: `after-move-${randomUUID()}`,
      successWebhook: HOOK,
    });
    expect(used.has(order.address)).toBe(false);
    const chain = sandboxChain(target, 'litecoin');
    await pay(target, order, 15_000_000n);
    await mine(target, network('litecoin'), 3);
    await watchOnce(target, chain);
    expect((await orderRow(target, order.id)).status).toBe('processed');
    const [outbox] = await target.query<{ n: number }>(
      'select count(*)::int as n from webhook_events where order_id = $1',
      [order.id],
    );
    expect(outbox!.n).toBe(1);
  });
});
