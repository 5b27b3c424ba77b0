/**
 * Invoices through the domain code on a real database and the sandbox ledger: the choice makes an
 * order at the locked rate, the invoice follows that order through the watcher (the same
 * transaction writes its webhook), a second choice abandons the first order, and an invoice whose
 * time ran out with no order running expires by the sweep.
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
  serializeInvoice,
  sweepInvoices,
} from '@/lib/invoices';
import { findApiKey } from '@/lib/merchants';
import { makeInvoiceRequest } from '@/lib/protocol';
import { simulateOrderPayment } from '@/lib/sandbox';
import { openTestDatabase } from './support/database';
import { network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { createTestMerchant, type TestMerchant } from './support/merchants';

let db: Database;
let merchant: TestMerchant;
let nonce = Date.now() * 1000;

beforeAll(async () => {
  db = await openTestDatabase();
  merchant = await createTestMerchant(db);
  for (const name of ['tron', 'litecoin', 'bitcoin']) await fillAddressPool(db, network(name), 'test');
});
afterAll(async () => {
  await db?.close();
});

async function invoice(fields: Record<string, unknown>) {
  const key = (await findApiKey(db, merchant.test.publicKey))!;
  const own = ++nonce;
  return makeInvoice(
    { db, key, nonce: String(own) },
    makeInvoiceRequest.parse({ currency: 'USD', amount: '73.50', lifetime: 30, ...fields }),
  );
}

async function invoiceNow(id: string) {
  const key = (await findApiKey(db, merchant.test.publicKey))!;
  return serializeInvoice(await getInvoice(db, key, id));
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

  it('lets the payer change coin before paying; the first order is abandoned and no longer moves the invoice', async () => {
    const made = await invoice({});
    const first = await chooseCoin(db, made.invoice.id, { currency: 'LTC', network: 'litecoin' });
    const second = await chooseCoin(db, made.invoice.id, { currency: 'BTC', network: 'bitcoin' });
    expect(second.id).not.toBe(first.id);
    // 73.50 USD at the fixed table's 60000 USD per BTC, rounded up to the satoshi.
    expect(second.amount).toBe(String((7350n * 10n ** 8n + 6_000_000n - 1n) / 6_000_000n));
    expect((await orderRow(db, first.id)).expires_at.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await invoiceNow(made.invoice.id)).toMatchObject({
      status: 'INIT',
      orderId: second.id,
      receivedCurrency: 'BTC',
    });
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
