import { describe, expect, it } from 'vitest';
import { composeTeamMail } from './team-texts';

const invitation = {
  kind: 'invitation' as const,
  merchantName: 'Shop <b>&amp;',
  role: 'viewer',
  inviter: 'owner@shop.example',
  lifetimeHours: 72,
};

describe('team mail texts', () => {
  it('gives an invitation to a new address its link in the text and the HTML, escaped', () => {
    const mail = composeTeamMail({ ...invitation, link: 'https://pay.example/dashboard/set-up/abc?x=1&y=2' });
    expect(mail.text).toContain('https://pay.example/dashboard/set-up/abc?x=1&y=2');
    expect(mail.html).toContain('href="https://pay.example/dashboard/set-up/abc?x=1&amp;y=2"');
    expect(mail.html).toContain('Shop &lt;b&gt;&amp;amp;');
    expect(mail.html).not.toContain('<b>');
    expect(mail.text).toContain('72 hours');
  });

  it('offers an address that has an account to join by answering, with no link', () => {
    const mail = composeTeamMail({ ...invitation, link: null });
    expect(mail.text).not.toMatch(/https?:/);
    expect(mail.html).not.toContain('href=');
    expect(mail.text).toContain('already has a dashboard account');
    expect(mail.text).toContain('owner@shop.example');
    // The subject is the same either way: a forwarded subject line tells nothing.
    expect(mail.subject).toBe(composeTeamMail({ ...invitation, link: 'https://x.example/' }).subject);
  });

  it('tells a new device its time, client and browser, in the text and the HTML', () => {
    const mail = composeTeamMail({
      kind: 'new-device',
      merchantName: 'Shop',
      at: '2026-11-27T08:00:00.000Z',
      ip: '192.0.2.1',
      userAgent: 'Browser <script>',
      accountPage: 'https://pay.example/dashboard/account',
    });
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('2026-11-27T08:00:00.000Z');
      expect(part).toContain('192.0.2.1');
    }
    expect(mail.html).toContain('Browser &lt;script&gt;');
  });
});
