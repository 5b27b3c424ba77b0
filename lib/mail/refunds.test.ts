import { describe, expect, it } from 'vitest';
import { REFUND_CLAIM_MESSAGES } from './refund-claim-messages';
import { composeRefundClaimMail } from './refunds';

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
