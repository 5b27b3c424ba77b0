/**
 * Invoices through the domain code on a real database and the sandbox ledger: the choice makes an
 * order at the locked rate, the invoice follows its orders through the watcher (the same
 * transaction writes its webhook), a change of coin keeps the earlier order running (a payment to
 * it pays the invoice, or is flagged for refund once another order paid it), choosing a coin again
 * reuses its order, the orders per invoice are bounded, and an invoice whose time ran out with no
 * order running expires by the sweep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillAddressPool } from '@/lib/addresses';
import { mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import {
  chooseCoin,
  getInvoice,
  InvoiceClosed,
  loadInvoiceView,
  makeInvoice,
  MAX_INVOICE_ORDERS,
  serializeInvoice,
  sweepInvoices,
  TooManyCoinChoices,
} from '@/lib/invoices';
import { findApiKey } from '@/lib/merchants';
import { makeInvoiceRequest, type InvoiceCurrency } from '@/lib/protocol';
import { simulateOrderPayment } from '@/lib/sandbox';
import { openTestDatabase } from './support/database';
import { network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let db: Database;
let merchant: TestMerchant;
/** Another merchant, for the tests that choose many coins: the page view ranks coins by a merchant's use. */
let switcher: TestMerchant;
let nonce = Date.now() * 1000;

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
  switcher = await createTestMerchant(db);
  for (const name of ['tron', 'litecoin', 'bitcoin']) await fillAddressPool(db, network(name), 'test');
});
afterAll(async () => {
  await db?.close();
});

async function invoice(fields: Record<string, unknown>, owner = merchant) {
  const key = (await findApiKey(db, owner.test.publicKey))!;
  const own = ++nonce;
  return makeInvoice(
    { db, key, nonce: String(own) },
    makeInvoiceRequest.parse({ currency: 'USD', amount: '73.50', lifetime: 30, ...fields }),
  );
}

async function invoiceNow(id: string, owner = merchant) {
  const key = (await findApiKey(db, owner.test.publicKey))!;
  return serializeInvoice(await getInvoice(db, key, id));
}

async function ordersOf(invoiceId: string) {
  return db.query<{ id: string }>('select id from orders where invoice_id = $1 order by created_at', [invoiceId]);
}

/** Deposit addresses handed out so far, of every network. */
async function takenAddresses(): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'select count(*)::int as n from addresses a where exists (select 1 from orders o where o.address_id = a.id)',
  );
  return row!.n;
}

async function webhookOf(invoiceId: string) {
  return db.query<{ kind: string; invoice_status: string; body: string }>(
    'select kind, invoice_status, body from webhook_events where invoice_id = $1',
    [invoiceId],
  );
}

describe('invoices', () => {
  it('follows the order of the chosen coin to PROCESSED and writes its webhook in the same transaction', async () => {
    const made = await invoice({
      webhookURL: 'https://merchant.example/hook',
      currencies: [{ currency: 'USDT', networks: ['tron'] }],
    });
    expect(serializeInvoice(made)).toMatchObject({
      status: 'CREATED',
      currencies: [{ currency: 'USDT', networks: [{ name: 'tron', amount: '73.5' }] }],
    });

    const order = await chooseCoin(db, made.invoice.id, { currency: 'usdt', network: 'tron' });
    expect(order).toMatchObject({ currency: 'USDT', network: 'tron', amount: '73500000', invoice_id: made.invoice.id });
    expect(await invoiceNow(made.invoice.id)).toMatchObject({
      status: 'INIT',
      orderId: order.id,
      rate: '1',
      receivedCurrency: 'USDT',
    });
    // Choosing the same coin again answers the same order.
    expect((await chooseCoin(db, made.invoice.id, { currency: 'USDT', network: 'tron' })).id).toBe(order.id);

    const chain = sandboxChain(db, 'tron');
    await simulateOrderPayment(db, order.id, 'full');
    await watchOnce(db, chain);
    expect((await invoiceNow(made.invoice.id)).status).toBe('PENDING');
    // A payment was seen: the coin can no longer change.
    await expect(chooseCoin(db, made.invoice.id, { currency: 'BTC', network: 'bitcoin' })).rejects.toBeInstanceOf(
      InvoiceClosed,
    );

    for (let i = 0; i < 3; i++) await mine(db, network('tron'));
    await watchOnce(db, chain);
    expect((await orderRow(db, order.id)).status).toBe('processed');
    const done = await invoiceNow(made.invoice.id);
    expect(done).toMatchObject({
      status: 'PROCESSED',
      receivedAmount: '73.5',
      receivedAmountInInvoiceCurrency: '73.5',
    });
    const [webhook] = await webhookOf(made.invoice.id);
    expect(webhook).toMatchObject({ kind: 'invoice', invoice_status: 'PROCESSED' });
    expect(JSON.parse(webhook!.body)).toMatchObject({
      event: 'INVOICE',
      id: made.invoice.id,
      webhookId: expect.any(String),
      status: 'PROCESSED',
      orderId: order.id,
    });
    await expect(chooseCoin(db, made.invoice.id, { currency: 'USDT', network: 'tron' })).rejects.toBeInstanceOf(
      InvoiceClosed,
    );
  });

  it('lets the payer change coin before paying; the earlier order keeps running, and choosing its coin again reuses it', async () => {
    const made = await invoice({});
    const first = await chooseCoin(db, made.invoice.id, { currency: 'LTC', network: 'litecoin' });
    const payerEmail = 'invoice-payer@example.com';
    const second = await chooseCoin(db, made.invoice.id, { currency: 'BTC', network: 'bitcoin', payerEmail });
    expect(second.id).not.toBe(first.id);
    // The payer's address (docs/decisions/110) goes with the choice to its order, the first order has none.
    expect((await orderRow(db, second.id)).payer_email).toBe(payerEmail);
    expect((await orderRow(db, first.id)).payer_email).toBeNull();
    // 73.50 USD at the fixed table's 60000 USD per BTC, rounded up to the satoshi.
    expect(second.amount).toBe(String((7350n * 10n ** 8n + 6_000_000n - 1n) / 6_000_000n));
    expect(await orderRow(db, first.id)).toMatchObject({ status: 'pending', expires_at: first.expires_at });
    expect(await invoiceNow(made.invoice.id)).toMatchObject({
      status: 'INIT',
      orderId: second.id,
      receivedCurrency: 'BTC',
    });
    // Back to the first coin: its order (its address, its rate), not a new one.
    const again = await chooseCoin(db, made.invoice.id, { currency: 'LTC', network: 'litecoin', payerEmail });
    expect(again.id).toBe(first.id);
    // Taken up again with an address: it fills the order's missing one, and is never replaced after.
    expect((await orderRow(db, first.id)).payer_email).toBe(payerEmail);
    await chooseCoin(db, made.invoice.id, { currency: 'LTC', network: 'litecoin', payerEmail: 'someone@else.example' });
    expect((await orderRow(db, first.id)).payer_email).toBe(payerEmail);
    const ltcRate = (await invoiceNow(made.invoice.id)).rate;
    expect(await invoiceNow(made.invoice.id)).toMatchObject({
      status: 'INIT',
      orderId: first.id,
      receivedCurrency: 'LTC',
    });
    expect((await chooseCoin(db, made.invoice.id, { currency: 'BTC', network: 'bitcoin' })).id).toBe(second.id);
    expect((await chooseCoin(db, made.invoice.id, { currency: 'LTC', network: 'litecoin' })).id).toBe(first.id);
    expect((await invoiceNow(made.invoice.id)).rate).toBe(ltcRate);
    expect(await ordersOf(made.invoice.id)).toHaveLength(2);
  });

  it('a hundred coin changes take a bounded number of orders, hence of deposit addresses', async () => {
    const made = await invoice({}, switcher);
    const pairs = (made.invoice.currencies as InvoiceCurrency[]).flatMap((c) =>
      c.networks.map((n) => ({ currency: c.currency, network: n.name })),
    );
    expect(pairs.length).toBeGreaterThan(MAX_INVOICE_ORDERS);
    // The pools of the coins that will get orders are filled first: an empty pool's refill may take
    // longer than an order waits for it on a loaded machine (503, retry), which is not counted here.
    for (const pair of pairs.slice(0, MAX_INVOICE_ORDERS)) await fillAddressPool(db, network(pair.network), 'test');
    const addressesBefore = await takenAddresses();
    const refused: string[] = [];
    for (let i = 0; i < 100; i++) {
      await chooseCoin(db, made.invoice.id, pairs[i % pairs.length]!).catch((error: unknown) => {
        if (!(error instanceof TooManyCoinChoices)) throw error;
        refused.push(pairs[i % pairs.length]!.network);
      });
    }
    const orders = await ordersOf(made.invoice.id);
    expect(orders).toHaveLength(MAX_INVOICE_ORDERS);
    expect((await takenAddresses()) - addressesBefore).toBe(MAX_INVOICE_ORDERS);
    expect(refused.length).toBeGreaterThan(0);
    // The coins chosen before stay open.
    const [firstPair] = pairs;
    expect((await chooseCoin(db, made.invoice.id, firstPair!)).id).toBe(orders[0]!.id);
  });

  it("a payment made to the abandoned coin's order before the change pays the invoice", async () => {
    const made = await invoice({ webhookURL: 'https://merchant.example/hook' }, switcher);
    const first = await chooseCoin(db, made.invoice.id, { currency: 'LTC', network: 'litecoin' });
    const ltcRate = (await invoiceNow(made.invoice.id, switcher)).rate;
    // Mined, but not read yet (a watcher behind, a chain without a mempool), when the payer changes coin.
    await simulateOrderPayment(db, first.id, 'full');
    await mine(db, network('litecoin'), 2);
    const second = await chooseCoin(db, made.invoice.id, { currency: 'BTC', network: 'bitcoin' });
    expect((await invoiceNow(made.invoice.id, switcher)).orderId).toBe(second.id);

    await watchOnce(db, sandboxChain(db, 'litecoin'));
    expect((await orderRow(db, first.id)).status).toBe('processed');
    expect(await invoiceNow(made.invoice.id, switcher)).toMatchObject({
      status: 'PROCESSED',
      orderId: first.id,
      rate: ltcRate,
      receivedCurrency: 'LTC',
      receivedAmountInInvoiceCurrency: '73.5',
    });
    const [webhook] = await webhookOf(made.invoice.id);
    expect(JSON.parse(webhook!.body)).toMatchObject({ status: 'PROCESSED', orderId: first.id });
    // The other coin's order is left to run out; a payment to it now is one to refund.
    await simulateOrderPayment(db, second.id, 'full');
    await mine(db, network('bitcoin'), 2);
    await watchOnce(db, sandboxChain(db, 'bitcoin'));
    const paidTwice = await orderRow(db, second.id);
    expect(paidTwice.status).toBe('processed');
    expect(paidTwice.message).toBe(
      `This payment is not part of invoice ${made.invoice.id}, which is PROCESSED (order ${first.id}): refund it to the payer.`,
    );
    expect(await invoiceNow(made.invoice.id, switcher)).toMatchObject({ status: 'PROCESSED', orderId: first.id });
    expect(await webhookOf(made.invoice.id)).toHaveLength(1);
  });

  it('expires an invoice whose time ran out with no coin chosen, once, with its webhook', async () => {
    const made = await invoice({ lifetime: 1, webhookURL: 'https://merchant.example/hook' });
    expect(await sweepInvoices(db, new Date(Date.now() + 30_000))).toEqual([]);
    const later = new Date(made.invoice.expires_at.getTime() + 1);
    expect(await sweepInvoices(db, later)).toEqual([{ invoiceId: made.invoice.id, from: 'CREATED', to: 'EXPIRED' }]);
    expect(await sweepInvoices(db, later)).toEqual([]);
    expect(await webhookOf(made.invoice.id)).toEqual([
      expect.objectContaining({ kind: 'invoice', invoice_status: 'EXPIRED' }),
    ]);
    await expect(chooseCoin(db, made.invoice.id, { currency: 'BTC', network: 'bitcoin' })).rejects.toBeInstanceOf(
      InvoiceClosed,
    );
  });

  it("builds the invoice page view: amounts a choice would ask now, the chosen coin, the merchant's most used coins first", async () => {
    // One more USDT order than BTC orders for this merchant so far.
    await chooseCoin(db, (await invoice({})).invoice.id, { currency: 'USDT', network: 'tron' });
    const made = await invoice({
      description: 'Mugs',
      currencies: [
        { currency: 'BTC', networks: ['bitcoin'] },
        { currency: 'USDT', networks: ['tron', 'bsc'] },
      ],
    });
    let view = (await loadInvoiceView(db, made.invoice.id))!;
    expect(view).toMatchObject({
      status: 'CREATED',
      screen: 'choose',
      test: true,
      description: 'Mugs',
      currency: 'USD',
      amount: '73.5',
      chosen: null,
    });
    expect(view.coins.flatMap((c) => c.networks.map((n) => [c.ticker, n.network, n.tokenStandard, n.amount]))).toEqual(
      expect.arrayContaining([
        ['BTC', 'bitcoin', null, '0.001225'],
        ['USDT', 'tron', 'TRC-20', '73.5'],
        ['USDT', 'bsc', 'BEP-20', '73.5'],
      ]),
    );
    // Offered second, but used most: first.
    expect(view.coins[0]!.ticker).toBe('USDT');
    // Coins without orders yet: the popular first (USDC, ETH, DOGE), then the offer's order.
    const unused = await invoice({
      currencies: [
        { currency: 'BCH', networks: ['bitcoincash'] },
        { currency: 'DOGE', networks: ['dogecoin'] },
        { currency: 'ETH', networks: ['ethereum'] },
        { currency: 'USDC', networks: ['ethereum'] },
      ],
    });
    expect((await loadInvoiceView(db, unused.invoice.id))!.coins.map((c) => c.ticker)).toEqual([
      'USDC',
      'ETH',
      'DOGE',
      'BCH',
    ]);
    const order = await chooseCoin(db, made.invoice.id, { currency: 'BTC', network: 'bitcoin' });
    view = (await loadInvoiceView(db, made.invoice.id))!;
    expect(view).toMatchObject({
      status: 'INIT',
      screen: 'choose',
      chosen: { orderId: order.id, currency: 'BTC', network: 'bitcoin' },
    });
    expect(await loadInvoiceView(db, '00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await loadInvoiceView(db, 'not-an-id')).toBeNull();
  });
});
