/**
 * Receipts as documents (docs/receipts.md, docs/decisions/075): a paid order's receipt loaded
 * from the database, drawn as a PDF in English, Arabic, Japanese and Urdu (Nastaliq, decision
 * 095), and read back by Debian's poppler-utils (`pdftotext -layout`, `pdftoppm`, `pdfimages`) as
 * a payer's viewer would. Every character of every language's document has a glyph in the
 * embedded fonts (fontkit's coverage: no missing-glyph box), and each of the other fonts draws a
 * PDF. An invoice's line items reach its receipt and both PDFs.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillAddressPool } from '@/lib/addresses';
import { broadcast, mine } from '@/lib/chains/sandbox';
import type { Database } from '@/lib/db/client';
import { chooseCoin, loadInvoiceView, makeInvoice } from '@/lib/invoices';
import { findApiKey, updateBrand } from '@/lib/merchants';
import { makeInvoiceRequest } from '@/lib/protocol';
import { LANGUAGES } from '@/lib/pay/i18n';
import {
  invoiceDocument,
  loadReceipt,
  receiptDocument,
  renderPdf,
  pdfLogoOf,
  type LoadedReceipt,
  type PayerDocument,
} from '@/lib/receipts';
import { fontFor, fontOrder, prepareFonts } from '@/lib/receipts/fonts';
import { textOfDocument } from '@/lib/receipts/pdf';
import { createOrder, network, orderRow, sandboxChain, watchOnce } from './support/chain';
import { openTestDatabase } from './support/database';
import { createTestMerchant } from './support/merchants';

/** A 1 × 1 PNG. */
const LOGO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
/** Bidirectional controls pdftotext writes around right-to-left lines. */
const CONTROLS = /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

let db: Database;
let dir: string;
let receipt: LoadedReceipt;
/** The receipt of an invoice's order, with line items. */
let itemized: LoadedReceipt;
let invoiceId: string;
let unpaidId: string;
let txid: string;

beforeAll(async () => {
  db = await openTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'receipts-'));
  // An Arabic name with no lam-alef: poppler extracts that ligature's two letters swapped, for
  // Chromium's own PDFs too (docs/decisions/075), and this test reads the order of letters.
  const merchant = await createTestMerchant(db, 'متجر القهوة');
  await updateBrand(db, merchant.merchantId, { logo: LOGO, color: null });
  const order = await createOrder(db, merchant.test, {
    currency: 'LTC',
    network: 'litecoin',
    amount: '0.125',
    description: 'Two mugs',
  });
  const unpaid = await createOrder(db, merchant.test, { currency: 'LTC', network: 'litecoin', amount: '1' });
  unpaidId = unpaid.id;
  ({ txHash: txid } = await broadcast(db, {
    network: network('litecoin'),
    to: order.address,
    currency: 'LTC',
    amount: 12_500_000n,
  }));
  await mine(db, network('litecoin'), 2);
  await watchOnce(db, sandboxChain(db, 'litecoin'));
  expect((await orderRow(db, order.id)).status).toBe('processed');
  receipt = (await loadReceipt(db, order.id))!;

  // An invoice with line items, paid in LTC.
  await fillAddressPool(db, network('litecoin'), 'test');
  const key = (await findApiKey(db, merchant.test.publicKey))!;
  const made = await makeInvoice(
    { db, key, nonce: String(Date.now()) },
    makeInvoiceRequest.parse({
      currency: 'USD',
      amount: '73.50',
      currencies: [{ currency: 'LTC', networks: ['litecoin'] }],
      items: [
        { name: 'Blue mug', quantity: 2, price: '30' },
        { name: 'Shipping', quantity: 1, price: '13.50' },
      ],
    }),
  );
  invoiceId = made.invoice.id;
  const chosen = await chooseCoin(db, invoiceId, { currency: 'LTC', network: 'litecoin' });
  await broadcast(db, {
    network: network('litecoin'),
    to: chosen.address,
    currency: 'LTC',
    amount: BigInt(chosen.amount),
  });
  await mine(db, network('litecoin'), 2);
  await watchOnce(db, sandboxChain(db, 'litecoin'));
  itemized = (await loadReceipt(db, chosen.id))!;
});
afterAll(async () => {
  await db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function pdfOf(language: (typeof LANGUAGES)[number], of = receipt): Promise<string> {
  return pdfFile(`${language}`, receiptDocument(of.facts, language));
}

async function pdfFile(name: string, document: PayerDocument): Promise<string> {
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, await renderPdf(document, pdfLogoOf(receipt.brand.logo), new Date()));
  return file;
}

const textOf = (file: string) =>
  execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(CONTROLS, '');

describe('a receipt', () => {
  it('exists for a paid order only: its payment, the moment it was paid, the brand', async () => {
    expect(await loadReceipt(db, unpaidId)).toBeNull();
    expect(await loadReceipt(db, 'not-a-uuid')).toBeNull();
    expect(receipt.facts.view.payments.map((p) => p.txid)).toEqual([txid]);
    expect(receipt.facts.paidAt).toBeInstanceOf(Date);
    expect(receipt.brand.logo).toBe(LOGO);
  });

  it('as a PDF in English, Arabic and Japanese: amount, transaction id and merchant read back, Arabic in order', async () => {
    const [en, ar, ja] = await Promise.all([pdfOf('en'), pdfOf('ar'), pdfOf('ja')]);
    const english = textOf(en);
    expect(english).toContain('Receipt from متجر القهوة');
    expect(english).toContain('0.125 LTC (Litecoin)');
    expect(english).toContain(txid);
    expect(english).toContain('Two mugs');

    // Right to left: each line read back in logical order, the title's words as written, and the
    // lines aligned to the right margin. (pdftotext mirrors the brackets of a left-to-right line
    // on a right-to-left page, "(Litecoin" read back as ")...(": the drawn line is right, the
    // PNG shows it; the amount is read without them.)
    const arabic = textOf(ar);
    expect(arabic).toContain('إيصال من متجر القهوة');
    expect(arabic).toContain('تم الدفع');
    expect(arabic).toContain('0.125 LTC');
    expect(arabic).toContain(txid);
    const title = arabic.split('\n').find((line) => line.includes('إيصال'))!;
    expect(title.length - title.trimStart().length).toBeGreaterThan(20);

    const japanese = textOf(ja);
    expect(japanese).toContain('متجر القهوة');
    expect(japanese).toContain('の領収書');
    expect(japanese).toContain('0.125 LTC (Litecoin)');
    expect(japanese).toContain(txid);

    // The logo is in each, and each page renders.
    for (const file of [en, ar, ja]) {
      // Two header lines, then the logo (a PNG with an alpha channel: an image and its soft mask).
      const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n').slice(2);
      expect(images.map((line) => line.trim().split(/\s+/)[2])).toEqual(['image', 'smask']);
      execFileSync('pdftoppm', ['-r', '30', '-png', '-singlefile', file, file.replace(/\.pdf$/, '')]);
      expect(fs.statSync(file.replace(/\.pdf$/, '.png')).size).toBeGreaterThan(1000);
    }
  });

  it("an invoice's line items on its receipt and both PDFs, as pdftotext reads them back", async () => {
    expect(itemized.facts.items).toEqual([
      { name: 'Blue mug', quantity: 2, unitPrice: '30', total: '60' },
      { name: 'Shipping', quantity: 1, unitPrice: '13.5', total: '13.5' },
    ]);
    const english = textOf(await pdfOf('en', itemized));
    expect(english).toMatch(/Blue mug\s+2 × \$30\.00 = \$60\.00/);
    expect(english).toMatch(/Shipping\s+\$13\.50/);
    expect(english).toContain('$73.50');
    const arabic = textOf(await pdfOf('ar', itemized));
    expect(arabic).toContain('Blue mug');
    expect(arabic).toContain('60.00');

    const view = (await loadInvoiceView(db, invoiceId))!;
    expect(view.items.map((item) => item.name)).toEqual(['Blue mug', 'Shipping']);
    const invoicePdf = textOf(await pdfFile('invoice-de', invoiceDocument(view, 'de', 'https://pay.example/i')));
    expect(invoicePdf).toMatch(/Blue mug\s+2 × 30,00 \$ = 60,00 \$/);
    expect(invoicePdf).toContain('73,50 $');
  });

  it('in Urdu: Nastaliq drawn, the text read back in order', async () => {
    const file = await pdfOf('ur', itemized);
    const urdu = textOf(file);
    expect(urdu).toContain('متجر القهوة کی رسید');
    expect(urdu).toContain('ادائیگی ہو گئی');
    expect(urdu).toContain('آرڈر کی کل رقم');
    // Letters whose glyphs the Arabic PDFs above embedded as parts of others (ح, ص): still read.
    expect(urdu).toContain('آرڈر حوالہ');
    expect(urdu).toContain('موصول شدہ رقم');
    expect(urdu).toContain('Blue mug');
    expect(urdu).toContain(itemized.facts.view.payments[0]!.txid);
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
    expect(fonts).toContain('NotoNastaliqUrdu-Regular');
  });

  it('in every language of the payment page: every character has a glyph in the embedded fonts', async () => {
    for (const language of LANGUAGES) {
      const order = fontOrder(language);
      const text = textOfDocument(receiptDocument(itemized.facts, language));
      await prepareFonts(text, order);
      const missing = [...new Set(text.replace(CONTROLS, ''))].filter(
        (c) => fontFor(c.codePointAt(0)!, order) === null,
      );
      expect({ language, missing }).toEqual({ language, missing: [] });
    }
  });

  it('drawn in Hindi (Devanagari in Noto Sans) and with each other Han font: Korean, Simplified and Traditional Chinese', async () => {
    for (const language of ['hi', 'ko', 'zh', 'zh-Hant'] as const) {
      const text = textOf(await pdfOf(language));
      expect(text).toContain(txid);
      expect(text).toContain(receiptDocument(receipt.facts, language).status);
    }
  });
});
