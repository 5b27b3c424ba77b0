import { describe, expect, it } from 'vitest';
import { MAIL_SETTINGS } from './settings';

describe('MAIL_SETTINGS', () => {
  it('empty fields mean the defaults; unticked kinds are switched off', () => {
    expect(MAIL_SETTINGS.parse({ senderName: ' ', replyTo: '', on: ['payment-paid'] })).toEqual({
      senderName: null,
      replyTo: null,
      off: ['payment-detected', 'payment-partial', 'payment-expired'],
      dailySummary: false,
    });
    expect(
      MAIL_SETTINGS.parse({
        senderName: 'Mug Shop',
        replyTo: 'Help@Shop.example',
        on: ['payment-detected', 'payment-partial', 'payment-paid', 'payment-expired'],
        dailySummary: 'on',
      }),
    ).toEqual({ senderName: 'Mug Shop', replyTo: 'help@shop.example', off: [], dailySummary: true });
  });

  it('refuses line ends and look-alike breaks in the name, a bad reply-to, an unknown kind', () => {
    for (const senderName of ['Mug\r\nBcc: x@example.com', 'Mug\u2028Shop', 'Mug\u0085Shop', 'x'.repeat(101)])
      expect(MAIL_SETTINGS.safeParse({ senderName, replyTo: '', on: [] }).success, JSON.stringify(senderName)).toBe(
        false,
      );
    expect(
      MAIL_SETTINGS.safeParse({ senderName: '', replyTo: 'a@b.example\r\nBcc: c@d.example', on: [] }).success,
    ).toBe(false);
    expect(MAIL_SETTINGS.safeParse({ senderName: '', replyTo: '', on: ['refund-sent'] }).success).toBe(false);
    expect(MAIL_SETTINGS.safeParse({ senderName: '', replyTo: '', on: [], dailySummary: 'yes' }).success).toBe(false);
  });
});
