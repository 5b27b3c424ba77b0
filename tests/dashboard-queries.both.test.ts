import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETWORKS } from '@/lib/catalog';
import { broadcast, mine } from '@/lib/chains/sandbox';
import {
  countForExport,
  DEFAULT_EXPLORERS,
  explorerLink,
  invoiceDetail,
  listInvoiceItems,
  csvCell,
  exportOrdersCsv,
  InvalidFilter,
  listDeliveryItems,
  listOrderItems,
  orderDetail,
  overview,
  parseExportParams,
  parseOrderFilters,
  resendDelivery,
  transactionLink,
  type OrderFilters,
} from '@/lib/dashboard';
import type { Database } from '@/lib/db/client';
import { fillAddressPool } from '@/lib/addresses';
import { chooseCoin, getInvoice, makeInvoice, serializeInvoice } from '@/lib/invoices';
import { findApiKey, type MerchantScope } from '@/lib/merchants';
import { makeInvoiceRequest } from '@/lib/protocol';
import { listOrders, serializeOrder, type OrderRow } from '@/lib/orders';
import { openTestDatabase } from './support/database';
import { createOrder, network, sandboxChain, watchOnce } from './support/chain';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let db: Database;
let a: TestMerchant;
let b: TestMerchant;
let scopeA: MerchantScope;
let scopeB: MerchantScope;
/** Merchant A's test orders, newest first as the dashboard lists them. */
let ordersA: OrderRow[];
let paid: OrderRow;
let paidTx: string;
let otherModeId: string;
let orderB: OrderRow;
let eventB: string;

const T0 = new Date('2026-03-10T12:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const filters = (f: Partial<OrderFilters> = {}): OrderFilters => ({ kind: 'orders', ...f });

async function allPages(scope: MerchantScope, f: OrderFilters, pageSize: number) {
  const pages: { ids: string[]; next?: string; previous?: string }[] = [];
  let after: string | undefined;
  do {
    const page = await listOrderItems(db, scope, { ...f, after }, pageSize);
    pages.push({ ids: page.rows.map((r) => r.orderId), next: page.next, previous: page.previous });
    after = page.next;
  } while (after);
  return pages;
}

beforeAll(async () => {
  db = await openTestDatabase();
  a = await createTestMerchant(db);
  b = await createTestMerchant(db);
  scopeA = { merchantId: a.merchantId, mode: 'test' };
  scopeB = { merchantId: b.merchantId, mode: 'test' };

  const made = [
    await createOrder(db, a.test, { currency: 'LTC', network: 'litecoin', amount: '0.5' }),
    await createOrder(db, a.test, {
      currency: 'LTC',
      network: 'litecoin',
      amount: '1',
      description: '=HYPERLINK("http://evil.example","x")',
    }),
    await createOrder(db, a.test, {
      currency: 'DOGE',
      network: 'dogecoin',
      amount: '3',
      description: 'a, "quoted"\nline',
    }),
    await createOrder(db, a.test, { currency: 'DOGE', network: 'dogecoin', amount: '4' }),
    await createOrder(db, a.test, { currency: 'ETH', network: 'ethereum', amount: '0.01' }),
    await createOrder(db, a.test, { currency: 'USDT', network: 'ethereum', amount: '12.5' }),
    await createOrder(db, a.test, { currency: 'LTC', network: 'litecoin', amount: '2' }),
  ];
  // Times chosen so that three orders tie on created_at and one lies a day earlier.
  const times = [at(0), at(10), at(10), at(10), at(20), at(30), at(-24 * 60)];
  for (const [i, order] of made.entries())
    await db.query('update orders set created_at = $2 where id = $1', [order.id, times[i]]);
  await db.query(`update orders set status = 'expired' where id = any($1::uuid[])`, [[made[3]!.id, made[4]!.id]]);

  // A real payment through the sandbox ledger and the watcher: the first order is processed.
  paid = made[0]!;
  paidTx = (
    await broadcast(db, {
      network: network('litecoin'),
      to: paid.address,
      tag: paid.tag,
      currency: 'LTC',
      amount: 50_000_000n,
    })
  ).txHash;
  await mine(db, network('litecoin'), 2);
  await watchOnce(db, sandboxChain(db, 'litecoin'));

  // The same merchant's other mode: a copy of an order, live.
  otherModeId = randomUUID();
  await db.query(
    `insert into orders (id, merchant_id, mode, client_order_id, currency, network, amount, tolerance_percent, threshold, status, address_id, address, lifetime, expires_at, created_at)
     select $2, merchant_id, 'live', 'live-copy', currency, network, amount, tolerance_percent, threshold, status, address_id, address, lifetime, expires_at, created_at
       from orders where id = $1`,
    [made[1]!.id, otherModeId],
  );

  orderB = await createOrder(db, b.test, { currency: 'LTC', network: 'litecoin', amount: '0.5' });
  await db.query('update orders set created_at = $2 where id = $1', [orderB.id, at(10)]);
  eventB = randomUUID();
  await db.query(
    `insert into webhook_events (id, order_id, merchant_id, mode, kind, order_status, url, body, state, attempts, next_attempt_at)
     values ($1, $2, $3, 'test', 'error', 'expired', 'http://127.0.0.1:9/hook', '{}', 'failed', 8, now())`,
    [eventB, orderB.id, b.merchantId],
  );

  ordersA = await db.query<OrderRow>(
    `select * from orders where merchant_id = $1 and mode = 'test' order by created_at desc, id desc`,
    [a.merchantId],
  );
});
afterAll(async () => {
  await db?.close();
});

describe('scope', () => {
  it('lists only the scope merchant and mode', async () => {
    const page = await listOrderItems(db, scopeA, filters(), 50);
    expect(page.rows.map((r) => r.orderId)).toEqual(ordersA.map((o) => o.id));
    expect(page.rows.map((r) => r.orderId)).not.toContain(otherModeId);
    expect(page.rows.map((r) => r.orderId)).not.toContain(orderB.id);
    expect((await listOrderItems(db, { ...scopeA, mode: 'live' }, filters(), 50)).rows.map((r) => r.orderId)).toEqual([
      otherModeId,
    ]);
  });

  it("another merchant's or mode's order id answers undefined", async () => {
    expect(await orderDetail(db, scopeA, orderB.id)).toBeUndefined();
    expect(await orderDetail(db, { ...scopeA, mode: 'live' }, paid.id)).toBeUndefined();
    expect(await orderDetail(db, scopeA, 'not-a-uuid')).toBeUndefined();
    expect((await orderDetail(db, scopeB, orderB.id))?.order.orderId).toBe(orderB.id);
  });

  it("re-sending another merchant's webhook answers false and changes nothing", async () => {
    const before = await db.query('select * from webhook_events where id = $1', [eventB]);
    expect(await resendDelivery(db, scopeA, eventB)).toBe(false);
    expect(await resendDelivery(db, { ...scopeB, mode: 'live' }, eventB)).toBe(false);
    expect(await resendDelivery(db, scopeA, 'nope')).toBe(false);
    expect(await db.query('select * from webhook_events where id = $1', [eventB])).toEqual(before);
    expect((await listDeliveryItems(db, scopeA, { failed: true })).rows).toEqual([]);
    const listed = await listDeliveryItems(db, scopeB, { failed: true });
    expect(listed.rows.map((e) => [e.id, e.state])).toEqual([[eventB, 'failed']]);

    expect(await resendDelivery(db, scopeB, eventB)).toBe(true);
    const [after] = await db.query<{ state: string }>('select state from webhook_events where id = $1', [eventB]);
    expect(after!.state).toBe('pending');
  });
});

describe('filters and search', () => {
  const ids = (rows: { orderId: string }[]) => rows.map((r) => r.orderId);
  const expected = (keep: (o: OrderRow) => boolean) => ordersA.filter(keep).map((o) => o.id);

  it('filters by status, network, currency and dates', async () => {
    expect(ids((await listOrderItems(db, scopeA, parseOrderFilters({ status: 'expired' }))).rows)).toEqual(
      expected((o) => o.status === 'expired'),
    );
    expect(ids((await listOrderItems(db, scopeA, parseOrderFilters({ status: 'processed' }))).rows)).toEqual([paid.id]);
    expect(ids((await listOrderItems(db, scopeA, parseOrderFilters({ network: 'Dogecoin' }))).rows)).toEqual(
      expected((o) => o.network === 'dogecoin'),
    );
    expect(ids((await listOrderItems(db, scopeA, parseOrderFilters({ currency: 'usdt' }))).rows)).toEqual(
      expected((o) => o.currency === 'USDT'),
    );
    const day = parseOrderFilters({ from: '2026-03-10', to: '2026-03-10' });
    expect(ids((await listOrderItems(db, scopeA, day)).rows)).toEqual(
      expected((o) => o.created_at.toISOString().startsWith('2026-03-10')),
    );
    const window = parseOrderFilters({ from: at(10).toISOString(), to: at(30).toISOString() });
    expect(ids((await listOrderItems(db, scopeA, window)).rows)).toEqual(
      expected((o) => o.created_at >= at(10) && o.created_at < at(30)),
    );
    expect(
      ids((await listOrderItems(db, scopeA, parseOrderFilters({ network: 'litecoin', status: 'pending' }))).rows),
    ).toEqual(expected((o) => o.network === 'litecoin' && o.status === 'pending'));
  });

  it('finds an order by its id, the merchant order id, its address and a payment tx hash, exactly', async () => {
    const target = ordersA[2]!;
    const search = async (q: string, scope = scopeA) =>
      ids((await listOrderItems(db, scope, parseOrderFilters({ q }))).rows);
    expect(await search(target.id)).toEqual([target.id]);
    expect(await search(target.id.toUpperCase())).toEqual([target.id]);
    expect(await search(`  ${target.client_order_id} `)).toEqual([target.id]);
    expect(await search(target.address)).toEqual([target.id]);
    expect(await search(paidTx)).toEqual([paid.id]);
    expect(await search(paidTx.toUpperCase())).toEqual([paid.id]);
    // Exact only: a prefix finds nothing.
    expect(await search(target.client_order_id.slice(0, -1))).toEqual([]);
    expect(await search(paidTx.slice(0, 20))).toEqual([]);
    // Another merchant's keys find nothing in this scope.
    expect(await search(orderB.id)).toEqual([]);
    expect(await search(orderB.client_order_id)).toEqual([]);
    expect(await search(paidTx, scopeB)).toEqual([]);
    // Search and filters combine.
    expect(ids((await listOrderItems(db, scopeA, parseOrderFilters({ q: paidTx, status: 'pending' }))).rows)).toEqual(
      [],
    );
  });

  it('refuses bad filters with a message naming the parameter', () => {
    const refused = (params: Record<string, string>, parameter: string) => {
      let error: unknown;
      try {
        parseOrderFilters(params);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(params)).toBeInstanceOf(InvalidFilter);
      expect((error as InvalidFilter).parameter).toBe(parameter);
      expect((error as InvalidFilter).message).toMatch(new RegExp(`^${parameter} `));
    };
    refused({ status: 'paid' }, 'status');
    refused({ status: 'PROCESSED' }, 'status');
    refused({ kind: 'invoices', status: 'processed' }, 'status');
    refused({ network: 'cardano' }, 'network');
    refused({ currency: 'SHIB' }, 'currency');
    refused({ currency: 'EUR' }, 'currency');
    refused({ from: 'yesterday' }, 'from');
    refused({ from: '2026-02-30' }, 'from');
    refused({ from: '2026-03-02', to: '2026-03-01' }, 'to');
    refused({ q: 'x'.repeat(201) }, 'q');
    refused({ after: 'garbage' }, 'after');
    refused({ after: Buffer.from('2026-01-01T00:00:00.000Z|not-a-uuid').toString('base64url') }, 'after');
    refused({ kind: 'deposits' }, 'kind');
    expect(() => parseExportParams({ from: '2026-03-01' })).toThrow('to is required');
    expect(() => parseExportParams({ kind: 'deposits', from: '2026-03-01', to: '2026-03-02' })).toThrow(InvalidFilter);
    expect(parseExportParams({ from: '2026-03-01', to: '2026-03-01' })).toEqual({
      kind: 'orders',
      range: { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z') },
    });
    expect(parseOrderFilters(new URLSearchParams('status=&q=%20%20&network=litecoin'))).toEqual({
      kind: 'orders',
      network: 'litecoin',
      q: undefined,
    });
    expect(parseOrderFilters({ kind: 'invoices', status: 'PROCESSED', currency: 'eur' })).toMatchObject({
      status: 'PROCESSED',
      currency: 'EUR',
    });
  });
});

describe('keyset pages', () => {
  it('walks forwards and back across pages with ties on created_at, never repeating or skipping', async () => {
    const forwards = await allPages(scopeA, filters(), 2);
    expect(forwards.flatMap((p) => p.ids)).toEqual(ordersA.map((o) => o.id));
    expect(forwards[0]!.previous).toBeUndefined();
    expect(forwards.at(-1)!.next).toBeUndefined();
    expect(forwards.slice(1).every((p) => p.previous)).toBe(true);

    // Back from the last page, page by page, to the first.
    const back: string[][] = [forwards.at(-1)!.ids];
    let before = forwards.at(-1)!.previous;
    while (before) {
      const page = await listOrderItems(db, scopeA, { ...filters(), before }, 2);
      back.unshift(page.rows.map((r) => r.orderId));
      before = page.previous;
    }
    expect(back).toEqual(forwards.map((p) => p.ids));
  });

  it('a filtered list pages alike', async () => {
    const pages = await allPages(scopeA, parseOrderFilters({ network: 'litecoin' }), 1);
    expect(pages.flatMap((p) => p.ids)).toEqual(ordersA.filter((o) => o.network === 'litecoin').map((o) => o.id));
  });
});

/** RFC 4180 lines back to cells (the test's own reader, independent of the writer). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== ',' && !(c === '\r' && text[i + 1] === '\n'))) {
      cell += c;
    } else {
      row.push(cell);
      cell = '';
      if (c === '\r') {
        rows.push(row);
        row = [];
        i++;
      }
    }
  }
  expect(cell).toBe('');
  return rows;
}

describe('CSV export', () => {
  it('has a header and one row per order, equal to what the orders operation answers for the range', async () => {
    const range = { from: at(0), to: at(31) };
    let csv = '';
    for await (const chunk of exportOrdersCsv(db, scopeA, range, 'orders')) csv += chunk;
    const [header, ...rows] = parseCsv(csv);

    const key = (await findApiKey(db, a.test.publicKey))!;
    const { orders } = await listOrders(db, key, { limit: 100, offset: 0 });
    const answered = orders.filter((o) => o.created_at >= range.from && o.created_at < range.to).map(serializeOrder);
    expect(answered.length).toBe(6);
    const reconcile = [
      'received',
      'transactionIds',
      'invoiceId',
      'invoiceCurrency',
      'rate',
      'receivedInInvoiceCurrency',
    ];
    expect(header).toEqual([...Object.keys(answered[0]!), ...reconcile]);
    const apiFields = Object.keys(answered[0]!).length;
    const unformula = (cell: string) => (/^'[=+\-@]/.test(cell) ? cell.slice(1) : cell);
    expect(rows.map((r) => r.slice(0, apiFields).map(unformula))).toEqual(
      answered.map((o) => Object.values(o).map((v) => (v === null ? '' : String(v)))),
    );
    // To reconcile: what each order received and the transactions that paid it (none for the others).
    const cells = (row: string[]) => Object.fromEntries(reconcile.map((k, i) => [k, row[apiFields + i]]));
    const byId = new Map(rows.map((r) => [r[header!.indexOf('orderId')], cells(r)]));
    expect(byId.has(paid.id)).toBe(true);
    expect(byId.get(paid.id)).toEqual({ ...byId.get(paid.id), received: '0.5', transactionIds: paidTx });
    for (const [id, row] of byId)
      if (id !== paid.id) expect(row).toMatchObject({ received: '0', transactionIds: '', invoiceId: '', rate: '' });
    expect(await countForExport(db, scopeA, range, 'orders')).toBe(6);
    // The other mode's copy and the other merchant are not in it.
    expect(csv).not.toContain(otherModeId);
    expect(csv).not.toContain(orderB.id);
  });

  it('quotes per RFC 4180 and keeps formulas from running', async () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
    let csv = '';
    for await (const chunk of exportOrdersCsv(db, scopeA, { from: at(0), to: at(31) }, 'orders')) csv += chunk;
    expect(csv).toContain('"\'=HYPERLINK(""http://evil.example"",""x"")"');
    expect(csv).toContain('"a, ""quoted""\nline"');
  });

  it('an empty range has the header only', async () => {
    let csv = '';
    for await (const chunk of exportOrdersCsv(db, scopeA, { from: at(1000), to: at(2000) }, 'orders')) csv += chunk;
    expect(parseCsv(csv)[0]!.slice(0, Object.keys(serializeOrder(ordersA[0]!)).length)).toEqual(
      Object.keys(serializeOrder(ordersA[0]!)),
    );
    expect(parseCsv(csv)).toHaveLength(1);
  });
});

describe('detail and overview', () => {
  it('shows the payment with its confirmations, the timeline, and no explorer link in test mode', async () => {
    const detail = (await orderDetail(db, scopeA, paid.id))!;
    expect(detail.order).toMatchObject({ orderId: paid.id, status: 'processed', received: '0.5' });
    expect(detail.events).toMatchObject([{ fromStatus: 'pending', toStatus: 'processed' }]);
    expect(detail.payments).toMatchObject([
      { txHash: paidTx, amount: '0.5', status: 'processed', confirmations: 2, requiredConfirmations: 2 },
    ]);
    expect(detail.payments[0]!.explorerUrl).toBeUndefined();
    expect(detail.orphanDeposits).toEqual([]);
    expect(detail.webhooks).toEqual([]);
  });

  it('sums counted payments per coin and counts orders by status', async () => {
    const [payment] = await db.query<{ created_at: Date }>('select created_at from payments where order_id = $1', [
      paid.id,
    ]);
    const view = await overview(db, scopeA, new Date(payment!.created_at.getTime() + 1000));
    expect(view.received).toEqual([
      expect.objectContaining({
        currency: 'LTC',
        network: 'litecoin',
        today: '0.5',
        last7Days: '0.5',
        last30Days: '0.5',
      }),
    ]);
    expect(view.received[0]!.priceUsd).toMatch(/^\d+(\.\d+)?$/);
    expect(view.series).toHaveLength(30);
    expect(view.series.at(-1)!.amounts).toEqual({ 'LTC/litecoin': '0.5' });
    expect(view.failedWebhooks).toBe(0);
    expect(view.chains.find((c) => c.network === 'litecoin')!.height).toBeGreaterThanOrEqual(2);
    // The orders were moved to March 2026; counted are those of the 30 days before `now`.
    const inWindow = ordersA.filter((o) => o.created_at.getTime() > payment!.created_at.getTime() - 30 * 86_400_000);
    expect(Object.values(view.ordersByStatus).reduce((x, y) => x + y, 0)).toBe(inWindow.length);
    const march = await overview(db, scopeA, at(60));
    expect(march.ordersByStatus).toEqual({ pending: 4, processed: 1, overpaid: 0, partial: 0, expired: 2, error: 0 });
    // Chain health counts the payments waiting per network: the scope's pending orders of the last two days.
    const since = at(60).getTime() - 2 * 86_400_000;
    const waiting = ordersA.filter((o) => o.status === 'pending' && o.created_at.getTime() >= since);
    expect(waiting.length).toBeGreaterThan(0);
    for (const c of march.chains) {
      const n = waiting.filter((o) => o.network === c.network).length;
      expect(c.waiting, c.network).toBe(n);
      if (c.height !== null && c.healthy !== false) expect(c.state, c.network).toBe(n === 0 ? 'idle' : 'watching');
    }
    const other = await overview(db, scopeB);
    expect(other.received).toEqual([]);
  });
});

describe("the overview's orders by status, day by day", () => {
  it('writes a past day once all its orders are final, reads it from then on, and counts a day with a pending order live', async () => {
    const c = await createTestMerchant(db, 'Day counts shop');
    const scope = { merchantId: c.merchantId, mode: 'test' as const };
    const day = (n: number) => new Date(Date.UTC(2026, 4, n, 12));
    const made: OrderRow[] = [];
    for (let i = 0; i < 4; i++)
      made.push(await createOrder(db, c.test, { currency: 'LTC', network: 'litecoin', amount: '0.1' }));
    // May 2 (final: 2 expired), May 3 (1 expired, 1 still pending), May 5 (today, pending).
    const place = [
      [day(2), 'expired'],
      [day(2), 'expired'],
      [day(3), 'expired'],
      [day(3), 'pending'],
    ] as const;
    for (const [i, [at, status]] of place.entries())
      await db.query('update orders set created_at = $2, status = $3 where id = $1', [made[i]!.id, at, status]);
    const now = new Date(Date.UTC(2026, 4, 5, 12));
    const first = await overview(db, scope, now);
    expect(first.ordersByStatus).toMatchObject({ pending: 1, expired: 3 });
    const written = async () =>
      (
        await db.query<{ day: Date; counts: Record<string, number> }>(
          'select day, counts from order_day_counts where merchant_id = $1 and counts <> $2::jsonb order by day',
          [c.merchantId, '{}'],
        )
      ).map((r) => [r.day.toISOString().slice(0, 10), r.counts]);
    // May 2 is written; May 3 is not (an order still pending), nor today.
    expect(await written()).toEqual([['2026-05-02', { expired: 2 }]]);
    // The written day is read, not counted again: a change behind its back does not show (it cannot happen: final is final).
    await db.query('update orders set status = $2 where id = $1', [made[0]!.id, 'error']);
    expect((await overview(db, scope, now)).ordersByStatus).toMatchObject({ pending: 1, expired: 3, error: 0 });
    // May 3's last order becomes final: the next visit writes the day.
    await db.query('update orders set status = $2 where id = $1', [made[3]!.id, 'expired']);
    expect((await overview(db, scope, now)).ordersByStatus).toMatchObject({ pending: 0, expired: 4 });
    expect(await written()).toEqual([
      ['2026-05-02', { expired: 2 }],
      ['2026-05-03', { expired: 2 }],
    ]);
  });
});

describe('invoices', () => {
  it('lists, filters, searches and exports invoices of the scope only, as get-invoice answers them', async () => {
    await fillAddressPool(db, network('tron'), 'test');
    const make = async (merchant: TestMerchant, fields: Record<string, unknown>) => {
      const key = (await findApiKey(db, merchant.test.publicKey))!;
      const own = String(Date.now()) + Math.floor(Math.random() * 1000);
      return makeInvoice(
        { db, key, nonce: own },
        makeInvoiceRequest.parse({ currency: 'USD', amount: '73.50', lifetime: 30, nonce: own, ...fields }),
      );
    };
    const first = await make(a, { externalId: 'ext-1', order: 'inv-order-1' });
    const second = await make(a, { currency: 'EUR', order: 'inv-order-2' });
    const other = await make(b, { externalId: 'ext-b' });
    const order = await chooseCoin(db, first.invoice.id, { currency: 'USDT', network: 'tron' });

    const ids = async (params: Record<string, string>, scope = scopeA) =>
      (await listInvoiceItems(db, scope, parseOrderFilters({ kind: 'invoices', ...params }))).rows.map((r) => r.id);
    expect((await ids({})).sort()).toEqual([first.invoice.id, second.invoice.id].sort());
    expect(await ids({ status: 'INIT' })).toEqual([first.invoice.id]);
    expect(await ids({ currency: 'EUR' })).toEqual([second.invoice.id]);
    expect(await ids({ network: 'tron' })).toEqual([first.invoice.id]);
    expect(await ids({ q: 'ext-1' })).toEqual([first.invoice.id]);
    expect(await ids({ q: 'inv-order-1' })).toEqual([first.invoice.id]);
    expect(await ids({ q: 'inv-order-2' })).toEqual([second.invoice.id]);
    expect(await ids({ q: first.invoice.id })).toEqual([first.invoice.id]);
    expect(await ids({ q: order.address })).toEqual([first.invoice.id]);
    expect(await ids({ q: 'ext-b' })).toEqual([]);
    // The orders list names the invoice's order by the merchant's own number, with the invoice's price.
    const listed = (await listOrderItems(db, scopeA, parseOrderFilters({ q: order.address }))).rows;
    expect(listed.map((r) => [r.clientOrderId.startsWith('invoice:'), r.invoice, r.latePayments])).toEqual([
      [true, { id: first.invoice.id, merchantOrder: 'inv-order-1', currency: 'USD', amount: '73.5' }, 0],
    ]);
    expect(await ids({ q: other.invoice.id })).toEqual([]);

    const key = (await findApiKey(db, a.test.publicKey))!;
    const [row] = (await listInvoiceItems(db, scopeA, parseOrderFilters({ kind: 'invoices', q: 'ext-1' }))).rows;
    const answered = serializeInvoice(await getInvoice(db, key, first.invoice.id));
    expect({ ...row, createdAt: row!.createdAt.toISOString(), expiresAt: row!.expiresAt.toISOString() }).toEqual(
      answered,
    );

    const detail = (await invoiceDetail(db, scopeA, first.invoice.id))!;
    expect(detail.order?.order.orderId).toBe(order.id);
    expect(await invoiceDetail(db, scopeA, other.invoice.id)).toBeUndefined();

    let csv = '';
    const now = new Date();
    for await (const chunk of exportOrdersCsv(
      db,
      scopeA,
      { from: new Date(now.getTime() - 3_600_000), to: new Date(now.getTime() + 60_000) },
      'invoices',
    ))
      csv += chunk;
    const [header, ...rows] = parseCsv(csv);
    // The API's fields but its list of offered coins, then the transactions: no JSON in any cell.
    const { currencies: _offered, ...fields } = answered;
    expect(header).toEqual([...Object.keys(fields), 'transactionIds']);
    expect(rows).toHaveLength(2);
    const exported = rows.find((r) => r[0] === first.invoice.id)!;
    expect(exported).toEqual([
      ...Object.values(fields).map((v) => (v === null ? '' : Array.isArray(v) ? v.join(' ') : String(v))),
      '',
    ]);
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[[{]/);

    // The order the invoice made is exported with the invoice's currency, the rate locked for it and the value received.
    let ordersCsv = '';
    for await (const chunk of exportOrdersCsv(
      db,
      scopeA,
      { from: new Date(now.getTime() - 3_600_000), to: new Date(now.getTime() + 60_000) },
      'orders',
    ))
      ordersCsv += chunk;
    const [orderHeader, ...orderRows] = parseCsv(ordersCsv);
    const made = orderRows.find((r) => r[orderHeader!.indexOf('orderId')] === order.id)!;
    const cell = (name: string) => made[orderHeader!.indexOf(name)];
    expect([cell('invoiceId'), cell('invoiceCurrency'), cell('rate')]).toEqual([
      first.invoice.id,
      'USD',
      answered.rate,
    ]);
    expect(answered.rate).toMatch(/^\d/);
    expect([cell('received'), cell('receivedInInvoiceCurrency')]).toEqual(['0', '0']);
  });
});

describe('explorer links', () => {
  it('uses the merchant template over the default, none in test mode', () => {
    expect(explorerLink('bitcoin', 'ab12')).toBe('https://mempool.space/tx/ab12');
    expect(explorerLink('ethereum', '0xab', { ethereum: 'https://my.example/t/{tx}?x=1' })).toBe(
      'https://my.example/t/0xab?x=1',
    );
    expect(explorerLink('ethereum', '0xab', { ethereum: 'javascript:alert({tx})' })).toBe(
      'https://etherscan.io/tx/0xab',
    );
    expect(explorerLink('ripple', 'a/b')).toBe('https://xrpscan.com/tx/a%2Fb');
    expect(explorerLink('nowhere', 'ab')).toBeUndefined();
    for (const network of NETWORKS)
      expect(DEFAULT_EXPLORERS[network.name], network.name).toMatch(/^https:\/\/.*\{tx\}/);
    expect(transactionLink('test', 'bitcoin', 'ab', { bitcoin: 'https://my.example/{tx}' })).toBeUndefined();
    expect(transactionLink('live', 'bitcoin', 'ab', { bitcoin: 'https://my.example/{tx}' })).toBe(
      'https://my.example/ab',
    );
  });
});
