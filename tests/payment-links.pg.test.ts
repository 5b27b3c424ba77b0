/**
 * Payment links over real HTTP: the payment-links/* operations against the wire contract (zod
 * and the OpenAPI document), refusals writing nothing, the public page and its "continue", and the
 * abuse limits with counts (docs/payment-links.md, "Abuse limits"): a thousand opens from one
 * client, a hundred client addresses (127.0.0.2 and up: Linux routes all of 127/8 to lo), and the
 * gateway-wide cap. No address is taken before a payer picks a coin.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { addresses, invoices, orders, paymentLinks, param, sql, statement } from '@/lib/db';
import { countRows } from './support/database';
import { checkedCall as call } from './support/contract';
import { withTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant, type TestMerchant } from './support/merchants';

const CAPS = { link: 30, client: 5, gateway: 60 };
let gateway: TestGateway;
let merchant: TestMerchant;
withTestGateway((started) => ({ gateway, merchant } = started), {
  env: {
    LINK_INVOICES_PER_MINUTE: String(CAPS.link),
    LINK_INVOICES_PER_CLIENT_PER_MINUTE: String(CAPS.client),
    LINK_INVOICES_GATEWAY_PER_MINUTE: String(CAPS.gateway),
  },
});

const LINK_INVOICES = statement<{ invoices: number; orders: number }, { ids: string[] }>(
  sql`select (select count(*)::int from ${invoices} where ${invoices.linkId} = any(${param('ids')}::uuid[])) as invoices,
     (select count(*)::int from ${orders} join ${invoices} on ${invoices.id} = ${orders.invoiceId}
       where ${invoices.linkId} = any(${param('ids')}::uuid[])) as orders`,
);
const ASSIGNED_ADDRESSES = statement<{ n: number }>(
  sql`select count(*)::int as n from ${addresses} where ${addresses.assignedAt} is not null`,
);
const VIEWS = statement<{ views: string }, { id: string }>(
  sql`select ${paymentLinks.views} from ${paymentLinks} where ${paymentLinks.id} = ${param('id')}`,
);

async function createLink(fields: Record<string, unknown> = {}) {
  const answer = await call(
    gateway,
    'payment-links/create',
    { title: 'Workshop ticket', currency: 'EUR', amount: '25', maxQuantity: 4, ...fields },
    merchant.test,
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.response as { id: string; link: string };
}

/** One request from `localAddress` (127.0.0.x), answered with its status and location. */
function request(
  method: 'GET' | 'POST',
  path: string,
  { localAddress = '127.0.0.1', form = '' }: { localAddress?: string; form?: string } = {},
): Promise<{ status: number; location: string | undefined; body: string }> {
  const url = new URL(path, gateway.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        localAddress,
        headers: method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, body }));
      },
    );
    req.on('error', reject);
    req.end(form);
  });
}

/** Runs `count` tasks, `parallel` at a time. */
async function inParallel(count: number, parallel: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** A payer's "continue" from `client`: where it sent them. */
async function goOn(linkId: string, client: string): Promise<string | undefined> {
  const answer = await request('POST', `/link/${linkId}/start`, { localAddress: client, form: 'quantity=1' });
  expect(answer.status).toBe(303);
  return answer.location;
}

describe('payment-links/* operations', () => {
  it('create, get, list and disable answer the documented link with its counts', async () => {
    const created = await call(
      gateway,
      'payment-links/create',
      {
        title: 'Donation',
        description: 'Thank you',
        currency: 'usd',
        minAmount: '5',
        maxAmount: '500.50',
        currencies: [{ currency: 'USDT', networks: ['tron'] }],
        expiresAt: '2099-01-01T00:00:00Z',
        maxUses: 10,
      },
      merchant.test,
    );
    expect(created.status).toBe(200);
    const link = created.body.response;
    expect(link).toMatchObject({
      status: 'ACTIVE',
      title: 'Donation',
      currency: 'USD',
      amount: null,
      minAmount: '5',
      maxAmount: '500.5',
      maxQuantity: null,
      expiresAt: '2099-01-01T00:00:00.000Z',
      maxUses: 10,
      views: 0,
      invoices: 0,
      paid: 0,
      paidTotal: '0',
    });
    expect(link.link).toBe(`${gateway.baseUrl}/link/${link.id}`);
    expect((await call(gateway, 'payment-links/get', { id: link.id }, merchant.test)).body.response).toEqual(link);
    const list = (await call(gateway, 'payment-links/list', { limit: 100 }, merchant.test)).body.response;
    expect(list.links.map((l: { id: string }) => l.id)).toContain(link.id);
    const disabled = await call(gateway, 'payment-links/disable', { id: link.id }, merchant.test);
    expect(disabled.body.response.status).toBe('DISABLED');
    // The page says so, and "continue" makes nothing.
    const page = await request('GET', `/link/${link.id}`);
    expect(page.body).toContain('data-testid="link-closed"');
    const goOn = await request('POST', `/link/${link.id}/start`, { form: 'amount=10' });
    expect(goOn.location).toBe(`/link/${link.id}?error=closed`);
  });

  it("another merchant's or mode's link is not found", async () => {
    const link = await createLink();
    const other = await createTestMerchant(gateway.db);
    for (const keys of [other.test, merchant.live]) {
      const answer = await call(gateway, 'payment-links/get', { id: link.id }, keys);
      expect(answer.body.error?.name).toBe('NOT_FOUND');
      expect((await call(gateway, 'payment-links/disable', { id: link.id }, keys)).body.error?.name).toBe('NOT_FOUND');
    }
  });

  it('refuses bad links with the documented error and writes nothing', async () => {
    const before = await countRows(gateway.db);
    const bad: [Record<string, unknown>, string, string][] = [
      [{ title: 'x', currency: 'EUR' }, 'VALIDATION_ERROR', 'amount'],
      [{ title: 'x', currency: 'EUR', amount: '5', minAmount: '1', maxAmount: '9' }, 'VALIDATION_ERROR', 'minAmount'],
      [{ title: 'x', currency: 'EUR', minAmount: '9', maxAmount: '1' }, 'VALIDATION_ERROR', 'maxAmount'],
      [{ title: 'a\u0000b', currency: 'EUR', amount: '5' }, 'VALIDATION_ERROR', 'title'],
      [{ title: 'x', currency: 'EUR', amount: '9'.repeat(80) }, 'VALIDATION_ERROR', 'amount'],
      [{ title: 'x', currency: 'EUR', amount: '5.001' }, 'VALIDATION_ERROR', 'amount'],
      [
        { title: 'x', currency: 'EUR', amount: '5', expiresAt: '2001-01-01T00:00:00Z' },
        'VALIDATION_ERROR',
        'expiresAt',
      ],
      [{ title: 'x', currency: 'EUR', amount: '5', image: 'data:image/png;base64,AAAA' }, 'VALIDATION_ERROR', 'image'],
      [{ title: 'x', currency: 'EUR', amount: '5', maxQuantity: 0 }, 'VALIDATION_ERROR', 'maxQuantity'],
      [{ title: 'x', currency: 'XXX', amount: '5' }, 'UNSUPPORTED_CURRENCY', ''],
      [{ title: 'x', currency: 'EUR', amount: '5', currencies: [{ currency: 'NOPE' }] }, 'UNSUPPORTED_CURRENCY', ''],
    ];
    for (const [body, name, path] of bad) {
      const answer = await call(gateway, 'payment-links/create', body, merchant.test);
      expect(answer.body.error?.name, JSON.stringify(body)).toBe(name);
      if (path) expect(answer.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await countRows(gateway.db)).toEqual(before);
  });
});

describe('the link page and its "continue"', () => {
  it('a visit counts a view and makes nothing; "continue" makes an invoice at price × quantity and opens it', async () => {
    const link = await createLink();
    const before = await countRows(gateway.db);
    const page = await request('GET', `/link/${link.id}?lang=ar`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('dir="rtl"');
    expect((await VIEWS.run(gateway.db, { id: link.id }))[0]!.views).toBe('1');
    expect(await countRows(gateway.db)).toEqual(before);

    const goOn = await request('POST', `/link/${link.id}/start`, { form: 'quantity=3&lang=ar' });
    expect(goOn.status).toBe(303);
    const invoiceId = /^\/invoice\/([0-9a-f-]{36})\?lang=ar$/.exec(goOn.location ?? '')?.[1];
    expect(invoiceId).toBeDefined();
    const invoice = await call(gateway, 'get-invoice', { invoiceId }, merchant.test);
    expect(invoice.body.response).toMatchObject({ currency: 'EUR', amount: '75', orderId: null });
    expect(invoice.body.response.description).toBe('Workshop ticket × 3');
    const counted = (await call(gateway, 'payment-links/get', { id: link.id }, merchant.test)).body.response;
    expect(counted).toMatchObject({ views: 1, invoices: 1, paid: 0 });
  });

  it('a quantity or an amount outside the link is refused back to its page, never a server error', async () => {
    const fixed = await createLink();
    const chosen = await createLink({ amount: null, maxQuantity: null, minAmount: '5', maxAmount: '50' });
    const cases: [string, string, string][] = [
      [fixed.id, 'quantity=5', 'quantity'],
      [fixed.id, 'quantity=0', 'quantity'],
      [fixed.id, 'quantity=99999999', 'quantity'],
      [chosen.id, 'amount=4.99', 'amount'],
      [chosen.id, 'amount=50.001', 'amount'],
      [chosen.id, `amount=${'9'.repeat(80)}`, 'amount'],
      [chosen.id, 'amount=%00', 'amount'],
      [chosen.id, 'amount=%FF%FE', 'amount'],
      [chosen.id, '', 'amount'],
    ];
    for (const [id, form, error] of cases) {
      const answer = await request('POST', `/link/${id}/start`, { form });
      expect([answer.status, answer.location], form).toEqual([303, `/link/${id}?error=${error}`]);
    }
    expect((await request('GET', '/link/not-a-link')).status).toBe(404);
    expect((await request('POST', '/link/not-a-link/start', { form: 'quantity=1' })).location).toBe('/link/not-a-link');
  });
});

describe('abuse limits', () => {
  /** At most `cap` at once, plus what the bucket regained while the test ran (cap per minute). */
  const bound = (cap: number, startedAt: number) => cap + Math.ceil(((performance.now() - startedAt) / 60_000) * cap);

  it('a thousand opens from one client: the client cap of invoices, no address; page views make nothing', async () => {
    const link = await createLink();
    const assigned = (await ASSIGNED_ADDRESSES.run(gateway.db, {}))[0]!.n;
    // Opening the page (a server render each, so fewer of them) counts views and makes nothing.
    await inParallel(40, 8, async () => {
      expect((await request('GET', `/link/${link.id}`)).status).toBe(200);
    });
    expect((await VIEWS.run(gateway.db, { id: link.id }))[0]!.views).toBe('40');
    expect((await LINK_INVOICES.run(gateway.db, { ids: [link.id] }))[0]!.invoices).toBe(0);
    const startedAt = performance.now();
    const made: string[] = [];
    await inParallel(1000, 16, async () => {
      const location = await goOn(link.id, '127.0.0.1');
      if (location?.startsWith('/invoice/')) made.push(location);
      else expect(location).toBe(`/link/${link.id}?error=busy`);
    });
    const [counts] = await LINK_INVOICES.run(gateway.db, { ids: [link.id] });
    expect(counts!.invoices).toBe(made.length);
    expect(made.length).toBeGreaterThanOrEqual(CAPS.client);
    expect(made.length).toBeLessThanOrEqual(bound(CAPS.client, startedAt));
    expect(counts!.orders).toBe(0);
    expect((await ASSIGNED_ADDRESSES.run(gateway.db, {}))[0]!.n).toBe(assigned);
  });

  it('a hundred client addresses: the link cap across them, no address', async () => {
    const link = await createLink();
    const assigned = (await ASSIGNED_ADDRESSES.run(gateway.db, {}))[0]!.n;
    const clients = Array.from({ length: 100 }, (_, i) => `127.0.0.${i + 2}`);
    const startedAt = performance.now();
    await inParallel(1000, 16, async (i) => {
      await goOn(link.id, clients[i % clients.length]!);
    });
    const [counts] = await LINK_INVOICES.run(gateway.db, { ids: [link.id] });
    expect(counts!.invoices).toBeGreaterThanOrEqual(CAPS.link);
    expect(counts!.invoices).toBeLessThanOrEqual(bound(CAPS.link, startedAt));
    expect(counts!.orders).toBe(0);
    expect((await ASSIGNED_ADDRESSES.run(gateway.db, {}))[0]!.n).toBe(assigned);
  });

  it('many links from many clients: the gateway-wide cap over every link', async () => {
    const links = await Promise.all([createLink(), createLink(), createLink(), createLink()]);
    const before = (await countRows(gateway.db)).invoices ?? 0;
    const startedAt = performance.now();
    await inParallel(800, 16, async (i) => {
      await goOn(links[i % links.length]!.id, `127.0.1.${(i % 200) + 2}`);
    });
    const made = ((await countRows(gateway.db)).invoices ?? 0) - before;
    // The earlier tests of this file took from the same gateway-wide budget: at most all of it is left.
    expect(made).toBeLessThanOrEqual(bound(CAPS.gateway, startedAt));
    expect(made).toBeLessThan(links.length * CAPS.link);
    const [counts] = await LINK_INVOICES.run(gateway.db, { ids: links.map((l) => l.id) });
    expect(counts!.orders).toBe(0);
  });
});
