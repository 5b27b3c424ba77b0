import { describe, expect, it } from 'vitest';
import { HEADER_TEXT_MAX, headerText, mailbox } from './header-text';

describe('headerText', () => {
  it('turns every kind of line end into a space, so no header or body can be started', () => {
    for (const end of ['\r\n', '\n', '\r', '\u0085', '\u2028', '\u2029', '\u000b', '\u000c', '\u0000'])
      expect(headerText(`Shop${end}Bcc: victim@example.com`), JSON.stringify(end)).toBe('Shop Bcc: victim@example.com');
  });

  it('folds look-alikes to their plain twins and drops bidi and zero-width characters', () => {
    expect(headerText('Shop\uff1a Paid')).toBe('Shop: Paid');
    expect(headerText('Sh\u200bop \u202eyap\u202c')).toBe('Sh op yap');
    expect(headerText('  a \t\t b  ')).toBe('a b');
  });

  it('keeps other scripts as they are', () => {
    expect(headerText('متجر الأمل')).toBe('متجر الأمل');
    expect(headerText('お店')).toBe('お店');
  });

  it('cuts long text at a character, not a byte', () => {
    const cut = headerText('é'.repeat(500));
    expect([...cut]).toHaveLength(HEADER_TEXT_MAX);
    expect(cut.endsWith('…')).toBe(true);
  });
});

describe('mailbox', () => {
  it('answers a plain address lower-cased', () => {
    expect(mailbox('Payer@Example.COM')).toBe('payer@example.com');
  });

  it('refuses line ends, look-alikes, display names and several recipients', () => {
    for (const bad of [
      'payer@example.com\r\nBcc: x@example.com',
      'payer@example.com\u2028',
      'payer@example.com\u0085',
      'payer\uff20example.com',
      'Payer <payer@example.com>',
      'a@example.com, b@example.com',
      'payer@example.com\u0000',
      '',
    ])
      expect(mailbox(bad), JSON.stringify(bad)).toBeNull();
  });
});
