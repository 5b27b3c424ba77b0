import { describe, expect, it } from 'vitest';
import type { PublicOrderView } from '../pay/view';
import { composePayerMail, LOGO_CID, withInlineLogo, type PayerMailInput } from './compose';

const view: PublicOrderView = {
  orderId: '0b7e6a3c-8a38-4e40-9f40-6f2a3b8d3c11',
  status: 'pending',
  screen: 'partially-paid',
  test: true,
  merchantName: 'Demo Shop',
  description: 'Two <b>mugs</b>',
  currency: 'LTC',
  currencyName: 'Litecoin',
  network: 'litecoin',
  networkName: 'Litecoin',
  tokenStandard: null,
  blockSeconds: 150,
  amount: '1234.5',
  received: '1000',
  remaining: '234.5',
  address: 'ltc1qexample',
  tag: null,
  walletUri: 'litecoin:ltc1qexample?amount=234.5',
  returnUrl: null,
  expiresAt: '2026-11-27T06:00:00.000Z',
  serverTime: '2026-11-27T05:00:00.000Z',
  requiredConfirmations: 2,
  payments: [{ txid: 'ab'.repeat(32), amount: '1000', status: 'confirmed', confirmations: 2 }],
  otherTransfers: [],
  invoice: null,
  rest: null,
  refundOffer: null,
  remainderOf: null,
};

const input = (over: Partial<PayerMailInput> = {}): PayerMailInput => ({
  kind: 'payment-partial',
  language: 'en',
  view,
  merchant: { name: 'Demo Shop', color: '#0a7d32', hasLogo: false },
  links: {
    page: 'https://pay.example/pay/x',
    receipt: 'https://pay.example/receipt/x',
    unsubscribe: 'https://pay.example/mail/unsubscribe/y',
  },
  explorer: (tx) => `https://explorer.example/tx/${tx}`,
  items: [],
  ...over,
});

describe('composePayerMail', () => {
  it('partly paid: the page words, received and the rest, and "Pay the rest" to the payment page', () => {
    const mail = composePayerMail(input());
    expect(mail.subject).toBe('Demo Shop: Partially paid');
    expect(mail.text).toContain('Remaining: \u2068234.5 LTC\u2069');
    expect(mail.text).toContain('Pay the rest: https://pay.example/pay/x');
    expect(mail.text).toContain(`Transaction: \u2068${'ab'.repeat(32)}\u2069`);
    expect(mail.text).toContain('Unsubscribe from these e-mails: https://pay.example/mail/unsubscribe/y');
    expect(mail.html).toContain('href="https://pay.example/pay/x"');
    expect(mail.html).toContain(`href="https://explorer.example/tx/${'ab'.repeat(32)}"`);
  });

  it('paid: the receipt link', () => {
    const mail = composePayerMail(input({ kind: 'payment-paid', view: { ...view, status: 'processed' } }));
    expect(mail.subject).toBe('Demo Shop: Paid');
    expect(mail.text).toContain('View your receipt: https://pay.example/receipt/x');
  });

  it("paid for an invoice: its line items, in the payer's language, escaped; the other mails list none", () => {
    const invoice = { invoiceId: 'i', currency: 'EUR', amount: '73.5', canChangeCoin: false };
    const items = [
      { name: 'Blue <mug>', quantity: 2, unitPrice: '30', total: '60' },
      { name: 'Shipping', quantity: 1, unitPrice: '13.5', total: '13.5' },
    ];
    const paid = { ...view, status: 'processed' as const, invoice };
    const mail = composePayerMail(input({ kind: 'payment-paid', view: paid, items }));
    expect(mail.text).toContain('\u2068Blue <mug>\u2069: \u20682 × €30.00 = €60.00\u2069');
    expect(mail.text).toContain('\u2068Shipping\u2069: \u2068€13.50\u2069');
    expect(mail.html).toContain('Blue &lt;mug&gt;');
    expect(mail.html).toContain('2 × €30.00 = €60.00');
    const german = composePayerMail(input({ kind: 'payment-paid', language: 'de', view: paid, items }));
    expect(german.text).toContain('2 × 30,00\u00a0€ = 60,00\u00a0€');
    const partial = composePayerMail(input({ view: { ...view, invoice }, items }));
    expect(partial.text).not.toContain('Shipping');
  });

  it('escapes what the merchant and the shop wrote, and loads nothing from outside', () => {
    const mail = composePayerMail(input({ merchant: { name: 'A&B <script>', color: 'red;x', hasLogo: false } }));
    expect(mail.html).toContain('Two &lt;b&gt;mugs&lt;/b&gt;');
    expect(mail.html).toContain('A&amp;B &lt;script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('red;x');
    expect(mail.html).not.toMatch(/<img[^>]+src="https?:/);
  });

  it('a merchant name with line ends cannot add a header to the subject', () => {
    const mail = composePayerMail(
      input({ merchant: { name: 'Shop\r\nBcc: victim@example.com\u2028X', color: null, hasLogo: false } }),
    );
    expect(mail.subject).toBe('Shop Bcc: victim@example.com X: Partially paid');
  });

  it("Arabic: right to left, the language's punctuation, ids isolated", () => {
    const mail = composePayerMail(input({ language: 'ar' }));
    expect(mail.html).toContain('dir="rtl"');
    expect(mail.html).toContain('lang="ar"');
    expect(mail.text).toContain('ادفع الباقي');
    expect(mail.text).toContain(`\u2068${'ab'.repeat(32)}\u2069`);
  });

  it('Japanese: the full-width separator of the page', () => {
    expect(composePayerMail(input({ language: 'ja' })).subject).toMatch(/^Demo Shop：/);
  });
});

describe("the dashboard's copy of a mail", () => {
  const LOGO = 'data:image/png;base64,iVBORw0KGgo=';

  it('shows the attached logo where the message refers to it by cid:, as a mail client does', () => {
    const { html } = composePayerMail(input({ merchant: { name: 'Demo Shop', color: null, hasLogo: true } }));
    expect(html).toContain(`src="cid:${LOGO_CID}"`);
    const shown = withInlineLogo(html, LOGO);
    expect(shown).toContain(`<img src="${LOGO}" alt="Demo Shop"`);
    expect(shown).not.toContain('cid:');
  });

  it('leaves the HTML as it is without a logo, or with anything but a base64 image data: URL', () => {
    const html = `<img src="cid:${LOGO_CID}">`;
    expect(withInlineLogo(html, null)).toBe(html);
    expect(withInlineLogo(html, 'data:image/png;base64,AAAA" onerror="x')).toBe(html);
    expect(withInlineLogo(html, 'https://tracker.example/logo.png')).toBe(html);
  });
});
