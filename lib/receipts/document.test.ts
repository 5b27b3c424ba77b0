import { describe, expect, it } from 'vitest';
import type { InvoiceLineItem, PublicInvoiceView } from '../invoices/view';
import { LANGUAGES } from '../pay/i18n';
import type { PublicOrderView } from '../pay/view';
import { formatMoment, invoiceDocument, lineItemValue, receiptDocument, type PayerDocument } from './document';

const TX = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';

const view = {
  orderId: '5f0c1e7a-1111-4222-8333-944455556666',
  status: 'processed',
  screen: 'paid',
  test: false,
  merchantName: 'Mug Shop',
  description: 'Two mugs',
  currency: 'BTC',
  currencyName: 'Bitcoin',
  network: 'bitcoin',
  networkName: 'Bitcoin',
  amount: '0.00123456',
  received: '0.00123456',
  remaining: '0',
  payments: [
    { txid: TX, amount: '0.00123456', status: 'confirmed', confirmations: 2 },
    { txid: 'f'.repeat(64), amount: '0.1', status: 'reversed', confirmations: 0 },
  ],
  otherTransfers: [],
  invoice: { invoiceId: '7a0c1e7a-1111-4222-8333-944455556666', currency: 'USD', amount: '73.5', canChangeCoin: false },
} as unknown as PublicOrderView;

const ITEMS: InvoiceLineItem[] = [
  { name: 'Blue mug', quantity: 2, unitPrice: '30', total: '60' },
  { name: 'Shipping', quantity: 1, unitPrice: '13.5', total: '13.5' },
];

const rowsOf = (document: PayerDocument) => document.rows.map((r) => [r.label, r.value, r.href]);

describe('receiptDocument', () => {
  const facts = {
    view,
    paidAt: new Date('2026-11-27T08:00:00Z'),
    rate: '59535.5',
    explorer: (tx: string) => `https://mempool.space/tx/${tx}`,
    items: ITEMS,
  };

  it("the payer-safe rows: reference, description, the invoice's price and rate, amounts, the moment, counted transactions", () => {
    const document = receiptDocument(facts, 'en');
    expect(document.title).toBe('Receipt from \u2068Mug Shop\u2069');
    expect(document.status).toBe('Paid');
    expect(document.testMode).toBeNull();
    expect(rowsOf(document)).toEqual([
      ['Order reference', view.orderId, null],
      ['Order', 'Two mugs', null],
      ['Blue mug', '2 × $30.00 = $60.00', null],
      ['Shipping', '$13.50', null],
      ['Price', '$73.50', null],
      ['Order total', '0.00123456 BTC (Bitcoin)', null],
      ['Received', '0.00123456 BTC', null],
      ['Exchange rate', '1 BTC = $59,535.50', null],
      ['Paid on', 'November 27, 2026 at 8:00 AM UTC', null],
      ['Transaction', TX, `https://mempool.space/tx/${TX}`],
    ]);
  });

  it("in Arabic: right to left, the language's words, ASCII digits", () => {
    const document = receiptDocument({ ...facts, view: { ...view, test: true } }, 'ar');
    expect(document.direction).toBe('rtl');
    expect(document.title).toBe('إيصال من \u2068Mug Shop\u2069');
    expect(document.testMode).not.toBeNull();
    expect(document.rows.at(-2)!.value).toMatch(/^27 نوفمبر 2026/);
  });

  it('lists the line items in every language, each a row with the line total', () => {
    for (const language of LANGUAGES) {
      const rows = receiptDocument(facts, language).rows;
      expect(rows.map((r) => r.label)).toEqual(expect.arrayContaining(['Blue mug', 'Shipping']));
      const mug = rows.find((r) => r.label === 'Blue mug')!;
      expect({ language, value: mug.value }).toEqual({ language, value: lineItemValue(ITEMS[0]!, 'USD', language) });
      expect(mug.value).toMatch(/^2 × .*30.* = .*60/);
    }
  });

  it('an order of no invoice has no price or rate rows', () => {
    const labels = receiptDocument({ ...facts, view: { ...view, invoice: null } }, 'en').rows.map((r) => r.label);
    expect(labels).not.toContain('Price');
    expect(labels).not.toContain('Exchange rate');
  });
});

describe('invoiceDocument', () => {
  const invoice = {
    invoiceId: '7a0c1e7a-1111-4222-8333-944455556666',
    status: 'CREATED',
    screen: 'choose',
    test: false,
    merchantName: 'Mug Shop',
    description: null,
    currency: 'EUR',
    amount: '12',
    expiresAt: '2026-11-28T10:00:00.000Z',
    items: [],
  } as unknown as PublicInvoiceView;

  it('before payment: the price, the deadline and the link to pay', () => {
    const document = invoiceDocument(invoice, 'de', 'https://pay.example/invoice/x?lang=de');
    expect(document.title).toBe('Rechnung von \u2068Mug Shop\u2069');
    expect(rowsOf(document)).toEqual([
      ['Rechnungsnummer', invoice.invoiceId, null],
      ['Preis', '12,00\u00a0€', null],
      ['Zahlbar bis', formatMoment(new Date(invoice.expiresAt), 'de'), null],
      ['Online bezahlen', 'https://pay.example/invoice/x?lang=de', 'https://pay.example/invoice/x?lang=de'],
    ]);
  });

  it('lists its line items before the price', () => {
    const items = [{ name: 'Tea', quantity: 3, unitPrice: '4', total: '12' }];
    const document = invoiceDocument({ ...invoice, items }, 'en', 'https://x');
    expect(rowsOf(document).slice(1, 3)).toEqual([
      ['Tea', '3 × €4.00 = €12.00', null],
      ['Price', '€12.00', null],
    ]);
  });

  it('once paid: no deadline, no link, and it says paid', () => {
    const document = invoiceDocument({ ...invoice, status: 'PROCESSED', screen: 'paid' }, 'en', 'https://x');
    expect(document.rows.map((r) => r.label)).toEqual(['Invoice reference', 'Price']);
    expect(document.status).toBe('Paid');
  });
});
