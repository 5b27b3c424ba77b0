import { describe, expect, it } from 'vitest';
import { REFUND_CLAIM_MESSAGES } from './refund-claim-messages';
import { REFUND_SENT_MESSAGES } from './refund-sent-messages';
import { composeRefundClaimMail, composeRefundSentMail } from './refunds';
import { LANGUAGES } from '../pay/i18n';

const input = {
  merchant: 'Shop 42!',
  amount: '0.5 LTC',
  network: 'Litecoin',
  link: 'https://pay.example/refund/abc?lang=ar',
  expiresAt: new Date('2026-12-11T10:00:00Z'),
};
/** U+2068 FIRST STRONG ISOLATE ... U+2069 POP DIRECTIONAL ISOLATE (lib/pay/format `isolate`). */
const isolated = (value: string) => `\u2068${value}\u2069`;

describe('composeRefundClaimMail', () => {
  it("speaks the payer's language: Arabic right to left, each name isolated, the date in Arabic with ASCII digits", () => {
    const mail = composeRefundClaimMail({ ...input, language: 'ar' });
    const t = REFUND_CLAIM_MESSAGES.ar;
    expect(mail.subject).toBe(`استرداد ${isolated('0.5 LTC')} من ${isolated('Shop 42!')}`);
    expect(mail.text).toContain(`على شبكة ${isolated('Litecoin')}.`);
    expect(mail.text).toContain(isolated('11 ديسمبر 2026'));
    expect(mail.text).toContain(input.link);
    expect(mail.text).toContain(t.exchangeNote);
    expect(mail.html).toContain('<html lang="ar" dir="rtl">');
    expect(mail.html).toContain(`>${t.mail.button}</a>`);
    expect(mail.html.replaceAll(input.link, '')).not.toMatch(/refund|network/i);
  });

  it('in English, as before; Hindi left to right', () => {
    const mail = composeRefundClaimMail({ ...input, language: 'en' });
    expect(mail.subject).toBe(`${isolated('Shop 42!')} is refunding you ${isolated('0.5 LTC')}`);
    expect(mail.text).toContain(`until ${isolated('December 11, 2026')}.`);
    expect(mail.html).toContain('<html lang="en" dir="ltr">');
    expect(composeRefundClaimMail({ ...input, language: 'hi' }).html).toContain('<html lang="hi" dir="ltr">');
  });

  it('escapes what the merchant named in the markup', () => {
    const mail = composeRefundClaimMail({ ...input, merchant: '<b>Shop</b>', language: 'fr' });
    expect(mail.html).not.toContain('<b>Shop');
    expect(mail.html).toContain('&lt;b&gt;Shop');
  });
});

describe('composeRefundSentMail', () => {
  const sent = {
    merchant: 'Shop 42!',
    amount: '0.4999 LTC',
    network: 'Litecoin',
    address: 'ltc1qpayer',
    tag: null,
    txid: 'ab'.repeat(32),
    explorer: `https://blockchair.com/litecoin/transaction/${'ab'.repeat(32)}`,
    unsubscribe: 'https://pay.example/mail/unsubscribe/1',
  };

  it('in every language: the amount, the address and the transaction, its explorer link and the unsubscribe link', () => {
    for (const language of LANGUAGES) {
      const mail = composeRefundSentMail({ ...sent, language });
      expect(mail.subject).toContain(isolated('0.4999 LTC'));
      expect(mail.subject).toContain(isolated('Shop 42!'));
      for (const part of [mail.text, mail.html]) {
        expect(part).toContain(sent.address);
        expect(part).toContain(sent.txid);
        expect(part).toContain(sent.explorer);
        expect(part).toContain(sent.unsubscribe);
        expect(part).toContain(REFUND_SENT_MESSAGES[language].confirmed);
      }
    }
    expect(composeRefundSentMail({ ...sent, language: 'ur' }).html).toContain('<html lang="ur" dir="rtl">');
  });

  it('the tag where the network has one; no explorer button without a link; the markup escaped', () => {
    const mail = composeRefundSentMail({
      ...sent,
      language: 'en',
      tag: '12345',
      explorer: null,
      merchant: '<b>Shop</b>',
    });
    expect(mail.text).toContain(`Destination tag: ${isolated('12345')}`);
    expect(mail.text).not.toContain(REFUND_SENT_MESSAGES.en.explorer);
    expect(mail.html).not.toContain(REFUND_SENT_MESSAGES.en.explorer);
    expect(mail.html).not.toContain('<b>Shop');
    expect(mail.html).toContain('&lt;b&gt;Shop');
  });
});
